#!/usr/bin/env python3
"""Times what a PyTorch user would run for each program of the upstream
corpus (test/Corpus/Upstream/programs/*.mlir): the same computation on the
same shapes and dtypes, measured the way autoprof-worker measures a kernel
(docs/runtime.md, "Timing"): 3 warm-up runs, then at least 10 and at most 200
timed runs or the time budget; before each run the buffers the call
accumulates into are restored and L2 is flushed by reading a buffer of at
least 4x the L2 size; CUDA events around the call alone; median and MAD
(median absolute deviation) in microseconds.

Every program has an entry in BASELINES: its arguments (checked against the
program's function signature), the timed PyTorch call, a float64 reference
written from the program's indexing maps (the call's result is checked
against it once before timing), and a note. A program without an entry, or
whose signature no longer matches its entry, is an error.

Usage: torch-baselines.py --list                 (no GPU, no torch needed)
       torch-baselines.py --out FILE [--only NAME...] [--time-budget S]
                          [--compile] [--no-verify]

The JSON written to FILE:
  {"date": ISO 8601,
   "device": {"gpu", "driver", "cuda", "torch", "cudnn", "l2_bytes", ...},
   "protocol": {"warmup", "min_runs", "max_runs", "time_budget_s",
                "l2_flush_bytes", "tf32", "cudnn_benchmark"},
   "programs": {"matmul": {"median_us", "mad_us", "samples", "min_us",
                           "p10_us", "p90_us", "max_us", "mean_us", "note",
                           "verified", "max_error", "wall_s",
                           "variants": {NAME: {"median_us", ..., "note"}}},
                "softmax": {"error": "...", "note": ...}, ...}}
A program that fails has "error" instead of the timings.
"""

import argparse
import datetime
import itertools
import json
import math
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import time
import typing

REPO = pathlib.Path(__file__).resolve().parent.parent
PROGRAMS = REPO / "test" / "Corpus" / "Upstream" / "programs"

# The worker's timing protocol (include/autoprof/Runtime/Job.h defaults).
WARMUP = 3
MIN_RUNS = 10
MAX_RUNS = 200
# Launches enqueued before the host waits for them, as in the worker: the
# GPU never waits for the host between a start event and its call.
CHUNK = 64
# The L2 flush reads max(4 x L2, this) bytes.
MIN_FLUSH_BYTES = 256 << 20

# Largest accepted difference |result - reference| / (1 + |reference|),
# by the dtype of the result.
TOLERANCE = {"f64": 1e-10, "f32": 5e-4, "f16": 2e-3, "bf16": 1e-2,
             "i32": 0.0, "i8": 0.0}


class Baseline(typing.NamedTuple):
    """What PyTorch runs for one program."""
    # (name, shape, dtype) for each function argument, in order.
    args: tuple
    # (torch, F, *args) -> the program's final result; this is what is timed.
    call: object
    # (torch, *args in float64) -> the program's final result, written from
    # the indexing maps with other operations than `call`.
    reference: object
    note: str
    # Arguments `call` reads and updates in place: restored before each run.
    accumulates: tuple = ()
    # (torch, *args) -> the arguments `call` takes; run once, not timed.
    prepare: object = None
    # name -> (call, note): other spellings, timed after `call`.
    variants: typing.Optional[dict] = None
    # name -> (low, high): arguments drawn uniformly from [low, high)
    # instead of from the normal distribution (variances, divisors, scales).
    ranges: typing.Optional[dict] = None
    # The largest accepted error where it is not the result dtype's (a call
    # that rounds its result to a narrower type than the program's).
    tolerance: typing.Optional[float] = None


def mat(name, *shape, dtype="f32"):
    return (name, shape, dtype)


def _conv1d(t, F, x, k):
    return F.conv1d(x.view(1, 1, -1), k.view(1, 1, -1)).view(-1)


def _conv2d(t, F, x, k):
    return F.conv2d(x[None, None], k[None, None])[0, 0]


def _conv_channels_reference(t, x, w, out):
    """out + sum over the taps (ky, kx) of the channel contraction of the
    shifted input with the tap's weights: the indexing maps of the
    conv2d_channels program read directly."""
    acc = out.clone()
    rows, cols = out.shape[1], out.shape[2]
    for ky in range(w.shape[2]):
        for kx in range(w.shape[3]):
            acc += t.einsum("cyx,fc->fyx", x[:, ky:ky + rows, kx:kx + cols],
                            w[:, :, ky, kx])
    return acc


def _channels_last(t, x_hwc):
    """An HWC tensor as the NCHW-shaped channels-last view of the same
    memory (no copy)."""
    return x_hwc.permute(2, 0, 1).unsqueeze(0).contiguous(
        memory_format=t.channels_last)


def _depthwise_prepare(t, x, k, out):
    weight = k.permute(2, 0, 1).unsqueeze(1).contiguous()
    return _channels_last(t, x), weight, out


def _depthwise(t, F, x, weight):
    # (1, C, H, W) channels-last -> (H, W, C), contiguous.
    return F.conv2d(x, weight, groups=weight.shape[0])[0].permute(1, 2, 0)


def _maxpool_prepare(t, x, window, out):
    return _channels_last(t, x), window, out


def _maxpool(t, F, x):
    return F.max_pool2d(x, 2, stride=2)[0].permute(1, 2, 0)


def _sumpool(t, F, x):
    return F.avg_pool2d(x[None], 3, stride=1, divisor_override=1)[0]


def _shifted_sum(t, x, k, out_shape):
    """sum over the taps d of x[i + d] * k[d]: a direct reading of the
    `(i + d)` indexing maps of linalg.conv_1d and linalg.conv_2d."""
    acc = t.zeros(out_shape, dtype=t.float64, device=x.device)
    for tap in itertools.product(*(range(n) for n in k.shape)):
        acc += x[tuple(slice(d, d + n)
                       for d, n in zip(tap, out_shape))] * k[tap]
    return acc


def _depthwise_reference(t, x, k, out):
    acc = out.clone()
    for kh in range(k.shape[0]):
        for kw in range(k.shape[1]):
            acc += x[kh:kh + out.shape[0], kw:kw + out.shape[1], :] * k[kh, kw]
    return acc


def _maxpool_reference(t, x, window, out):
    taps = [x[kh::2, kw::2, :] for kh in range(2) for kw in range(2)]
    return t.maximum(out, t.stack(taps).amax(0))


def _sumpool_reference(t, x, window, out):
    acc = out.clone()
    for kh in range(3):
        for kw in range(3):
            acc += x[:, kh:kh + out.shape[1], kw:kw + out.shape[2]]
    return acc


def _softmax_reference(t, x, *unused):
    e = t.exp(x - x.amax(1, keepdim=True))
    return e / e.sum(1, keepdim=True)


def _layernorm_reference(t, x, *unused):
    n = x.shape[1]
    mean = x.sum(1, keepdim=True) / n
    var = ((x - mean) ** 2).sum(1, keepdim=True) / n
    return (x - mean) * t.rsqrt(var + 1e-5)


def _window(x, ky, kx, rows, cols, stride, nhwc):
    """The input values that tap (ky, kx) of a window meets for every output
    position: x[.., ky + stride * y, kx + stride * x, ..] over the outputs'
    rows and columns, in the layout's spatial axes."""
    ys = slice(ky, ky + stride * (rows - 1) + 1, stride)
    xs = slice(kx, kx + stride * (cols - 1) + 1, stride)
    return x[:, ys, xs, :] if nhwc else x[:, :, ys, xs]


def _spatial(out, nhwc):
    return (out.shape[1], out.shape[2]) if nhwc else (out.shape[2],
                                                      out.shape[3])


def _conv_reference(stride, nhwc):
    """out + sum over the taps of the channel contraction of the tap's
    window with the tap's weights: NCHW input with an FCHW filter, or NHWC
    input with an HWCF filter."""
    def reference(t, x, w, out):
        acc = out.clone()
        rows, cols = _spatial(out, nhwc)
        taps = w.shape[:2] if nhwc else w.shape[2:]
        for ky, kx in itertools.product(range(taps[0]), range(taps[1])):
            window = _window(x, ky, kx, rows, cols, stride, nhwc)
            if nhwc:
                acc += t.einsum("nyxc,cf->nyxf", window, w[ky, kx])
            else:
                acc += t.einsum("ncyx,fc->nfyx", window, w[:, :, ky, kx])
        return acc
    return reference


