"""NVIDIA Fabric Manager's log (nvidia-fabricmanager): bracketed local times and levels."""

from __future__ import annotations

from incidentbook.logs.formats.expressions import Rule, local_time, text_format
from incidentbook.logs.severity import level_of_word

# nvidia-fabricmanager: `[Feb 25 2025 13:59:45] [INFO] [tid 1803] msg`, payload lines follow.
FABRICMANAGER = text_format(
    "fabricmanager",
    [
        Rule(
            "fabricmanager",
            r"\[(?P<ts>[A-Z][a-z]{2} [ \d]\d \d{4} \d\d:\d\d:\d\d)\] \[(?P<level>[A-Z]+)\] "
            r"(?:\[tid (?P<tid>\d+)\] ?)?",
            lambda g, ctx: {
                "ts": local_time(
                    g("ts").str.replace("  ", " ", literal=True), "%b %d %Y %H:%M:%S", ctx
                ),
                "severity": level_of_word(g("level")),
            },
        )
    ],
    local_time=True,
)
