"""Any trainer's progress lines: a step counter and named numbers, read by their names.

The trainers with a parser of their own (Megatron, DeepSpeed, nanotron, torchtitan, the
Hugging Face Trainer, Lightning) are read by it; a log none of them knows is read here
when its lines count steps and name a loss, as most trainers print them:

    completed step: 10, seconds: 1.234, TFLOP/s/device: 150.2, Tokens/s/device: 5000.1, loss: 7.5
    iter 100: loss 2.3107, time 120.43ms, mfu 40.12%
    | train_inner | epoch 001:    100 / 1000 loss=9.5, wps=12345, ups=1.2, num_updates=100
    [step=100/739328]                        (then one `name=value` per indented line)
    [batch=100/1000]:                        (then one `name: value` per indented line)
    1|2|Loss: 1.25:  0%| | 2/1367 [05:03<49:53:19, 131.58s/it]   (torchtune's tqdm bar)
    Epoch 0:  11%|█ | 2/18 [00:11<01:33,  5.82s/it, loss=10.473]  (Lightning's epoch bar)
    5epoch:train:3376-3750batch: iter_time=0.001, loss=1.733, train_time=0.014  (ESPnet)

A line (with the indented `name: value` lines under it, for trainers that print a block
per step) is cut into fields at `,` `|` `;` ` : ` tabs and runs of spaces; a field is a
name and a number with its unit (`120.43ms`, `40.12%`, `1,503`, `53.79 samples/s`). Names
are compared with everything but letters and digits removed, and only the names below are
read (or, for a name it does not know, a number whose unit says what it is: `s/batch`,
`sec/step`, `It/s`, `tokens/gpu/sec`, `samples/s`; or a name ending in `loss` where no
known loss is on the line, an evaluation's excepted): a number under a name this module
does not know is left alone rather than guessed at. A number (with its unit) followed by
a space and a name ends a field (`loss 6.68 lr 3e-4`); a logger's prefix before a name
(`INFO:tensorflow:loss`) is not part of it. The step is the trainer's update counter
(`num_updates`, `global_step`, `current_steps`) where it prints one, else the first
`step`, `iter`, `batch` or bracketed `[i/n]` number, or the number a line starts with
before a `|`, made one count across epochs
where it starts again each epoch; an evaluation's lines are not steps, and its report of a
step (a validation loss beside a train loss over held-out batches) gives way to that step's
own line. Per-device
throughput is kept apart from the job's (sources.trainer.timeline multiplies it by the
GPUs); a step time comes in seconds, from milliseconds where the unit or the name says
so, from a rate of steps per second, or, where the lines' own times show the printed
time spans the interval between lines, over the steps between them, or from the run's
clock (`elapsed_time: 0:07:03`) by its growth over the steps. A tqdm bar's rate and
postfix are fields of its line (its count is not a step: bars count evaluations and
downloads too, but an `Epoch N` bar counts the epoch's batches); where no time is printed,
a step's time is the tokens it takes (`wpb`, or a header's `Tokens / optimizer step :
32,768`) over the tokens per second; indented lines under no block header are lines of
their own (a log pasted into Markdown). A rate may be written short (`37.5k tok/s`); a step
counter written short (`step:1K`) is counted on from the exact ones.
"""

from __future__ import annotations

import math

import polars as pl

from incidentbook.sources.trainer.base import (
    TQDM_BAR,
    Context,
    Parsed,
    TrainerFormat,
    TrainerText,
    clock_seconds,
    records,
)

