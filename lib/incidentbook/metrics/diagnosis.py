"""From episodes to an explanation: cause or effect, the ranking, and the verdict.

Episodes, per host or cluster-wide alike (metrics.episodes), are matched against the
primary symptom's (drops, level shifts, sustained losses): a cause confined to one host
ranks as high as a cluster-wide one when it lines up as well; the score is the F1 of
symptoms explained and episodes that explained one. Direction and order decide cause or
effect: a signal moving the way an idle GPU moves (temperature, power, utilisation
falling) while the GPUs' activity also falls is an effect of the stall; the same signal
moving against its idle direction, or while the GPUs stay busy, or before the symptom,
is a candidate cause; one that begins after the symptom is a consequence. Candidates on
the same hosts at the same time tell one story (an explanation); the verdict is the best
explanation, named by the signal that moved first, with its hosts, GPU, onset and a
confidence that says how far it stands above the alternatives.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

import numpy as np
import polars as pl

from incidentbook.metrics.episodes import Episode, Found, _majority
from incidentbook.metrics.signals import Signal
from incidentbook.record.model import Alternative, Correlation, Finding, Verdict
from incidentbook.text import lower_label
from incidentbook.window import TimeWindow

# A host (or GPU) named in fewer than this share of the episodes the most named one is in
# is left out of a candidate's hosts.
RECURRING = 0.25


@dataclass
class Candidate:
    """A signal whose episodes line up with the symptom's, judged cause or effect."""

    signal: str
    score: float
    groups: int  # distinct episodes (of hosts hit together) that matched a symptom
    lag_seconds: float
    matched: int
    symptoms: int
    episodes: list[Episode]
    direction: str
    cause_like: bool
    why_effect: str = ""
    hosts: list[str] = field(default_factory=list)
    gpus: list[str] = field(default_factory=list)
    onset: datetime | None = None
    first_symptom: datetime | None = None
    # Began late, but early in a long symptom episode and lasted through it (see _held).
    held: bool = False

    @property
    def per_host(self) -> bool:
        return bool(self.hosts)


def _groups(episodes: list[Episode], tolerance: timedelta) -> list[list[Episode]]:
    """Episodes of one signal that start together (hosts hit at once) count as one."""
    groups: list[list[Episode]] = []
    for e in sorted(episodes, key=lambda e: e.start):
        if (
            groups
            and e.start - groups[-1][0].start <= tolerance
            and e.hosts
            and groups[-1][0].hosts
        ):
            groups[-1].append(e)
        else:
            groups.append([e])
    return groups


def match(
    symptom: list[Episode],
    candidates: dict[str, list[Episode]],
    signals: dict[str, Signal],
    tolerance: timedelta,
    lead: timedelta,
    baseline: TimeWindow | None = None,
) -> list[Candidate]:
    """Rank signals by how well their episodes line up with the symptom's.

    An episode matches a symptom episode when they overlap (within `tolerance`), or when
    it began up to `lead` before the symptom and lasted into it: a precursor (a GPU's
    rows failing half an hour before the crash, a filesystem filling before the stalls).
    The score is the F1 of the two match rates (symptoms explained, episode groups that
    explained one), so a signal that is anomalous all the time ranks low.
    """
    if not symptom:
        return []
    out = []
    # A signal's per-host behaviour and its cluster-wide one are separate stories: the
    # cluster's tensor activity falls while the GPUs wait (an effect), the straggler's
    # stays up (its cause). Each is matched on its own.
    views = []
    for name, episodes in candidates.items():
        local = [e for e in episodes if e.hosts]
        wide = [e for e in episodes if not e.hosts]
        views += [(name, part) for part in (wide, local) if part]
    for name, episodes in views:
        groups = _groups(episodes, max(tolerance, timedelta(minutes=5)))
        if not groups:
            continue
        matched, lags, used, met, held = 0, [], set(), [], []
        for p in symptom:
            hits = []
            for gi, g in enumerate(groups):
                s = min(e.start for e in g)
                e_ = max(e.end for e in g)
                # It must begin near the symptom: a host hot all day does not explain a
                # drop at noon. Events and codes may end before it (a precursor).
                ahead = signals[name].precedes if name in signals else None
                begins = p.start - (ahead or lead) <= s <= p.end + tolerance
                lasts = e_ >= p.start - tolerance or g[0].kind in {"events", "code"}
                if begins and lasts:
                    hits.append((gi, _lag(s, p), _held(s, e_, p)))
            if hits:
                matched += 1
                met.append(p.start)
                # The nearest episode that began before (or with) it: the one it followed.
                before = [lag for _, lag, _ in hits if lag <= tolerance.total_seconds()]
                lags.append(max(before) if before else min(lag for _, lag, _ in hits))
                held.append(any(h for _, lag, h in hits if lag == lags[-1]))
                used.update(gi for gi, _, _ in hits)
        if not matched:
            continue
        recall = matched / len(symptom)
        precision = len(used) / len(groups)
        score = 2 * precision * recall / (precision + recall)
        chosen = [e for gi in sorted(used) for e in groups[gi]]
        direction = _majority(e.direction for e in chosen)
        hosts = _recurring(chosen, "hosts")
        gpus = _recurring(chosen, "gpus")
        out.append(
            Candidate(
                signal=name,
                score=round(score, 4),
                groups=len(used),
                lag_seconds=float(np.median(lags)),
                matched=matched,
                symptoms=len(symptom),
                episodes=chosen,
                direction=direction,
                cause_like=True,
                hosts=hosts,
                gpus=gpus,
                onset=min(e.start for e in chosen),
                first_symptom=min(met),
                held=bool(episodes[0].hosts) and all(held),
            )
        )
    return out


