"""What `incidentbook.synth` held before the scenarios had modules of their own: the old
path is an alias of this module for one release (see incidentbook._compat)."""

from incidentbook.scenarios.imbue_bringup import *  # noqa: F403
from incidentbook.scenarios.imbue_bringup import _imbue  # noqa: F401
from incidentbook.scenarios.simulator import *  # noqa: F403
from incidentbook.scenarios.simulator import (  # noqa: F401
    _check_target,
    _counter,
    _coverage,
    _ema,
    _inside,
    _place,
    _r,
    _spec,
    _write,
)
from incidentbook.scenarios.smollm3_storage import *  # noqa: F403
from incidentbook.scenarios.smollm3_storage import _smollm3  # noqa: F401