# Counters as trainers print them: a named one (JSON's quotes allowed), Marian's updates,
# and a bracketed `[i/n]` (OpenMMLab, torchvision, timm).
_WORDS = r"step|iter(?:ation)?|num_updates|global_step|current_steps"
_NAMED = r"[\"']?\s*[:=]?\s*[\"']?\d+"
_BRACKET = r"\[\s*(\d+)\s*/\s*\d+\s*(?:\(\s*\d+%\))?\]"
_LEADING = r"^\s*(\d+)\s*\|"
# An epoch's batch counted in parentheses after it (MiniMind's `Epoch:[1/1](100/44173)`,
# once its epoch is made `Epoch 1`).
_EPOCH_PAREN = r"(?i)\bepoch\s*:?\s*\d+\s*\(\s*(\d+)\s*/\s*\d+\s*\)"
# torchtune's bar: `epoch|step|Loss: X` (the global step second)
_EPOCH_STEP = r"^\s*\d+\|(\d+)\|"
# A tqdm bar after a trainer's own words (`1|2|Loss: 1.25:  0%|  | 2/1367 [05:03<49:53:19,
# 131.58s/it, loss=1.2]`): its rate and postfix are made fields. Its count is not a step
# (a bar counts an evaluation or a download as well): the trainer's words must say one.
_TQDM = rf"^(?P<desc>.*?):?\s*{TQDM_BAR}"
# ...unless the bar is an epoch's own (Lightning's `Epoch 3:  11%|█ | 2/18 [...]`): then it
# counts the epoch's training batches, a step counter that starts again each epoch.
_EPOCH_BAR_BODY = r"Epoch \d+:?\s*\d+%\|"
_EPOCH_BAR = rf"(?i)^\s*{_EPOCH_BAR_BODY}"
# ESPnet's `5epoch:train:3376-3750batch:` (the batches since the line before) and older
# fairseq's `| epoch 010  2000 / 8223 loss=...` (the epoch's batch, no colon after it)
_BATCH_RANGE = r"\b\d+-(\d+)batch\b"
# MXNet's Speedometer: `Epoch[0] Batch [100]`, or the batches since the line before,
# `Batch [0-20]`
_MX_BATCH = r"\bBatch\s*\[\s*(?:\d+-)?(\d+)\s*\]"
_EPOCH_COUNT = r"\b(?i:epoch)\s+\d+:?\s+(\d+)\s*/\s*\d+\b"
# An epoch written with the epochs' count in brackets (DINO's MetricLogger, `Epoch: [0/100]
# [1320/1562]  eta: ...`; `Epoch [2/10], Step [100/600]`) is the epoch, not a counter:
# the counters are read with it written `Epoch 0`.
_EPOCH_OF = r"(?i)\b(epoch)\s*:?\s*\[\s*(\d+)\s*/\s*\d+\s*\]"
_OTHER = (
    rf"\bUp\.\s*\d+|{_BRACKET}|{_LEADING}|{_BATCH_RANGE}|{_EPOCH_COUNT}|{_MX_BATCH}"
    r"|(?i:\bepoch\s*:?\s*\[\s*\d+\s*/\s*\d+\s*\]\s*\(\s*\d+\s*/\s*\d+\s*\))"
)
# The step counter, in the order trusted: the optimizer's update count first (fairseq
# prints the epoch's batch before it), then the first step, iteration or batch number.
_COUNTERS = (
    r"(?i)\bnum_updates\s*[:=]\s*(\d+)",
    r"(?i)\bglobal[_ ]?step\s*[:=]?\s*(\d+)",
    r"(?i)\bcurrent_steps\s*[:=]\s*(\d+)",
    # (not a unit's `/batch`: fairseq's epoch summary prints `words/batch    906`)
    r"(?i)(?:^|[^/])\b(?:completed )?(?:step|iter(?:ation)?|batch)\b\s*[:=]?\s*(\d+)\b",
    r"\bUp\.\s*(\d+)\b",
    _EPOCH_STEP,
    _BATCH_RANGE,
    _EPOCH_COUNT,
    _MX_BATCH,
    _EPOCH_PAREN,
    _BRACKET,
    _LEADING,
)
# An epoch number before a counter that starts again each epoch (`Epoch [2][10/196]`,
# `Train: 1 [50/1251`, `Epoch: 2, Batch: 40/8164`).
_EPOCH = r"(?i)\b(?:epoch|train)\b(?:\(\w+\))?\s*:?\s*\[?\s*(\d+)\b"
_OF = r"\b\d+\s*/\s*(\d+)\b"
# An evaluation's progress lines count their own batches: not training steps.
_EVALUATION = (
    r"(?i)(?:^|[\s\]|:-])(?:test|eval(?:uation)?|val(?:idation)?)\b(?:\s*\(\w+\))?\s*:?\s*\["
    r"|\bEpoch\((?:val|test)\)"
)
_HEADER = rf"(?i)\b(?:{_WORDS}|batch)\b{_NAMED}|{_OTHER}"
_LOSS_NAMES = (
    "loss",
    "lmloss",
    "trainloss",
    "traincrossentropyloss",
    "crossentropyloss",
    "reducedtrainloss",
    "trainlosstraintotal",
    "losstrain",
    "trainlossstep",
    "totalloss",
    "trainingloss",  # TensorFlow Model Garden's
    "steploss",  # dllogger's (NVIDIA's DeepLearningExamples)
    # verl's actor: its whole loss where it prints one (newer versions), else the policy
    # gradient's share (an RL trainer's other losses are the critic's)
    "actorloss",
    "actorpgloss",
    "xent",  # OpenNMT's cross-entropy
    "cost",  # Marian's training cost
)
# A block trainer's header: the counter alone on its line, its numbers indented below;
# or TensorFlow's Orbit controller (Model Garden), `train | step:    140 | steps/sec:
# 0.1 | output:` with the outputs' dict pretty-printed over the lines below it.
_ORBIT_HEADER = r"\bstep:\s*\d+\b.*\|\s*output:\s*$"
_BLOCK_HEADER = rf"(?i)\[(?:step|batch)=\d+(?:/\d+)?(?:,[^\]]*)?\]:?\s*$|{_ORBIT_HEADER}"
# (a dict's item, `{'learning_rate': 0.0001486,`, is a name and its value too)
_INDENTED = r"^[\s\u3000]+[{'\"]*[A-Za-z][^:=]*?['\"]?[:=]\s*[-+]?(?:\d|\.\d|nan|inf)"

# (a `Batch 12 Loss: ...` line counts too: the counters read a batch number)
_COUNTING = rf"(?:\b(?:{_WORDS}|batch)\b{_NAMED}|{_OTHER})"
_LOSS = (
    r"(?:\b[\w/]*loss\b|\bCost\b|\bxent\b)[\"']?(?: \w+)?\s*[:=]?\s*[\"']?[-+]?(?:\d|\.\d|nan|inf)"
)
SNIFF = (
    # (the look for `loss` first: one pass over a file that has none, such as a kernel log)
    r"(?im)\A(?=[\s\S]*?(?:loss|cost|xent))[\s\S]*?(?:"
    rf"{_COUNTING}[^\n]*?{_LOSS}|{_LOSS}[^\n]*?{_COUNTING}|^[ \t]*{_EPOCH_BAR_BODY}[^\n]*?{_LOSS}"
    r"|(?:\[(?:step|batch)=\d+(?:/\d+)?(?:,[^\]\n]*)?\]:?"
    r"|\bstep:\s*\d+\b[^\n]*\|\s*output:)[ \t]*\n"
    r"(?:[ \t]+.*\n){0,60}?[ \t]+.*[Ll]oss\S*\s*[:=])"
)
"""A line counting steps that names a loss (in either order, JSON's quotes allowed), an
epoch's progress bar with a loss, or a block header with a loss below it."""