def _depthwise4_reference(stride, nhwc):
    """out + sum over the taps of the tap's window times the tap's weight of
    each channel: NCHW with a CHW filter, or NHWC with an HWC filter."""
    def reference(t, x, w, out):
        acc = out.clone()
        rows, cols = _spatial(out, nhwc)
        taps = w.shape[:2] if nhwc else w.shape[1:]
        for ky, kx in itertools.product(range(taps[0]), range(taps[1])):
            window = _window(x, ky, kx, rows, cols, stride, nhwc)
            if nhwc:
                acc += window * w[ky, kx]
            else:
                acc += window * w[:, ky, kx][None, :, None, None]
        return acc
    return reference


def _pool_reference(kind, stride, nhwc, scale=1.0):
    """The window's max combined with out by max (kind "max"), or out plus
    scale times the window's sum (kind "sum")."""
    def reference(t, x, window, out):
        rows, cols = _spatial(out, nhwc)
        acc = out.clone()
        for ky, kx in itertools.product(range(window.shape[0]),
                                        range(window.shape[1])):
            values = _window(x, ky, kx, rows, cols, stride, nhwc)
            if kind == "max":
                acc = t.maximum(acc, values)
            else:
                acc = acc + values * scale
        return acc
    return reference


def _nhwc_view(t, x):
    """An NHWC tensor as the NCHW-shaped channels-last view of the same
    memory (no copy)."""
    return x.permute(0, 3, 1, 2)


def _nhwc_prepare(t, x, *rest):
    return (_nhwc_view(t, x),) + tuple(rest)


def _conv_nhwc_prepare(t, x, w, out):
    # The HWCF filter laid out once as PyTorch's (F, C, KH, KW), channels
    # last as the input is.
    weight = w.permute(3, 2, 0, 1).contiguous(memory_format=t.channels_last)
    return _nhwc_view(t, x), weight, out


def _depthwise_nhwc_prepare(t, x, w, out):
    # The HWC filter laid out once as PyTorch's (C, 1, KH, KW).
    return _nhwc_view(t, x), w.permute(2, 0, 1).unsqueeze(1).contiguous(), out


def _to_nhwc(y):
    """A channels-last (N, C, H, W) result as the (N, H, W, C) tensor of the
    same memory."""
    return y.permute(0, 2, 3, 1)


def _batchnorm_reference(nhwc):
    def reference(t, x, mean, var, gamma, beta, out):
        shape = (1, 1, 1, -1) if nhwc else (1, -1, 1, 1)
        return ((x - mean.view(shape)) / t.sqrt(var.view(shape) + 1e-5) *
                gamma.view(shape) + beta.view(shape))
    return reference


def _gelu_tanh_reference(t, x, out):
    inner = math.sqrt(2 / math.pi) * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1 + t.tanh(inner))


def _quantize_reference(t, x, inv_scale, out):
    # The product rounded to f32 as the program computes it (the exact
    # product of two floats fits a double, so this is the f32 product), then
    # rounded half to even and clamped.
    product = (x * inv_scale[:, None]).float().double()
    return t.clamp(t.round(product), -128, 127)


# The programs' sizes (test/Corpus/Upstream/programs).
N = 4096
WIDE = 8192      # rows of the f32 elementwise programs; both sizes of the
                 # lighter ones (f16, bf16, i8 inputs; fill, outer product)
ROWS = 16384     # rows of the row reductions, softmax and layernorm
COLS = 16384     # columns of the column reductions
NO_ACCUMULATION = ("without combining the result with the output's initial "
                   "value (one kernel fewer): what a user writes whose "
                   "output starts empty")

