"""What importing incidentbook costs: rfc3987_syntax's parser is built on first use only
(incidentbook._compat._DeferredIRI), and jsonschema's `iri` check still works."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("rfc3987_syntax") is None, reason="rfc3987_syntax not installed"
)

PROBE = """
import sys
import incidentbook, altair, jsonschema
print("built at import:", "rfc3987_syntax.syntax_helpers" in sys.modules)
from jsonschema import Draft7Validator
check = Draft7Validator({"format": "iri"}, format_checker=Draft7Validator.FORMAT_CHECKER)
print("good iri:", check.is_valid("https://example.org/r%C3%A9sum%C3%A9"))
print("bad iri:", check.is_valid("not an iri ::"))
print("built after use:", "rfc3987_syntax.syntax_helpers" in sys.modules)
import rfc3987_syntax
print("real function:", rfc3987_syntax.is_valid_syntax.__module__)
"""


def test_the_iri_parser_is_built_on_first_use_and_checks_as_before():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [
        "built at import: False",
        "good iri: True",
        "bad iri: False",
        "built after use: True",
        "real function: rfc3987_syntax.syntax_helpers",
    ]