# How late a host's own departure may first be seen in a long symptom and still be read
# as with it: a share of the symptom's length, and at most a few minutes.
LATE_SHARE = 0.1
LATE_MOST = timedelta(minutes=5)


def _held(start: datetime, end: datetime, p: Episode) -> bool:
    """Whether a departure that began after the symptom episode `p` began within its
    first tenth (at most five minutes in) and lasted through at least half of it. On one
    host of a synchronous job that is the symptom's cause seen late, not its consequence:
    what a whole job's slowing does shows on every host alike, while a host's own signal
    is seen only after a few of its samples, and a kernel's watchdog reports a stall only
    once it has outlasted its threshold (20 s for a soft lockup, 120 s for a hung task),
    so a fault's first, shorter stalls leave no line."""
    length = p.end - p.start
    late = start - p.start
    if length <= timedelta(0) or late <= timedelta(0):
        return False
    within = min(end, p.end) - start
    return late <= min(length * LATE_SHARE, LATE_MOST) and within >= length / 2


def _lag(start: datetime, p: Episode) -> float:
    """Seconds from the symptom episode's start to a candidate's. A symptom dated back
    from the line that showed it began somewhere before that line: a candidate that began
    in between is with it, not after it (a trainer that logs every ten minutes cannot
    say which came first)."""
    if p.shown is not None and p.start <= start <= p.shown:
        return 0.0
    if p.shown is not None and start > p.shown:
        return (start - p.shown).total_seconds()
    return (start - p.start).total_seconds()


def _recurring(episodes: list[Episode], field: str) -> list[str]:
    """The hosts (or GPUs) of a candidate's episodes, less those that came up in a few of
    many: a host one cluster-wide dip of a hundred was attributed to beside the host in all
    of them is the dip's noise, not a second culprit. Kept: each one named in at least a
    quarter as many episodes as the most named one."""
    counts = Counter(h for e in episodes for h in getattr(e, field))
    if not counts:
        return []
    most = max(counts.values())
    return sorted(h for h, n in counts.items() if n >= RECURRING * most)


def judge(
    candidates: list[Candidate],
    signals: dict[str, Signal],
    tolerance: timedelta,
    frame: pl.DataFrame | None = None,
    baseline: TimeWindow | None = None,
    down: list[tuple[datetime, datetime]] = (),
) -> list[Candidate]:
    """Mark each candidate cause or effect, from its role, direction and order.

    An effect of the stall: a signal of role effect moving the way it does when the job
    slows, or any signal moving in its idle direction while the GPUs' activity falls on
    the same hosts at the same time. A signal of role effect standing out on a few hosts
    in its straggler direction (the one GPU busier than its waiting peers) is a cause.
    """
    # What says the GPUs sat idle: utilisation and SM activity (tensor activity rises on a
    # straggler while its peers wait, so it says where, not whether, GPUs idled).
    idling = {
        n: s
        for n, s in signals.items()
        if s.role == "effect" and s.idle == "down" and s.unit != "tokens/s"
    }
    activity = [n for n, s in idling.items() if s.straggler == "none"]
    # Across the whole cluster no GPU is a straggler, so tensor activity says whether they
    # all did less math: a stall in communication keeps the SMs busy (NCCL's kernels run)
    # while tensor activity, and the power it draws, fall together.
    cluster_activity = [n for n, s in idling.items() if s.straggler is not None]
    for c in candidates:
        s = signals[c.signal]
        if (
            s.idle not in (None, "none")
            and c.direction == s.idle
            and _while_down(c, down, tolerance)
        ):
            c.cause_like = False
            c.why_effect = (
                "it moved only while the run was down (between its last iteration and its "
                "restart), as GPUs and links do when no job runs"
            )
            continue
        if c.lag_seconds > tolerance.total_seconds() and not c.held:
            c.cause_like = False
            c.why_effect = "it began after the symptom did: a consequence, not a cause"
            continue
        if s.least_cause is not None and _departed_least(c) < s.least_cause:
            c.cause_like = False
            c.why_effect = (
                f"it moved {_departed_least(c):.0%} of its usual level at most, less than the "
                f"{s.least_cause:.0%} it takes to hold anything back"
            )
            continue
        straggling = (
            c.per_host
            and s.straggler not in (None, "none")
            and (s.straggler == "both" or c.direction == s.straggler)
        )
        if s.role == "effect" and not straggling:
            c.cause_like = False
            c.why_effect = "it moves with the job's own pace"
            continue
        if s.idle not in (None, "none") and c.direction == s.idle and straggling:
            # A straggler is slow at work; hosts whose activity all but stopped (drained,
            # left out of the job at a restart) show their idle clocks, not a fault, and
            # are taken out of it: the busy ones left are the stragglers.
            _without_idle_hosts(c, activity, frame, baseline)
        if s.idle not in (None, "none") and c.direction == s.idle:
            idle_too = _activity_fell(
                c,
                activity if c.per_host else cluster_activity,
                frame,
                baseline,
                **({"least": IDLE_SHARE, "scaled": False} if straggling else {}),
            )
            # Whenever it began: power falling as the GPUs' own activity falls is their
            # waiting, read on the hardware's clock, which the symptom's (a trainer's
            # interval means, or one long episode over many dips) need not share.
            if idle_too:
                c.cause_like = False
                c.why_effect = (
                    f"it {'fell' if c.direction == 'down' else 'rose'} as GPUs do when they "
                    "wait, while their activity fell with it: an effect of the stall"
                )
    return sorted(
        candidates,
        # Between equal scores, the signal whose separate episodes each met a symptom
        # (coincidence seen many times) before one long state that overlaps them all.
        key=lambda c: (
            not c.cause_like,
            -round(c.score, 2),
            -c.groups,
            abs(c.lag_seconds),
            c.signal,
        ),
    )