BASELINES = {
    "add": Baseline(
        (mat("a", WIDE, N), mat("b", WIDE, N), mat("c", WIDE, N)),
        lambda t, F, a, b, c: t.add(a, b, out=c),
        lambda t, a, b, c: a + b,
        "torch.add(a, b, out=c): one elementwise kernel"),
    "add_f16": Baseline(
        (mat("a", WIDE, WIDE, dtype="f16"), mat("b", WIDE, WIDE, dtype="f16"),
         mat("c", WIDE, WIDE, dtype="f16")),
        lambda t, F, a, b, c: t.add(a, b, out=c),
        lambda t, a, b, c: a + b,
        "torch.add(a, b, out=c) on f16: one elementwise kernel"),
    "batch_matmul": Baseline(
        (mat("a", 128, 128, 128), mat("b", 128, 128, 128),
         mat("c", 128, 128, 128)),
        lambda t, F, a, b, c: c.baddbmm_(a, b),
        lambda t, a, b, c: c + t.einsum("bik,bkj->bij", a, b),
        "C += A B per batch: c.baddbmm_(a, b) (cuBLAS strided batched GEMM "
        "with beta = 1), TF32 off",
        accumulates=("c",)),
    "bias_add": Baseline(
        (mat("a", WIDE, N), mat("bias", N), mat("out", WIDE, N)),
        lambda t, F, a, bias, out: t.add(a, bias, out=out),
        lambda t, a, bias, out: a + bias[None, :],
        "torch.add(a, bias, out=out), bias broadcast along rows: one kernel"),
    "col_scale": Baseline(
        (mat("a", WIDE, N), mat("s", WIDE), mat("out", WIDE, N)),
        lambda t, F, a, s, out: t.mul(a, s[:, None], out=out),
        lambda t, a, s, out: a * s[:, None],
        "torch.mul(a, s[:, None], out=out): one kernel"),
    "col_sum": Baseline(
        (mat("a", N, COLS), mat("out", COLS)),
        lambda t, F, a, out: out.add_(a.sum(0)),
        lambda t, a, out: out + a.sum(0),
        "out += sum over rows: out.add_(a.sum(0)), a column reduction and a "
        "4096-element add",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, a, out: t.sum(a, 0, out=out), NO_ACCUMULATION)}),
    "conv1d": Baseline(
        (mat("in", 16777224), mat("k", 9), mat("out", 16777216)),
        lambda t, F, x, k, out: out.add_(_conv1d(t, F, x, k)),
        lambda t, x, k, out: out + _shifted_sum(t, x, k, out.shape),
        "out += F.conv1d on (1, 1, W) views (cross-correlation, as "
        "linalg.conv_1d): cuDNN's convolution and an elementwise add",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, k, out: _conv1d(t, F, x, k), NO_ACCUMULATION)}),
    "conv2d": Baseline(
        (mat("in", 4098, 4098), mat("k", 3, 3), mat("out", 4096, 4096)),
        lambda t, F, x, k, out: out.add_(_conv2d(t, F, x, k)),
        lambda t, x, k, out: out + _shifted_sum(t, x, k, out.shape),
        "out += F.conv2d on (1, 1, H, W) views (one channel, so NCHW is the "
        "program's layout; cross-correlation as linalg.conv_2d): cuDNN and "
        "an elementwise add; TF32 off",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, k, out: _conv2d(t, F, x, k), NO_ACCUMULATION)}),
    "conv2d_channels": Baseline(
        (mat("in", 128, 114, 114), mat("w", 128, 128, 3, 3),
         mat("out", 128, 112, 112)),
        lambda t, F, x, w, out: out.add_(F.conv2d(x[None], w)[0]),
        _conv_channels_reference,
        "out += F.conv2d on a (1, 128, 114, 114) view with (128, 128, 3, 3) "
        "weights (NCHW, the program's layout; cross-correlation): cuDNN and "
        "an elementwise add; TF32 off",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, w, out: F.conv2d(x[None], w)[0],
            NO_ACCUMULATION)}),
    "copy": Baseline(
        (mat("a", WIDE, N), mat("out", WIDE, N)),
        lambda t, F, a, out: out.copy_(a),
        lambda t, a, out: a,
        "out.copy_(a): a device-to-device copy"),
    "depthwise_conv2d": Baseline(
        (mat("in", 514, 514, 64), mat("k", 3, 3, 64),
         mat("out", 512, 512, 64)),
        lambda t, F, x, w, out: out.add_(_depthwise(t, F, x, w)),
        _depthwise_reference,
        "out += F.conv2d(groups=64): the program is HWC, so the input is "
        "passed as the NCHW-shaped channels-last view of the same memory "
        "(no copy) and the result comes back channels-last; the 3x3x64 "
        "filter is laid out once as PyTorch's (64, 1, 3, 3) before timing; "
        "cuDNN and an elementwise add; TF32 off",
        accumulates=("out",),
        prepare=_depthwise_prepare,
        variants={"no_accumulation": (
            lambda t, F, x, w, out: _depthwise(t, F, x, w), NO_ACCUMULATION)}),
    "dequant_i8": Baseline(
        (mat("q", WIDE, WIDE, dtype="i8"), mat("scale", WIDE),
         mat("out", WIDE, WIDE)),
        lambda t, F, q, scale, out: t.mul(q, scale, out=out),
        lambda t, q, scale, out: q * scale[None, :],
        "torch.mul(q, scale, out=out): int8 promoted to f32 inside one "
        "kernel"),
    "exp_tanh": Baseline(
        (mat("a", WIDE, N), mat("out", WIDE, N)),
        lambda t, F, a, out: t.tanh(t.exp(-a), out=out),
        lambda t, a, out: t.tanh(t.exp(-a)),
        "torch.tanh(torch.exp(-a), out=out): eager PyTorch runs three "
        "elementwise kernels (neg, exp, tanh)"),
    "fill": Baseline(
        (mat("out", WIDE, WIDE),),
        lambda t, F, out: out.fill_(1.5),
        lambda t, out: t.full_like(out, 1.5),
        "out.fill_(1.5): one kernel"),
    "fused_relu_fma": Baseline(
        (mat("a", WIDE, N), mat("b", WIDE, N), mat("c", WIDE, N),
         mat("out", WIDE, N)),
        lambda t, F, a, b, c, out: t.addcmul(c, a, b, out=out).relu_(),
        lambda t, a, b, c, out: t.clamp(a * b + c, min=0),
        "torch.addcmul(c, a, b, out=out).relu_(): two elementwise kernels "
        "(eager PyTorch does not fuse the max with the multiply-add)"),
    "layernorm": Baseline(
        (mat("x", ROWS, 1024), mat("sum", ROWS), mat("sq", ROWS),
         mat("out", ROWS, 1024)),
        lambda t, F, x, s, sq, out: F.layer_norm(x, (x.shape[1],), eps=1e-5),
        _layernorm_reference,
        "F.layer_norm(x, (1024,), eps=1e-5), no affine, biased variance: "
        "one kernel; the program also writes the row sums and squared "
        "deviations (sum, sq), intermediates a PyTorch user does not keep; "
        "they are taken as starting from zero"),
    "matmul": Baseline(
        (mat("a", 768, 768), mat("b", 768, 768), mat("c", 768, 768)),
        lambda t, F, a, b, c: c.addmm_(a, b),
        lambda t, a, b, c: c + a @ b,
        "C += A B: c.addmm_(a, b) (cuBLAS GEMM with beta = 1), TF32 off",
        accumulates=("c",)),
    "matmul_large": Baseline(
        (mat("a", 2048, 2048), mat("b", 2048, 2048), mat("c", 2048, 2048)),
        lambda t, F, a, b, c: c.addmm_(a, b),
        lambda t, a, b, c: c + a @ b,
        "C += A B: c.addmm_(a, b) (cuBLAS GEMM with beta = 1), TF32 off",
        accumulates=("c",)),
    "matmul_f16": Baseline(
        (mat("a", 2048, 2048, dtype="f16"), mat("b", 2048, 2048, dtype="f16"),
         mat("c", 2048, 2048)),
        lambda t, F, a, b, c: c.add_(t.mm(a, b, out_dtype=t.float32)),
        lambda t, a, b, c: c + a @ b,
        "C += A B with f16 A, B and f32 C: c.add_(torch.mm(a, b, "
        "out_dtype=torch.float32)) (cuBLAS f16 GEMM on tensor cores with f32 "
        "accumulation and result, then the addition)",
        accumulates=("c",),
        variants={"f16_result": (
            lambda t, F, a, b, c: c.add_(a @ b),
            "c.add_(a @ b): the f16 GEMM's result rounded to f16 before the "
            "addition (less accurate than the program)")}),
    "matmul_bf16": Baseline(
        (mat("a", 2048, 2048, dtype="bf16"),
         mat("b", 2048, 2048, dtype="bf16"),
         mat("c", 2048, 2048)),
        lambda t, F, a, b, c: c.add_(t.mm(a, b, out_dtype=t.float32)),
        lambda t, a, b, c: c + a @ b,
        "C += A B with bf16 A, B and f32 C: c.add_(torch.mm(a, b, "
        "out_dtype=torch.float32)) (cuBLAS bf16 GEMM on tensor cores with "
        "f32 accumulation and result, then the addition)",
        accumulates=("c",),
        variants={"bf16_result": (
            lambda t, F, a, b, c: c.add_(a @ b),
            "c.add_(a @ b): the bf16 GEMM's result rounded to bf16 before "
            "the addition (less accurate than the program)")}),
    "matmul_ragged": Baseline(
        (mat("a", 992, 1000), mat("b", 1000, 1008), mat("c", 992, 1008)),
        lambda t, F, a, b, c: c.addmm_(a, b),
        lambda t, a, b, c: c + a @ b,
        "C += A B: c.addmm_(a, b) (cuBLAS GEMM with beta = 1), TF32 off",
        accumulates=("c",)),
    "matvec": Baseline(
        (mat("a", ROWS, N), mat("x", N), mat("y", ROWS)),
        lambda t, F, a, x, y: y.addmv_(a, x),
        lambda t, a, x, y: y + t.einsum("ij,j->i", a, x),
        "y += A x: y.addmv_(a, x) (cuBLAS GEMV with beta = 1)",
        accumulates=("y",)),
    "maxpool": Baseline(
        (mat("in", 1024, 1024, 32), mat("window", 2, 2),
         mat("out", 512, 512, 32)),
        lambda t, F, x, window, out: t.maximum(out, _maxpool(t, F, x),
                                               out=out),
        _maxpool_reference,
        "out = max(out, F.max_pool2d(x, 2, stride=2)): the program is HWC, "
        "so the input is the NCHW-shaped channels-last view of the same "
        "memory (no copy); max_pool2d on CUDA also writes int64 indices; "
        "the window argument only gives the window's shape; a pooling "
        "kernel and an elementwise max",
        accumulates=("out",),
        prepare=_maxpool_prepare,
        variants={
            "no_accumulation": (
                lambda t, F, x, window, out: _maxpool(t, F, x),
                NO_ACCUMULATION),
            "amax": (
                lambda t, F, x, window, out: t.amax(
                    x[0].permute(1, 2, 0).view(512, 2, 512, 2, 32),
                    dim=(1, 3), out=out),
                "torch.amax over the 2x2 windows of a (512, 2, 512, 2, 32) "
                "view, out=out: one reduction kernel, no indices, no "
                "accumulation")}),
    "outer_product": Baseline(
        (mat("x", WIDE), mat("y", WIDE), mat("out", WIDE, WIDE)),
        lambda t, F, x, y, out: t.outer(x, y, out=out),
        lambda t, x, y, out: x[:, None] * y[None, :],
        "torch.outer(x, y, out=out): one elementwise kernel"),
    "row_max": Baseline(
        (mat("a", ROWS, N), mat("out", ROWS)),
        lambda t, F, a, out: t.maximum(out, a.amax(1), out=out),
        lambda t, a, out: t.maximum(out, a.max(1).values),
        "out = max(out, row max): torch.maximum(out, a.amax(1), out=out), "
        "a row reduction and a 4096-element max",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, a, out: t.amax(a, 1, out=out), NO_ACCUMULATION)}),
    "row_sum": Baseline(
        (mat("a", ROWS, N), mat("out", ROWS)),
        lambda t, F, a, out: out.add_(a.sum(1)),
        lambda t, a, out: out + a.sum(1),
        "out += row sums: out.add_(a.sum(1)), a row reduction and a "
        "4096-element add",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, a, out: t.sum(a, 1, out=out), NO_ACCUMULATION)}),
    "scale_bf16": Baseline(
        (mat("a", WIDE, WIDE, dtype="bf16"),
         mat("out", WIDE, WIDE, dtype="bf16")),
        lambda t, F, a, out: t.add(a * 0.5, 1.0, out=out),
        lambda t, a, out: a * 0.5 + 1,
        "torch.add(a * 0.5, 1.0, out=out) on bf16: two elementwise kernels, "
        "each computing in f32; the bf16 intermediate a * 0.5 is exact, so "
        "the result is the program's",
        variants={"one_kernel": (
            lambda t, F, a, out: t.add(t.tensor(1.0), a, alpha=0.5, out=out),
            "torch.add(torch.tensor(1.0), a, alpha=0.5, out=out): 1 + 0.5 a "
            "in one kernel (a CPU 0-dim tensor is a scalar operand)")}),
    "softmax": Baseline(
        (mat("x", ROWS, 1024), mat("max", ROWS), mat("sum", ROWS),
         mat("e", ROWS, 1024),
         mat("out", ROWS, 1024)),
        lambda t, F, x, m, s, e, out: t.softmax(x, 1),
        _softmax_reference,
        "torch.softmax(x, 1): one kernel; the program's four steps (row "
        "max, exp of the shifted values, row sum, division) are row softmax; "
        "it also writes max, sum and e, intermediates a PyTorch user does "
        "not keep; they are taken as starting from -inf and zero"),
    "sumpool": Baseline(
        (mat("in", 64, 514, 514), mat("window", 3, 3),
         mat("out", 64, 512, 512)),
        lambda t, F, x, window, out: out.add_(_sumpool(t, F, x)),
        _sumpool_reference,
        "out += F.avg_pool2d(x[None], 3, stride=1, divisor_override=1) (a "
        "sum pool; CHW is NCHW with N = 1, no relayout); the window argument "
        "only gives the window's shape; a pooling kernel and an elementwise "
        "add",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, window, out: _sumpool(t, F, x), NO_ACCUMULATION)}),
    "transpose2d": Baseline(
        (mat("a", WIDE, N), mat("out", N, WIDE)),
        lambda t, F, a, out: out.copy_(a.t()),
        lambda t, a, out: a.t(),
        "out.copy_(a.t()) (what a.t().contiguous() runs): one strided copy "
        "kernel"),
    "transpose3d": Baseline(
        (mat("a", 128, 512, 512), mat("out", 128, 512, 512)),
        lambda t, F, a, out: out.copy_(a.transpose(1, 2)),
        lambda t, a, out: a.permute(0, 2, 1),
        "out.copy_(a.transpose(1, 2)) (permutation [0, 2, 1]): one strided "
        "copy kernel"),
    "truncf_f16": Baseline(
        (mat("a", WIDE, WIDE), mat("out", WIDE, WIDE, dtype="f16")),
        lambda t, F, a, out: out.copy_(a),
        lambda t, a, out: a,
        "out.copy_(a) into f16 (round to nearest even, as arith.truncf): "
        "one conversion kernel"),
    "vecmat": Baseline(
        (mat("x", N), mat("a", N, COLS), mat("y", COLS)),
        lambda t, F, x, a, y: y.addmv_(a.t(), x),
        lambda t, x, a, y: y + t.einsum("i,ij->j", x, a),
        "y += x A: y.addmv_(a.t(), x) (cuBLAS GEMV on the transposed view, "
        "beta = 1, no copy)",
        accumulates=("y",)),
    # Programs added after the first 33 (scripts/split-corpus.py keeps a
    # third of all programs held out of tuning).
    "add_mask_rank3": Baseline(
        (mat("s", 32, 513, 513), mat("mask", 513, 513),
         mat("out", 32, 513, 513)),
        lambda t, F, s, mask, out: t.add(s, mask, out=out),
        lambda t, s, mask, out: s + mask[None, :, :],
        "torch.add(s, mask, out=out), the mask broadcast over the leading "
        "axis: one elementwise kernel"),
    "avgpool_nchw_7x7": Baseline(
        (mat("in", 8, 32, 134, 134), mat("window", 7, 7),
         mat("out", 8, 32, 128, 128)),
        lambda t, F, x, window, out: out.add_(F.avg_pool2d(x, 7, stride=1)),
        _pool_reference("sum", 1, False, scale=1 / 49),
        "out += F.avg_pool2d(x, 7, stride=1) (NCHW, the program's layout; "
        "PyTorch divides the window's sum by 49 where the program scales "
        "each tap); the window argument only gives the window's shape; a "
        "pooling kernel and an elementwise add",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, window, out: F.avg_pool2d(x, 7, stride=1),
            NO_ACCUMULATION)}),
    "axpy_f64": Baseline(
        (mat("x", 8388609, dtype="f64"), mat("y", 8388609, dtype="f64"),
         mat("out", 8388609, dtype="f64")),
        lambda t, F, x, y, out: t.add(y, x, alpha=2.5, out=out),
        lambda t, x, y, out: x * 2.5 + y,
        "torch.add(y, x, alpha=2.5, out=out) on f64: one elementwise kernel"),
    "batchnorm_nchw_bf16": Baseline(
        (mat("in", 32, 256, 28, 28, dtype="bf16"), mat("mean", 256),
         mat("var", 256), mat("gamma", 256), mat("beta", 256),
         mat("out", 32, 256, 28, 28, dtype="bf16")),
        lambda t, F, x, mean, var, gamma, beta, out: F.batch_norm(
            x, mean, var, gamma, beta, training=False, eps=1e-5),
        _batchnorm_reference(False),
        "F.batch_norm(x, mean, var, gamma, beta, training=False, eps=1e-5) "
        "on bf16 activations with f32 statistics and parameters (NCHW, the "
        "program's layout): one kernel, computed in f32; variances drawn "
        "from [0.5, 2)",
        ranges={"var": (0.5, 2.0)}),
    "batchnorm_nhwc_f16": Baseline(
        (mat("in", 32, 64, 64, 128, dtype="f16"), mat("mean", 128),
         mat("var", 128), mat("gamma", 128), mat("beta", 128),
         mat("out", 32, 64, 64, 128, dtype="f16")),
        lambda t, F, x, mean, var, gamma, beta, out: _to_nhwc(F.batch_norm(
            x, mean, var, gamma, beta, training=False, eps=1e-5)),
        _batchnorm_reference(True),
        "F.batch_norm(x, mean, var, gamma, beta, training=False, eps=1e-5) "
        "on f16 activations with f32 statistics and parameters: the program "
        "is NHWC, so the input is the NCHW-shaped channels-last view of the "
        "same memory (no copy) and the result comes back channels-last; one "
        "kernel; variances drawn from [0.5, 2)",
        prepare=_nhwc_prepare,
        ranges={"var": (0.5, 2.0)}),
    "bmm_at_b_f32": Baseline(
        (mat("a", 24, 129, 256), mat("b", 24, 129, 384),
         mat("c", 24, 256, 384)),
        lambda t, F, a, b, c: c.baddbmm_(a.transpose(1, 2), b),
        lambda t, a, b, c: c + t.einsum("bkm,bkn->bmn", a, b),
        "C += A^T B per batch: c.baddbmm_(a.transpose(1, 2), b) (cuBLAS "
        "strided batched GEMM on the transposed view, beta = 1, no copy), "
        "TF32 off",
        accumulates=("c",)),
    "bmm_pv_bf16": Baseline(
        (mat("p", 16, 1000, 1000, dtype="bf16"),
         mat("v", 16, 1000, 64, dtype="bf16"), mat("o", 16, 1000, 64)),
        lambda t, F, p, v, o: o.add_(t.bmm(p, v, out_dtype=t.float32)),
        lambda t, p, v, o: o + t.einsum("hij,hjd->hid", p, v),
        "O += P V per head with bf16 P, V and f32 O: o.add_(torch.bmm(p, v, "
        "out_dtype=torch.float32)) (cuBLAS bf16 batched GEMM with f32 "
        "accumulation and result, then the addition)",
        accumulates=("o",),
        variants={"bf16_result": (
            lambda t, F, p, v, o: o.add_(t.bmm(p, v)),
            "o.add_(torch.bmm(p, v)): the bf16 GEMM's result rounded to bf16 "
            "before the addition (less accurate than the program)")}),
    "bmm_q_kt_f16": Baseline(
        (mat("q", 12, 1024, 64, dtype="f16"),
         mat("k", 12, 1024, 64, dtype="f16"), mat("s", 12, 1024, 1024)),
        lambda t, F, q, k, s: s.add_(
            t.bmm(q, k.transpose(1, 2), out_dtype=t.float32)),
        lambda t, q, k, s: s + t.einsum("hid,hjd->hij", q, k),
        "S += Q K^T per head with f16 Q, K and f32 S: s.add_(torch.bmm(q, "
        "k.transpose(1, 2), out_dtype=torch.float32)) (cuBLAS f16 batched "
        "GEMM on the transposed view with f32 accumulation and result, then "
        "the addition)",
        accumulates=("s",),
        variants={"f16_result": (
            lambda t, F, q, k, s: s.add_(t.bmm(q, k.transpose(1, 2))),
            "s.add_(torch.bmm(q, k.transpose(1, 2))): the f16 GEMM's result "
            "rounded to f16 before the addition (less accurate than the "
            "program)")}),
    "col_max_i8": Baseline(
        (mat("a", 8192, 1000, dtype="i8"), mat("out", 1000, dtype="i8")),
        lambda t, F, a, out: t.maximum(out, a.amax(0), out=out),
        lambda t, a, out: t.maximum(out, a.max(0).values),
        "out = max(out, column max) on int8: torch.maximum(out, a.amax(0), "
        "out=out), a column reduction and a 1000-element max",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, a, out: t.amax(a, 0, out=out), NO_ACCUMULATION)}),
    "conv2d_nchw_1x1_s2": Baseline(
        (mat("in", 2, 64, 57, 57), mat("w", 128, 64, 1, 1),
         mat("out", 2, 128, 29, 29)),
        lambda t, F, x, w, out: out.add_(F.conv2d(x, w, stride=2)),
        _conv_reference(2, False),
        "out += F.conv2d(x, w, stride=2) (NCHW with (128, 64, 1, 1) "
        "weights, the program's layout): cuDNN and an elementwise add; TF32 "
        "off",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, w, out: F.conv2d(x, w, stride=2),
            NO_ACCUMULATION)}),
    "conv2d_nchw_3x3_c1": Baseline(
        (mat("in", 16, 1, 130, 130), mat("w", 16, 1, 3, 3),
         mat("out", 16, 16, 128, 128)),
        lambda t, F, x, w, out: out.add_(F.conv2d(x, w)),
        _conv_reference(1, False),
        "out += F.conv2d(x, w) (NCHW, one input channel, the program's "
        "layout): cuDNN and an elementwise add; TF32 off",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, w, out: F.conv2d(x, w), NO_ACCUMULATION)}),
    "conv2d_nchw_5x5_s2": Baseline(
        (mat("in", 32, 3, 131, 131), mat("w", 32, 3, 5, 5),
         mat("out", 32, 32, 64, 64)),
        lambda t, F, x, w, out: out.add_(F.conv2d(x, w, stride=2)),
        _conv_reference(2, False),
        "out += F.conv2d(x, w, stride=2) (NCHW, the program's layout): "
        "cuDNN and an elementwise add; TF32 off",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, w, out: F.conv2d(x, w, stride=2),
            NO_ACCUMULATION)}),
    "conv2d_nhwc_1x1_c256": Baseline(
        (mat("in", 4, 28, 28, 256), mat("w", 1, 1, 256, 128),
         mat("out", 4, 28, 28, 128)),
        lambda t, F, x, w, out: out.add_(_to_nhwc(F.conv2d(x, w))),
        _conv_reference(1, True),
        "out += F.conv2d on channels-last tensors: the program is NHWC, so "
        "the input is the NCHW-shaped channels-last view of the same memory "
        "(no copy) and the result comes back channels-last; the HWCF filter "
        "is laid out once as PyTorch's (128, 256, 1, 1), channels last, "
        "before timing; cuDNN and an elementwise add; TF32 off",
        accumulates=("out",),
        prepare=_conv_nhwc_prepare,
        variants={"no_accumulation": (
            lambda t, F, x, w, out: _to_nhwc(F.conv2d(x, w)),
            NO_ACCUMULATION)}),
    "conv2d_nhwc_3x3_f16": Baseline(
        (mat("in", 8, 58, 58, 32, dtype="f16"),
         mat("w", 3, 3, 32, 32, dtype="f16"), mat("out", 8, 56, 56, 32)),
        lambda t, F, x, w, out: out.add_(_to_nhwc(F.conv2d(x, w))),
        _conv_reference(1, True),
        "out += F.conv2d on f16 channels-last tensors (NHWC input viewed "
        "without a copy, the HWCF filter laid out once as PyTorch's "
        "(32, 32, 3, 3), channels last, before timing): cuDNN's f16 "
        "convolution accumulates in f32 but rounds its result to f16 before "
        "the f32 addition, where the program keeps f32 (hence the f16 "
        "tolerance); an elementwise add",
        accumulates=("out",),
        prepare=_conv_nhwc_prepare,
        tolerance=TOLERANCE["f16"]),
    "conv2d_nhwc_7x7_s2": Baseline(
        (mat("in", 2, 229, 229, 3), mat("w", 7, 7, 3, 64),
         mat("out", 2, 112, 112, 64)),
        lambda t, F, x, w, out: out.add_(_to_nhwc(F.conv2d(x, w, stride=2))),
        _conv_reference(2, True),
        "out += F.conv2d(stride=2) on channels-last tensors (NHWC input "
        "viewed without a copy, the HWCF filter laid out once as PyTorch's "
        "(64, 3, 7, 7), channels last, before timing): cuDNN and an "
        "elementwise add; TF32 off",
        accumulates=("out",),
        prepare=_conv_nhwc_prepare,
        variants={"no_accumulation": (
            lambda t, F, x, w, out: _to_nhwc(F.conv2d(x, w, stride=2)),
            NO_ACCUMULATION)}),
    "depthwise_nchw_3x3_s2": Baseline(
        (mat("in", 4, 128, 113, 113), mat("w", 128, 3, 3),
         mat("out", 4, 128, 56, 56)),
        lambda t, F, x, w, out: out.add_(
            F.conv2d(x, w.unsqueeze(1), stride=2, groups=128)),
        _depthwise4_reference(2, False),
        "out += F.conv2d(x, w.unsqueeze(1), stride=2, groups=128) (NCHW, "
        "the program's layout; the CHW filter viewed as (128, 1, 3, 3)): "
        "cuDNN and an elementwise add; TF32 off",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, w, out: F.conv2d(x, w.unsqueeze(1), stride=2,
                                             groups=128),
            NO_ACCUMULATION)}),
    "depthwise_nhwc_5x5": Baseline(
        (mat("in", 2, 60, 60, 256), mat("w", 5, 5, 256),
         mat("out", 2, 56, 56, 256)),
        lambda t, F, x, w, out: out.add_(
            _to_nhwc(F.conv2d(x, w, groups=256))),
        _depthwise4_reference(1, True),
        "out += F.conv2d(groups=256) on the NCHW-shaped channels-last view "
        "of the NHWC input (no copy), the result back channels-last; the "
        "HWC filter laid out once as PyTorch's (256, 1, 5, 5) before "
        "timing; cuDNN and an elementwise add; TF32 off",
        accumulates=("out",),
        prepare=_depthwise_nhwc_prepare,
        variants={"no_accumulation": (
            lambda t, F, x, w, out: _to_nhwc(F.conv2d(x, w, groups=256)),
            NO_ACCUMULATION)}),
    "depthwise_nhwc_7x7_f16": Baseline(
        (mat("in", 2, 62, 62, 128, dtype="f16"),
         mat("w", 7, 7, 128, dtype="f16"), mat("out", 2, 56, 56, 128)),
        lambda t, F, x, w, out: out.add_(
            _to_nhwc(F.conv2d(x, w, groups=128))),
        _depthwise4_reference(1, True),
        "out += F.conv2d(groups=128) on f16 channels-last tensors (NHWC "
        "input viewed without a copy, the HWC filter laid out once as "
        "PyTorch's (128, 1, 7, 7) before timing): the convolution's result "
        "is rounded to f16 before the f32 addition, where the program keeps "
        "f32 (hence the f16 tolerance); cuDNN and an elementwise add",
        accumulates=("out",),
        prepare=_depthwise_nhwc_prepare,
        tolerance=TOLERANCE["f16"]),
    "div_colvec_f16": Baseline(
        (mat("a", 16384, 777, dtype="f16"), mat("s", 16384, dtype="f16"),
         mat("out", 16384, 777, dtype="f16")),
        lambda t, F, a, s, out: t.div(a, s[:, None], out=out),
        lambda t, a, s, out: a / s[:, None],
        "torch.div(a, s[:, None], out=out) on f16: one elementwise kernel; "
        "the scales drawn from [0.5, 2)",
        ranges={"s": (0.5, 2.0)}),
    "gelu_tanh_f16": Baseline(
        (mat("x", 12582917, dtype="f16"),
         mat("out", 12582917, dtype="f16")),
        lambda t, F, x, out: F.gelu(x, approximate="tanh"),
        _gelu_tanh_reference,
        "F.gelu(x, approximate='tanh') on f16: one elementwise kernel, "
        "computed in f32"),
    "global_avgpool_nhwc": Baseline(
        (mat("in", 128, 7, 7, 256), mat("out", 128, 256)),
        lambda t, F, x, out: out.add_(x.mean((1, 2))),
        lambda t, x, out: out + x.sum((1, 2)) / 49,
        "out += x.mean((1, 2)) on the NHWC tensor: a reduction kernel over "
        "the 7x7 positions and an elementwise add",
        accumulates=("out",),
        variants={
            "no_accumulation": (
                lambda t, F, x, out: x.mean((1, 2)), NO_ACCUMULATION),
            "adaptive_avg_pool2d": (
                lambda t, F, x, out: out.add_(F.adaptive_avg_pool2d(
                    x.permute(0, 3, 1, 2), 1).flatten(1)),
                "out += F.adaptive_avg_pool2d(x, 1) on the NCHW-shaped "
                "channels-last view of the input (no copy)")}),
    "linear_i8": Baseline(
        (mat("x", 2048, 1024, dtype="i8"), mat("w", 768, 1024, dtype="i8"),
         mat("out", 2048, 768, dtype="i32")),
        lambda t, F, x, w, out: out.add_(t._int_mm(x, w.t())),
        lambda t, x, w, out: out + t.einsum("mk,nk->mn", x, w),
        "out += x W^T with int8 x, W and an int32 result: out.add_("
        "torch._int_mm(x, w.t())) (cuBLASLt int8 GEMM with int32 "
        "accumulation on the transposed view, no copy; _int_mm is the int8 "
        "GEMM PyTorch exposes, needing more than 16 rows and sizes that are "
        "multiples of 8), then the addition",
        accumulates=("out",)),
    "matmul_f64": Baseline(
        (mat("a", 1000, 513, dtype="f64"), mat("b", 513, 777, dtype="f64"),
         mat("c", 1000, 777, dtype="f64")),
        lambda t, F, a, b, c: c.addmm_(a, b),
        lambda t, a, b, c: c + t.einsum("ik,kj->ij", a, b),
        "C += A B on f64: c.addmm_(a, b) (cuBLAS DGEMM with beta = 1)",
        accumulates=("c",)),
    "matmul_n3": Baseline(
        (mat("a", 65536, 256), mat("b", 256, 3), mat("c", 65536, 3)),
        lambda t, F, a, b, c: c.addmm_(a, b),
        lambda t, a, b, c: c + t.einsum("ik,kj->ij", a, b),
        "C += A B with 3 columns: c.addmm_(a, b) (cuBLAS GEMM with "
        "beta = 1), TF32 off",
        accumulates=("c",)),
    "max_channels_nhwc_f16": Baseline(
        (mat("in", 32, 64, 64, 128, dtype="f16"),
         mat("out", 32, 64, 64, dtype="f16")),
        lambda t, F, x, out: t.maximum(out, x.amax(3), out=out),
        lambda t, x, out: t.maximum(out, x.max(3).values),
        "out = max(out, channel max) on the NHWC f16 tensor: "
        "torch.maximum(out, x.amax(3), out=out), a reduction kernel and an "
        "elementwise max",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, out: t.amax(x, 3, out=out), NO_ACCUMULATION)}),
    "maxpool_nchw_3x3_s2": Baseline(
        (mat("in", 8, 64, 113, 113), mat("window", 3, 3),
         mat("out", 8, 64, 56, 56)),
        lambda t, F, x, window, out: t.maximum(
            out, F.max_pool2d(x, 3, stride=2), out=out),
        _pool_reference("max", 2, False),
        "out = max(out, F.max_pool2d(x, 3, stride=2)) (NCHW, the program's "
        "layout); the window argument only gives the window's shape; a "
        "pooling kernel and an elementwise max",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, window, out: F.max_pool2d(x, 3, stride=2),
            NO_ACCUMULATION)}),
    "maxpool_nchw_7x7_s2": Baseline(
        (mat("in", 4, 32, 135, 135), mat("window", 7, 7),
         mat("out", 4, 32, 65, 65)),
        lambda t, F, x, window, out: t.maximum(
            out, F.max_pool2d(x, 7, stride=2), out=out),
        _pool_reference("max", 2, False),
        "out = max(out, F.max_pool2d(x, 7, stride=2)) (NCHW, the program's "
        "layout); the window argument only gives the window's shape; a "
        "pooling kernel and an elementwise max",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, window, out: F.max_pool2d(x, 7, stride=2),
            NO_ACCUMULATION)}),
    "maxpool_nhwc_3x3_i8": Baseline(
        (mat("in", 8, 66, 66, 64, dtype="i8"), mat("window", 3, 3, dtype="i8"),
         mat("out", 8, 64, 64, 64, dtype="i8")),
        lambda t, F, x, window, out: t.maximum(
            out, x.unfold(1, 3, 1).unfold(2, 3, 1).amax((-2, -1)), out=out),
        _pool_reference("max", 1, True),
        "out = max(out, x.unfold(1, 3, 1).unfold(2, 3, 1).amax((-2, -1))): "
        "F.max_pool2d has no int8 kernel on CUDA, so the 3x3 windows of the "
        "NHWC tensor are a strided view (no copy) reduced by amax; a "
        "reduction kernel and an elementwise max; the window argument only "
        "gives the window's shape",
        accumulates=("out",),
        variants={"float_max_pool2d": (
            lambda t, F, x, window, out: t.maximum(out, _to_nhwc(F.max_pool2d(
                x.permute(0, 3, 1, 2).float(), 3, stride=1)).to(t.int8),
                out=out),
            "the int8 tensor converted to f32, F.max_pool2d on the "
            "channels-last view, converted back: four kernels")}),
    "maxpool_nhwc_5x5_f16": Baseline(
        (mat("in", 4, 68, 68, 256, dtype="f16"),
         mat("window", 5, 5, dtype="f16"),
         mat("out", 4, 64, 64, 256, dtype="f16")),
        lambda t, F, x, window, out: t.maximum(
            out, _to_nhwc(F.max_pool2d(x, 5, stride=1)), out=out),
        _pool_reference("max", 1, True),
        "out = max(out, F.max_pool2d(x, 5, stride=1)) on f16: the program "
        "is NHWC, so the input is the NCHW-shaped channels-last view of the "
        "same memory (no copy); the window argument only gives the window's "
        "shape; a pooling kernel and an elementwise max",
        accumulates=("out",),
        prepare=_nhwc_prepare,
        variants={"no_accumulation": (
            lambda t, F, x, window, out: _to_nhwc(
                F.max_pool2d(x, 5, stride=1)),
            NO_ACCUMULATION)}),
    "min_axis2_rank3": Baseline(
        (mat("a", 256, 1024, 129), mat("out", 256, 1024)),
        lambda t, F, a, out: t.minimum(out, a.amin(2), out=out),
        lambda t, a, out: t.minimum(out, a.min(2).values),
        "out = min(out, min over the last axis): torch.minimum(out, "
        "a.amin(2), out=out), a reduction kernel and an elementwise min",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, a, out: t.amin(a, 2, out=out), NO_ACCUMULATION)}),
    "quantize_rows_i8": Baseline(
        (mat("x", 8192, 1024), mat("inv_scale", 8192),
         mat("out", 8192, 1024, dtype="i8")),
        lambda t, F, x, inv_scale, out: out.copy_(
            (x * inv_scale[:, None]).round_().clamp_(-128, 127)),
        _quantize_reference,
        "out.copy_((x * inv_scale[:, None]).round_().clamp_(-128, 127)): "
        "four elementwise kernels (multiply, round half to even, clamp, "
        "conversion to int8); the inverse scales drawn from [16, 48), so "
        "that some values clamp",
        ranges={"inv_scale": (16.0, 48.0)}),
    "row_sum_bf16": Baseline(
        (mat("a", 16384, 777, dtype="bf16"), mat("out", 16384)),
        lambda t, F, a, out: out.add_(a.sum(1, dtype=t.float32)),
        lambda t, a, out: out + a.sum(1),
        "out += row sums of bf16 in f32: out.add_(a.sum(1, "
        "dtype=torch.float32)), a row reduction and a 16384-element add",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, a, out: t.sum(a, 1, dtype=t.float32, out=out),
            NO_ACCUMULATION)}),
    "sub_rowvec_f64": Baseline(
        (mat("a", 4096, 1000, dtype="f64"), mat("v", 1000, dtype="f64"),
         mat("out", 4096, 1000, dtype="f64")),
        lambda t, F, a, v, out: t.sub(a, v, out=out),
        lambda t, a, v, out: a - v[None, :],
        "torch.sub(a, v, out=out) on f64, v broadcast along rows: one "
        "elementwise kernel"),
    "sum_all_f64": Baseline(
        (mat("x", 100003, dtype="f64"), mat("out", 1, dtype="f64")),
        lambda t, F, x, out: out.add_(x.sum()),
        lambda t, x, out: out + t.einsum("i->", x),
        "out += x.sum() on f64: a full reduction kernel and a one-element "
        "add",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, out: t.sum(x, 0, keepdim=True, out=out),
            NO_ACCUMULATION)}),
    "sum_axis0_rank3_f16": Baseline(
        (mat("a", 64, 513, 513, dtype="f16"), mat("out", 513, 513)),
        lambda t, F, a, out: out.add_(a.sum(0, dtype=t.float32)),
        lambda t, a, out: out + a.sum(0),
        "out += sums over the first axis of f16 in f32: out.add_(a.sum(0, "
        "dtype=torch.float32)), a reduction kernel and an elementwise add",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, a, out: t.sum(a, 0, dtype=t.float32, out=out),
            NO_ACCUMULATION)}),
    "sum_axis1_rank3": Baseline(
        (mat("a", 128, 513, 256), mat("out", 128, 256)),
        lambda t, F, a, out: out.add_(a.sum(1)),
        lambda t, a, out: out + t.einsum("ijk->ik", a),
        "out += sums over the middle axis: out.add_(a.sum(1)), a reduction "
        "kernel and an elementwise add",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, a, out: t.sum(a, 1, out=out), NO_ACCUMULATION)}),
    "sum_channels_nchw": Baseline(
        (mat("in", 16, 256, 56, 56), mat("out", 16, 56, 56)),
        lambda t, F, x, out: out.add_(x.sum(1)),
        lambda t, x, out: out + t.einsum("ncyx->nyx", x),
        "out += sums over the channels of the NCHW tensor: out.add_("
        "x.sum(1)), a reduction kernel and an elementwise add",
        accumulates=("out",),
        variants={"no_accumulation": (
            lambda t, F, x, out: t.sum(x, 1, out=out), NO_ACCUMULATION)}),
    "sumpool_nchw_5x5_bf16": Baseline(
        (mat("in", 8, 16, 132, 132, dtype="bf16"),
         mat("window", 5, 5, dtype="bf16"), mat("out", 8, 16, 128, 128)),
        lambda t, F, x, window, out: out.add_(
            F.avg_pool2d(x, 5, stride=1, divisor_override=1)),
        _pool_reference("sum", 1, False),
        "out += F.avg_pool2d(x, 5, stride=1, divisor_override=1) on bf16 "
        "(a sum pool, NCHW, the program's layout): PyTorch sums in f32 but "
        "rounds the sums to bf16 before the f32 addition, where the program "
        "keeps f32 (hence the bf16 tolerance); the window argument only "
        "gives the window's shape; a pooling kernel and an elementwise add",
        accumulates=("out",),
        tolerance=TOLERANCE["bf16"],
        variants={"f32_input": (
            lambda t, F, x, window, out: out.add_(F.avg_pool2d(
                x.float(), 5, stride=1, divisor_override=1)),
            "the bf16 input converted to f32 first, then the f32 sum pool "
            "and the addition: three kernels, the program's precision")}),
    "sumpool_nhwc_3x3_s2": Baseline(
        (mat("in", 8, 257, 257, 32), mat("window", 3, 3),
         mat("out", 8, 128, 128, 32)),
        lambda t, F, x, window, out: out.add_(_to_nhwc(
            F.avg_pool2d(x, 3, stride=2, divisor_override=1))),
        _pool_reference("sum", 2, True),
        "out += F.avg_pool2d(x, 3, stride=2, divisor_override=1) (a sum "
        "pool): the program is NHWC, so the input is the NCHW-shaped "
        "channels-last view of the same memory (no copy) and the result "
        "comes back channels-last; the window argument only gives the "
        "window's shape; a pooling kernel and an elementwise add",
        accumulates=("out",),
        prepare=_nhwc_prepare,
        variants={"no_accumulation": (
            lambda t, F, x, window, out: _to_nhwc(
                F.avg_pool2d(x, 3, stride=2, divisor_override=1)),
            NO_ACCUMULATION)}),
}