# What a field's name says it is: (column, how to read the number).
_NAMES: dict[str, tuple[str, str]] = {
    **{name: ("loss", "plain") for name in _LOSS_NAMES},
    # the job's tokens per second
    "tokspersec": ("tokens_per_second", "plain"),
    "tokenspersec": ("tokens_per_second", "plain"),
    "tokenspersecond": ("tokens_per_second", "plain"),
    "tokenss": ("tokens_per_second", "plain"),
    "tokenssec": ("tokens_per_second", "plain"),
    "toksec": ("tokens_per_second", "plain"),
    "throughputtokenspersec": ("tokens_per_second", "plain"),
    "globaltokenss": ("tokens_per_second", "plain"),
    "globaltokenspersec": ("tokens_per_second", "plain"),
    "trainthroughputtokenspersec": ("tokens_per_second", "plain"),
    "throughputtotaltokenspersecond": ("tokens_per_second", "plain"),
    "wps": ("tokens_per_second", "plain"),
    "numconsumedtokens": ("consumed_tokens", "plain"),
    # per device
    "tokenssdevice": ("tokens_per_second_per_gpu", "plain"),
    "tokenssgpu": ("tokens_per_second_per_gpu", "plain"),
    "tokensgpusec": ("tokens_per_second_per_gpu", "plain"),
    "tokensgpus": ("tokens_per_second_per_gpu", "plain"),
    "tokenspergpupersec": ("tokens_per_second_per_gpu", "plain"),
    "perfthroughput": ("tokens_per_second_per_gpu", "plain"),  # verl's tokens/s per GPU
    "tokenspersecondpergpu": ("tokens_per_second_per_gpu", "plain"),
    "tokenspersecpergpu": ("tokens_per_second_per_gpu", "plain"),
    "tokenspersecondperdevice": ("tokens_per_second_per_gpu", "plain"),
    "tgs": ("tokens_per_second_per_gpu", "plain"),
    "tgstokensgpusecond": ("tokens_per_second_per_gpu", "plain"),
    "throughputdevicetokenspersecond": ("tokens_per_second_per_gpu", "plain"),
    "throughputdevicetokenspersec": ("tokens_per_second_per_gpu", "plain"),
    "trainthroughputdevicetokenspersec": ("tokens_per_second_per_gpu", "plain"),
    # samples
    "samplespersec": ("samples_per_second", "plain"),
    "samplespersecond": ("samples_per_second", "plain"),
    "samplessec": ("samples_per_second", "plain"),
    "throughputsamplespersec": ("samples_per_second", "plain"),
    "trainthroughputsamplespersec": ("samples_per_second", "plain"),
    "ips": ("samples_per_second", "plain"),  # PaddlePaddle's samples (images) per second
    # the time of a step, or a rate of steps
    "seconds": ("step_time", "time"),
    "persteptime": ("step_time", "time"),  # TF Object Detection API's `per-step time 0.813s`
    "time": ("step_time", "time"),
    "steptime": ("step_time", "time"),
    # modded-nanoGPT's average step so far (before its `train_time`, the run's total);
    # ESPnet's time per batch (before its `iter_time`, the data loader's share of it)
    "stepavg": ("step_time", "time"),
    # the step's duration in nanoGPT's descendants (nanochat's `dt: 5.71ms`)
    "dt": ("step_time", "time"),
    "traintime": ("step_time", "time"),
    "itertime": ("step_time", "time"),
    "trainsteptiming": ("step_time", "time"),
    "trainsteptiminginsec": ("step_time", "time"),
    "trainsteptiminginsecs": ("step_time", "time"),
    "trainsteptimingins": ("step_time", "time"),
    "steptiming": ("step_time", "time"),
    "elapsedtimeperiterationms": ("step_time", "ms"),
    "timems": ("step_time", "ms"),
    # DeepSpeed-Domino's `iteration time (ms): 1414.40`
    "iterationtimems": ("step_time", "ms"),
    "iterationtime": ("step_time", "time"),
    # DeepSpeed-Chat's step 3: a step's whole time (generation and training), its samples/s
    "e2elatency": ("step_time", "time"),
    "cursamplespersec": ("samples_per_second", "plain"),
    # LeRobot's seconds per optimizer update (its `data_s` is the data loader's share)
    "updts": ("step_time", "time"),
    # PaddleNLP's Trainer: the interval's samples and steps per second
    "intervalsamplespersecond": ("samples_per_second", "plain"),
    "intervalstepspersecond": ("step_time", "rate"),
    "steptimems": ("step_time", "ms"),
    "batchcost": ("step_time", "time"),  # PaddlePaddle's seconds per batch
    "batcht": ("step_time", "time"),  # OpenCLIP's `Batch (t): 6.655`
    "secstep": ("step_time", "time"),
    "timingsstep": ("step_time", "time"),  # verl's `timing_s/step`
    "perftimeperstep": ("step_time", "time"),
    "secperstep": ("step_time", "time"),
    "ups": ("step_time", "rate"),
    "its": ("step_time", "rate"),  # iterations per second (`It/s`, `It/sec`)
    "itsec": ("step_time", "rate"),
    "itspersec": ("step_time", "rate"),
    "iterspersec": ("step_time", "rate"),
    "stepssec": ("step_time", "rate"),
    "stepspersec": ("step_time", "rate"),
    "throughputbatchespersec": ("step_time", "rate"),
    "throughputdevicebatchespersecond": ("step_time", "rate"),
    "trainthroughputbatchespersec": ("step_time", "rate"),
    # compute
    "mfu": ("mfu", "fraction"),
    "throughputdevicemfu": ("mfu", "fraction"),
    "trainthroughputdevicemfu": ("mfu", "fraction"),
    "tflopsdevice": ("tflops_per_gpu", "plain"),
    "tflopsgpu": ("tflops_per_gpu", "plain"),
    "tflopssdevice": ("tflops_per_gpu", "plain"),
    "tflopssgpu": ("tflops_per_gpu", "plain"),
    "tflopspergpu": ("tflops_per_gpu", "plain"),
    "tflops": ("tflops_per_gpu", "plain"),
    "trainthroughputdeviceflopspersec": ("tflops_per_gpu", "tera"),
    "throughputdeviceflopspersec": ("tflops_per_gpu", "tera"),
    # optimisation
    "lr": ("learning_rate", "plain"),
    "learningrate": ("learning_rate", "plain"),
    "trainlr": ("learning_rate", "plain"),
    "optimlearningrategroup0": ("learning_rate", "plain"),
    "gradnorm": ("grad_norm", "plain"),
    "gnorm": ("grad_norm", "plain"),
    "traingradnorm": ("grad_norm", "plain"),
    "optimtotalgradnorm": ("grad_norm", "plain"),
    "lossscale": ("loss_scale", "plain"),
    # running totals (the job's tokens/s is their growth over the step time)
    "throughputtotaltokens": ("consumed_tokens", "plain"),
    "consumedtokens": ("consumed_tokens", "plain"),
    "consumedsamples": ("consumed_samples", "plain"),
    "globalbatchsize": ("global_batch_size", "plain"),
    # the tokens of one step (fairseq's words per batch): a step's time is them over the
    # tokens per second where no time is printed
    "wpb": ("_batch_tokens", "plain"),
    "tokensperbatch": ("_batch_tokens", "plain"),
    "tokensperstep": ("_batch_tokens", "plain"),
    # the run's clock (`elapsed_time: 0:03:29`): a step's time is its growth over the steps
    "elapsedtime": ("_elapsed", "clock"),
    "elapsed": ("_elapsed", "clock"),
}
_AMBIGUOUS_TIMES = ("time", "seconds")
_COLUMNS = sorted({column for column, _ in _NAMES.values()})
_COLUMN_OF = {name: column for name, (column, _) in _NAMES.items()}
_HOW_OF = {name: how for name, (_, how) in _NAMES.items()}
_RANK_OF = {name: rank for rank, name in enumerate(_NAMES)}

