"""Static output: a chart as a self-contained, deterministic SVG, drawn with the theme."""

from __future__ import annotations

import contextlib
import itertools
import json
import queue
import re
import subprocess
import sys
import threading
from concurrent.futures import Future
from pathlib import Path

import altair as alt
import vl_convert as vlc

from incidentbook.charts.core import (
    HOVER,
    THEME,
    ZOOM_HINT,
    AnyChart,
    _register,
)

# --- static output -------------------------------------------------------------------------


def _vl_version() -> str | None:
    major_minor = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    return major_minor if major_minor in vlc.get_vegalite_versions() else None


def _without_hover(spec: object) -> object:
    """The spec without what only a live chart has: the invisible tooltip marks (a
    thousand invisible circles would triple the SVG's size) and the hint to drag across
    it (an image cannot be zoomed)."""
    if isinstance(spec, list):
        return [_without_hover(item) for item in spec]
    if not isinstance(spec, dict):
        return spec
    out = {}
    for key, value in spec.items():
        if key == "subtitle" and isinstance(value, str):
            value = value.replace(ZOOM_HINT, "")
        if key == "layer" and isinstance(value, list):
            value = [
                layer
                for layer in value
                if not (isinstance(layer.get("mark"), dict) and layer["mark"].get("style") == HOVER)
            ]
        out[key] = _without_hover(value)
    return out


_SVG_ID = re.compile(r'(id="|url\(#|href="#)([A-Za-z_-]+?)_?(\d+)(?=[")])')


def _stable_ids(svg: str) -> str:
    """Vega numbers clip paths and gradients with a counter that lives as long as the
    converter (clip1..4, then clip5..8 for the same chart): renumber them in order of
    appearance, so the same chart gives the same SVG."""
    seen: dict[tuple[str, str], int] = {}

    def renumber(match: re.Match) -> str:
        lead, prefix, number = match.groups()
        key = (prefix, number)
        if key not in seen:
            seen[key] = sum(1 for p, _ in seen if p == prefix)
        return f"{lead}{prefix}{seen[key]}"

    return _SVG_ID.sub(renumber, svg)


_WARMING: list[threading.Thread] = []


def _warm_here() -> None:
    """Start this process's converter runtime in a background thread (its start, half a
    second, gives up Python's lock; the conversions themselves do not)."""
    if _WARMING:
        return

    def start() -> None:
        # A fault here is met again, and reported, by to_svg.
        with contextlib.suppress(Exception):
            vlc.vegalite_to_svg({"mark": "point"}, vl_version=_vl_version())

    thread = threading.Thread(target=start, name="incidentbook-svg-warm-up", daemon=True)
    _WARMING.append(thread)
    thread.start()


class _Converter:
    """The converter process (charts.svg_process) and the answers it owes: requests are
    written by a thread of their own, so that a chart cell never waits for the process to
    take a large spec while it draws the one before."""

    def __init__(self) -> None:
        script = Path(__file__).with_name("svg_process.py")
        self.proc = subprocess.Popen(
            [sys.executable, str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            start_new_session=True,  # out of reach of the kernel's interrupts: svg_process
        )
        self.lock = threading.Lock()
        self.owed: dict[int, Future[str]] = {}
        self.numbers = itertools.count()
        self.outbox: queue.SimpleQueue[str] = queue.SimpleQueue()
        for target, name in ((self._send, "requests"), (self._receive, "answers")):
            threading.Thread(target=target, name=f"incidentbook-svg-{name}", daemon=True).start()

    def submit(self, spec: object, vl_version: str | None) -> Future[str]:
        future: Future[str] = Future()
        with self.lock:
            number = next(self.numbers)
            self.owed[number] = future
        self.outbox.put(json.dumps({"id": number, "spec": spec, "vl_version": vl_version}))
        return future

    def _send(self) -> None:
        assert self.proc.stdin is not None
        with contextlib.suppress(OSError):  # the process is gone: _receive fails what is owed
            while True:
                self.proc.stdin.write(self.outbox.get() + "\n")
                self.proc.stdin.flush()

    def _receive(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            answer = json.loads(line)
            with self.lock:
                future = self.owed.pop(answer["id"], None)
            if future is not None and "svg" in answer:
                future.set_result(answer["svg"])
            elif future is not None:
                future.set_exception(RuntimeError(answer["error"]))
        with self.lock:
            owed, self.owed = self.owed, {}
        for future in owed.values():
            future.set_exception(RuntimeError("the SVG converter process ended"))


_CONVERTER: list[_Converter] = []
_AHEAD: dict[int, tuple[AnyChart, Future[str]]] = {}
AHEAD_KEPT = 64  # conversions kept for `to_svg` (a session drawing more keeps the latest)


def warm_up() -> None:
    """Start the converter process, once per process, so that `convert_ahead` can draw
    charts there while this process goes on; where it cannot start, warm this process's
    converter instead."""
    if _CONVERTER or _WARMING:
        return
    try:
        _CONVERTER.append(_Converter())
    except OSError:
        _warm_here()


def convert_ahead(chart: AnyChart) -> None:
    """Have the converter process draw `chart` now; `to_svg(chart)` takes the answer.
    Without the process (warm_up not called, or it could not start), nothing happens."""
    if not _CONVERTER or _CONVERTER[0].proc.poll() is not None:
        return
    _AHEAD[id(chart)] = (chart, _CONVERTER[0].submit(_static_spec(chart), _vl_version()))
    while len(_AHEAD) > AHEAD_KEPT:
        _AHEAD.pop(next(iter(_AHEAD)))


def _static_spec(chart: AnyChart) -> object:
    _register()
    with alt.theme.enable(THEME):
        # Not validated again: the workbook shows each chart (validated there), and the
        # charts' tests validate every builder; a third of to_dict's time on the story.
        spec = chart.to_dict(validate=False)
    return _without_hover(spec)


def to_svg(chart: AnyChart) -> str:
    """The chart as a self-contained static SVG, drawn with the incidentbook theme.

    Deterministic: the same chart gives the same text, whether the converter process drew
    it (convert_ahead) or this one."""
    ahead = _AHEAD.get(id(chart))
    if ahead is not None and ahead[0] is chart:
        try:
            return _stable_ids(ahead[1].result())
        except Exception:  # drawn again here, where a fault is reported as it is
            _AHEAD.pop(id(chart), None)
    spec = _static_spec(chart)
    for thread in _WARMING:
        thread.join()
    return _stable_ids(vlc.vegalite_to_svg(spec, vl_version=_vl_version()))


def save_svg(chart: AnyChart, path: str | Path) -> Path:
    """Write `to_svg(chart)` to `path` (parents created) and return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(to_svg(chart), encoding="utf-8")
    return path