SIGNATURE = re.compile(r"func\.func\s+@(\w+)\s*\((.*?)\)\s*\{", re.S)
MEMREF_ARG = re.compile(r"%(\w+)\s*:\s*memref<((?:\d+x)+)(\w+)>")


def signature(path):
    """The function name and (shape, dtype) of each argument of a program."""
    match = SIGNATURE.search(path.read_text())
    if not match:
        raise ValueError(f"{path.name}: no func.func found")
    args = [(tuple(int(d) for d in dims.rstrip("x").split("x")), dtype)
            for _, dims, dtype in MEMREF_ARG.findall(match.group(2))]
    if len(args) != match.group(2).count("%"):
        raise ValueError(f"{path.name}: an argument that is not a static "
                         f"memref")
    return match.group(1), args


def check_table(programs_dir, only):
    """The programs to run, in order, and the problems that make the table
    unusable for them: a program without an entry, an entry whose arguments
    differ from the program's signature, an entry without a program. With
    `only`, just those programs are checked."""
    files = {p.stem: p for p in sorted(programs_dir.glob("*.mlir"))}
    selected = [n for n in sorted(files) if not only or n in only]
    problems = [f"--only {n}: no such program" for n in only
                if n not in files]
    for name in selected:
        if name not in BASELINES:
            problems.append(f"{name}.mlir has no PyTorch baseline: add an "
                            f"entry to BASELINES in "
                            f"{pathlib.Path(__file__).name}")
            continue
        try:
            func, args = signature(files[name])
        except ValueError as error:
            problems.append(str(error))
            continue
        expected = [(tuple(shape), dtype)
                    for _, shape, dtype in BASELINES[name].args]
        if func != name:
            problems.append(f"{name}.mlir defines @{func}, not @{name}")
        if args != expected:
            problems.append(f"{name}: the program's arguments "
                            f"{_spell(args)} differ from the entry's "
                            f"{_spell(expected)}")
    if not only:
        problems += [f"BASELINES has an entry for {name}, which has no "
                     f"program"
                     for name in sorted(set(BASELINES) - set(files))]
    return selected, problems