# A field: its name, then a number with its unit at the field's end.
_FIELD = (
    r"^(?P<name>.*?)\s*[:=]?\s*(?:(?P<clock>(?:\d+:)?\d+:\d\d(?:\.\d+)?)|"
    r"(?P<number>[-+]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)))"
    # (a dict's last item keeps its closing brace: `'training_loss': 0.4755017}`)
    # (a rate written short, `113.4k tok/s`: a scale before a unit of something per time)
    r"\s*(?:(?P<rate_scale>[kKMG])(?P<scaled>[A-Za-z]+(?:/[A-Za-z]+)+)"
    r"|(?P<unit>ms|s|%|[A-Za-z]*(?:/[A-Za-z]+)+|(?-i:[KMGTB])\b))?[)}]?\s*(?:\(.*\))?$"
)
_SCALES = {"K": 1e3, "M": 1e6, "G": 1e9, "B": 1e9, "T": 1e12}
_RATE_SCALES = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}
# What a unit says its number is, when the name does not say (`2.057s/batch`,
# `57.1 sec/step`, `It/s`, `tokens/gpu/sec`): (pattern, column, how).
_UNITS = (
    (
        r"^(?:s|secs?|seconds?)/(?:steps?|its?|iters?|iterations?|batch(?:es)?|updates?)$",
        "step_time",
        "time",
    ),
    (r"^ms/(?:steps?|its?|iters?|iterations?|batch(?:es)?|updates?)$", "step_time", "ms"),
    (
        r"^(?:its?|iters?|iterations?|steps?|batch(?:es)?|updates?)/s(?:ecs?|econds?)?$",
        "step_time",
        "rate",
    ),
    (
        r"^(?:tokens?|toks?)/(?:gpus?|devices?|devs?)/s(?:ecs?|econds?)?$",
        "tokens_per_second_per_gpu",
        "plain",
    ),
    (r"^(?:words|tokens?|toks?)/s", "tokens_per_second", "plain"),
    (r"^(?:samples?|imgs?|images|seqs|sequences)/s", "samples_per_second", "plain"),
    # A rate of nothing named (timm's `Time: 0.699s,  183.22/s`, OpenCLIP's `2461.78/s,
    # 76.9308/s/gpu`): the images or samples the step took, per second.
    (r"^/s(?:ecs?|econds?)?$", "samples_per_second", "plain"),
)
# A name ending in `loss` that this module does not know (`Mask_Loss`) is the loss where
# no known one is on the line, unless it is an evaluation's.
_OTHER_LOSS = r"loss$"
_NOT_TRAINING = r"^(?:val|valid|validation|eval|evaluation|test|dev|cv)"


def _blocks(lines: pl.DataFrame) -> pl.DataFrame:
    """Each step's text: a counting line, with the indented `name: value` lines under a
    block header joined to it (`|` between), one row per step, in file order."""
    text = pl.col("text")
    header = text.str.contains(_BLOCK_HEADER)
    indented = text.str.contains(_INDENTED)
    # A block is its header and the indented lines right under it (a line that is
    # neither ends it). Indented lines under no header are lines of their own (a log
    # pasted into Markdown keeps the indentation of its code block).
    marked = (
        lines.with_columns(_header=header, _indented=indented)
        .with_columns(_run=(~pl.col("_indented")).cum_sum())
        .with_columns(_headed=pl.col("_header").first().over("_run"))
    )
    in_block = (
        marked.filter(pl.col("_headed") & (pl.col("_header") | pl.col("_indented")))
        .group_by("_run", maintain_order=True)
        .agg(
            pl.col("line").first(),
            pl.col("ts").first(),
            pl.col("_header").first(),
            text=pl.col("text").str.strip_chars().str.join(" | "),
        )
        .filter(pl.col("_header"))
        .select("line", "ts", "text")
    )
    counting = ~pl.col("_header") & ~(pl.col("_indented") & pl.col("_headed"))
    single = marked.filter(counting & text.str.contains(_HEADER) & ~_under_evaluation()).select(
        "line", "ts", "text"
    )
    return pl.concat([_with_trailers(marked, single), in_block]).sort("line")


# A line that only names an evaluation (`Evaluation:`, `***** Running Evaluation *****`,
# `[Validation]`): the indented lines under it count the evaluation's batches (Knover
# prints `\tstep 100:lm_loss: 4.64, ...` under its `Evaluation:`), not training steps.
_EVALUATION_HEADING = (
    r"(?i)^\W*(?:running\s+)?(?:eval(?:uation)?|val(?:idation)?|valid|test(?:ing)?)\b"
    r"[\w ]{0,20}\W*$"
)


def _indent() -> pl.Expr:
    """A line's leading whitespace, in characters."""
    text = pl.col("text")
    return text.str.len_chars() - text.str.strip_chars_start().str.len_chars()


def _under_evaluation() -> pl.Expr:
    """The indented lines of a run right under an evaluation's heading."""
    indented = _indent() > 0
    heading = ~indented & pl.col("text").str.contains(_EVALUATION_HEADING)
    # each unindented line starts a run; its indented lines follow it
    return indented & heading.first().over((~indented).cum_sum())


# A line of `name=value` fields (three or more) that names no step, printed right after a
# step's line: more of that step's numbers (DeepSpeed-Chat prints `|E2E latency=2.12s
# |... |CurSamplesPerSec=1.89` two lines after its `epoch: 0|step: 3183|...act_loss: ...`).
_TRAILER_FIELDS = r"[A-Za-z][\w ]*?=[-+]?\d"
_TRAILER_SPAN = 3  # lines after the step's own


