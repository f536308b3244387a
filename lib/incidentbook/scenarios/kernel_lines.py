"""Kernel messages as real hosts print them, for the simulator and for the logs stage's tests.

Every formatter returns the message text the kernel (or a driver) writes; `dmesg_line` adds
the prefix of `dmesg --decode --time-format iso`, the shape of the real specimens:

    kern  :warn  : 2025-01-21T04:41:44,283302+00:00 NVRM: Xid (PCI:0000:38:00): 13, ...

The wording follows the kernel and driver sources (PCIe: drivers/pci/pci.c
`__pcie_print_link_status`; NVMe: drivers/nvme/host/pci.c `nvme_timeout`; mlx5:
`mlx5e_update_carrier` and the port-module event handler; NVIDIA: the NVRM Xid lines), so
a pattern that finds them here finds them on a real host. Nothing here draws random
numbers: callers pass every variable part, which keeps the simulator deterministic.
"""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

KERNEL = "5.15.0-112-generic"
NVIDIA_DRIVER = "535.183.01"

# `dmesg --decode` pads the facility and the level to six characters each.
LEVELS = ("emerg", "alert", "crit", "err", "warn", "notice", "info", "debug")


def decode_prefix(level: str, facility: str = "kern") -> str:
    if level not in LEVELS:
        raise ValueError(f"unknown kernel log level {level!r}; one of {', '.join(LEVELS)}")
    return f"{facility:<6}:{level:<6}: "