def _spell(args):
    return ", ".join("x".join(map(str, shape)) + "x" + dtype
                     for shape, dtype in args)


def list_table(programs_dir):
    selected, problems = check_table(programs_dir, [])
    for name in selected:
        if name not in BASELINES:
            continue
        baseline = BASELINES[name]
        args = ", ".join(f"%{n}: " + "x".join(map(str, s)) + f"x{d}"
                         for n, s, d in baseline.args)
        print(f"{name}({args})")
        print(f"    {baseline.note}")
        for variant, (_, note) in sorted((baseline.variants or {}).items()):
            print(f"    variant {variant}: {note}")
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    covered = sum(name in BASELINES for name in selected)
    print(f"{len(selected)} programs, {covered} with a PyTorch baseline")
    return 1 if problems else 0


# --- Measurement (needs torch and a GPU) -----------------------------------

TORCH_DTYPES = {"f64": "float64", "f32": "float32", "f16": "float16",
                "bf16": "bfloat16", "i32": "int32", "i8": "int8"}


def dtype_name(t, dtype):
    for name, spelled in TORCH_DTYPES.items():
        if dtype == getattr(t, spelled):
            return name
    return str(dtype)


def make_inputs(t, baseline, generator):
    """Seeded arguments: normal floats, int8 over its whole range (also for
    the intermediates of softmax and layernorm, which the calls do not
    read), int32 in [-2^20, 2^20), and the entry's `ranges` uniformly."""
    tensors = []
    ranges = baseline.ranges or {}
    for name, shape, dtype in baseline.args:
        torch_dtype = getattr(t, TORCH_DTYPES[dtype])
        if name in ranges:
            low, high = ranges[name]
            value = (low + (high - low) * t.rand(
                shape, generator=generator, device="cuda",
                dtype=t.float32)).to(torch_dtype)
        elif dtype == "i8":
            value = t.randint(-128, 128, shape, generator=generator,
                              device="cuda", dtype=torch_dtype)
        elif dtype == "i32":
            value = t.randint(-(1 << 20), 1 << 20, shape, generator=generator,
                              device="cuda", dtype=torch_dtype)
        else:
            value = t.randn(shape, generator=generator, device="cuda",
                            dtype=t.float32).to(torch_dtype)
        tensors.append(value)
    return tensors