def _with_trailers(marked: pl.DataFrame, single: pl.DataFrame) -> pl.DataFrame:
    """`single` (the steps' own lines) with each step's trailing field lines joined on:
    a line of `name=value` fields, or `name: value` lines indented deeper than the step's
    line right under it (Knover prints a step's loss on a tab-indented line below it)."""
    text = pl.col("text")
    indent = _indent()
    step = text.str.contains(_HEADER)
    owner = (
        marked.select(
            "line",
            "text",
            _owner=pl.when(step).then(pl.col("line")).forward_fill(),
            _deeper=indent > pl.when(step).then(indent).forward_fill(),
            # (the lines since the step's: an unindented one ends its run of indented ones)
            _since_step=(step | (indent == 0)).cum_sum(),
            _fields=~step & ~text.str.contains(_EVALUATION),
        )
        .with_columns(
            _trailer=pl.col("_fields")
            & (
                (text.str.count_matches(_TRAILER_FIELDS) >= 3)
                | (
                    pl.col("_deeper")
                    & text.str.contains(_INDENTED)
                    & (pl.col("_since_step") == pl.col("_since_step").first().over("_owner"))
                )
            ),
        )
        .filter(pl.col("_trailer") & (pl.col("line") - pl.col("_owner") <= _TRAILER_SPAN))
        .group_by("_owner")
        .agg(pl.col("text").sort_by("line").str.join(" | ").alias("_more"))
    )
    if owner.height == 0:
        return single
    return (
        single.join(owner, left_on="line", right_on="_owner", how="left")
        .with_columns(
            text=pl.when(pl.col("_more").is_not_null())
            .then(pl.col("text") + " | " + pl.col("_more"))
            .otherwise(pl.col("text"))
        )
        .drop("_more")
    )


def _split(steps: pl.DataFrame) -> pl.DataFrame:
    """(row, field): each step's text cut into its fields."""
    return steps.select(
        pl.int_range(pl.len(), dtype=pl.UInt32).alias("row"),
        # `iter 100: loss 2.31` holds two fields: a number then a colon, then a name.
        field=pl.col("text")
        # running averages in parentheses after the values they average are not fields
        # of their own (timm's `Time: 0.699s,  183.22/s  (1.094s,  117.02/s)`: the step's
        # time and rate, then their averages); one number in them is a field's own part
        # (`loss: 7.5953 (7.9363)`, or tf-slim's `loss = 79.35 (57.126 sec/step)`)
        .str.replace_all(r"(\d[\w/%.]*)\s+\(\s*[-+]?\d[^(),]*,[^()]*\)", "$1")
        # dllogger's `step_loss : 0.69` is a name and its value; Marian's ` : ` between
        # fields has a value before it (`Time 984.07s : 3007.81 words/s`) or a name after it
        .str.replace_all(r"([A-Za-z_]{2,})\s+:\s+([-+]?\.?\d)", "$1: $2")
        .str.replace_all(r"\s+:\s+", "\t")
        # a list of one number is that number (DeepSpeed's `lr=[1e-05]`, one per group)
        .str.replace_all(r"([:=])\s*\[\s*([-+]?(?:\d[\d.]*|\.\d+)(?:[eE][-+]?\d+)?)\s*\]", "$1$2")
        # InternLM's `,name=` without a space
        .str.replace_all(r",([A-Za-z_][^,=:]*=)", "\t$1")
        # a name's padding after its colon is not a field's end (`Loss:  6.88`), nor a
        # value right-aligned after its name (llm.c's `loss     nan (+nanz)|`)
        .str.replace_all(r"([:=])\s+", "$1 ")
        .str.replace_all(r"\b([A-Za-z_]{2,})\s{2,}([-+]?(?:\d|\.\d|nan\b|inf\b))", "$1 $2")
        .str.replace_all(r"(\d)\s*:\s+([A-Za-z])", "$1\t$2")
        # a unit stays with its number (`7.5 s/iter`, `69.98 samples/sec`, `120 ms`,
        # `113.4k tok/s`)...
        .str.replace_all(r"(\d[kKMG])\s+([A-Za-z]+(?:/[A-Za-z]+)+)\b", "$1$2")
        .str.replace_all(r"(\d)\s+(ms|s|secs?|%|[A-Za-z]+(?:/[A-Za-z]+)+)\b", "$1$2")
        # ...and a number followed by a name ends a field (`loss 6.68 lr 3e-4`,
        # `loss:2.08 lr:2e-05`, `79.35 (57.1sec/step)`); a word's own digits do not (`top1`)
        .str.replace_all(r"\b(\d[\w./%]*)\s+([A-Za-z_(])", "$1\t$2")
        # ` - ` before a name between fields (verl's `step:101 - actor/pg_loss:0.019`)
        .str.replace_all(r"\s+-\s+([A-Za-z_])", "\t$1")
        # (a comma between digits is a thousands separator, not a field's end)
        .str.replace_all(r"\s*[|;\t]\s*|,\s+|\s{2,}|\s+--\s+", "\t")
        .str.split("\t"),
    ).explode("field")


def _parts(pieces: pl.DataFrame) -> pl.DataFrame:
    """Each field cut into its name, number (or clock) and unit (null where it is none)."""
    return (
        pieces.with_columns(pl.col("field").str.extract_groups(_FIELD).alias("g"))
        .unnest("g")
        .with_columns(unit=pl.coalesce("scaled", "unit"))
        .drop("scaled")
    )


def _unread(parts: pl.DataFrame) -> tuple[int, str | None]:
    """How many fields under a name this module knows hold no number it can read (`loss:
    n/a`), and the first of them: counted, not dropped unsaid."""
    name = (
        pl.col("field")
        .str.extract(r"^\s*([A-Za-z_][\w /.()-]*?)\s*[:=]", 1)
        .str.to_lowercase()
        .str.replace_all(r"[^a-z0-9]", "")
    )
    bad = parts.filter(name.is_in(list(_COLUMN_OF)) & pl.col("name").is_null())
    return bad.height, (bad.item(0, "field") if bad.height else None)


