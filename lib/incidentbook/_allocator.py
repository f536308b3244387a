"""How long polars' allocator keeps freed pages before it gives them back to the system.

polars allocates with its own jemalloc, which it configures as it loads to give freed
pages back within half a second (`dirty_decay_ms:500`, so that a process's memory
shrinks after a big query: pola-rs/polars issue 18088); `_RJEM_MALLOC_CONF` is added
after its own options, the documented way to change them. The columnar stages here (a
log stage, a metrics load) allocate and free buffers of tens to hundreds of megabytes
one after another, so each buffer's pages were faulted in again a moment after they
were given back: on the full-scale Imbue logs a fifth of the log stage's cycles were
the kernel's page-fault and purge paths (perf). Keeping freed pages for ten seconds,
jemalloc's own default, lets the next stage reuse them (the log stage about 10% faster,
bench.log_speed); an idle process still gives them back ten seconds later.

jemalloc reads its options once, as polars is loaded; so this is set when the package
is imported, before polars, and inherited by the processes the package starts (kernels,
the chart converter). A value the user set, or polars already loaded, is left alone.
"""

from __future__ import annotations

import os
import sys

OPTION = "_RJEM_MALLOC_CONF"  # jemalloc's MALLOC_CONF, as polars' prefixed build reads it
KEEP_FREED = "dirty_decay_ms:10000"


def polars_loaded() -> bool:
    return any(name == "polars" or name.startswith("_polars_runtime") for name in sys.modules)


def keep_freed_pages() -> bool:
    """Ask polars' allocator to keep freed pages for ten seconds; True when it was set
    here (nothing set by the user, polars not loaded yet)."""
    if OPTION in os.environ or polars_loaded():
        return False
    os.environ[OPTION] = KEEP_FREED
    return True


keep_freed_pages()