def statistics_of(samples):
    ordered = sorted(samples)
    median = statistics.median(ordered)

    def percentile(fraction):
        position = fraction * (len(ordered) - 1)
        low = int(position)
        high = min(low + 1, len(ordered) - 1)
        return ordered[low] + (ordered[high] - ordered[low]) * (position - low)

    return {"median_us": median,
            "mad_us": statistics.median(abs(v - median) for v in ordered),
            "samples": len(ordered),
            "min_us": ordered[0], "p10_us": percentile(0.1),
            "p90_us": percentile(0.9), "max_us": ordered[-1],
            "mean_us": statistics.fmean(ordered)}


class Timer:
    """The worker's protocol around a PyTorch call."""

    def __init__(self, t, time_budget):
        self.t = t
        self.time_budget = time_budget
        props = t.cuda.get_device_properties(0)
        l2 = getattr(props, "L2_cache_size", 0) or (60 << 20)
        self.flush_bytes = max(4 * l2, MIN_FLUSH_BYTES)
        # Read, never written after this: the flush leaves clean lines, so
        # no write-back lands inside the timed call.
        self.flush = t.ones(self.flush_bytes // 4, dtype=t.float32,
                            device="cuda")
        self.sink = t.empty((), dtype=t.float32, device="cuda")

    def time(self, fn, restore):
        t = self.t

        def enqueue(start=None, end=None):
            for destination, source in restore:
                destination.copy_(source)
            t.sum(self.flush, dim=0, out=self.sink)
            if start is not None:
                start.record()
            fn()
            if end is not None:
                end.record()

        for _ in range(WARMUP):
            enqueue()
        t.cuda.synchronize()
        samples = []
        started = time.monotonic()
        while len(samples) < MAX_RUNS:
            done = len(samples)
            chunk = min(CHUNK, MAX_RUNS - done)
            if done >= MIN_RUNS:
                if self.time_budget > 0:
                    spent = time.monotonic() - started
                    if spent >= self.time_budget:
                        break
                    per_run = spent / done
                    affordable = (int((self.time_budget - spent) / per_run) + 1
                                  if per_run > 0 else chunk)
                    chunk = max(1, min(chunk, affordable))
            else:
                chunk = min(chunk, MIN_RUNS - done)
            events = [(t.cuda.Event(enable_timing=True),
                       t.cuda.Event(enable_timing=True)) for _ in range(chunk)]
            for start, end in events:
                enqueue(start, end)
            events[-1][1].synchronize()
            samples += [start.elapsed_time(end) * 1e3 for start, end in events]
        t.cuda.synchronize()
        return statistics_of(samples)


