"""polars' allocator keeps freed pages for a while in our processes (incidentbook._allocator):
the option is set as the package is imported, before polars loads, and passed on to the
processes it starts; a user's own value, or polars loaded first, is left alone. (What it
saves is measured by `python -m bench.log_speed`, not here.)"""

from __future__ import annotations

import os
import subprocess
import sys

from incidentbook._allocator import KEEP_FREED, OPTION

PROBE = """
import os, subprocess, sys
{first}
print("polars loaded:", "polars" in sys.modules)
print("option:", os.environ.get({option!r}))
child = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get({option!r}))"],
                       capture_output=True, text=True, check=True)
print("child:", child.stdout.strip())
"""


def _probe(first: str, **env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if k != OPTION} | env
    code = PROBE.format(first=first, option=OPTION)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=clean
    )
    return done.stdout.splitlines()


def test_importing_the_package_sets_the_option_before_polars_loads_and_children_inherit_it():
    assert _probe("import incidentbook") == [
        "polars loaded: False",
        f"option: {KEEP_FREED}",
        f"child: {KEEP_FREED}",
    ]


def test_a_value_the_user_set_is_kept():
    assert _probe("import incidentbook", **{OPTION: "dirty_decay_ms:0"})[1:] == [
        "option: dirty_decay_ms:0",
        "child: dirty_decay_ms:0",
    ]


def test_polars_loaded_first_is_left_as_it_is():
    # jemalloc has read its options already: setting one now would say what is not so.
    loaded, option, child = _probe("import polars, incidentbook")
    assert loaded == "polars loaded: True"
    # polars writes its own options into the variable as it loads; ours are not added.
    assert option.startswith("option: dirty_decay_ms:") and KEEP_FREED not in option
    assert child == option.replace("option:", "child:")
