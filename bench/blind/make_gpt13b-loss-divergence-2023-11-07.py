#!/usr/bin/env python3
"""Build the incident folder `gpt13b-loss-divergence-2023-11-07` beside this script.

A control case with no hardware fault.  A 13B GPT model trains with Megatron-DeepSpeed
(fp16, ZeRO-1, TP=2, DP=64) on 16 nodes x 8 A100-SXM4-80GB (InfiniBand HDR).  From 10:41
UTC the loss and the gradient norm start to spike; DeepSpeed's dynamic loss scaler skips
steps on overflow, two iterations produce a NaN loss at 11:22 and the loss settles near
7.5.  The team cancels the job at 11:25, rolls back to the iteration-37250 checkpoint and
relaunches at 11:48 with half the learning rate (--lr 1.5e-4, --override-opt_param-scheduler).
Throughput, power and every host are normal throughout apart from the stop.

Fixed seed: running it twice gives the same folder.  Needs numpy, pyyaml.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import math
import pathlib
import shutil

import numpy as np
import yaml

SEED = 18_1107
RNG = np.random.default_rng(SEED)
INCIDENT_ID = "gpt13b-loss-divergence-2023-11-07"
HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE / INCIDENT_ID


def ts(s: str) -> float:
    return dt.datetime.fromisoformat(s).replace(tzinfo=dt.timezone.utc).timestamp()


def utc(t: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(t, tz=dt.timezone.utc)


def ds_stamp(t: float) -> str:
    d = utc(t)
    return d.strftime("%Y-%m-%d %H:%M:%S,") + f"{d.microsecond // 1000:03d}"


# --------------------------------------------------------------------------- timeline
W0 = ts("2023-11-07T08:30:00")
W1 = ts("2023-11-07T12:30:00")
BASE_END = ts("2023-11-07T10:30:00")
SUBMIT1 = ts("2023-11-06T18:38:52.114")
ALLOC1 = SUBMIT1 + 0.204
TRAIN1 = ts("2023-11-06T18:46:31.207")      # first iteration of job 48213 begins
FIRST_SPIKE = ts("2023-11-07T10:41:05")
CANCEL = ts("2023-11-07T11:25:37.402")
SUBMIT2 = ts("2023-11-07T11:47:58.330")
ALLOC2 = SUBMIT2 + 0.571
LOG_END = ts("2023-11-07T12:41:10")

HOSTS = [f"gpu-a{i:03d}" for i in range(1, 17)]
IP = {h: f"10.10.1.{10 + i}" for i, h in enumerate(HOSTS, start=1)}
BOOT = {h: ts("2023-10-24T09:10:00") + float(RNG.uniform(0, 5400)) for h in HOSTS}
GPU_BUS = ["07", "0f", "47", "4e", "87", "90", "b7", "bd"]
IB_DEVS = [f"mlx5_{i}" for i in range(4)]   # 4 x HDR200 HCAs, one per GPU pair
MODEL = "NVIDIA A100-SXM4-80GB"
DRIVER = "535.104.12"
KERNEL_REL = "5.15.0-87-generic"
KERNEL_VER = "#97-Ubuntu SMP Mon Oct 2 21:09:21 UTC 2023"

# --------------------------------------------------------------------------- model of the run
GBS, SEQ, WORLD = 1024, 2048, 128
TRAIN_ITERS = 100_000
WARMUP = 2000
ITER_S = 13.08
SAVE_INTERVAL = 250
SAVE_S = 94.5
CKPT_DIR = "/lustre/proj/llm/gpt13b-v2/checkpoints"
START_ITER1 = 32250


def lr_at(it: int, max_lr: float, min_lr: float) -> float:
    if it <= WARMUP:
        return max_lr * it / WARMUP
    p = (it - WARMUP) / (TRAIN_ITERS - WARMUP)
    return min_lr + 0.5 * (max_lr - min_lr) * (1 + math.cos(math.pi * p))


def tflops_of(elapsed_s: float) -> float:
    # Megatron-DeepSpeed's throughput_calculator with activation recomputation (factor 4)
    p = 13.1e9
    flops_per_iter = 24 * 4 * GBS * SEQ * 40 * 5120 ** 2 * (1 + SEQ / (6 * 5120) + 50304 / (16 * 40 * 5120))
    return flops_per_iter / (elapsed_s * WORLD * 1e12)


def simulate_run(first_iter: int, t_start: float, t_stop: float, first_extra: float):
    """iterations with end time; checkpoint saves lengthen the following interval."""
    out = []
    t = t_start
    it = first_iter
    wander = 0.0
    pending = 0.0   # a checkpoint save falls into the next iteration's interval timer
    while True:
        wander = 0.995 * wander + RNG.normal(0, 0.0008)
        d = ITER_S * (1 + wander + RNG.normal(0, 0.0035)) + pending
        pending = 0.0
        if it == first_iter:
            d += first_extra
        if RNG.random() < 0.004:          # an occasional slow data-loader batch
            d += RNG.uniform(1.5, 6.0)
        save = (it % SAVE_INTERVAL == 0)
        if t + d > t_stop:
            break
        t += d
        out.append((it, t, d, save))
        if save:
            pending = SAVE_S + RNG.normal(0, 2.5)
        it += 1
    return out


RUN1 = simulate_run(START_ITER1 + 1, TRAIN1, CANCEL, first_extra=9.0)
CKPTS1 = [(it, te) for it, te, _, sv in RUN1 if sv]
RESTART_FROM = max(it for it, te in CKPTS1 if te < FIRST_SPIKE - 300)
TRAIN2 = ts("2023-11-07T11:55:11.420")
RUN2 = simulate_run(RESTART_FROM + 1, TRAIN2, LOG_END, first_extra=11.0)


def phase_of(t: float) -> str:
    if t < FIRST_SPIKE:
        return "calm"
    if t < ts("2023-11-07T10:58:00"):
        return "early"
    if t < ts("2023-11-07T11:09:00"):
        return "spiky"
    if t < ts("2023-11-07T11:16:00"):
        return "rising"
    if t < ts("2023-11-07T11:20:00"):
        return "unstable"
    if t < ts("2023-11-07T11:22:25"):
        return "diverging"
    return "diverged"


# --------------------------------------------------------------------------- trainer output
def build_job_logs():
    """Return (text of slurm-48213.out, text of slurm-48229.out, facts)."""
    facts = {}

    def node_rank(gr):  # global rank -> (host, local rank)
        return HOSTS[gr // 8], gr % 8

    def header(t0, job, lines, lr, min_lr, override, load_iter):
        lines.append((t0, f"+ srun --jobid {job} bash -c 'python -u -m torch.distributed.run --nproc_per_node 8 "
                          f"--nnodes 16 --node_rank $SLURM_PROCID --rdzv_endpoint gpu-a001:6000 --rdzv_backend c10d "
                          f"--max_restarts 0 --tee 3 pretrain_gpt.py --tensor-model-parallel-size 2 "
                          f"--pipeline-model-parallel-size 1 --num-layers 40 --hidden-size 5120 --num-attention-heads 40 "
                          f"--seq-length 2048 --max-position-embeddings 2048 --micro-batch-size 2 --global-batch-size 1024 "
                          f"--train-iters 100000 --lr {lr} --min-lr {min_lr} --lr-decay-style cosine --lr-warmup-iters 2000 "
                          f"--clip-grad 1.0 --weight-decay 0.1 --adam-beta1 0.9 --adam-beta2 0.95 --fp16 "
                          f"{'--override-opt_param-scheduler ' if override else ''}--log-interval 1 --save-interval 250 "
                          f"--eval-interval 2000 --eval-iters 5 --save {CKPT_DIR} --load {CKPT_DIR} "
                          f"--data-path 0.7 /lustre/proj/llm/data/pile_text_document 0.3 /lustre/proj/llm/data/c4en_text_document "
                          f"--vocab-file gpt2-vocab.json --merge-file gpt2-merges.txt --recompute-activations "
                          f"--deepspeed --deepspeed_config ds_config_gpt13b.json --zero-stage 1 --no-pipeline-parallel "
                          f"--tensorboard-dir /lustre/proj/llm/gpt13b-v2/tb'"))
        tt = t0 + 17.0
        for h in HOSTS:
            x = tt + RNG.uniform(0, 1.8)
            for msg in ["", "*****************************************",
                        "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid "
                        "your system being overloaded, please further tune the variable for optimal performance in "
                        "your application as needed. ", "*****************************************"]:
                lines.append((x, f"[{ds_stamp(x)}] torch.distributed.run: [WARNING] {msg}"))
                x += 1e-6
        tt += 9.0
        for gr in range(WORLD):
            x = tt + RNG.uniform(0, 2.5)
            lines.append((x, f"[default{gr % 8}]:[{ds_stamp(x)}] [INFO] [real_accelerator.py:110:get_accelerator] "
                             f"Setting ds_accelerator to cuda (auto detect)"))
        tt += 6.0
        lines.append((tt, "[default0]:using world size: 128, data-parallel-size: 64, sequence-parallel size: 1, "
                          "tensor-model-parallel size: 2, pipeline-model-parallel size: 1 "))
        lines.append((tt + 0.001, "[default0]:using torch.float16 for parameters ..."))
        lines.append((tt + 0.002, "[default0]:------------------------ arguments ------------------------"))
        args = {
            "accumulate_allreduce_grads_in_fp32": False, "adam_beta1": 0.9, "adam_beta2": 0.95, "adam_eps": 1e-08,
            "attention_dropout": 0.1, "bf16": False, "clip_grad": 1.0, "consumed_train_samples": 0,
            "data_parallel_size": 64, "data_path": "['0.7', '/lustre/proj/llm/data/pile_text_document', '0.3', "
            "'/lustre/proj/llm/data/c4en_text_document']", "deepspeed": True,
            "deepspeed_config": "ds_config_gpt13b.json", "distributed_backend": "nccl", "eval_interval": 2000,
            "eval_iters": 5, "ffn_hidden_size": 20480, "fp16": True, "global_batch_size": 1024,
            "hidden_dropout": 0.1, "hidden_size": 5120, "hysteresis": 2, "init_method_std": 0.008,
            "initial_loss_scale": 4294967296, "kill_switch_file": None, "load": CKPT_DIR, "local_rank": 0,
            "log_interval": 1, "loss_scale": None, "loss_scale_window": 1000, "lr": lr,
            "lr_decay_iters": None, "lr_decay_style": "cosine", "lr_warmup_fraction": None,
            "lr_warmup_iters": 2000, "make_vocab_size_divisible_by": 128, "max_position_embeddings": 2048,
            "micro_batch_size": 2, "min_loss_scale": 1.0, "min_lr": min_lr, "no_pipeline_parallel": True,
            "num_attention_heads": 40, "num_layers": 40, "optimizer": "adam",
            "override_opt_param_scheduler": override, "params_dtype": "torch.float16",
            "pipeline_model_parallel_size": 1, "rank": 0, "recompute_granularity": "full",
            "save": CKPT_DIR, "save_interval": 250, "seed": 1234, "seq_length": 2048,
            "split": "969, 30, 1", "tensor_model_parallel_size": 2,
            "tensorboard_dir": "/lustre/proj/llm/gpt13b-v2/tb", "tokenizer_type": "GPT2BPETokenizer",
            "train_iters": 100000, "use_checkpoint_opt_param_scheduler": False, "weight_decay": 0.1,
            "world_size": 128, "zero_stage": 1,
        }
        strs = [f"  {k} {'.' * (48 - len(k))} {v}" for k, v in args.items()]
        for k, s in enumerate(sorted(strs, key=lambda x: x.lower())):
            lines.append((tt + 0.003 + 1e-5 * k, f"[default0]:{s}"))
        lines.append((tt + 0.01, "[default0]:-------------------- end of arguments ---------------------"))
        lines.append((tt + 0.011, "[default0]:setting number of micro-batches to constant 8"))
        lines.append((tt + 0.02, "[default0]:> building GPT2BPETokenizer tokenizer ..."))
        lines.append((tt + 0.2, "[default0]: > padded vocab (size: 50257) with 175 dummy tokens (new size: 50432)"))
        lines.append((tt + 0.3, "[default0]:> initializing torch distributed ..."))
        lines.append((tt + 4.2, "[default0]:> initialized tensor model parallel with size 2"))
        lines.append((tt + 4.2001, "[default0]:> initialized pipeline model parallel with size 1"))
        lines.append((tt + 4.3, "[default0]:> setting random seeds to 1234 ..."))
        lines.append((tt + 4.4, "[default0]:> compiling dataset index builder ..."))
        lines.append((tt + 5.6, "[default0]:>>> done with dataset index builder. Compilation time: 1.172 seconds"))
        lines.append((tt + 5.7, "[default0]:> compiling and loading fused kernels ..."))
        lines.append((tt + 19.9, "[default0]:>>> done with compiling and loading fused kernels. Compilation time: 14.118 seconds"))
        lines.append((tt + 21.0, f"[default0]:time to initialize megatron (seconds): {21.0 + RNG.uniform(3, 6):.3f}"))
        lines.append((tt + 21.1, f"[default0]:[after megatron is initialized] datetime: {utc(tt + 21.1).strftime('%Y-%m-%d %H:%M:%S')} "))
        lines.append((tt + 21.2, "[default0]:building GPT model ..."))
        for gr in range(0, 2):
            lines.append((tt + 24.0 + 0.01 * gr, f"[default{gr}]: > number of parameters on (tensor, pipeline) model parallel rank ({gr}, 0): 6431293440"))
        x = tt + 26.0
        for msg in [
            "[INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed info: version=0.9.5, git-hash=unknown, git-branch=unknown",
            "[INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed Flops Profiler Enabled: False",
            "[INFO] [logging.py:96:log_dist] [Rank 0] Using client Optimizer as basic optimizer",
            "[INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed Basic Optimizer = FusedAdam",
            "[INFO] [logging.py:96:log_dist] [Rank 0] Creating torch.float16 ZeRO stage 1 optimizer",
            "[INFO] [stage_1_and_2.py:133:__init__] Reduce bucket size 500,000,000",
            "[INFO] [stage_1_and_2.py:134:__init__] Allgather bucket size 500,000,000",
            "[INFO] [stage_1_and_2.py:135:__init__] CPU Offload: False",
            "[INFO] [stage_1_and_2.py:136:__init__] Round robin gradient partitioning: False",
            "[INFO] [stage_1_and_2.py:488:__init__] optimizer state initialized",
            "[INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed Final Optimizer = adam",
            "[INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed using client LR scheduler",
            "[INFO] [config.py:960:print] DeepSpeedEngine configuration:",
            "[INFO] [config.py:964:print]   bfloat16_enabled ............. False",
            "[INFO] [config.py:964:print]   dynamic_loss_scale_args ...... {'init_scale': 4294967296, 'scale_window': 1000, 'delayed_shift': 1, 'consecutive_hysteresis': False, 'min_scale': 1}",
            "[INFO] [config.py:964:print]   fp16_auto_cast ............... False",
            "[INFO] [config.py:964:print]   fp16_enabled ................. True",
            "[INFO] [config.py:964:print]   global_rank .................. 0",
            "[INFO] [config.py:964:print]   gradient_accumulation_steps .. 8",
            "[INFO] [config.py:964:print]   gradient_clipping ............ 1.0",
            "[INFO] [config.py:964:print]   initial_dynamic_scale ........ 4294967296",
            "[INFO] [config.py:964:print]   loss_scale ................... 0",
            "[INFO] [config.py:964:print]   steps_per_print .............. 10",
            "[INFO] [config.py:964:print]   train_batch_size ............. 1024",
            "[INFO] [config.py:964:print]   train_micro_batch_size_per_gpu  2",
            "[INFO] [config.py:964:print]   wall_clock_breakdown ......... False",
            "[INFO] [config.py:964:print]   world_size ................... 64",
            "[INFO] [config.py:964:print]   zero_allow_untested_optimizer  False",
            "[INFO] [config.py:964:print]   zero_enabled ................. True",
            "[INFO] [config.py:964:print]   zero_optimization_stage ...... 1",
        ]:
            lines.append((x, f"[default0]:[{ds_stamp(x)}] {msg}"))
            x += RNG.uniform(0.0001, 0.0009) if "config.py" in msg else RNG.uniform(0.01, 0.3)
        # loading the checkpoint
        x += 2.0
        lines.append((x, f"[default0]: loading checkpoint from {CKPT_DIR} at iteration {load_iter}"))
        for gr in range(WORLD):
            y = x + RNG.uniform(0.5, 40.0)
            dp, tp = gr // 2, gr % 2
            lines.append((y, f"[default{gr % 8}]:[{ds_stamp(y)}] [INFO] [torch_checkpoint_engine.py:27:load] [Torch] "
                             f"Loading checkpoint from {CKPT_DIR}/global_step{load_iter}/zero_pp_rank_{dp}_mp_rank_{tp:02d}_optim_states.pt..."))
            y2 = y + RNG.uniform(20, 60)
            lines.append((y2, f"[default{gr % 8}]:[{ds_stamp(y2)}] [INFO] [torch_checkpoint_engine.py:29:load] [Torch] "
                              f"Loaded checkpoint from {CKPT_DIR}/global_step{load_iter}/zero_pp_rank_{dp}_mp_rank_{tp:02d}_optim_states.pt."))
        x += 105.0
        if override:
            for nm, v in [("learning rate", lr), ("minimum learning rate", min_lr), ("warmup iterations", 2000),
                          ("warmup tokens", 0), ("total number of iterations", 100000), ("decay tokens", None),
                          ("learning rate decay style", "cosine")]:
                lines.append((x, f"[default0]: > overriding {nm} value to {v}"))
                x += 1e-4
        else:
            for nm, v in [("learning rate", lr), ("minimum learning rate", min_lr), ("warmup iterations", 2000),
                          ("warmup tokens", 0), ("total number of iterations", 100000), ("decay tokens", None),
                          ("learning rate decay style", "cosine")]:
                lines.append((x, f"[default0]: > using checkpoint value {v} for {nm}"))
                x += 1e-4
        lines.append((x + 3.0, f"[default0]:  successfully loaded checkpoint from {CKPT_DIR} at iteration {load_iter}"))
        x += 3.5
        lines.append((x, f"[default0]:[after model, optimizer, and learning rate scheduler are built] datetime: {utc(x).strftime('%Y-%m-%d %H:%M:%S')} "))
        lines.append((x + 0.1, "[default0]:> building train, validation, and test datasets ..."))
        lines.append((x + 0.2, "[default0]: > datasets target sizes (minimum size):"))
        lines.append((x + 0.2001, "[default0]:    train:      102400000"))
        lines.append((x + 0.2002, "[default0]:    validation: 5130240"))
        lines.append((x + 0.2003, "[default0]:    test:       5120"))
        lines.append((x + 31.0, "[default0]:> finished creating GPT datasets ..."))
        lines.append((x + 31.2, f"[default0]:[after dataloaders are built] datetime: {utc(x + 31.2).strftime('%Y-%m-%d %H:%M:%S')} "))
        lines.append((x + 31.3, "[default0]:done with setup ..."))
        lines.append((x + 31.4, "[default0]:training ..."))
        return x + 31.5

    def run_lines(run, lines, max_lr, min_lr, scale0, job_tag, stop_at=None):
        """Iteration lines (last rank) + DeepSpeed lines (rank 0)."""
        scale = scale0
        last_overflow = run[0][0] - 1 - int(RNG.integers(100, 700))
        skipped_total = 0
        gn_prev = 0.21
        cons = (run[0][0] - 1) * GBS
        nan_iters = []
        overflow_its = []
        loss_trend0 = 2.118
        spiky_next = 0.0
        losses = {}
        fired = set()
        for k, (it, t_end, d, save) in enumerate(run):
            ph = phase_of(t_end) if job_tag == "48213" else "calm"
            # loss and grad norm of this iteration
            base = loss_trend0 - (it - START_ITER1) * 1.6e-6
            loss = base + RNG.normal(0, 0.032)
            gn = 0.205 * RNG.lognormal(0, 0.16)
            overflow = False
            is_nan = False
            if ph == "early":
                if "first" not in fired:
                    fired.add("first")
                    gn, loss = 2.64, loss + 0.041
                elif RNG.random() < 0.08:
                    gn *= RNG.uniform(2, 6)
            elif ph == "spiky":
                if RNG.random() < 0.30:
                    gn = RNG.uniform(1.4, 9.5)
                    loss += RNG.uniform(0.08, 0.36)
                else:
                    gn *= RNG.uniform(1.5, 3.5)
                    loss += RNG.uniform(0.0, 0.06)
            elif ph == "rising":
                gn = RNG.uniform(6, 62)
                loss = base + RNG.uniform(0.35, 1.3)
            elif ph == "unstable":
                gn = RNG.uniform(28, 160)
                loss = base + RNG.uniform(1.2, 2.7)
            elif ph == "diverging":
                gn = RNG.uniform(180, 940)
                loss = base + RNG.uniform(3.0, 5.4)
            elif ph == "diverged":
                gn = RNG.uniform(40, 420)
                loss = 7.2 + RNG.uniform(0, 1.1)
            # scheduled overflow events (the loss scaler's lines are verbatim public lines)
            if job_tag == "48213":
                for when in OVERFLOW_PLAN:
                    if when not in fired and t_end >= when:
                        fired.add(when)
                        overflow = True
                        if when < FIRST_SPIKE and scale < 2097152:
                            overflow = False   # the baseline overflow only happens at 2^21
                for when in NAN_PLAN:
                    if when not in fired and t_end >= when:
                        fired.add(when)
                        is_nan = True
                        overflow = True
                        break
            # benign overflows overnight whenever the scale has grown to 2^21 or more
            if not overflow and scale >= 2097152 and t_end < W0 - 3600 and RNG.random() < 0.004:
                overflow = True
            if overflow and scale <= 32768:
                overflow = False  # no verbatim line below 32768: never needed in this story
            t_line = t_end + RNG.uniform(0.02, 0.09)
            if overflow:
                new = scale // 2
                lines.append((t_end - 0.05, f"[default0]:[{ds_stamp(t_end - 0.05)}] [INFO] [loss_scaler.py:183:update_scale] "
                                            f"[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: {scale}, reducing to {new}"))
                overflow_its.append((it, t_end, scale, new, is_nan))
                scale = new
                last_overflow = it
                skipped_total += 1
                if is_nan:
                    nan_iters.append((it, t_end))
            else:
                if (it - last_overflow) % 1000 == 0:
                    scale *= 2
            cons += GBS
            lr = lr_at(it, max_lr, min_lr)
            sps = GBS / d
            tgs = sps * SEQ / WORLD
            fields = [f" iteration {it:8d}/{TRAIN_ITERS:8d} |",
                      f" consumed samples: {cons:12d} |",
                      f" consumed tokens: {cons * SEQ:12d} |",
                      f" elapsed time per iteration (ms): {d * 1000:.1f} |",
                      f" learning rate: {lr:.3E} |",
                      f" global batch size: {GBS:5d} |"]
            if not overflow:
                fields.append(f" lm loss: {loss:.6E} |")
                gn_show = gn
                gn_prev = gn
            else:
                gn_show = gn_prev   # ZeRO keeps the previous norm on a skipped step
            fields += [f" loss scale: {float(scale):.1f} |",
                       f" grad norm: {gn_show:.3f} |",
                       f" actual seqlen: {SEQ:5d} |",
                       f" number of skipped iterations: {1 if overflow else 0:3d} |",
                       f" number of nan iterations: {1 if is_nan else 0:3d} |",
                       f" samples per second: {sps:.3f} |",
                       f" tokens per gpu per second (tgs): {tgs:.3f} |",
                       f" TFLOPs: {tflops_of(d):.2f} |"]
            lines.append((t_line, "[default7]:" + "".join(fields)))
            losses[it] = (t_end, None if overflow else loss, gn_show, scale, overflow, is_nan)
            if k == 0:
                lines.append((t_line + 0.3, f"[default0]:[Rank 0] (after {it} iterations) memory (MB) | allocated: "
                                            f"27964.10498046875 | max allocated: 63311.8349609375 | reserved: 68792.0 | max reserved: 68792.0"))
                lines.append((t_line + 0.31, f"[default1]:[Rank 1] (after {it} iterations) memory (MB) | allocated: "
                                             f"27964.10498046875 | max allocated: 63311.8349609375 | reserved: 68676.0 | max reserved: 68676.0"))
            if it % 10 == 0:
                x = t_end - 0.01
                lines.append((x, f"[default0]:[{ds_stamp(x)}] [INFO] [logging.py:96:log_dist] [Rank 0] step={it}, "
                                 f"skipped={skipped_total}, lr=[{lr!r}, {lr!r}], mom=[(0.9, 0.95), (0.9, 0.95)]"))
                cur = GBS / d
                run_avg = GBS / ITER_S * (1 + RNG.normal(0, 0.002))
                lines.append((x + 0.0004, f"[default0]:[{ds_stamp(x + 0.0004)}] [INFO] [timer.py:215:stop] epoch=0/micro_step={it * 8}/"
                                          f"global_step={it}, RunningAvgSamplesPerSec={run_avg!r}, CurrSamplesPerSec={cur!r}, "
                                          f"MemAllocated=27.31GB, MaxMemAllocated=61.83GB"))
            if save:
                x = t_end + 0.2
                lines.append((x, f"[default0]:saving checkpoint at iteration {it:7d} to {CKPT_DIR}"))
                lines.append((x + 0.01, f"[default0]:[{ds_stamp(x + 0.01)}] [INFO] [logging.py:96:log_dist] [Rank 0] [Torch] Checkpoint global_step{it} is about to be saved!"))
                lines.append((x + 0.02, f"[default0]:[{ds_stamp(x + 0.02)}] [INFO] [logging.py:96:log_dist] [Rank 0] Saving model checkpoint: {CKPT_DIR}/global_step{it}/mp_rank_00_model_states.pt"))
                for gr in range(WORLD):
                    dp, tp = gr // 2, gr % 2
                    y = x + RNG.uniform(1, 12)
                    f = f"{CKPT_DIR}/global_step{it}/zero_pp_rank_{dp}_mp_rank_{tp:02d}_optim_states.pt"
                    lines.append((y, f"[default{gr % 8}]:[{ds_stamp(y)}] [INFO] [torch_checkpoint_engine.py:21:save] [Torch] Saving {f}..."))
                    y2 = y + RNG.uniform(55, 80)
                    lines.append((y2, f"[default{gr % 8}]:[{ds_stamp(y2)}] [INFO] [torch_checkpoint_engine.py:23:save] [Torch] Saved {f}."))
                    lines.append((y2 + 0.001, f"[default{gr % 8}]:[{ds_stamp(y2 + 0.001)}] [INFO] [engine.py:3244:_save_zero_checkpoint] zero checkpoint saved {f}"))
                    lines.append((y2 + 0.002, f"[default{gr % 8}]:[{ds_stamp(y2 + 0.002)}] [INFO] [torch_checkpoint_engine.py:33:commit] [Torch] Checkpoint global_step{it} is ready now!"))
                x2 = t_end + SAVE_S - 0.6
                lines.append((x2, f"[default0]:  successfully saved checkpoint at iteration {it:7d} to {CKPT_DIR}"))
                lines.append((x2 + 0.001, "[default7]:(min, max) time across ranks (ms):"))
                lines.append((x2 + 0.002, f"[default7]:    save-checkpoint ................................: ({SAVE_S * 1000 - 40.2:.2f}, {SAVE_S * 1000 - 31.7:.2f})"))
        return losses, overflow_its, nan_iters, scale

    # ----- job 48213
    lines1: list[tuple[float, str]] = []
    t_ready = header(ALLOC1 + 1.3, 48213, lines1, 0.0003, 3e-05, False, START_ITER1)
    lines1.append((t_ready + 0.5, f"[default0]:[before the start of training step] datetime: {utc(t_ready + 0.5).strftime('%Y-%m-%d %H:%M:%S')} "))
    losses1, ovf1, nan1, scale_end = run_lines(RUN1, lines1, 0.0003, 3e-05, 2097152, "48213")
    # scancel
    lines1.append((CANCEL + 0.31, "srun: Job step aborted: Waiting up to 32 seconds for job step to finish."))
    lines1.append((CANCEL + 0.33, f"slurmstepd: error: *** JOB 48213 ON gpu-a001 CANCELLED AT {utc(CANCEL).strftime('%Y-%m-%dT%H:%M:%S')} ***"))
    lines1.append((CANCEL + 0.34, f"slurmstepd: error: *** STEP 48213.0 ON gpu-a001 CANCELLED AT {utc(CANCEL).strftime('%Y-%m-%dT%H:%M:%S')} ***"))
    for h in HOSTS:
        x = CANCEL + 0.4 + RNG.uniform(0, 0.3)
        lines1.append((x, f"[{ds_stamp(x)}] torch.distributed.elastic.agent.server.api: [WARNING] Received Signals.SIGTERM death signal, shutting down workers"))
        pid0 = int(RNG.integers(200000, 900000))
        for lr_ in range(8):
            y = x + 0.001 * (lr_ + 1)
            lines1.append((y, f"[{ds_stamp(y)}] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process {pid0 + lr_} closing signal SIGTERM"))
    lines1 = [l for l in lines1 if l[0] <= CANCEL + 3]
    lines1.sort(key=lambda x: x[0])

    # ----- job 48229 (relaunch from an earlier checkpoint with half the learning rate)
    lines2: list[tuple[float, str]] = []
    header(ALLOC2 + 1.1, 48229, lines2, 0.00015, 1.5e-05, True, RESTART_FROM)
    lines2.append((TRAIN2 - 0.4, f"[default0]:[before the start of training step] datetime: {utc(TRAIN2 - 0.4).strftime('%Y-%m-%d %H:%M:%S')} "))
    scale_ckpt = losses1[RESTART_FROM][3]
    losses2, ovf2, nan2, _ = run_lines(RUN2, lines2, 0.00015, 1.5e-05, int(scale_ckpt), "48229")
    lines2 = [l for l in lines2 if l[0] <= LOG_END]
    lines2.sort(key=lambda x: x[0])
    facts.update(losses1=losses1, losses2=losses2, ovf1=ovf1, nan1=nan1, ovf2=ovf2)
    return ("\n".join(s for _, s in lines1) + "\n", "\n".join(s for _, s in lines2) + "\n", facts)


# loss-scale reductions during the instability; the first is a benign one in the baseline
OVERFLOW_PLAN = [
    ts("2023-11-07T08:47:19"),
    ts("2023-11-07T11:02:14"),
    ts("2023-11-07T11:12:03"),
    ts("2023-11-07T11:18:20"),
]
NAN_PLAN = [ts("2023-11-07T11:22:31"), ts("2023-11-07T11:22:32")]  # two consecutive iterations


# --------------------------------------------------------------------------- metrics
def host_state(h: str, t: np.ndarray) -> np.ndarray:
    """0 idle, 1 training, 2 init/loading, 4 checkpoint save (GPUs mostly idle)."""
    st = np.zeros(len(t), dtype=np.int8)
    st[(t >= TRAIN1) & (t < CANCEL)] = 1
    st[(t >= ALLOC2 + 18) & (t < TRAIN2)] = 2
    st[(t >= TRAIN2)] = 1
    for run in (RUN1, RUN2):
        for it, te, d, sv in run:
            if sv:
                st[(t >= te + 1.0) & (t < te + SAVE_S - 1.0)] = 4
    return st


def scrape_times(h: str, interval: float, salt: int) -> np.ndarray:
    r = np.random.default_rng(SEED + salt + HOSTS.index(h))
    phase = r.uniform(0, interval)
    n = int((W1 - W0) // interval) + 1
    t = W0 + phase + np.arange(n) * interval + r.normal(0, 0.004, n)
    return np.round(t[(t >= W0) & (t <= W1)], 3)


def ema(x, a):
    y = np.empty_like(x)
    acc = x[0]
    for i, v in enumerate(x):
        acc = a * v + (1 - a) * acc
        y[i] = acc
    return y


def gpu_uuid(h, g):
    hx = hashlib.sha256(f"{SEED}/{h}/{g}".encode()).hexdigest()
    return f"GPU-{hx[:8]}-{hx[8:12]}-{hx[12:16]}-{hx[16:20]}-{hx[20:32]}"


def build_dcgm_csv() -> str:
    out = ["timestamp,metric,value,Hostname,gpu,UUID,modelName"]
    rows = []
    for h in HOSTS:
        t = scrape_times(h, 30.0, 100)
        st = host_state(h, t)
        n = len(t)
        inlet = RNG.normal(0, 1.4)
        for g in range(8):
            lab = f"{h},{g},{gpu_uuid(h, g)},{MODEL}"
            busy, init, save = st == 1, st == 2, st == 4
            p_off = RNG.normal(0, 11)
            t_off = RNG.normal(0, 2.4) + inlet
            load = np.where(busy, 1.0, np.where(init, RNG.uniform(0, 0.4, n), np.where(save, 0.08, 0.0)))
            power = np.where(busy, 336 + p_off + RNG.normal(0, 19, n),
                             np.where(init, 70 + 120 * load + RNG.normal(0, 6, n),
                                      np.where(save, 92 + RNG.normal(0, 6, n), 61 + RNG.normal(0, 1.1, n))))
            power = np.clip(power, 52, 399.0)
            util = np.where(busy, np.clip(100 - RNG.poisson(0.25, n), 97, 100),
                            np.where(init, np.round(RNG.uniform(0, 70, n)),
                                     np.where(save, np.round(RNG.uniform(0, 6, n)), 0))).astype(float)
            temp_t = 32 + 0.5 * t_off + (30 + t_off) * load
            temp = np.round(ema(temp_t, 0.4) + RNG.normal(0, 0.45, n))
            mtemp = np.round(ema(temp_t + 3.5 + 5 * load, 0.35) + RNG.normal(0, 0.5, n))
            sm = np.where(busy, np.where(RNG.random(n) < 0.08, RNG.choice([1395, 1380, 1365], n), 1410),
                          np.where(init | save, RNG.choice([1410, 1410, 1095, 210], n), 210)).astype(float)
            fb = np.where(busy | save, 70314 + RNG.integers(-180, 180) + RNG.integers(-4, 4, n),
                          np.where(init, np.round(RNG.uniform(420, 60000, n)), 0)).astype(float)
            tensor = np.clip(np.where(busy, 0.463 + RNG.normal(0, 0.006) + RNG.normal(0, 0.011, n),
                                      np.where(init, 0.05 * load, 0.0)), 0, 1)
            xid = np.zeros(n)
            for m, v, fmt in [("DCGM_FI_DEV_SM_CLOCK", sm, "{:.0f}"), ("DCGM_FI_DEV_MEMORY_TEMP", mtemp, "{:.0f}"),
                              ("DCGM_FI_DEV_GPU_TEMP", temp, "{:.0f}"), ("DCGM_FI_DEV_POWER_USAGE", power, "{:.3f}"),
                              ("DCGM_FI_DEV_GPU_UTIL", util, "{:.0f}"), ("DCGM_FI_DEV_XID_ERRORS", xid, "{:.0f}"),
                              ("DCGM_FI_DEV_FB_USED", fb, "{:.0f}"), ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", tensor, "{:.6f}")]:
                for ti, vi in zip(t, v):
                    rows.append((ti, f"{ti:.3f},{m},{fmt.format(vi)},{lab}"))
    rows.sort(key=lambda x: x[0])
    out += [r for _, r in rows]
    return "\n".join(out) + "\n"


def build_node_om() -> str:
    fam: dict[str, tuple[str, str, list[str]]] = {}

    def series(name, typ, help_, sample_name, labels, t, v, fmt="{:.17g}"):
        if name not in fam:
            fam[name] = (typ, help_, [])
        lab = ",".join(f'{k}="{val}"' for k, val in labels.items())
        body = fam[name][2]
        for ti, vi in zip(t, v):
            body.append(f"{sample_name}{{{lab}}} {fmt.format(vi)} {ti:.3f}")

    for h in HOSTS:
        t = scrape_times(h, 30.0, 300)
        n = len(t)
        st = host_state(h, t)
        busy, init, save = st == 1, st == 2, st == 4
        inst = {"instance": f"{IP[h]}:9100", "job": "node"}
        series("up", "gauge", "The scraping was successful", "up", inst, t, np.ones(n), "{:.0f}")
        series("node_uname_info", "gauge", "Labeled system information as provided by the uname system call.",
               "node_uname_info", {**inst, "domainname": "(none)", "machine": "x86_64", "nodename": h,
                                   "release": KERNEL_REL, "sysname": "Linux", "version": KERNEL_VER}, t, np.ones(n), "{:.0f}")
        series("node_boot_time_seconds", "gauge", "Node boot time, in unixtime.", "node_boot_time_seconds", inst, t,
               np.full(n, round(BOOT[h])), "{:.0f}")
        load1 = ema(np.where(busy, 21 + RNG.normal(0, 2.5, n), np.where(save, 9 + RNG.normal(0, 2, n),
                                                                       np.where(init, 12 + RNG.normal(0, 3, n), 0.4 + abs(RNG.normal(0, 0.2))))), 0.3)
        series("node_load1", "gauge", "1m load average.", "node_load1", inst, t, np.round(np.clip(load1, 0.01, None), 2), "{:.2f}")
        mem = np.where(busy | save, 1.41e12 + RNG.normal(0, 4e9, n), 1.93e12 + RNG.normal(0, 2e9, n))
        series("node_memory_MemAvailable_bytes", "gauge", "Memory information field MemAvailable_bytes.",
               "node_memory_MemAvailable_bytes", inst, t, np.round(mem), "{:.0f}")
        dtv = np.diff(t, prepend=t[0] - 30)
        up0 = t[0] - BOOT[h]
        for dev in IB_DEVS:
            lab = {**inst, "device": dev, "port": "1"}
            fac = RNG.normal(1, 0.025)
            rate = np.where(busy, 4.08e9 * fac * (1 + RNG.normal(0, 0.05, n)),
                            np.where(init, RNG.uniform(1e6, 5e8, n), np.where(save, RNG.uniform(1e5, 4e6, n), 3.0e3)))
            for nm, f in [("node_infiniband_port_data_received_bytes", 1.0), ("node_infiniband_port_data_transmitted_bytes", 1.001)]:
                c = up0 * 1.1e9 * fac + np.cumsum(rate * f * dtv)
                c = np.floor(c / 4) * 4
                series(nm, "counter", "Number of data octets " + ("received" if "received" in nm else "transmitted") + " on all links",
                       nm + "_total", lab, t, c, "{:.0f}")
            wait = np.where(busy, RNG.gamma(2, 9.0e4, n) * fac, 10.0)
            c = up0 * 3.1e4 + np.cumsum(wait * dtv)
            series("node_infiniband_port_transmit_wait", "counter",
                   "Number of ticks during which the port had data to transmit but no data was sent during the entire tick",
                   "node_infiniband_port_transmit_wait_total", lab, t, np.floor(c), "{:.0f}")
    out = []
    for name, (typ, help_, body) in fam.items():
        out.append(f"# HELP {name} {help_}")
        out.append(f"# TYPE {name} {typ}")
        out.extend(body)
    out.append("# EOF")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- kernel ring buffers (dmesg -T)
PEERMEM = "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing"
PERF_LINES = [
    "perf: interrupt took too long (2509 > 2500), lowering kernel.perf_event_max_sample_rate to 79500",
    "perf: interrupt took too long (3141 > 3136), lowering kernel.perf_event_max_sample_rate to 63500",
]


def dmesg_T(t: float) -> str:
    d = utc(t)
    return f"[{d.strftime('%a %b')} {d.day:2d} {d.strftime('%H:%M:%S %Y')}]"


def build_dmesg(h: str) -> str:
    r = np.random.default_rng(SEED + 900 + HOSTS.index(h))
    b = BOOT[h]
    ev = []

    def k(off_or_t, msg, absolute=False):
        t = off_or_t if absolute else b + off_or_t
        ev.append((t, f"{dmesg_T(t)} {msg}"))

    boot = [
        (0.0, f"Linux version {KERNEL_REL} (buildd@lcy02-amd64-116) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) {KERNEL_VER} (Ubuntu 5.15.0-87.97-generic 5.15.122)"),
        (0.0, f"Command line: BOOT_IMAGE=/vmlinuz-{KERNEL_REL} root=UUID=0c5f3d7e-2b8a-4f0e-a1d9-77c2b8e4a913 ro iommu=pt console=tty0 console=ttyS0,115200n8"),
        (0.0, "DMI: Supermicro AS -4124GO-NART+/H12DSG-O-CPU, BIOS 2.6 04/13/2023"),
        (0.62, "smpboot: CPU0: AMD EPYC 7763 64-Core Processor (family: 0x19, model: 0x1, stepping: 0x1)"),
        (12.833946, "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none."),
        (13.273811, "EXT4-fs (nvme0n1p2): re-mounted. Opts: (null). Quota mode: none."),
        (13.279315, "RPC: Registered named UNIX socket transport module."),
        (13.279859, "RPC: Registered udp transport module."),
        (13.280696, "RPC: Registered tcp transport module."),
        (13.281331, "RPC: Registered tcp NFSv4.1 backchannel transport module."),
        (13.586779, "IPMI message handler: version 39.2"),
        (13.591311, "ipmi_si: IPMI System Interface driver"),
        (13.863865, "MCE: In-kernel MCE decoding enabled."),
        (13.868254, "EDAC amd64: F19h detected (node 0)."),
        (13.868664, "AMD64 EDAC driver v3.5.0"),
    ]
    for off, m in boot:
        k(off, m)
    for i, dev in enumerate(IB_DEVS):
        k(15.1 + 0.4 * i, f"mlx5_core 0000:{['0c', '4b', '8d', 'bc'][i]}:00.0: firmware version: 20.37.1014")
    k(19.0, "nvidia: loading out-of-tree module taints kernel.")
    k(19.0001, "nvidia: module license 'NVIDIA' taints kernel.")
    k(19.0002, "Disabling lock debugging due to kernel taint")
    k(19.3, "nvidia-nvlink: Nvlink Core is being initialized, major device number 506")
    k(21.1, f"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Sat Aug 26 05:07:23 UTC 2023")
    k(21.4, f"nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  {DRIVER}  Sat Aug 26 05:17:12 UTC 2023")
    for i in range(6):
        k(38.2 + 0.11 * i, f"nvidia-nvswitch{5 - i}: open (major=509)")
    # hourly DCGM health checks open the NVSwitches
    t = b + 3600 + r.uniform(0, 3600)
    end = ts("2023-11-07T13:04:40")
    while t < end:
        for i in range(6):
            k(t + 0.09 * i + r.uniform(0, 0.02), f"nvidia-nvswitch{5 - i}: open (major=509)", absolute=True)
        t += 3600 + r.normal(0, 3)
    if r.random() < 0.4:
        for j, tj in enumerate(sorted(r.uniform(b + 86400, end - 86400, 2))):
            k(float(tj), PERF_LINES[j], absolute=True)
    # job 48213 and earlier jobs freed their GPUDirect RDMA buffers when they ended
    for t_end in [ts("2023-11-06T18:31:12"), CANCEL + r.uniform(1.5, 4.0)]:
        for j in range(int(r.integers(3, 8))):
            k(t_end + 0.000011 * j, PEERMEM, absolute=True)
    ev.sort(key=lambda x: x[0])
    return "\n".join(s for _, s in ev) + "\n"


def build_slurmctld() -> str:
    r = np.random.default_rng(SEED + 5)
    ev = []

    def s(t, msg):
        d = utc(t)
        ev.append((t, f"[{d.strftime('%Y-%m-%dT%H:%M:%S')}.{d.microsecond // 1000:03d}] {msg}"))

    s(SUBMIT1, "_slurm_rpc_submit_batch_job: JobId=48213 InitPrio=4294901760 usec=1012")
    s(ALLOC1, "sched: Allocate JobId=48213 NodeList=gpu-a[001-016] #CPUs=4096 Partition=train")
    jid, t = 48214, ts("2023-11-06T18:45:00") + r.uniform(0, 600)
    while t < LOG_END:
        jid += int(r.integers(1, 3))
        if jid in (48229,):
            jid += 1
        node = f"cpu{int(r.integers(1, 9)):02d}"
        s(t, f"_slurm_rpc_submit_batch_job: JobId={jid} InitPrio={4294901000 + int(r.integers(0, 700))} usec={int(r.integers(300, 2400))}")
        s(t + r.uniform(0.2, 25), f"sched: Allocate JobId={jid} NodeList={node} #CPUs={int(r.choice([2, 4, 8, 16]))} Partition=cpu")
        dur = r.uniform(60, 4000)
        if t + dur < LOG_END:
            s(t + dur, f"_job_complete: JobId={jid} WEXITSTATUS {0 if r.random() < 0.92 else 1}")
            s(t + dur, f"_job_complete: JobId={jid} done")
        t += r.exponential(900)
    s(CANCEL, "_slurm_rpc_kill_job: REQUEST_KILL_JOB JobId=48213 uid 1042")
    s(CANCEL + 6.3, "cleanup_completing: JobId=48213 completion process took 6 seconds")
    s(SUBMIT2, "_slurm_rpc_submit_batch_job: JobId=48229 InitPrio=4294901744 usec=987")
    s(ALLOC2, "sched: Allocate JobId=48229 NodeList=gpu-a[001-016] #CPUs=4096 Partition=train")
    ev.sort(key=lambda x: x[0])
    return "\n".join(m for _, m in ev) + "\n"


# --------------------------------------------------------------------------- main
def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    (OUT / "metrics").mkdir(parents=True)
    (OUT / "logs" / "dmesg").mkdir(parents=True)

    out1, out2, facts = build_job_logs()
    (OUT / "logs" / "slurm-48213.out").write_text(out1)
    (OUT / "logs" / "slurm-48229.out").write_text(out2)
    (OUT / "logs" / "slurmctld.log").write_text(build_slurmctld())
    for h in HOSTS:
        (OUT / "logs" / "dmesg" / f"{h}.txt").write_text(build_dmesg(h))
    (OUT / "metrics" / "dcgm-exporter_prom-export_20231107.csv").write_text(build_dcgm_csv())
    (OUT / "metrics" / "node-exporter_20231107.om").write_text(build_node_om())

    incident = {
        "id": INCIDENT_ID,
        "title": "gpt13b-v2 pretraining stopped and relaunched on 2023-11-07",
        "window": {"start": "2023-11-07T08:30:00+00:00", "end": "2023-11-07T12:30:00+00:00"},
        "baseline": {"start": "2023-11-07T08:30:00+00:00", "end": "2023-11-07T10:30:00+00:00"},
        "cluster": {"name": "a100-ib", "nodes": 16, "gpus_per_node": 8, "gpu_model": "A100"},
    }
    (OUT / "incident.yaml").write_text(yaml.safe_dump(incident, sort_keys=False))

    l1 = facts["losses1"]
    spike_its = [it for it, v in l1.items() if v[0] >= FIRST_SPIKE and v[0] < CANCEL]
    first_spike_it = min(spike_its)
    nan_its = [int(it) for it, _ in facts["nan1"]]
    ovf = [{"iteration": int(it), "time": utc(t).strftime("%Y-%m-%dT%H:%M:%SZ"), "scale_from": int(a),
            "scale_to": int(b), "nan": bool(n)} for it, t, a, b, n in facts["ovf1"] if t >= W0]
    last_it1 = max(l1)
    stop_gap_min = round((TRAIN2 - CANCEL) / 60, 1)
    # throughput loss over the window (stop and relaunch; the slowdown itself is nil)
    truth = {
        "id": INCIDENT_ID,
        "cause": "training instability (no hardware fault)",
        "cause_detail": (
            "The fp16 13B run became unstable at lr ~2.2e-4: gradient-norm and loss spikes from 10:41, "
            "dynamic loss-scale overflows, two NaN-loss iterations at 11:22 and a loss stuck near 7.5; "
            "the team cancelled the job and relaunched it from the iteration-"
            f"{RESTART_FROM} checkpoint with half the learning rate."),
        "cause_metrics": [],
        "cause_metrics_note": (
            "No exporter metric shows the cause; only the trainer's own signals do (lm loss, grad norm, "
            "loss scale, number of skipped / nan iterations in slurm-48213.out)."),
        "cause_log_evidence": [
            {"text": "[default0]:[<time>] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 "
                     "Skipping step. Attempted loss scale: 1048576, reducing to 524288  (and 524288->262144, "
                     "262144->131072, 131072->65536, 65536->32768; 2097152->1048576 once in the baseline)",
             "source": "verbatim from SeekPoint/DeepSpeedExamples yknote-training-train_bert_ds.py (commit "
                       "4a92eff9825dc55b06cf313e769df37a436872ce), DeepSpeed 0.9.5 log of 2023-07-24; only the "
                       "timestamp changed, [default0]: is torchrun's --tee prefix"},
            {"text": "[default7]: iteration    <N>/  100000 | ... | loss scale: 65536.0 | grad norm: <prev> | "
                     "actual seqlen:  2048 | number of skipped iterations:   1 | number of nan iterations:   1 | ...",
             "source": "Megatron-DeepSpeed training_log() format (microsoft/Megatron-DeepSpeed megatron/training.py, "
                       "commit f4157bea); the lm loss field disappears on a skipped iteration as in "
                       "bigscience-workshop/bigscience experiments/gpt2-meg/meg_gpt2_base_n16_dp1_tp4_pp16-1809577.out "
                       "line 1629; numbers are this incident's"},
            {"text": "[default0]: > overriding learning rate value to 0.00015",
             "source": "Megatron-DeepSpeed megatron/optimizer_param_scheduler.py _check_and_set (relaunch with "
                       "--override-opt_param-scheduler); arguments dump '  lr ... 0.00015' from megatron/arguments.py _print_args"},
        ],
        "hosts": [],
        "gpu": None,
        "onset": utc(l1[first_spike_it][0]).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "onset_note": f"first grad-norm spike at iteration {first_spike_it}; NaN iterations {nan_its}",
        "stop": utc(CANCEL).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "training_resumed": utc(TRAIN2).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "job_throughput_loss_pct": 0.0,
        "job_throughput_loss_note": (
            f"No slowdown: samples/s stays ~{GBS / ITER_S:.1f} (tgs ~{GBS / ITER_S * SEQ / WORLD:.0f}) before, during "
            f"and after the divergence. The cost is the stop ({stop_gap_min} min with no training) and the "
            f"{last_it1 - RESTART_FROM} iterations redone from the iteration-{RESTART_FROM} checkpoint "
            f"(~{(last_it1 - RESTART_FROM) * ITER_S / 3600:.1f} h of the cluster)."),
        "restart_from_iteration": int(RESTART_FROM),
        "last_iteration_before_stop": int(last_it1),
        "lr_before": 0.0003,
        "lr_after": 0.00015,
        "overflow_events_in_window": ovf,
        "what_a_good_postmortem_says": (
            "No hardware fault: every host, GPU power, temperature, clocks, IB traffic and throughput stay "
            "normal; the trainer's own log shows the run diverging (grad norm from ~0.2 to hundreds, loss "
            "from 2.06 to ~7.5, fp16 loss-scale overflows and two NaN iterations at 11:22). The team stopped "
            "the job at 11:25 and relaunched at 11:48 from the iteration-"
            f"{RESTART_FROM} checkpoint with the learning rate halved (3e-4 -> 1.5e-4); the cost is the "
            "~30-minute stop plus the recomputed iterations, and the action items are about optimisation "
            "stability (lr, warmup, bf16, loss-spike alerting), not the cluster."),
        "distractors": [
            "checkpoint saves every 250 iterations (~95 s) drop GPU utilisation/power and lengthen one iteration to ~108 s: normal.",
            "a benign fp16 loss-scale overflow at 08:47 (2097152 -> 1048576) in the baseline: normal dynamic loss scaling.",
            "nvidia-peermem 'ERROR detected invalid context' on every host at 11:25: the cancelled ranks freeing GPUDirect buffers.",
            "torchrun 'Received Signals.SIGTERM death signal' and 'CANCELLED AT': the team's scancel.",
            "the iteration counter going back from the last iteration to the restart checkpoint: the relaunch.",
        ],
        "real_line_sources": [
            {"lines": [PEERMEM], "source": "leptonai/gpud pkg/kmsg/testdata/kmsg.2.peermem.log (commit 4a8de33a)", "role": "benign, at job cancel"},
            {"lines": PERF_LINES + ["nvidia-nvswitch5: open (major=509)"],
             "source": "leptonai/gpud pkg/kmsg/testdata/kmsg.1.log (commit 4a8de33a); major number adapted", "role": "benign background"},
            {"lines": ["[2023-11-05 09:57:59,729] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 3867813 closing signal SIGTERM",
                       "torch.distributed.elastic.agent.server.api: [WARNING] Received Signals.SIGTERM death signal, shutting down workers"],
             "source": "torch 2.1 elastic log format as quoted in public logs (find_string hits)", "role": "benign, scancel"},
            {"lines": ["[INFO] [logging.py:96:log_dist] [Rank 0] step=20, skipped=17, lr=[0.0001], mom=[(0.9, 0.999)]",
                       "[INFO] [timer.py:215:stop] epoch=0/micro_step=20/global_step=20, RunningAvgSamplesPerSec=..., CurrSamplesPerSec=..., MemAllocated=0.06GB, MaxMemAllocated=2.04GB",
                       "[INFO] [torch_checkpoint_engine.py:21:save] [Torch] Saving .../zero_pp_rank_0_mp_rank_00_optim_states.pt...",
                       "[INFO] [config.py:964:print]   fp16_enabled ................. True"],
             "source": "SeekPoint/DeepSpeedExamples yknote-training-train_bert_ds.py (DeepSpeed 0.9.5 log)", "role": "trainer format"},
            {"lines": ["_slurm_rpc_kill_job: REQUEST_KILL_JOB JobId=42804 uid 548300563", "sched: Allocate JobId=42802 NodeList=gpu05 #CPUs=32 Partition=gpu-v100s",
                       "cleanup_completing: JobId=... completion process took ... seconds"],
             "source": "slurmctld.log lines quoted in public repositories (find_string hits)", "role": "scheduler format"},
        ],
    }
    (OUT / "truth.yaml").write_text(yaml.safe_dump(truth, sort_keys=False, width=110, allow_unicode=True))
    print(f"wrote {OUT}: restart_from={RESTART_FROM} first_spike_it={first_spike_it} nan={nan_its} last={last_it1} "
          f"overflows={[(o['time'], o['scale_from']) for o in ovf]}")


if __name__ == "__main__":
    main()