def verify(t, baseline, originals, result):
    """Compares the call's result with the float64 reference on the
    original arguments: (passed, max |r - ref| / (1 + |ref|))."""
    reference = baseline.reference(t, *[x.double() for x in originals])
    if tuple(result.shape) != tuple(reference.shape):
        raise ValueError(f"result shape {tuple(result.shape)}, reference "
                         f"shape {tuple(reference.shape)}")
    error = ((result.double() - reference).abs() /
             (1 + reference.abs())).max().item()
    tolerance = baseline.tolerance
    if tolerance is None:
        tolerance = TOLERANCE.get(dtype_name(t, result.dtype), 5e-4)
    return error <= tolerance, error


def measure(t, F, baseline, timer, generator, args):
    entry = {"note": baseline.note}
    originals = make_inputs(t, baseline, generator)
    names = [n for n, _, _ in baseline.args]
    accumulated = [originals[names.index(n)] for n in baseline.accumulates]
    # (buffer, its value before any call), restored before each run.
    restore = [(x, x.clone()) for x in accumulated]
    before = [next((v for b, v in restore if b is x), x) for x in originals]
    tensors = list(originals)
    if baseline.prepare:
        tensors = list(baseline.prepare(t, *tensors))

    def bind(call):
        return lambda: call(t, F, *tensors)

    fn = bind(baseline.call)
    if args.verify:
        result = fn()
        t.cuda.synchronize()
        entry["verified"], entry["max_error"] = verify(t, baseline, before,
                                                       result)
        del result
    entry.update(timer.time(fn, restore))
    variants = dict(baseline.variants or {})
    if args.compile:
        variants["compiled"] = (
            baseline.call, "torch.compile of the call (default mode; it "
                           "compiles during the warm-up)")
    for variant, (call, note) in sorted(variants.items()):
        record = {"note": note}
        try:
            runner = bind(call)
            if variant == "compiled":
                runner = t.compile(runner)
            record.update(timer.time(runner, restore))
        except Exception as error:  # Recorded; the next variant still runs.
            record["error"] = f"{type(error).__name__}: {error}"
        entry.setdefault("variants", {})[variant] = record
    return entry