def _departed_least(c: Candidate) -> float:
    """How far the candidate's episodes went from the level each departed from, at most,
    as a share of it."""
    shares = [abs(e.relative) for e in c.episodes if math.isfinite(e.relative)]
    return max(shares, default=math.inf)


# Activity down by more than this share on a host is idleness, not a slow GPU at work.
IDLE_SHARE = 0.5


def _without_idle_hosts(
    c: Candidate, activity: list[str], frame: pl.DataFrame | None, baseline: TimeWindow | None
) -> None:
    """Take out of a per-host candidate the hosts whose GPUs' activity fell by IDLE_SHARE
    or more while it moved there, unless that is every host (then it is judged whole)."""
    if len(c.hosts) < 2 or frame is None:
        return
    # The candidate's hosts' activity once, not the whole frame again for each host.
    rows = frame.filter(pl.col("signal").is_in(activity) & pl.col("node").is_in(c.hosts))
    idle = {
        h
        for h in c.hosts
        if _activity_fell(
            replace(c, hosts=[h], episodes=[e for e in c.episodes if h in e.hosts]),
            activity,
            rows,
            baseline,
            least=IDLE_SHARE,
            scaled=False,
        )
    }
    if idle and idle != set(c.hosts):
        c.hosts = [h for h in c.hosts if h not in idle]
        c.episodes = [e for e in c.episodes if not set(e.hosts) <= idle]
        c.gpus = [g for g in c.gpus if g.split("/", 1)[0] not in idle]


def _while_down(c: Candidate, down: list[tuple[datetime, datetime]], tolerance: timedelta) -> bool:
    """Whether every episode of a candidate lay inside a time the run was not running (a
    restart's gap): what idles when no job runs (power, utilisation, traffic falling) says
    nothing of why the job went slower after. (Errors rising in the gap may be why it
    stopped, and a stall is the incident itself: neither is judged so.)"""
    if not down or not c.episodes:
        return False
    return all(
        any(a - tolerance <= e.start and e.end <= b + tolerance for a, b in down)
        for e in c.episodes
    )


def _activity_fell(
    c: Candidate,
    activity: list[str],
    frame: pl.DataFrame | None,
    baseline: TimeWindow | None,
    least: float = 0.03,
    scaled: bool = True,
) -> bool:
    """Whether the GPUs' activity fell where and when the candidate moved: on its hosts
    (all hosts for a cluster-wide move), against those hosts' own baseline, by `least` or,
    `scaled`, by as much as the candidate itself moved when that is less (power down 1% as
    tensor activity falls 1.5% is the same stall as power down 10% with activity down 12%)."""
    if frame is None or baseline is None or not activity:
        return False
    mine = [e for e in c.episodes if e.hosts] or c.episodes
    moved = [abs(e.relative) for e in mine if math.isfinite(e.relative)]
    if scaled and moved:
        least = min(least, max(moved))
    hosts = sorted({h for e in mine for h in e.hosts})
    rows = frame.filter(pl.col("signal").is_in(activity))
    if hosts:
        rows = rows.filter(pl.col("node").is_in(hosts))
    if rows.height == 0:
        return False
    during = pl.any_horizontal([(pl.col("ts") >= e.start) & (pl.col("ts") < e.end) for e in mine])
    in_base = (pl.col("ts") >= baseline.start) & (pl.col("ts") < baseline.end)
    levels = rows.group_by("signal").agg(
        base=pl.col("value").filter(in_base).median(), now=pl.col("value").filter(during).mean()
    )
    for r in levels.iter_rows(named=True):
        if r["base"] and r["now"] is not None and r["now"] < r["base"] * (1 - least):
            return True
    return False


