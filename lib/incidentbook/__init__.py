"""incidentbook: postmortem workbooks for GPU training clusters.

The flow, one module a stage: taxonomy and record define what a case is, store reads
and writes records, render and library turn them into pages, cli is a thin layer on top.
"""

from incidentbook import _compat
from incidentbook.record.model import SCHEMA_VERSION, CaseRecord
from incidentbook.record.store import load_record, save_record
from incidentbook.record.taxonomy import Taxonomy, load_taxonomy

__all__ = [
    "SCHEMA_VERSION",
    "CaseRecord",
    "Taxonomy",
    "load_record",
    "load_taxonomy",
    "save_record",
]
__version__ = "0.1.0"

_compat.install()
