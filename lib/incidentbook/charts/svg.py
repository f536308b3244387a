"""Static output: a chart as a self-contained, deterministic SVG, drawn with the theme."""

from __future__ import annotations

import contextlib
import re
import threading
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


def warm_up() -> None:
    """Start the converter's JavaScript runtime in the background, once per process.

    The first conversion of a process pays for starting it (half a second, three times a
    whole chart's conversion). Started here it runs while the data loads: the start
    gives up Python's lock, the conversions themselves do not, so only the start is
    worth moving. `to_svg` waits for it; a failure is left for `to_svg` to meet."""
    if _WARMING:
        return

    def start() -> None:
        # A fault here is met again, and reported, by to_svg.
        with contextlib.suppress(Exception):
            vlc.vegalite_to_svg({"mark": "point"}, vl_version=_vl_version())

    thread = threading.Thread(target=start, name="incidentbook-svg-warm-up", daemon=True)
    _WARMING.append(thread)
    thread.start()


def to_svg(chart: AnyChart) -> str:
    """The chart as a self-contained static SVG, drawn with the incidentbook theme.

    Deterministic: the same chart gives the same text."""
    _register()
    with alt.theme.enable(THEME):
        spec = chart.to_dict()
    for thread in _WARMING:
        thread.join()
    return _stable_ids(vlc.vegalite_to_svg(_without_hover(spec), vl_version=_vl_version()))


def save_svg(chart: AnyChart, path: str | Path) -> Path:
    """Write `to_svg(chart)` to `path` (parents created) and return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(to_svg(chart), encoding="utf-8")
    return path