@dataclass
class Explanation:
    """Candidates that tell one story: the same hosts (or the whole cluster), starting
    together. The first is the cause named; the rest corroborate it."""

    members: list[Candidate]
    # States on the same hosts that began after the baseline and were still on when the
    # lead moved (memory leaking for an hour before the OOM kills): where it started.
    precursors: list[Episode] = field(default_factory=list)

    @property
    def lead(self) -> Candidate:
        return self.members[0]

    @property
    def score(self) -> float:
        return max(c.score for c in self.members)

    @property
    def hosts(self) -> list[str]:
        return self.lead.hosts

    @property
    def onset(self) -> datetime | None:
        starts = [c.onset for c in self.members if c.onset] + [e.start for e in self.precursors]
        return min(starts, default=None)


def explanations(
    ranked: list[Candidate],
    signals: dict[str, Signal],
    together: timedelta,
    chain: timedelta,
    from_logs: set[str] = frozenset(),
) -> list[Explanation]:
    """Group cause-like candidates by place and time, and pick each group's cause: the
    signal that moved first, then the best matched, a real cause before a straggler's
    activity (which says where, not why).

    Cluster-wide candidates belong together when they start within `together`; on the
    same hosts, within `chain` (a GPU's rows failing, then its uncorrectable errors, then
    the crash are one story). A trainer's own gauge (one rank's: it cannot say where)
    belongs with whatever starts within `together`, and never leads a signal that names
    hosts."""

    def unlocated(c: Candidate) -> bool:
        # Beside a signal that names hosts, a trainer's gauge agrees with it.
        return not c.hosts and signals[c.signal].from_trainer

    groups: list[list[Candidate]] = []
    for c in [c for c in ranked if c.cause_like]:
        for g in groups:
            head = g[0]
            shared = bool(set(c.hosts) & set(head.hosts))
            same_place = (
                (not c.hosts and not head.hosts) or shared or unlocated(c) or unlocated(head)
            )
            near = chain if shared else together
            close = (
                c.onset is not None
                and head.onset is not None
                and abs((c.onset - head.onset).total_seconds()) <= near.total_seconds()
            )
            # On the same hosts, a state still on when the next signal moved is one chain
            # (memory leaking, then pressure, then the OOM kills).
            if shared and not close and c.onset is not None:
                close = any(
                    (m.onset is not None and m.onset <= c.onset <= max(e.end for e in m.episodes))
                    or c.onset <= (m.onset or c.onset) <= max(e.end for e in c.episodes)
                    for m in g
                )
            if same_place and close:
                g.append(c)
                break
        else:
            groups.append([c])

    def key(c: Candidate) -> tuple:
        # A log line corroborates; a straggler's activity says where, not why; a trainer's
        # gauge says neither where nor why when a signal beside it names hosts; a general
        # signal (the load average) says something waits, and the specific one beside it
        # (the CPU's clock, the disk's latency) says on what.
        where_only = c.signal in from_logs or signals[c.signal].role == "effect"
        return (where_only, unlocated(c), signals[c.signal].general, c.onset, -c.score, c.signal)

    # (in no order: explain() ranks them once their precursors are known)
    return [Explanation(sorted(g, key=key)) for g in groups]


def _hosts_text(hosts: list[str], total: int | None) -> str:
    shown = ", ".join(hosts[:4]) + (f" and {len(hosts) - 4} more" if len(hosts) > 4 else "")
    of = f" ({len(hosts)} of {total} hosts)" if total else ""
    return f"on {shown}{of}"


def _when(t: datetime) -> str:
    return f"{t:%Y-%m-%d %H:%M} UTC"


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 7200 else f"{seconds / 3600:.1f} h"


