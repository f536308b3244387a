"""What `incidentbook analyze` prints: a table for a terminal, or JSON (--json)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from incidentbook.investigation import Investigation


def print_analysis(inv: Investigation, console: Console | None = None) -> None:
    # Pipes and CI logs get 80 columns by default, too narrow for the findings table.
    console = console or Console(width=None if Console().is_terminal else 120)
    analysis = inv.analysis
    console.print(
        f"[bold]{inv.spec.title}[/bold]  {analysis.window.start:%Y-%m-%d %H:%M} to "
        f"{analysis.window.end:%Y-%m-%d %H:%M} UTC, baseline until {analysis.baseline.end:%H:%M}"
    )
    verdict = inv.verdict
    if verdict is not None:
        console.print(f"[bold]Verdict[/bold] ({verdict.confidence:.2f}): {verdict.summary}")
        for alt in verdict.alternatives:
            console.print(f"  or {alt.summary} ({alt.score:.2f}); to tell apart: {alt.tell_apart}")
    findings = Table(title=f"Findings ({len(inv.findings)})", title_justify="left")
    for column in ("kind", "signal", "start", "end", "change", "hosts"):
        findings.add_column(column, justify="right" if column in {"change", "hosts"} else "left")
    for f in inv.findings:
        findings.add_row(
            f.kind,
            f.signal,
            f"{f.start:%H:%M:%S}",
            f"{f.end:%H:%M:%S}",
            f"{f.magnitude:+.0%}",
            str(len(f.hosts)) if f.hosts else "",
        )
    console.print(findings)
    if inv.correlations:
        table = Table(
            title=f"What coincided with the {analysis.primary} anomalies, best first",
            title_justify="left",
        )
        for column in ("signal", "score", "lag", "why"):
            table.add_column(column, justify="right" if column in {"score", "lag"} else "left")
        for c in inv.correlations:
            table.add_row(c.signal, f"{c.score:.2f}", f"{c.lag_seconds:+.0f} s", c.explanation)
        console.print(table)
    for note in inv.notes:
        console.print(f"[yellow]note:[/yellow] {note}")


def analysis_json(inv: Investigation) -> dict:
    """Findings, correlations, notes and what the logs gave, as JSON-ready values."""
    analysis = inv.analysis
    return {
        "incident": inv.spec.id,
        "window": analysis.window.model_dump(mode="json"),
        "baseline": analysis.baseline.model_dump(mode="json"),
        "primary_signal": analysis.primary,
        "verdict": inv.verdict.model_dump(mode="json") if inv.verdict else None,
        "findings": [f.model_dump(mode="json") for f in inv.findings],
        "correlations": [c.model_dump(mode="json") for c in inv.correlations],
        "notes": inv.notes,
        "logs": _logs_json(inv),
    }


def _jsonable(value: object) -> str:
    """Datetimes in frames' rows as RFC 3339; anything else as its text."""
    if hasattr(value, "isoformat"):
        return value.isoformat().replace("+00:00", "Z")
    return str(value)


def _logs_json(inv: Investigation) -> dict | None:
    if inv.logs is None:
        return None
    receipt = inv.log_receipt
    return {
        "lines_read": receipt.lines_read,
        "in_window": receipt.in_window,
        "unreadable": receipt.unreadable,
        "signatures": inv.logs.signatures.drop("example").to_dicts(),
        "new_templates": inv.logs.templates.templates.filter("new").head(20).to_dicts(),
    }


def analysis_json_text(inv: Investigation) -> str:
    """`incidentbook analyze --json`'s output."""
    return json.dumps(analysis_json(inv), indent=2, ensure_ascii=False, default=_jsonable)


def print_live_check(result, base_url: str | None = None, console: Console | None = None) -> None:
    """What `incidentbook check` prints: each past incident whose precursors are present,
    its hosts and since when, and the case to read."""
    from incidentbook.outputs.rules import case_url

    console = console or Console(width=None if Console().is_terminal else 140)
    when = (
        f"at {result.at:%Y-%m-%d %H:%M:%S} UTC"
        if result.at
        else f"from {result.window.start:%Y-%m-%d %H:%M} to {result.window.end:%Y-%m-%d %H:%M} UTC"
    )
    checked = len(result.firings)
    fired = result.fired
    console.print(f"{checked} checks of {len(result.records)} cases on {result.source}, {when}")
    if not fired:
        console.print("No past incident's precursors are present.")
    by_case: dict[str, list] = {}
    for f in fired:
        by_case.setdefault(f.rule.case, []).append(f)
    for case, firings in by_case.items():
        record = result.records[case]
        console.print(f"\n[bold]{record.title}[/bold]  read: {case_url(case, base_url)}")
        for f in firings:
            eps = f.episodes
            since = eps.get_column("pending").min()
            table = Table(
                title=(
                    f"{f.rule.check.severity}: {f.rule.id} ({f.rule.describe()}) on "
                    f"{eps.get_column('node').n_unique()} hosts, since {since:%Y-%m-%d %H:%M} UTC"
                ),
                title_justify="left",
            )
            for column in ("host", "since", "fired", "value"):
                table.add_column(column, justify="right" if column == "value" else "left")
            for row in eps.head(20).iter_rows(named=True):
                table.add_row(
                    row["node"],
                    f"{row['pending']:%H:%M:%S}",
                    f"{row['fired']:%H:%M:%S}",
                    f"{row['value']:.4g}",
                )
            if eps.height > 20:
                table.add_row(f"... {eps.height - 20} more", "", "", "")
            console.print(table)
            console.print(f"  {f.rule.check.message}")
    for note in result.notes:
        console.print(f"note: {note}")
