"""The two seed cases against the library page: every fact carried over, no sentence copied."""

import re

import pytest

from conftest import LIBRARY
from incidentbook.record.store import load_record

CASES = {1: "smollm3-storage-throughput-drops", 2: "imbue-h100-cluster-bringup"}


def page_cases(shared) -> dict[int, str]:
    text = (shared / "reference" / "incident-library.txt").read_text()
    start_1 = text.index("  1. Symptoms")
    start_2 = text.index("  2. Symptoms")
    end = text.index("Check your cluster for this")
    return {1: text[start_1:start_2], 2: text[start_2:end]}


def section(case_text: str, name: str, following: str) -> str:
    start = case_text.index(f"\n    {name}\n")
    stop = case_text.index(f"\n    {following}\n", start) if following else len(case_text)
    return case_text[start:stop]


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


@pytest.mark.parametrize("number", [1, 2])
def test_bullet_counts_carry_over(shared, number):
    case_text = page_cases(shared)[number]
    record = load_record(LIBRARY / f"{CASES[number]}.yaml")
    has_actions = "\n    Action items\n" in case_text
    remediation = section(case_text, "Remediation", "Action items" if has_actions else "Lessons")
    assert len(record.remediation) == remediation.count("•")
    actions = section(case_text, "Action items", "Lessons").count("•") if has_actions else 0
    assert len(record.action_items) == actions


@pytest.mark.parametrize("number", [1, 2])
def test_every_number_on_the_page_is_in_the_record(shared, number):
    record_text = (LIBRARY / f"{CASES[number]}.yaml").read_text()
    page_numbers = set(re.findall(r"\d+(?:\.\d+)?", page_cases(shared)[number].replace(",", "")))
    page_numbers -= {str(number)}  # the list item's own number
    record_numbers = set(re.findall(r"\d+(?:\.\d+)?", record_text.replace(",", "")))
    assert page_numbers <= record_numbers, sorted(page_numbers - record_numbers)


@pytest.mark.parametrize("number", [1, 2])
def test_no_sentence_is_copied_from_the_page(shared, number):
    page = words(page_cases(shared)[number])
    runs = {tuple(page[i : i + 8]) for i in range(len(page) - 7)}
    mine = words((LIBRARY / f"{CASES[number]}.yaml").read_text())
    copied = [
        " ".join(mine[i : i + 8]) for i in range(len(mine) - 7) if tuple(mine[i : i + 8]) in runs
    ]
    assert not copied


def test_the_library_site_shows_each_cases_checks(tmp_path):
    from incidentbook.outputs.site import build_site

    build_site(LIBRARY, tmp_path)
    page = (tmp_path / "cases" / "imbue-h100-cluster-bringup.html").read_text()
    section = page[page.index('<section id="checks">') :]
    section = section[: section.index("</section>")]
    for check_id in (
        "host-not-up",
        "pcie-link-downtrained",
        "infiniband-link-flaps",
        "fans-pinned",
        "cpu-clock-capped",
        "nvme-hang",
    ):
        assert f'id="check-{check_id}"' in section
    assert "pcie_link_width &lt; 16 for 5m" in section
    assert "log signature nvme-io-timeout at least 1x within 10m" in section
    assert "draft-badge" not in section  # the library's checks are a person's
    smol = (tmp_path / "cases" / "smollm3-storage-throughput-drops.html").read_text()
    assert "fs_used_ratio &gt; 0.9 for 10m" in smol
