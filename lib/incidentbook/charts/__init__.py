"""Charts of an incident (altair), drawn small enough to embed, and their static SVG.

core: the theme, the time axis, downsampling, one signal's layers; story, failures,
hosts: the charts; svg: static output; entries: the chart contract (ChartEntry) and
CHARTS, the registry of what the workbook and the report page draw.
"""

from incidentbook.charts.core import (
    ANOMALY_COLOUR,
    ANOMALY_OPACITY,
    BASELINE_COLOUR,
    BRUSH,
    FONT,
    HEATMAP_COLUMNS,
    HOVER,
    LINE_COLOUR,
    MIN_SHADE,
    OTHER_COLOUR,
    PALETTE,
    ROW_BUDGET,
    SERIES_POINTS,
    SEVERITY_COLOURS,
    THEME,
    TIME_FORMAT,
    TIMELINE_KEYS,
    TOOLTIP_TIME,
    TOP_LOG_KEYS,
    UTC_SECONDS,
    WIDTH,
    AnyChart,
    Signals,
    downsample,
    register_theme,
)
from incidentbook.charts.entries import CHARTS, ChartEntry, Figure, figures
from incidentbook.charts.failures import failure_rate_chart, signature_timeline
from incidentbook.charts.hosts import host_heatmap, worst_signals
from incidentbook.charts.story import correlated_chart, story_chart, symptom_chart
from incidentbook.charts.svg import save_svg, to_svg

__all__ = [
    "ANOMALY_COLOUR",
    "ANOMALY_OPACITY",
    "BASELINE_COLOUR",
    "BRUSH",
    "CHARTS",
    "FONT",
    "HEATMAP_COLUMNS",
    "HOVER",
    "LINE_COLOUR",
    "MIN_SHADE",
    "OTHER_COLOUR",
    "PALETTE",
    "ROW_BUDGET",
    "SERIES_POINTS",
    "SEVERITY_COLOURS",
    "THEME",
    "TIMELINE_KEYS",
    "TIME_FORMAT",
    "TOOLTIP_TIME",
    "TOP_LOG_KEYS",
    "UTC_SECONDS",
    "WIDTH",
    "AnyChart",
    "ChartEntry",
    "Figure",
    "Signals",
    "correlated_chart",
    "downsample",
    "failure_rate_chart",
    "figures",
    "host_heatmap",
    "register_theme",
    "save_svg",
    "signature_timeline",
    "story_chart",
    "symptom_chart",
    "to_svg",
    "worst_signals",
]