def iso_time(us: int) -> str:
    """Microseconds since the epoch as dmesg's ISO form: comma before the micros, offset."""
    when = datetime.fromtimestamp(us // 1_000_000, tz=UTC)
    return f"{when:%Y-%m-%dT%H:%M:%S},{us % 1_000_000:06d}+00:00"


def iso_times(us: np.ndarray) -> list[str]:
    """Vectorised `iso_time` for many lines (a million lines format in well under a second)."""
    text = np.datetime_as_string(np.asarray(us, dtype="datetime64[us]"), unit="us")
    return [f"{t[:19]},{t[20:]}+00:00" for t in text.tolist()]


def dmesg_line(us: int, message: str, level: str = "info", facility: str = "kern") -> str:
    return f"{decode_prefix(level, facility)}{iso_time(us)} {message}"


# --- PCIe ------------------------------------------------------------------------------

# Mb/s per lane after line encoding, as the kernel's PCIE_SPEED2MBS_ENC computes it in
# integer arithmetic (8b/10b up to 5 GT/s, 128b/130b from 8 GT/s).
_MBS_PER_LANE = {
    "2.5": 2500 * 8 // 10,
    "5.0": 5000 * 8 // 10,
    "8.0": 8000 * 128 // 130,
    "16.0": 16000 * 128 // 130,
    "32.0": 32000 * 128 // 130,
}


def pcie_bandwidth_mbps(speed_gts: str, width: int) -> int:
    try:
        return _MBS_PER_LANE[speed_gts] * width
    except KeyError:
        raise ValueError(f"unknown PCIe speed {speed_gts!r} GT/s") from None


def _gbps(mbps: int) -> str:
    return f"{mbps // 1000}.{mbps % 1000:03d}"


def pcie_link(driver: str, device: str, speed_gts: str, width: int) -> str:
    """What a driver (mlx5_core, nvme) prints for its link when nothing limits it."""
    bw = pcie_bandwidth_mbps(speed_gts, width)
    return (
        f"{driver} {device}: {_gbps(bw)} Gb/s available PCIe bandwidth "
        f"({speed_gts} GT/s PCIe x{width} link)"
    )


def pcie_limited(
    device: str,
    limiting: str,
    width: int,
    capable_width: int,
    speed_gts: str = "32.0",
    capable_speed_gts: str | None = None,
) -> str:
    """The enumeration-time line for a device whose link trained below its capability."""
    capable_speed_gts = capable_speed_gts or speed_gts
    avail = pcie_bandwidth_mbps(speed_gts, width)
    capable = pcie_bandwidth_mbps(capable_speed_gts, capable_width)
    return (
        f"pci {device}: {_gbps(avail)} Gb/s available PCIe bandwidth, limited by "
        f"{speed_gts} GT/s PCIe x{width} link at {limiting} (capable of {_gbps(capable)} Gb/s "
        f"with {capable_speed_gts} GT/s PCIe x{capable_width} link)"
    )


# --- NVIDIA Xid ------------------------------------------------------------------------

XID_TEXT = {
    48: "An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer "
    "at partition 6, subpartition 0.",
    63: "Row Remapper: New row marked for remapping, reset gpu to activate.",
    79: "GPU has fallen off the bus.",
    94: "Contained: SM (0x1). RST: No, D-RST: No",
    95: "Uncontained: FBHUB. RST: Yes, D-RST: No",
}


def xid(pci: str, code: int, pid: int | None = None, name: str | None = None) -> str:
    """`NVRM: Xid (PCI:0000:9b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen ...`.

    `pci` is the GPU's address without the function (domain:bus:device), as NVRM prints it.
    """
    who = f"pid={pid}, name={name}" if pid is not None else "pid='<unknown>', name=<unknown>"
    return f"NVRM: Xid (PCI:{pci}): {code}, {who}, {XID_TEXT.get(code, 'Unknown error')}"


def gpu_fallen_off_bus(bdf: str) -> str:
    return f"NVRM: GPU {bdf}: GPU has fallen off the bus."


# --- NVMe ------------------------------------------------------------------------------


def nvme_timeout(controller: str, tag: int, qid: int, action: str) -> str:
    """`nvme nvme1: I/O 417 QID 12 timeout, aborting` (action: aborting | reset controller)."""
    return f"nvme {controller}: I/O {tag} QID {qid} timeout, {action}"


def nvme_abort_status(controller: str, status: int = 0x371) -> str:
    return f"nvme {controller}: Abort status: 0x{status:x}"


def hung_task(
    comm: str, pid: int, seconds: int = 122, kernel: str = KERNEL
) -> list[tuple[str, str]]:
    """The hung-task watchdog's report, as (level, message) lines."""
    return [
        ("err", f"INFO: task {comm}:{pid} blocked for more than {seconds} seconds."),
        ("err", f"      Tainted: P           OE     {kernel} #122-Ubuntu"),
        ("err", '"echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.'),
    ]


# --- mlx5 / InfiniBand -----------------------------------------------------------------


def mlx5_link(bdf: str, netdev: str, up: bool) -> str:
    """mlx5's carrier message: `mlx5_core 0000:1d:00.0 ibp29s0: Link down`."""
    return f"mlx5_core {bdf} {netdev}: Link {'up' if up else 'down'}"


def mlx5_module_event(bdf: str, module: int, plugged: bool) -> str:
    state = "Cable plugged" if plugged else "Cable unplugged"
    return f"mlx5_core {bdf}: Port module event: module {module}, {state}"


# --- ordinary lines: boot and background noise ------------------------------------------
# Signatures must be found among lines like these, some of which look alarming
# (nvidia-peermem's "ERROR", a healthy NIC's "available PCIe bandwidth") but mean nothing.

Entry = tuple[int, str, str, str]  # (microseconds after the event, level, facility, message)


def boot_sequence(
    hostname: str,
    gpus: list[str],
    nics: list[str],
    limited: dict[str, tuple[str, int]] | None = None,
) -> list[Entry]:
    """A trimmed boot log of an 8-GPU HGX host, offsets in microseconds after power-on.

    gpus, nics: the GPUs' and the InfiniBand HCAs' PCI addresses (0000:19:00.0);
    limited: GPU address -> (limiting upstream port, trained width) for downtrained links.
    """
    limited = limited or {}
    out: list[Entry] = [
        (
            0,
            "notice",
            "kern",
            f"Linux version {KERNEL} (buildd@lcy02-amd64-051) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) "
            f"11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #122-Ubuntu SMP",
        ),
        (41, "info", "kern", "DMI: Dell Inc. PowerEdge XE9680/0KK0RG, BIOS 2.3.5 09/10/2024"),
    ]
    for k, bdf in enumerate(gpus):
        us = 2_104_000 + 3_117 * k
        out.append((us, "info", "kern", f"pci {bdf}: [10de:2330] type 00 class 0x030200"))
        if bdf in limited:
            port, width = limited[bdf]
            out.append((us + 412, "info", "kern", pcie_limited(bdf, port, width, 16)))
    for k, bdf in enumerate(nics):
        out.append(
            (3_870_000 + 51_031 * k, "info", "kern", pcie_link("mlx5_core", bdf, "32.0", 16))
        )
    out += [
        (4_420_118, "info", "kern", "nvme nvme0: 64/0/0 default/read/poll queues"),
        (4_431_907, "info", "kern", "nvme nvme1: 64/0/0 default/read/poll queues"),
        (
            6_012_554,
            "info",
            "kern",
            "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Quota mode: none.",
        ),
        (7_200_331, "info", "daemon", f"systemd[1]: Hostname set to <{hostname}>."),
        (
            12_874_202,
            "info",
            "kern",
            f"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {NVIDIA_DRIVER}  "
            "Sun May 12 19:39:15 UTC 2024",
        ),
    ]
    return out


def _container(us: int, a: int, b: int, c: int) -> list[Entry]:
    veth, inner, port = f"veth{a % 0xFFFFFFF:07x}", f"veth{b % 0xFFFFFFF:07x}", 1 + c % 8
    return [
        (0, "info", "kern", f"docker0: port {port}({veth}) entered blocking state"),
        (31, "info", "kern", f"docker0: port {port}({veth}) entered disabled state"),
        (94, "info", "kern", f"device {veth} entered promiscuous mode"),
        (61_207, "info", "kern", f"eth0: renamed from {inner}"),
        (88_519, "info", "kern", f"IPv6: ADDRCONF(NETDEV_CHANGE): {veth}: link becomes ready"),
        (88_560, "info", "kern", f"docker0: port {port}({veth}) entered forwarding state"),
    ]


def _audit(us: int, a: int, b: int, c: int) -> list[Entry]:
    stamp = f"{us // 1_000_000}.{us // 1000 % 1000:03d}:{100 + a % 90_000}"
    return [
        (
            0,
            "notice",
            "kern",
            f'audit: type=1400 audit({stamp}): apparmor="DENIED" operation="capable" '
            f'profile="/usr/sbin/cups-browsed" pid={1000 + b % 60_000} comm="cups-browsed" '
            'capability=23  capname="sys_nice"',
        )
    ]


def _perf(us: int, a: int, b: int, c: int) -> list[Entry]:
    took = 2500 + a % 2000
    rate = 100_000 * 2500 // took // 250 * 250
    return [
        (
            0,
            "warn",
            "kern",
            f"perf: interrupt took too long ({took} > {took - 1 - b % 40}), "
            f"lowering kernel.perf_event_max_sample_rate to {rate}",
        )
    ]


def _clocksource(us: int, a: int, b: int, c: int) -> list[Entry]:
    cs = 1_500_000_000 + a % 200_000_000
    return [
        (
            0,
            "info",
            "kern",
            "clocksource: Long readout interval, skipping watchdog check: "
            f"cs_nsec: {cs} wd_nsec: {cs - b % 20}",
        )
    ]


# (weight, formatter): the background mix, commonest first.
NOISE: tuple[tuple[float, object], ...] = (
    (0.40, lambda us, a, b, c: [(0, "info", "kern", f"nvidia-nvswitch{a % 4}: open (major=510)")]),
    (
        0.25,
        lambda us, a, b, c: [
            (
                0,
                "info",
                "kern",
                "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, "
                "skipping further processing",
            )
        ],
    ),
    (0.12, _container),
    (0.12, _audit),
    (
        0.05,
        lambda us, a, b, c: [
            (
                0,
                "info",
                "kern",
                "TCP: request_sock_TCP: Possible SYN flooding on port 29500. Sending cookies.  "
                "Check SNMP counters.",
            )
        ],
    ),
    (0.03, _perf),
    (0.03, _clocksource),
)
NOISE_WEIGHTS = tuple(w for w, _ in NOISE)
NOISE_LINES_PER_EVENT = sum(w * len(f(0, 1, 1, 1)) for w, f in NOISE) / sum(NOISE_WEIGHTS)


def noise_event(kind: int, us: int, a: int, b: int, c: int) -> list[Entry]:
    """The lines of one background event of the given kind (an index into NOISE)."""
    return NOISE[kind][1](us, a, b, c)
