"""The log-format contract: a format declares how it detects itself, what its times
mean and its priority in ties, and is one registration (in code or through an installed
package's entry point) away from every reader."""

from __future__ import annotations

import textwrap

import polars as pl
import pytest

from incidentbook.logs.formats import LOG_FORMATS, LogFormat
from incidentbook.logs.formats.expressions import Rule, local_time, text_format
from incidentbook.logs.read import read_log_file
from incidentbook.logs.severity import level_of_word
from incidentbook.window import TimeWindow

WINDOW = TimeWindow(start="2025-03-14T00:00:00Z", end="2025-03-15T00:00:00Z")
# A made-up application log shape: `14/03/2025-09:15:02 | WARN | message`.
LINES = "14/03/2025-09:15:02 | WARN | disk slow\n14/03/2025-09:16:40 | ERROR | disk gone\n"
PATTERN = r"(?P<ts>\d\d/\d\d/\d{4}-\d\d:\d\d:\d\d) \| (?P<level>[A-Z]+) \| "


def app_format(name: str, **fields) -> LogFormat:
    rule = Rule(
        name,
        PATTERN,
        lambda g, ctx: {
            "ts": local_time(g("ts"), "%d/%m/%Y-%H:%M:%S", ctx),
            "severity": level_of_word(g("level")),
        },
    )
    return text_format(name, [rule], **fields)


@pytest.fixture
def registered():
    added: list[str] = []

    def add(fmt: LogFormat) -> LogFormat:
        LOG_FORMATS.register(fmt.name, fmt)
        added.append(fmt.name)
        return fmt

    yield add
    for name in added:
        LOG_FORMATS.unregister(name)


def test_a_registered_format_is_detected_and_declares_its_time(registered, tmp_path):
    registered(app_format("app-log", local_time=True))
    path = tmp_path / "app.log"
    path.write_text(LINES)
    frame, receipt = read_log_file(path, WINDOW, assume_tz="Europe/Paris")
    assert receipt.files == {"app.log": "app-log"}
    # Local time, read in the zone given: 09:15 in Paris is 08:15 UTC in March.
    assert frame.get_column("ts").dt.strftime("%H:%M").to_list() == ["08:15", "08:16"]
    assert frame.get_column("severity").to_list() == ["warning", "err"]
    assert receipt.local_time_formats == {"app-log"}
    assert any("app-log" in n and "Europe/Paris" in n for n in receipt.notes())


def test_ties_go_to_priority_then_name_not_registration_order(registered, tmp_path):
    path = tmp_path / "app.log"
    path.write_text(LINES)
    registered(app_format("zz-app"))
    registered(app_format("aa-app"))  # registered last, first by name
    assert read_log_file(path, WINDOW)[1].files["app.log"] == "aa-app"
    LOG_FORMATS.register("zz-app", app_format("zz-app", priority=5), replace=True)
    assert read_log_file(path, WINDOW)[1].files["app.log"] == "zz-app"


def test_an_installed_package_adds_a_format(tmp_path, monkeypatch):
    (tmp_path / "incidentbook_applog.py").write_text(
        textwrap.dedent(
            f"""
            from incidentbook.logs.formats.expressions import Rule, local_time, text_format
            from incidentbook.logs.severity import level_of_word

            APP = text_format(
                "app-log",
                [Rule("app-log", {PATTERN!r}, lambda g, ctx: {{
                    "ts": local_time(g("ts"), "%d/%m/%Y-%H:%M:%S", ctx),
                    "severity": level_of_word(g("level")),
                }})],
                local_time=True,
            )
            """
        )
    )
    info = tmp_path / "incidentbook_applog-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: incidentbook-applog\nVersion: 1.0\n"
    )
    (info / "entry_points.txt").write_text(
        "[incidentbook.log_formats]\napp-log = incidentbook_applog:APP\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    LOG_FORMATS.refresh()
    try:
        path = tmp_path / "app.log"
        path.write_text(LINES)
        frame, receipt = read_log_file(path, WINDOW)
        assert receipt.files == {"app.log": "app-log"}
        assert frame.height == 2 and frame.get_column("source").unique().to_list() == ["app-log"]
    finally:
        monkeypatch.undo()
        LOG_FORMATS.refresh()
        assert "app-log" not in LOG_FORMATS


def test_a_composite_format_keeps_each_lines_time_semantics(tmp_path):
    # nanotron (local time) and NCCL (no time of its own) lines in one trainer file.
    path = tmp_path / "train.log"
    path.write_text(
        "03/14/2025 09:00:00 [INFO|DP=0|PP=0|TP=0|ip-26-0-161-1]: step 1\n"
        "ip-26-0-161-1:101:202 [0] NCCL INFO Channel 00/24\n"
        "03/14/2025 09:00:05 [INFO|DP=0|PP=0|TP=0|ip-26-0-161-1]: step 2\n"
        "ip-26-0-161-1:101:202 [0] NCCL INFO Channel 01/24\n"
    )
    frame, receipt = read_log_file(path, WINDOW)
    assert receipt.files == {"train.log": "trainer"}
    assert set(frame.get_column("source")) == {"nanotron", "nccl"}
    assert receipt.local_time_formats == {"nanotron"}
    assert frame.filter(pl.col("source") == "nccl").get_column("ts").dt.second().to_list() == [
        0,
        5,
    ]


def test_the_first_rule_that_matches_gives_every_column(registered, tmp_path):
    """A line that two rules match is the first rule's alone: a column the first does not
    give is null, not the second's (before, the second's level was taken)."""
    plain = Rule(
        "app-plain",
        PATTERN.replace(r"(?P<level>[A-Z]+)", "ERROR"),
        lambda g, ctx: {"ts": local_time(g("ts"), "%d/%m/%Y-%H:%M:%S", ctx)},
    )
    levelled = Rule(
        "app-levelled",
        PATTERN,
        lambda g, ctx: {
            "ts": local_time(g("ts"), "%d/%m/%Y-%H:%M:%S", ctx),
            "severity": level_of_word(g("level")),
        },
    )
    registered(text_format("app-two-rules", [plain, levelled]))
    path = tmp_path / "app.log"
    path.write_text(LINES)
    frame, _ = read_log_file(path, WINDOW, format="app-two-rules")
    rows = frame.sort("line").select("source", "severity").rows()
    assert rows == [("app-levelled", "warning"), ("app-plain", None)]