def describe_symptom(symptom: list[Episode], primary: Signal) -> str:
    """The symptom in a phrase: one lasting loss, or how many dips, how deep, how long."""
    label = lower_label(primary.label)
    first = min(symptom, key=lambda e: e.start)
    verb = "fell" if primary.bad == "down" else "rose" if primary.bad == "up" else "moved"
    lasting = [e for e in symptom if e.kind in {"level_shift", "sustained_loss"}]
    brief = [e for e in symptom if e not in lasting]
    depth = [abs(e.relative) for e in symptom if math.isfinite(e.relative)]
    how = f" {max(depth):.0%}" if depth else ""
    if lasting and len(brief) <= 1:
        e = min(lasting, key=lambda e: e.start)
        size = f" {abs(e.relative):.0%}" if math.isfinite(e.relative) else how
        return f"{label} {verb}{size} from {_when(first.start)} and stayed there"
    if len(symptom) == 1:
        e = symptom[0]
        lasted = _duration((e.end - e.start).total_seconds())
        return f"{label} {verb}{how} from {_when(e.start)} for {lasted}"
    spans = sorted((e.end - e.start).total_seconds() for e in brief or symptom)
    typical = _duration(spans[len(spans) // 2])
    worst = ""
    if depth and primary.bad == "down" and max(depth) >= 0.995:
        worst = " (to nothing at worst"
    elif depth:
        worst = f" (by up to{how}"
    return (
        f"{label} {verb} {len(symptom)} times from {_when(first.start)}{worst}, "
        f"about {typical} each)"
    )


def _lead_text(lag: float) -> str:
    if abs(lag) < 60:
        return "as"
    minutes = abs(lag) / 60
    amount = f"{minutes:.0f} min" if minutes < 120 else f"{minutes / 60:.1f} h"
    return f"{amount} {'before' if lag < 0 else 'after'}"


def _unmeasured(primary: Signal, logs: list[Finding]) -> dict:
    """The verdict when the folder holds no metrics, only logs: whether and when the job
    slowed cannot be said, so nothing is a cause; the logs' worst finding is named as the
    place to start."""
    failures = [f for f in logs if f.kind == "signature"]
    lead = (
        f"the logs' worst finding: {failures[0].summary}"
        if failures
        else "the logs show no failure a signature knows"
    )
    return {
        "cause": None,
        "hosts": [],
        "gpus": [],
        "onset": failures[0].start if failures else None,
        "confidence": 0.0,
        "confidence_why": "the folder holds no metrics, so no symptom can be measured",
        "summary": (
            f"No metrics: whether and when {lower_label(primary.label)} fell cannot be "
            f"measured from logs alone; {lead.rstrip('.')}."
        ),
        "evidence": [],
        "alternatives": [],
    }


def verdict(
    explained: list[Explanation],
    symptom: list[Episode],
    primary: Signal,
    signals: dict[str, Signal],
    hosts_total: int | None,
    tolerance: timedelta,
    down: list[tuple[datetime, datetime]] = (),
    planned: tuple[tuple[datetime, datetime], ...] = (),
) -> dict:
    """One sentence of what most likely happened, how sure, on what evidence, and what
    else it could be, with what would tell them apart. `down`: when the run was not
    running (its restarts' gaps); `planned`: those of them someone asked for."""
    if not symptom:
        asked = "; ".join(f"{_when(a)} to {b:%H:%M} UTC" for a, b in planned)
        return {
            "cause": None,
            "hosts": [],
            "gpus": [],
            "onset": None,
            "confidence": 0.0,
            "confidence_why": "there is no anomaly of the primary signal to explain"
            + (", only a stop someone asked for" if planned else ""),
            "summary": (
                f"Nothing to explain: {lower_label(primary.label)} shows no drop, shift or "
                "sustained loss in the window"
                + (
                    f", and the run's stop ({asked}) was asked for, with nothing wrong "
                    "logged before it: a planned restart."
                    if planned
                    else "."
                )
            ),
            "evidence": [],
            "alternatives": [],
        }
    first = min(symptom, key=lambda e: e.start)
    symptom_text = describe_symptom(symptom, primary)
    if not explained:
        # A run that came back slower from a restart, with no signal to blame: what changed
        # is most likely the run itself (its configuration, its code, where it was placed).
        resumed = [
            b
            for _, b in down
            if abs((first.start - b).total_seconds()) <= 2 * tolerance.total_seconds()
        ]
        look = (
            f"It began as the run restarted ({_when(resumed[0])}): compare the run's "
            "configuration, code and placement before and after the restart, and the "
            "job's own logs."
            if resumed
            else "Look at what the pack does not cover (the job's own logs, the scheduler, "
            "changes deployed then)."
        )
        return {
            "cause": None,
            "hosts": [],
            "gpus": [],
            "onset": first.start,
            "confidence": 0.0,
            "confidence_why": (
                "no signal of the pack moved before or with the symptom as a cause would"
            ),
            "summary": (
                f"The data cannot decide: {symptom_text}, but no signal of the pack moved "
                f"before or with it the way a cause would. {look}"
            ),
            "evidence": [],
            "alternatives": [],
        }
    top = explained[0]
    lead = top.lead
    sig = signals[lead.signal]
    root = top.precursors[0] if top.precursors else None
    alt = explained[1].score if len(explained) > 1 else 0.0
    support = min(1.0, 0.7 + 0.15 * (len(top.members) - 1))
    order = 1.0 if lead.lag_seconds <= tolerance.total_seconds() else 0.6
    margin = 1 - 0.5 * min(1.0, alt / top.score) if top.score else 0.0
    confidence = round(top.score * support * order * margin, 2)
    others = [lower_label(signals[c.signal].label) for c in top.members[1:4]]
    moved = {"up": "rose", "down": "fell"}.get(lead.direction, "moved")
    where = _hosts_text(lead.hosts, hosts_total) if lead.hosts else "across the cluster"
    moving = _moving(lead, tolerance)
    if moving:
        where = f"on a different host at each of {len(lead.hosts)} stops ({', '.join(lead.hosts)})"
    gpus = lead.gpus or _agreed_gpus(lead, top.members)
    gpu = ""
    if len(gpus) == 1 and lead.hosts and "/" in gpus[0]:
        unit = gpus[0].split("/", 1)[1]
        if unit.isdigit():
            gpu = f" (GPU {unit})"
    onset = top.onset or lead.onset
    met = min((c.first_symptom for c in top.members if c.first_symptom), default=first.start)
    ahead = (onset - met).total_seconds()
    if met != first.start:
        symptom_text = describe_symptom([e for e in symptom if e.start >= met], primary)
    sentence = (
        f"Most likely {lower_label(sig.label)}: it {moved} {where}{gpu} from {_when(onset)}, "
        f"{_lead_text(ahead)} {symptom_text}"
        + (f"; {', '.join(others)} agree" if others else "")
        + "."
    )
    cause_name = lead.signal
    if sig.role == "effect" and lead.hosts:
        # A straggler: the job's own pace, read on the one host (or GPU) that kept it.
        unit = f"{lead.hosts[0]}{gpu}" if len(lead.hosts) == 1 else where.removeprefix("on ")
        sentence = (
            f"Most likely a straggler: {unit} held the job back from {_when(onset)} "
            f"({lower_label(sig.label)} {moved} there and not on its peers), "
            f"{_lead_text(ahead)} {symptom_text}"
            + (f"; {', '.join(others)} agree" if others else "")
            + "."
        )
    if root is not None:
        rsig = signals[root.signal]
        rmoved = {"up": "rising", "down": "falling"}.get(root.direction, "moving")
        sentence = (
            f"Most likely {lower_label(rsig.label)}: it had been {rmoved} {where} since "
            f"{_when(root.start)} when {lower_label(sig.label)} "
            f"{moved} ({_when(lead.onset)}), {_lead_text((lead.onset - met).total_seconds())} "
            f"{symptom_text}" + (f"; {', '.join(others)} agree" if others else "") + "."
        )
        cause_name = root.signal
        sig = rsig
    if moving:
        # What each stop left (an Xid, a CUDA error) is how the job failed, not why: the
        # verdict names no signal as the cause, and says where to look instead.
        sentence = (
            f"Most likely the job's own code, libraries or data, not one machine: "
            f"{lower_label(sig.label)} {moved} {where} from {_when(onset)}, "
            f"{_lead_text(ahead)} {symptom_text}"
            + (f"; {', '.join(others)} agree" if others else "")
            + "."
        )
        cause_name = None
    words = "high" if confidence >= 0.75 else "moderate" if confidence >= 0.5 else "low"
    why = (
        f"{words}: it lines up with {lead.matched} of {lead.symptoms} symptom episodes "
        f"(score {lead.score:.2f}), {len(top.members)} signal(s) agree, it "
        f"{'leads or starts with' if order == 1 else 'trails'} the symptom, and the next "
        f"explanation scores {alt:.2f}"
    )
    if lead.matched < lead.symptoms and len(explained) > 1:
        rest = lower_label(signals[explained[1].lead.signal].label)
        sentence += (
            f" It accounts for {lead.matched} of {lead.symptoms} symptom episodes; others "
            f"line up with {rest}."
        )
    if moving:
        sentence += (
            " Hardware stays where it is, so a fault that moves from host to host with the "
            "job is the job's own: look first at what changed in the job before these stops "
            "(its image, its libraries, its data)."
        )
    elif sig.confirm:
        sentence += f" Confirm with {sig.confirm}."
    alternatives = []
    for x in explained[1:4]:
        c = x.lead
        s = signals[c.signal]
        alternatives.append(
            {
                "cause": c.signal,
                "hosts": c.hosts,
                "gpus": c.gpus,
                "onset": x.onset,
                "score": c.score,
                "tell_apart": _tell_apart(lead, c, signals),
                "summary": (
                    f"{s.label} { ({'up': 'rose', 'down': 'fell'}.get(c.direction, 'moved')) } "
                    f"{_hosts_text(c.hosts, hosts_total) if c.hosts else 'across the cluster'}"
                    f" from {_when(x.onset)}"
                ),
            }
        )
    located = lead.hosts and not moving
    return {
        "cause": cause_name,
        "hosts": lead.hosts if located else [],
        "gpus": gpus if located else [],
        "onset": onset,
        "confidence": confidence,
        "confidence_why": why,
        "summary": sentence,
        "evidence": [*top.precursors, *(e for c in top.members for e in c.episodes)],
        "alternatives": alternatives,
    }


def _agreed_gpus(lead: Candidate, members: list[Candidate]) -> list[str]:
    """The GPU that the signals agreeing with a per-host lead name on its same hosts,
    when the lead cannot name one (a host's clock-event reasons, read per host) and they
    all name the same: the host's power-capped GPU is the one whose clock and power
    violations stood out."""
    named = {g for c in members if c.hosts == lead.hosts for g in c.gpus}
    return sorted(named) if lead.hosts and len(named) == 1 else []


def _moving(c: Candidate, tolerance: timedelta) -> bool:
    """Whether a candidate struck a different single host each time, three times or more
    (a crash on rank 37's host, then 92's, then 5's): hardware stays where it is, so a
    fault that follows the job from host to host is not any one host's."""
    if len(c.hosts) < 3:
        return False
    groups = _groups([e for e in c.episodes if e.hosts], max(tolerance, timedelta(minutes=5)))
    if len(groups) < 3:
        return False
    named = [{h for e in g for h in e.hosts} for g in groups]
    hosts = [h for n in named for h in n]
    return all(len(n) == 1 for n in named) and len(hosts) == len(set(hosts))


def _tell_apart(best: Candidate, other: Candidate, signals: dict[str, Signal]) -> str:
    a, b = signals[best.signal], signals[other.signal]
    if best.hosts and not other.hosts:
        return (
            f"{a.label} is confined to {', '.join(best.hosts[:3])} while {lower_label(b.label)} "
            "moved everywhere: rerun without those hosts (sbatch --exclude) and see whether "
            "the loss goes"
        )
    if other.hosts and not best.hosts:
        return (
            f"{b.label} is confined to {', '.join(other.hosts[:3])}: rerun without those "
            "hosts; if the loss stays, it was not them"
        )
    if best.hosts and other.hosts and set(best.hosts) != set(other.hosts):
        return (
            f"they point at different hosts ({', '.join(best.hosts[:2])} against "
            f"{', '.join(other.hosts[:2])}): exclude each set in turn"
        )
    check = b.confirm or "the component's own logs and counters for those minutes"
    return f"{lower_label(b.label)} would show in {check}"


@dataclass(frozen=True)
class Diagnosis:
    """What the episodes say about the symptom: candidates ranked, explanations, verdict."""

    ranked: list[Candidate]
    explained: list[Explanation]
    verdict: dict
    correlations: list[Correlation]


def log_episodes(
    findings: list[Finding], not_hosts: frozenset[str] = frozenset()
) -> tuple[list[Episode], dict[str, Signal]]:
    """Log signatures as episodes (they corroborate; a metric signal names the cause when
    both tell the same story), with a signal entry for each signature id. A finding only
    on `not_hosts` (logs named after a file, not a host: a job's output, the scheduler's
    log) is the job's, not a host's: an episode of the whole cluster."""
    eps, sigs = [], {}
    for f in findings:
        if f.kind != "signature" or not f.hosts:
            continue
        hosts = () if set(f.hosts) <= not_hosts else tuple(sorted(set(f.hosts) - not_hosts))
        eps.append(Episode(f.signal, "log", f.start, f.end, "up", hosts=hosts))
        # (a signature's label and its severity: "CUDA sticky error (illegal access, launch
        # failure) (critical)"; cut only where a summary holds no label)
        label = f.summary.split(":", 1)[0][:100] or f.signal
        sigs[f.signal] = Signal(
            name=f.signal, label=label, kind="gauge", metric=f.signal, bad="up", role="cause"
        )
    return eps, sigs


def explain(
    found: Found,
    signals: dict[str, Signal],
    primary: str,
    baseline: TimeWindow,
    tolerance: timedelta,
    hosts_total: int | None = None,
    frame: pl.DataFrame | None = None,
    logs: list[Finding] = (),
    not_hosts: frozenset[str] = frozenset(),
) -> Diagnosis:
    """Rank every signal's episodes against the symptom, judge cause or effect, group
    them into explanations, and say the verdict (`not_hosts`: see log_episodes)."""
    more, log_signals = log_episodes(list(logs), not_hosts)
    allowed = {**log_signals, **signals}
    by_signal: dict[str, list[Episode]] = {}
    for e in [*found.episodes, *more]:
        if e.signal == primary or e.signal not in allowed or e.kind == "trend":
            continue
        if allowed[e.signal].role == "liveness" and e.kind != "host":
            continue
        by_signal.setdefault(e.signal, []).append(e)
    lead = max(timedelta(minutes=30), tolerance * 5)
    matched = match(found.symptom, by_signal, allowed, tolerance, lead, baseline)
    down = found.restarts
    ranked = judge(matched, allowed, tolerance, frame, baseline, down)
    explained = explanations(
        ranked, allowed, max(timedelta(minutes=10), tolerance * 5), lead, set(log_signals)
    )
    host_eps = [e for e in found.episodes if e.hosts and e.kind == "host"]
    _find_precursors(explained, host_eps, allowed, baseline, tolerance)
    # The best first. Between explanations that line up as well with as many signals, the
    # one still on while the symptom lasts: corrected ECC errors on one GPU for 13 min of
    # an hour's loss explain it less than the fabric's transmit wait over all of it,
    # though they began first.
    # And before those, one on a few hosts before the job's own reports of its failure
    # scored alike (log lines only, in its output: an NCCL watchdog timeout on every rank
    # is how one host's failed HCA shows in a synchronous job; they say what failed, not
    # where). Against the cluster's own moves they keep their place (S3 throttling).
    located = {round(x.score, 2) for x in explained if any(m.hosts for m in x.members)}

    def job_only(x: Explanation) -> bool:
        return round(x.score, 2) in located and all(
            m.signal in log_signals and not m.hosts for m in x.members
        )

    explained.sort(
        key=lambda x: (
            -round(x.score, 2),
            job_only(x),
            -len(x.members),
            -round(_coverage(x.lead.episodes, found.symptom), 1),
            x.onset,
        )
    )
    psig = signals.get(primary) or Signal(name=primary, label=primary, kind="gauge", metric=primary)
    measured = frame is None or frame.height > 0
    v = (
        verdict(
            explained, found.symptom, psig, allowed, hosts_total, tolerance, down, found.planned
        )
        if measured
        else _unmeasured(psig, list(logs))
    )
    server = _server_at_fault(explained, logs) if v["cause"] and not v["hosts"] else None
    if server is not None:
        v["hosts"] = [server]
        v["summary"] += (
            f" The hosts' lines name one server, {server}: the fault is there, not on the "
            "hosts that report it."
        )
    correlations = [correlation(c, allowed, psig) for c in ranked]
    return Diagnosis(ranked, explained, v, correlations)


def _server_at_fault(explained: list[Explanation], logs: Sequence[Finding]) -> str | None:
    """The one server outside the job that the log signatures lined up with the symptom
    name (every client's `nfs: server X not responding`), when they name exactly one: a
    cause seen across the cluster is that server's, not the clients'."""
    members = {c.signal for x in explained for c in x.members}
    named = {s for f in logs if f.signal in members for s in f.servers or ()}
    return named.pop() if len(named) == 1 else None


def _coverage(episodes: list[Episode], symptom: list[Episode]) -> float:
    """The share of the symptom's time during which the episodes were on."""
    total = sum((s.end - s.start).total_seconds() for s in symptom)
    if total <= 0:
        return 0.0
    on = 0.0
    for s in symptom:
        spans = sorted((max(e.start, s.start), min(e.end, s.end)) for e in episodes)
        reach = s.start
        for a, b in spans:
            a = max(a, reach)
            if b > a:
                on += (b - a).total_seconds()
                reach = b
    return on / total


def correlation(c: Candidate, signals: dict[str, Signal], primary: Signal) -> Correlation:
    """A candidate as the record's Correlation, with a sentence saying why it ranks here."""
    s = signals[c.signal]
    verb = {"up": "rose", "down": "fell"}.get(c.direction, "moved")
    if abs(c.lag_seconds) < 1:
        timing = "starting with them"
    else:
        when = "before" if c.lag_seconds < 0 else "after"
        timing = f"starting a median {_duration(abs(c.lag_seconds))} {when} them"
    where = (
        f" on {', '.join(c.hosts[:4])}{' and more' if len(c.hosts) > 4 else ''}" if c.hosts else ""
    )
    text = (
        f"{s.label}{where} {verb} during {c.matched} of {c.symptoms} "
        f"{lower_label(primary.label)} episodes, {timing}."
    )
    if not c.cause_like:
        text += f" Read as an effect: {c.why_effect}."
    return Correlation(
        signal=c.signal,
        score=round(c.score, 4),
        lag_seconds=c.lag_seconds,
        matched=c.matched,
        explanation=text,
        cause=c.cause_like,
        hosts=c.hosts,
        gpus=c.gpus,
        onset=c.onset,
    )


def verdict_record(v: dict, findings: list[Finding]) -> Verdict:
    """The verdict as the record's model, its evidence as indices into `findings`."""
    refs: list[int] = []
    for e in v.get("evidence", []):
        for i, f in enumerate(findings):
            if i in refs or f.signal != e.signal:
                continue
            same_place = not e.hosts or not f.hosts or set(e.hosts) & set(f.hosts)
            overlaps = f.start <= e.end and f.end >= e.start
            if same_place and overlaps:
                refs.append(i)
                break
    alternatives = [
        Alternative(
            **{
                k: a[k]
                for k in ("cause", "hosts", "gpus", "onset", "score", "summary", "tell_apart")
            }
        )
        for a in v.get("alternatives", [])
    ]
    return Verdict(
        cause=v.get("cause"),
        hosts=v.get("hosts", []),
        gpus=v.get("gpus", []),
        onset=v.get("onset"),
        confidence=v.get("confidence", 0.0),
        confidence_why=v.get("confidence_why", ""),
        summary=v.get("summary", ""),
        evidence=sorted(refs),
        alternatives=alternatives,
    )


def _find_precursors(
    explained: list[Explanation],
    episodes: list[Episode],
    signals: dict[str, Signal],
    baseline: TimeWindow,
    tolerance: timedelta,
) -> None:
    for x in explained:
        if not x.hosts or x.onset is None:
            continue
        named = {c.signal for c in x.members}
        onset = x.onset
        for e in episodes:
            s = signals.get(e.signal)
            if s is None or s.role != "cause" or e.signal in named:
                continue
            if e.kind not in {"host"} or not set(e.hosts) & set(x.hosts):
                continue
            # A host's own departure may begin inside the baseline (a leak from the
            # window's first half hour): all that rules it out is having been there from
            # the start, as a host that always differed would be.
            if baseline.start + tolerance <= e.start < onset - tolerance and e.end >= onset:
                x.precursors.append(e)
        x.precursors.sort(key=lambda e: e.start)
