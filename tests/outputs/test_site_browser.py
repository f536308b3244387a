"""The built library site, opened from files in Debian's chromium, as a reader would."""

from pathlib import Path

import pytest

from conftest import CHROMIUM_ARGS, LIBRARY, REPO
from incidentbook.outputs.render import SECTIONS
from incidentbook.outputs.site import build_site
from incidentbook.record.store import load_records

pytestmark = pytest.mark.browser
ARTIFACTS = REPO / "test-artifacts"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    return build_site(LIBRARY, out).parent


@pytest.fixture(scope="module")
def page(chromium):
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        # The pages must open offline: any request that is not a file is a failure.
        requests: list[str] = []
        context.on(
            "request", lambda r: None if r.url.startswith("file://") else requests.append(r.url)
        )
        page = context.new_page()
        page.outside_requests = requests
        yield page
        browser.close()


def test_every_case_page_shows_its_sections(site, page):
    for record in load_records(LIBRARY):
        page.goto((site / "cases" / f"{record.id}.html").as_uri())
        assert page.locator("h1").inner_text() == record.title
        for key, heading in SECTIONS:
            section = page.locator(f"section#{key}")
            assert section.is_visible(), (record.id, key)
            assert section.locator("h2").inner_text() == heading
        assert page.locator("#remediation li").count() == len(record.remediation)
        assert page.locator("#root_cause .tag").count() == len(record.root_causes)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "library-case.png"), full_page=True)
    assert page.outside_requests == []


def test_index_counts_and_facet_links_lead_to_the_cases(site, page):
    page.goto((site / "index.html").as_uri())
    assert page.locator(".case-list li").count() == 2
    # nvme-drive (Imbue) and shared-filesystem (SmolLM3) both roll up to the storage component
    component = page.locator("#summary-component li", has_text="Storage")
    assert component.locator(".count").inner_text() == "2"
    root_cause = page.locator("#summary-root_cause li", has_text="Storage")
    assert root_cause.locator(".count").inner_text() == "1"
    root_cause.locator("a").click()
    assert page.url.endswith("/by/root_cause/storage.html")
    assert page.locator("h1").inner_text() == "Storage"
    page.locator(".case-list a.title").first.click()
    assert page.url.endswith("/cases/smollm3-storage-throughput-drops.html")
    page.locator("#component a.tag", has_text="Dataloader").click()
    assert page.url.endswith("/by/component/dataloader.html")
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto((site / "index.html").as_uri())
    page.screenshot(path=str(ARTIFACTS / "library-index.png"), full_page=True)


def test_facet_page_lists_values_as_a_tree(site, page):
    page.goto((site / "by" / "root_cause.html").as_uri())
    rows = page.locator("tbody tr")
    assert rows.count() > 5
    ids = [rows.nth(i).get_attribute("id") for i in range(rows.count())]
    assert ids.index("storage") < ids.index("shared-filesystem-capacity")
