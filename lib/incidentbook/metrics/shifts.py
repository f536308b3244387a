"""Changes of level in one series: where they are, and which of them are real.

Segment, then prune:

* Spikes are the spike detector's business, not the segmentation's: each sample is
  clipped to 3.5 noise scales around the centred rolling median of its neighbourhood, so
  one outlier cannot open a segment of its own or drag a segment's mean.
* PELT on the l2 cost (ruptures' KernelCPD with the linear kernel, in C) with a penalty of
  3 log(n) long-run variances per change: the modified BIC of a change in mean, with the
  noise variance replaced by the long-run variance sigma^2 (1 + rho) / (1 - rho) of AR(1)
  noise, since autocorrelated noise wanders in runs that look like small steps.
* Every boundary is then tested: the difference of the two adjacent segments' means
  against its standard error, each mean's variance inflated by the long-run factor for
  its length. The least significant boundary below the cut-off (3.5) is removed and its
  segments merged, until every boundary left is significant. A change must be large
  against the noise of a segment's mean, not against the noise of one sample.

The noise scale and the autocorrelation come from the clipped series' first differences,
which a change of level touches at one sample only, so level changes do not inflate them;
where the noise wanders more than AR(1) allows, a batch-means estimate takes over.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import ruptures

from incidentbook.metrics.departures import MODIFIED_Z, long_run_factor, robust_scale


@dataclass(frozen=True)
class Segments:
    """A series cut into levels: boundaries[i] is the first index of segment i + 1."""

    boundaries: list[int]
    means: list[float]
    lengths: list[int]
    errors: list[float]  # standard error of each segment's mean

    @property
    def bounds(self) -> list[tuple[int, int]]:
        edges = [0, *self.boundaries, sum(self.lengths)]
        return list(itertools.pairwise(edges))


def _lag1_raw(x: np.ndarray) -> float:
    """Lag-1 autocorrelation of x about its mean (0 for a constant)."""
    x = x - x.mean()
    denominator = float(np.dot(x, x))
    return float(np.dot(x[:-1], x[1:]) / denominator) if denominator > 0 else 0.0


def _centred_median(y: np.ndarray, half: int) -> np.ndarray:
    padded = np.pad(y, half, mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * half + 1)
    return np.median(windows, axis=1)


class _Noise:
    """The series' noise: a scale, its autocorrelation, a long-run scale, outliers clipped."""

    def __init__(self, y: np.ndarray, half: int, min_size: int) -> None:
        local = _centred_median(y, half)
        self.residual = y - local
        self.spread = robust_scale(self.residual, float(np.median(np.abs(y))))
        self.clipped = local + np.clip(
            self.residual, -MODIFIED_Z * self.spread, MODIFIED_Z * self.spread
        )
        # AR(1) parameters from the first differences, which a change of level touches at
        # one sample only: for AR(1), corr(d_t, d_t-1) = -(1 - rho) / 2 and
        # var(d) = 2 sigma^2 (1 - rho).
        d = np.diff(self.clipped)
        self.rho = float(np.clip(1 + 2 * _lag1_raw(d), 0.0, 0.95)) if d.size > 3 else 0.0
        self.sigma = robust_scale(d, 0.0) / math.sqrt(2 * (1 - self.rho))
        ar1 = self.sigma**2 * (1 + self.rho) / (1 - self.rho)
        # Real noise wanders over longer spans than AR(1) allows. The batch-means estimate
        # of the long-run variance sees that wander: the robust spread of the differences
        # between consecutive batch means (the few batches that straddle a change of level
        # do not move it), batches of n^(1/3) samples, the rate that keeps the estimate
        # consistent. The larger of the two is used.
        n = y.size
        size = max(2 * min_size, round(n ** (1 / 3)))
        batches = self.clipped[: (n // size) * size].reshape(-1, size).mean(axis=1)
        batch = 0.0
        if batches.size >= 6:
            batch = size * (robust_scale(np.diff(batches), 0.0) / math.sqrt(2)) ** 2
        self.long_run = max(ar1, batch)
        self.from_batches = batch > ar1

    def error(self, a: int, b: int) -> float:
        """Standard error of the mean of samples a..b-1.

        The long-run scale, inflated where the segment is noisier than the series (a burst
        of jitter moves a mean more than steady noise does).
        """
        m = max(b - a, 1)
        if self.from_batches:
            base = math.sqrt(self.long_run / m)
        else:
            base = self.sigma * math.sqrt(long_run_factor(self.rho, m) / m)
        own = robust_scale(self.residual[a:b], 0.0) if b - a >= 3 else self.spread
        return base * max(1.0, own / self.spread if self.spread > 0 else 1.0)


def segment(
    y: np.ndarray, min_size: int = 5, threshold: float = MODIFIED_Z, penalty: float = 3.0
) -> Segments:
    """Levels of y, with only the boundaries that are significant against the noise."""
    y = np.asarray(y, dtype=float)
    n = y.size
    min_size = max(2, min_size)
    if n < 2 * min_size:
        mean = float(np.mean(y)) if n else 0.0
        return Segments([], [mean], [n], [0.0])
    noise = _Noise(y, max(min_size, 2), min_size)
    cuts = (
        ruptures.KernelCPD(kernel="linear", min_size=min_size, jump=1)
        .fit(noise.clipped)
        .predict(pen=penalty * noise.long_run * math.log(n))
    )
    edges = _prune(noise, [0, *[int(c) for c in cuts[:-1]], n], threshold)
    spans = list(itertools.pairwise(edges))
    return Segments(
        boundaries=edges[1:-1],
        means=[float(np.mean(noise.clipped[a:b])) for a, b in spans],
        lengths=[b - a for a, b in spans],
        errors=[noise.error(a, b) for a, b in spans],
    )


def _prune(noise: _Noise, edges: list[int], threshold: float) -> list[int]:
    """Remove the least significant boundary until every boundary left is significant."""
    y = noise.clipped
    edges = list(edges)
    while len(edges) > 2:
        spans = list(itertools.pairwise(edges))
        means = [float(np.mean(y[a:b])) for a, b in spans]
        errors = [noise.error(a, b) for a, b in spans]
        tests = [
            abs(means[i + 1] - means[i]) / max(math.hypot(errors[i], errors[i + 1]), 1e-300)
            for i in range(len(spans) - 1)
        ]
        weakest = int(np.argmin(tests))
        if tests[weakest] >= threshold:
            break
        del edges[weakest + 1]
    return edges


def change_points(y: np.ndarray, min_size: int = 5) -> list[int]:
    """Indices at which a significant new level begins."""
    return segment(y, min_size).boundaries
