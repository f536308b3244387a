"""The goals table at the end of `make bench` (bench/goals.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import REPO

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import goals


def test_report_goal_appends_and_the_latest_figure_per_goal_wins(tmp_path, monkeypatch):
    path = tmp_path / "deep" / "goals.jsonl"
    monkeypatch.setenv("INCIDENTBOOK_BENCH_GOALS", str(path))
    goals.report_goal("1 run", "<= 4 s", "5.1 s", False, "first try")
    goals.report_goal("3 24h vs pandas", ">= 5x", "6.2x", True)
    goals.report_goal("1 run", "<= 4 s", "3.8 s", True, "second try")

    lines = [json.loads(raw) for raw in path.read_text().splitlines()]
    assert [entry["goal"] for entry in lines] == ["1 run", "3 24h vs pandas", "1 run"]
    latest = goals.latest()
    assert [(e["goal"], e["figure"], e["met"]) for e in latest] == [
        ("1 run", "3.8 s", True),
        ("3 24h vs pandas", "6.2x", True),
    ]


def test_render_lines_up_the_columns_and_says_met_or_not():
    table = goals.render(
        [
            {"goal": "1 run", "target": "<= 4 s", "figure": "5.1 s", "met": False, "note": "n"},
            {"goal": "4 regen", "target": "<= 1 s", "figure": "0.4 s", "met": True, "note": ""},
        ]
    ).splitlines()
    assert table[0].split() == ["goal", "target", "measured", "met", "note"]
    assert set(table[1].replace(" ", "")) == {"-"}
    assert table[2].split()[-2:] == ["NO", "n"]
    assert table[3].split()[-1] == "yes"
    # every column starts where its heading does
    column = table[0].index("measured")
    assert table[2][column:].startswith("5.1 s") and table[3][column:].startswith("0.4 s")


def test_render_without_figures_says_how_to_get_them():
    assert "make bench" in goals.render([])


def test_the_command_prints_the_table_and_reset_empties_it(tmp_path):
    path = tmp_path / "goals.jsonl"
    env = os.environ | {"INCIDENTBOOK_BENCH_GOALS": str(path)}
    path.write_text(
        json.dumps({"goal": "5 table", "target": "one", "figure": "1", "met": True, "note": ""})
        + "\n"
    )

    def command(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "bench.goals", *args],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    assert "5 table" in command()
    assert command("--reset") == ""
    assert not path.exists()
    assert "no goal was measured" in command()
