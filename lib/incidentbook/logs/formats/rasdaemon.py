"""rasdaemon's report of the hardware errors it recorded, as `ras-mc-ctl --errors` prints
it (and `--summary`, its counts per DIMM, device or CPU, which has no times): machine
checks, memory-controller (EDAC) errors, PCIe AER and disk errors per section, each
record numbered and timed with its offset.

    MCE events:
    1 2024-12-19 03:52:38 +0000 error: Corrected error, no action required., CPU 2, ...

Section lines (`MCE events:`, `No PCIe AER errors.`) are skipped: they hold no event. A
record's message is what follows its time. A file with no time at all (the summary) is
dated by its modification time.
"""

from __future__ import annotations

import polars as pl

from incidentbook.logs.formats import SKIP
from incidentbook.logs.formats.expressions import Rule, rfc3339, text_format

# (the kinds as rasdaemon's versions name them: `MCE records summary:`, `Disk errors
# summary:`, `No devlink errors.`, CXL's several)
_KINDS = (
    r"(?:Memory(?: controller| failure)?|PCIe AER|MCE|ARM processor|Extlog|devlink|disk(?: I/O)?"
    r"|CXL(?: [\w-]+)*|uncorrectable|corrected)"
)
_SECTION = rf"(?i:No {_KINDS} errors\.|{_KINDS} (?:events|records|errors)(?: summary)?:)"

_RECORD = Rule(
    "rasdaemon",
    r"\s*\d+ (?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) (?P<offset>[+-]\d\d:?\d\d) ",
    lambda g, ctx: {"ts": rfc3339(g("ts") + g("offset"), ctx)},
)
_SECTIONS = Rule(
    "rasdaemon",
    rf"\s*{_SECTION}\s*$",
    lambda g, ctx: {"status": pl.lit(SKIP)},
)

RASDAEMON = text_format(
    "rasdaemon",
    [_SECTIONS, _RECORD],
    header=rf"^{_SECTION}\s*$",
    file_time=True,
)