def _fields(parts: pl.DataFrame) -> pl.DataFrame:
    """(row, column, value): each known name's number, in canonical units."""
    name = (
        pl.col("name")
        # a field's name is what follows its last number (`epoch 001: 100 / 1000 loss`; a
        # word's own digits are its name's, `E2E latency`) and a logger's prefix
        # (`INFO:tensorflow:loss`)
        .str.replace(r"^.*\b\d[\d.,]*\b[^A-Za-z]*", "")
        .str.replace(r"^.*:", "")
        .str.to_lowercase()
        .str.replace_all(r"[^a-z0-9]", "")
    )
    unit = pl.col("unit").fill_null("")
    # a count written short (`4.71K`, `85.8G`, `480B` tokens: billions)
    scale = unit.replace_strict(_SCALES, default=1.0, return_dtype=pl.Float64) * pl.col(
        "rate_scale"
    ).replace_strict(_RATE_SCALES, default=1.0, return_dtype=pl.Float64)
    plain = pl.col("number").str.replace_all(",", "").cast(pl.Float64, strict=False) * scale
    # h:mm:ss or mm:ss, in seconds: read only as a clock (a `time: 1:52:18` on a step line
    # is more often the run's total than the step's)
    seconds = clock_seconds(pl.col("clock"))
    number = pl.when(pl.col("how") == "clock").then(seconds).otherwise(plain)
    by_unit = pl.coalesce(
        pl.when(unit.str.contains(f"(?i){pattern}")).then(pl.lit(f"{column} {how}"))
        for pattern, column, how in _UNITS
    )
    other_loss = pl.col("key").str.contains(_OTHER_LOSS) & ~pl.col("key").str.contains(
        _NOT_TRAINING
    )
    # A clock under a step time's name (`Time=07:29:39`, `time: 1:52:18`) is a clock that
    # runs with the job, a time of day or the run's total: a step's time is its growth.
    clocked = pl.col("clock").is_not_null() & (
        pl.col("key").replace_strict(_HOW_OF, default=None, return_dtype=pl.String) == "time"
    )
    # An `iter` with a fraction is seconds per iteration (Meta Lingua's `iter:  0.8908`
    # after its `step: 2`): a counter has none.
    fractional_iter = (pl.col("key") == "iter") & pl.col("number").str.contains(".", literal=True)
    # A duration with no name on a step's line is the step's time (llama2.c's
    # `490 | loss 5.7543 | lr 4.9e-05 | 8060.78ms | mfu 0.21%`).
    nameless_time = (pl.col("key") == "") & unit.is_in(["ms", "s"])
    known = (
        parts.filter(pl.col("number").is_not_null() | pl.col("clock").is_not_null())
        .with_columns(key=name, _by_unit=by_unit)
        .with_columns(
            column=pl.coalesce(
                pl.when(clocked).then(pl.lit("_elapsed")),
                pl.when(fractional_iter | nameless_time).then(pl.lit("step_time")),
                pl.col("key").replace_strict(_COLUMN_OF, default=None, return_dtype=pl.String),
                pl.col("_by_unit").str.split(" ").list.first(),
                pl.when(other_loss).then(pl.lit("loss")),
            ),
            how=pl.coalesce(
                pl.when(clocked).then(pl.lit("clock")),
                pl.when(fractional_iter | nameless_time).then(pl.lit("time")),
                pl.col("key").replace_strict(_HOW_OF, default=None, return_dtype=pl.String),
                pl.col("_by_unit").str.split(" ").list.last(),
                pl.lit("plain"),
            ),
        )
    )
    value = (
        pl.when(pl.col("how") == "ms")
        .then(number / 1000)
        .when((pl.col("how") == "time") & unit.str.starts_with("ms"))
        .then(number / 1000)
        .when((pl.col("how") == "rate") & (number > 0))
        .then(1 / number)
        .when(pl.col("how") == "rate")
        .then(None)
        .when(pl.col("how") == "tera")
        .then(number / 1e12)
        # A completed step at no throughput is one not measured (fairseq's first update
        # prints wps=0, ups=0): no number rather than a false stop.
        .when((number == 0) & pl.col("column").is_in(["tokens_per_second", "samples_per_second"]))
        .then(None)
        .when((pl.col("how") == "fraction") & ((unit == "%") | (number > 1)))
        .then(number / 100)
        .otherwise(number)
    )
    # Where a line names one quantity twice (`loss` and `lm_loss`), the name listed first
    # in _NAMES wins; a name read by its unit or its `loss` ending comes after those, and a
    # bare `time` or `seconds` after everything: it may be the interval's time, which a
    # rate of steps on the same line settles (Knover's `step: 100, time: 6.095, speed:
    # 16.406 steps/s` logs every 100 steps).
    rank = pl.col("key").replace_strict(
        {**_RANK_OF, **dict.fromkeys(_AMBIGUOUS_TIMES, len(_RANK_OF) + 1)},
        default=len(_RANK_OF),
        return_dtype=pl.Int64,
    )
    return (
        known.filter(pl.col("column").is_not_null())
        .select("row", "column", value=value, _rank=rank)
        .sort("row", "column", "_rank", nulls_last=True)
        .unique(["row", "column"], keep="first", maintain_order=True)
        .drop("_rank")
    )


def _across_epochs(steps: pl.DataFrame) -> pl.DataFrame:
    """Counters that start again each epoch made one count: where the counter goes back as
    the epoch goes up, the step is epoch x steps per epoch + the counter (a counter that
    runs on across epochs, PaddleSeg's `iter: 40/500`, is left as it is)."""
    epoch, count, of = pl.col("_epoch"), pl.col("iteration"), pl.col("_of")
    restarts = steps.select(
        ((count < count.shift(1)) & (epoch > epoch.shift(1)) & of.is_not_null()).any()
    ).item()
    if restarts:
        steps = steps.with_columns(
            iteration=pl.when(epoch.is_not_null() & of.is_not_null())
            .then(epoch * of + count)
            .otherwise(count)
        )
    return steps.drop("_epoch", "_of")


