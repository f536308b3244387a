"""JSON lines: `journalctl -o json` (binary MESSAGE arrays decoded), and JSON logs of any
shape with a time key (pino and bunyan numeric levels, epoch numbers of any unit)."""

from __future__ import annotations

import polars as pl

from incidentbook.logs.data import BAD_TIMESTAMP, BINARY_MESSAGE, MALFORMED_JSON, NO_TIMESTAMP
from incidentbook.logs.formats import Context, LogFormat
from incidentbook.logs.formats.expressions import epoch_us, rfc3339
from incidentbook.logs.severity import level_of_priority, level_of_word


def _json(key: str) -> pl.Expr:
    return pl.col("raw").str.json_path_match(f"$['{key}']")


def _field(keys: str) -> pl.Expr:
    """The first of these keys' values (`A|B`) in a JSON object, for plain string values (no
    escapes in them: journald's identifiers and process ids), found by a regex, several
    times faster than a JSON path."""
    return pl.col("raw").str.extract(rf'"(?:{keys})"\s*:\s*"([^"\\]*)"', 1)


def _json_valid() -> pl.Expr:
    # json_path_match is null for a line that is not JSON: a vectorised validity check.
    return pl.col("raw").str.json_path_match("$").str.starts_with("{")


def _decode_bytes(arrays: pl.Series) -> pl.Series:
    """journald MESSAGE arrays of bytes as text. Polars has no lossy UTF-8 decoder, so the
    few binary messages (not the lines around them) go through Python's."""
    n = len(arrays)
    where = arrays.is_not_null().arg_true()
    text = pl.Series("text", [None] * n, dtype=pl.String)
    lossy = pl.Series("lossy", [None] * n, dtype=pl.Boolean)
    if len(where):
        decoded, bad = [], []
        for values in arrays.gather(where).to_list():
            try:
                decoded.append(bytes(values).decode("utf-8"))
                bad.append(False)
            except UnicodeDecodeError:
                decoded.append(bytes(values).decode("utf-8", errors="replace"))
                bad.append(True)
        text = text.scatter(where, decoded)
        lossy = lossy.scatter(where, bad)
    return pl.struct(text, lossy, eager=True)


def _journald(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
    raw = pl.col("raw")
    lf = lf.with_columns(
        _valid=_json_valid(),
        _us=_json("__REALTIME_TIMESTAMP").cast(pl.Int64, strict=False),
        _msg=_json("MESSAGE"),
        # MESSAGE is an array of byte values when it is not valid UTF-8 (or has controls).
        _bytes=raw.str.contains(r'"MESSAGE"\s*:\s*\['),
    )
    decoded = (
        pl.when(pl.col("_bytes"))
        .then(pl.col("_msg"))
        .str.json_decode(pl.List(pl.UInt8))
        .map_batches(
            _decode_bytes, return_dtype=pl.Struct({"text": pl.String, "lossy": pl.Boolean})
        )
    )
    lf = lf.with_columns(_decoded=decoded)
    text = pl.when(pl.col("_bytes")).then(pl.col("_decoded").struct.field("text"))
    text = text.otherwise(pl.col("_msg"))
    # The program's tag before the message, as `journalctl` prints it and the syslog reader
    # keeps it (formats.syslog); the kernel's is left out.
    # (one regex for each, whichever of its keys comes first: they hold the same value but
    # for a program that renamed itself; a JSON path per key would double the reader's time)
    ident = _field("SYSLOG_IDENTIFIER|_COMM")
    pid = _field("SYSLOG_PID|_PID")
    tag = ident + pl.when(pid.is_not_null()).then("[" + pid + "]").otherwise(pl.lit("")) + ": "
    return lf.with_columns(
        ts=epoch_us(pl.col("_us")),
        host=_json("_HOSTNAME"),
        severity=level_of_priority(_json("PRIORITY")),
        source=pl.lit("journald-json"),
        message=pl.when(ident.is_not_null() & (ident != "kernel")).then(tag + text).otherwise(text),
        _kept=pl.when(pl.col("_decoded").struct.field("lossy")).then(pl.lit(BINARY_MESSAGE)),
        status=pl.when(~pl.col("_valid").fill_null(False))
        .then(pl.lit(MALFORMED_JSON))
        .when(pl.col("_us").is_null())
        .then(pl.lit(NO_TIMESTAMP))
        .otherwise(None),
    ).drop("_valid", "_us", "_msg", "_bytes", "_decoded")


JOURNALD_JSON = LogFormat("journald-json", (r'\s*\{.*"__REALTIME_TIMESTAMP"\s*:',), _journald)


_TS_KEYS = ("ts", "time", "timestamp", "@timestamp")
_LEVEL_KEYS = ("level", "severity", "log.level", "lvl")
_MESSAGE_KEYS = ("msg", "message")
# pino / bunyan numeric levels
_NUMERIC_LEVELS = {
    "10": "debug",
    "20": "debug",
    "30": "info",
    "40": "warning",
    "50": "err",
    "60": "crit",
}


def _jsonl(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
    stamp = pl.coalesce([_json(k) for k in _TS_KEYS]).str.strip_chars()
    number = stamp.cast(pl.Float64, strict=False)
    # Epoch numbers by magnitude: seconds, then milliseconds, micro, nanoseconds.
    micros = (
        pl.when(number < 1e11)
        .then(number * 1e6)
        .when(number < 1e14)
        .then(number * 1e3)
        .when(number < 1e17)
        .then(number)
        .otherwise(number / 1e3)
    )
    host_obj = pl.col("raw").str.json_path_match("$.host.name")
    host = pl.coalesce(
        _json("hostname"),
        host_obj,
        pl.when(_json("host").str.starts_with("{")).then(None).otherwise(_json("host")),
    )
    level = pl.coalesce([_json(k) for k in _LEVEL_KEYS])
    lf = lf.with_columns(
        _valid=_json_valid(),
        _ts=pl.when(number.is_not_null())
        .then(epoch_us(micros.round().cast(pl.Int64)))
        .otherwise(rfc3339(stamp, ctx)),
        _stamp=stamp,
    )
    return lf.with_columns(
        ts=pl.col("_ts"),
        host=host,
        severity=pl.coalesce(
            level.replace_strict(_NUMERIC_LEVELS, default=None, return_dtype=pl.String),
            level_of_word(level),
            pl.when(level.str.contains(r"^[0-7]$")).then(level_of_priority(level)),
        ),
        source=pl.lit("jsonl"),
        message=pl.coalesce([_json(k) for k in _MESSAGE_KEYS] + [pl.col("raw")]),
        status=pl.when(~pl.col("_valid").fill_null(False))
        .then(pl.lit(MALFORMED_JSON))
        .when(pl.col("_stamp").is_null())
        .then(pl.lit(NO_TIMESTAMP))
        .when(pl.col("_ts").is_null())
        .then(pl.lit(BAD_TIMESTAMP))
        .otherwise(None),
    ).drop("_valid", "_ts", "_stamp")


# Any JSON object with a time key: journald's own lines are more specific and win a tie.
JSONL = LogFormat(
    "jsonl", (r'\s*\{.*"(?:ts|time|timestamp|@timestamp)"\s*:',), _jsonl, priority=-10
)
