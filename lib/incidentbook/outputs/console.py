"""Terminal output of an analysis: what `incidentbook analyze` prints without --json."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table


def print_analysis(inv, console: Console | None = None) -> None:
    # Pipes and CI logs get 80 columns by default, too narrow for the findings table.
    console = console or Console(width=None if Console().is_terminal else 120)
    analysis = inv.analysis
    console.print(
        f"[bold]{inv.spec.title}[/bold]  {analysis.window.start:%Y-%m-%d %H:%M} to "
        f"{analysis.window.end:%Y-%m-%d %H:%M} UTC, baseline until {analysis.baseline.end:%H:%M}"
    )
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
    if analysis.correlations:
        table = Table(
            title=f"What coincided with the {analysis.primary} anomalies, best first",
            title_justify="left",
        )
        for column in ("signal", "score", "lag", "why"):
            table.add_column(column, justify="right" if column in {"score", "lag"} else "left")
        for c in analysis.correlations:
            table.add_row(c.signal, f"{c.score:.2f}", f"{c.lag_seconds:+.0f} s", c.explanation)
        console.print(table)
    for note in inv.notes:
        console.print(f"[yellow]note:[/yellow] {note}")