# A counter written short (LeRobot's `step:1K`, `step:1.2K`): rounded, it tells no step.
_SHORT_COUNTER = r"(?i)\bstep\s*[:=]\s*(?P<value>\d+(?:\.(?P<decimals>\d+))?)(?P<unit>[KM])\b"


def _short_counters(steps: pl.DataFrame, where: str) -> tuple[pl.DataFrame, list[str]]:
    """Steps whose counter is written short, counted on from the last exact one by the
    interval the exact ones are logged at, where that agrees with the rounded number
    (LeRobot prints `step:800` then `step:1K` three times: 1000, 1200, 1400); the others
    are left out, with a note."""
    short = pl.col("_short").struct
    exact = pl.col("iteration")
    if steps.get_column("_short").struct.field("value").is_null().all():
        return steps.drop("_short"), []
    # the interval the exact counters are logged at most often (a checkpoint line naming
    # its step now and then is not one of them)
    gaps = steps.get_column("iteration").drop_nulls().diff()
    gaps = gaps.filter(gaps > 0)
    every = gaps.mode().min() if gaps.len() else None
    scale = pl.when(short.field("unit").str.to_uppercase() == "K").then(1e3).otherwise(1e6)
    approx = short.field("value").cast(pl.Float64) * scale
    # the rounding of the printed number: half its last digit
    slack = 0.5 * scale / pl.lit(10.0).pow(short.field("decimals").str.len_chars().fill_null(0))
    row = pl.int_range(pl.len())
    since = row - pl.when(exact.is_not_null()).then(row).forward_fill()
    counted = exact.forward_fill() + since * (every or 0)
    fits = (counted - approx).abs() <= slack
    short_rows = exact.is_null()
    written_short = int(steps.select(short_rows.sum()).item())
    steps = steps.with_columns(
        iteration=pl.when(short_rows & pl.lit(every is not None) & fits)
        .then(counted)
        .otherwise(exact)
        .cast(pl.Int64)
    )
    left = steps.filter(pl.col("iteration").is_null()).height
    told = written_short - left
    notes = []
    if told:
        notes.append(
            f"{where}: {told} step counters written short (`step:1K`) are counted on from the "
            f"last exact one, every {every:g} steps as the exact ones are"
        )
    if left:
        notes.append(
            f"{where}: {left} step counters written short could not be told apart; left out"
        )
    return steps.filter(pl.col("iteration").is_not_null()).drop("_short"), notes


def _per_step(frame: pl.DataFrame, where: str) -> tuple[pl.DataFrame, list[str]]:
    """A printed time that spans the lines' interval rather than one step (Marian's `Time
    984.07s` over 2000 updates) made per step. Told apart where the lines have their own
    times: a time per step times the steps between two lines is their spacing; a time per
    interval is the spacing itself."""
    gap = pl.col("iteration").diff()
    spacing = pl.col("ts").diff().dt.total_seconds(fractional=True)
    ratio = frame.select(
        per_step=(spacing / (pl.col("step_time") * gap)).filter(gap > 1).median(),
        per_interval=(spacing / pl.col("step_time")).filter(gap > 1).median(),
    ).row(0, named=True)
    per_step, per_interval = ratio["per_step"], ratio["per_interval"]
    # (lines timed to the second that share one, as mpirun's stamps do for fast steps,
    # have no spacing to compare with)
    if not (per_step and per_interval and per_step > 0 and per_interval > 0):
        return frame, []
    # Only when the lines say so clearly: the interval within a third of the spacing, a
    # step's time off it by twice or more (lines that contradict themselves are left).
    if abs(math.log(per_interval)) < math.log(1.5) and abs(math.log(per_step)) > math.log(2):
        return frame.with_columns(step_time=pl.col("step_time") / gap), [
            f"{where}: the printed time is the time since the line before (it matches the "
            "lines' spacing), so the time per step is it over the steps between them"
        ]
    return frame, []


# An evaluation's report names the validation loss beside a train loss estimated over
# held-out batches (nanoGPT's `step 2: train loss 10.9370, val loss 10.9377`, between its
# `iter 2: loss 10.9481, time ...` lines).
_REPORT = r"(?i)\b(?:val|valid|validation|eval|test)[_ ]?loss\b"


def _without_evaluation_reports(frame: pl.DataFrame) -> tuple[pl.DataFrame, int]:
    """The rows without the evaluation reports whose step a progress line of its own also
    prints (a trainer whose only line per step names both losses keeps them), and how many
    were left out."""
    own = frame.filter(~pl.col("_report")).get_column("iteration").unique()
    dropped = pl.col("_report") & pl.col("iteration").is_in(own.implode())
    count = int(frame.select(dropped.sum()).item())
    return frame.filter(~dropped).drop("_report"), count


# The tokens one step takes, stated once in a run's header (`Tokens / optimizer step :
# 32,768`): a step's time is them over the tokens per second where none is printed.
_TOKENS_PER_STEP = (
    r"(?i)^\W*tokens?\s*(?:/|per)\s*(?:optimi[sz]er\s+)?(?:step|update|iter(?:ation)?|batch)\b"
    r"\s*[:=]\s*(\d[\d,]*)\s*$"
)


def _header_batch_tokens(lines: pl.DataFrame) -> float | None:
    """The tokens per step a header line states, where one does (the first)."""
    got = (
        lines.select(pl.col("text").str.extract(_TOKENS_PER_STEP, 1).str.replace_all(",", ""))
        .get_column("text")
        .drop_nulls()
        .cast(pl.Float64, strict=False)
        .drop_nulls()
    )
    return float(got[0]) if got.len() and got[0] > 0 else None


# TensorFlow's LoggingTensorHook: `loss = 48.18, step = 1001 (46.707 sec)`, the time since
# the hook's line before
_SINCE_LAST = r"\bstep = \d+ \(([\d.]+) sec\)"


def _from_clock(frame: pl.DataFrame) -> pl.DataFrame:
    """A step's time, where the lines give none, from the run's clock (LLaMA-Factory's
    `elapsed_time`): its growth over the steps between two lines; else from the time since
    the line before (TensorFlow's hook) over those steps; else from the tokens a step takes
    over the tokens per second (fairseq's `wpb` over its `wps`)."""
    clock, steps = pl.col("_elapsed").diff(), pl.col("iteration").diff()
    per_batch = pl.col("_batch_tokens") / pl.col("tokens_per_second")
    return frame.with_columns(
        step_time=pl.coalesce(
            "step_time",
            pl.when((clock > 0) & (steps > 0)).then(clock / steps),
            pl.when(steps > 0).then(pl.col("_since_last") / steps),
            pl.when(per_batch > 0).then(per_batch),
        )
    )