def device_info(t):
    props = t.cuda.get_device_properties(0)
    info = {"gpu": t.cuda.get_device_name(0),
            "compute_capability": f"{props.major}.{props.minor}",
            "sm_count": props.multi_processor_count,
            "memory_bytes": props.total_memory,
            "l2_bytes": getattr(props, "L2_cache_size", None),
            "torch": t.__version__,
            "cuda": t.version.cuda,
            "cudnn": t.backends.cudnn.version(),
            "driver": None}
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = subprocess.run(
                [smi, "--query-gpu=driver_version", "--format=csv,noheader",
                 "-i", "0"], capture_output=True, text=True, timeout=30)
            info["driver"] = out.stdout.strip() or None
        except (OSError, subprocess.TimeoutExpired):
            pass
    return info


def run(args, selected):
    try:
        import torch as t
        import torch.nn.functional as F
    except ImportError as error:
        print(f"error: cannot import torch: {error}", file=sys.stderr)
        return 1

    if not t.cuda.is_available():
        print("error: torch sees no CUDA device", file=sys.stderr)
        return 1
    # FP32 as the programs compute it: no TF32 in cuBLAS or cuDNN.
    t.backends.cuda.matmul.allow_tf32 = False
    t.backends.cudnn.allow_tf32 = False
    t.set_float32_matmul_precision("highest")
    # cuDNN picks its fastest algorithm for each shape (in the warm-up).
    t.backends.cudnn.benchmark = True
    timer = Timer(t, args.time_budget)
    document = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"),
        "device": device_info(t),
        "protocol": {"warmup": WARMUP, "min_runs": MIN_RUNS,
                     "max_runs": MAX_RUNS, "time_budget_s": args.time_budget,
                     "l2_flush": "read", "l2_flush_bytes": timer.flush_bytes,
                     "tf32": False, "cudnn_benchmark": True,
                     "seed": args.seed},
        "programs": {}}
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    failures = 0
    for name in selected:
        baseline = BASELINES[name]
        started = time.monotonic()
        generator = t.Generator(device="cuda")
        generator.manual_seed(args.seed)
        try:
            entry = measure(t, F, baseline, timer, generator, args)
        except Exception as error:  # Recorded; the next program still runs.
            entry = {"error": f"{type(error).__name__}: {error}",
                     "note": baseline.note}
            failures += 1
        entry["wall_s"] = round(time.monotonic() - started, 2)
        document["programs"][name] = entry
        t.cuda.empty_cache()
        if "error" in entry:
            summary = f"error: {entry['error'][:200]}"
        else:
            summary = (f"{entry['median_us']:.1f} us "
                       f"(MAD {entry['mad_us']:.2f})")
            if entry.get("verified") is False:
                summary += f", NOT VERIFIED (error {entry['max_error']:.3g})"
                failures += 1
            for variant, record in sorted(entry.get("variants", {}).items()):
                summary += (f"; {variant} {record['median_us']:.1f} us"
                            if "median_us" in record else
                            f"; {variant} error")
        print(f"{name}: {summary}", flush=True)
        # Written after each program, in case of a time limit.
        out.write_text(json.dumps(document, indent=2) + "\n")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", "--check", action="store_true",
                        help="print the program table and check that every "
                             "program has an entry matching its signature "
                             "(no GPU, no torch)")
    parser.add_argument("--out", help="the JSON to write")
    parser.add_argument("--only", nargs="+", default=[], metavar="NAME",
                        help="only these programs")
    parser.add_argument("--time-budget", type=float, default=1.0,
                        help="seconds of timed runs per call after the "
                             "first 10 (the worker's default: 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-verify", dest="verify", action="store_false",
                        help="do not check results against the reference")
    parser.add_argument("--compile", action="store_true",
                        help="also time torch.compile of each call (variant "
                             "'compiled')")
    parser.add_argument("--programs", default=str(PROGRAMS),
                        help="folder of programs (default: the upstream "
                             "corpus's)")
    args = parser.parse_args()
    programs_dir = pathlib.Path(args.programs)
    if args.list:
        return list_table(programs_dir)
    if not args.out:
        parser.error("--out is required unless --list")
    selected, problems = check_table(programs_dir, args.only)
    if problems:
        for problem in problems:
            print(f"error: {problem}", file=sys.stderr)
        return 1
    return run(args, selected)


if __name__ == "__main__":
    sys.exit(main())