def parse(text: TrainerText, ctx: Context) -> Parsed:
    where = text.path.name
    # JSON's quotes around names and values (fairseq's json log format) go first.
    lines = text.lines
    if lines.select(pl.col("text").str.contains("%|", literal=True).any()).item():
        bar = pl.col("text")
        lines = lines.with_columns(
            pl.when(bar.str.contains(_EPOCH_BAR))
            .then(
                bar.str.replace(_TQDM, "${desc} [${count}/${total}] | ${rate} ${unit} | ${postfix}")
            )
            .otherwise(bar.str.replace(_TQDM, "${desc} | ${rate} ${unit} | ${postfix}"))
        )
    # (quotes around names and values: JSON's, and Python's dicts as loggers print them)
    steps = _blocks(lines).with_columns(pl.col("text").str.replace_all(r"[\"']", ""))
    if text.incomplete and steps.height:
        steps = steps.filter(pl.col("line") != text.lines.get_column("line").max())
    line = pl.col("text")
    counted = line.str.replace(_EPOCH_OF, "$1 $2")
    counter = pl.coalesce(counted.str.extract(p, 1) for p in _COUNTERS).cast(pl.Int64, strict=False)
    steps = steps.with_columns(
        iteration=counter,
        _short=line.str.extract_groups(_SHORT_COUNTER),
        _epoch=counted.str.extract(_EPOCH, 1).cast(pl.Int64, strict=False),
        _of=counted.str.extract(_OF, 1).cast(pl.Int64, strict=False),
    ).filter(
        (pl.col("iteration").is_not_null() | pl.col("_short").struct.field("value").is_not_null())
        & ~pl.col("text").str.contains(_EVALUATION)
    )
    steps, short_notes = _short_counters(steps, where)
    steps = _across_epochs(steps)
    if steps.height == 0:
        return Parsed(notes=[f"{where}: no complete progress line to read"])
    parts = _parts(_split(steps))
    fields = _fields(parts)
    unread, example = _unread(parts)
    wide = (
        fields.pivot(on="column", index="row", values="value", aggregate_function="first")
        if fields.height
        else pl.DataFrame(schema={"row": pl.UInt32})
    )
    numbers = (
        pl.DataFrame({"row": pl.int_range(steps.height, eager=True, dtype=pl.UInt32)})
        .join(wide, on="row", how="left", maintain_order="left")
        # (with_columns: a frame of literals alone would be one row long)
        .with_columns(pl.lit(None, pl.Float64).alias(c) for c in _COLUMNS if c not in wide.columns)
        .select(_COLUMNS)
    )
    since_last = line.str.extract(_SINCE_LAST, 1).cast(pl.Float64, strict=False)
    frame = pl.concat(
        [
            steps.select(
                "line",
                "ts",
                "iteration",
                _since_last=since_last,
                _report=line.str.contains(_REPORT),
                _shape=_shape(line),
            ),
            numbers,
        ],
        how="horizontal",
    ).filter(pl.any_horizontal(pl.col(c).is_not_null() for c in _COLUMNS))
    frame, reports = _without_evaluation_reports(frame)
    header_tokens = _header_batch_tokens(lines)
    if header_tokens is not None:
        frame = frame.with_columns(_batch_tokens=pl.col("_batch_tokens").fill_null(header_tokens))
    frame, notes = _per_step(_from_clock(frame), where)
    notes = [*short_notes, *notes]
    if reports:
        notes.append(
            f"{where}: {reports} evaluation reports (a train and a validation loss measured "
            "on held-out batches) name a step that its own progress line also prints; the "
            "progress line's numbers are used"
        )
    if header_tokens is not None:
        notes.append(
            f"{where}: the header says a step takes {header_tokens:,.0f} tokens; where no "
            "step time is printed, a step's time is them over the tokens per second"
        )
    if unread:
        notes.append(
            f"{where}: {unread} values under names the reader knows are not numbers it can "
            f"read (the first: `{example}`); left out"
        )
    if frame.height:
        named = [
            c.replace("_", " ")
            for c in _COLUMNS
            if not c.startswith("_") and frame.get_column(c).is_not_null().any()
        ]
        notes.append(
            f"{where}: read as a trainer's progress lines by their field names ({', '.join(named)})"
        )
    frame = frame.drop("_since_last", *(c for c in _COLUMNS if c.startswith("_")))
    return Parsed(records(_kinds(frame)), {}, [], notes)


_SHAPE_CHARS = 16


def _shape(line: pl.Expr) -> pl.Expr:
    """A progress line's shape: its start without digits (`[Step /100] Loss: ` and
    `[-- ::,] [INFO] [logging.py::log_dist] [Rank ] step=` are two shapes; the times and
    counts of one shape's lines differ only in their digits)."""
    return line.str.replace_all(r"\d+", "").str.head(_SHAPE_CHARS)


def _kinds(frame: pl.DataFrame) -> pl.DataFrame:
    """`kind` per line shape: `generic` for the first shape in the file, `generic-2` and on
    for the others. A run's restart is judged per kind (timeline._segments), so a script's
    own steps counted from 0 between DeepSpeed's `step=` lines counted from 1 are two
    sequences going up, not a run restarting at every line."""
    order = frame.group_by("_shape").agg(first=pl.col("line").min()).sort("first")
    rank = dict(zip(order.get_column("_shape"), range(1, order.height + 1), strict=True))
    number = pl.col("_shape").replace_strict(rank, return_dtype=pl.Int64)
    kind = pl.when(number == 1).then(pl.lit("generic")).otherwise(pl.format("generic-{}", number))
    return frame.with_columns(kind=kind).drop("_shape")


FORMAT = TrainerFormat(
    "generic", "a trainer's progress lines (step and named numbers)", SNIFF, parse, fallback=True
)
