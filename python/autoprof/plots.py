"""Charts of a run with matplotlib.

`roofline` draws one kernel against the device: the memory roof (the DRAM
bandwidth the worker measured) and the compute roof (the FP32 peak), with the
baseline and the winner at their achieved rates. `speedups` draws every
kernel's speedup and roofline fraction; `configurations` the times of the
configurations `autoprof.triton.optimize` tried.
"""

from __future__ import annotations

import io
from typing import Optional

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .reports import (  # noqa: E402
    H200_FP32_PEAK_FLOPS, KernelResult, OptimizeReport)


def roofline(kernel: KernelResult, peak_flops: float = H200_FP32_PEAK_FLOPS,
             ax=None):
    """The roofline chart of `kernel`; returns the matplotlib Figure.

    A kernel with flops is placed at its arithmetic intensity (flops per
    compulsory byte) and achieved FLOP/s; one without (a copy) at its
    achieved bandwidth against the memory roof alone."""
    figure = None
    if ax is None:
        figure, ax = plt.subplots(figsize=(5.5, 3.6), dpi=100)
    else:
        figure = ax.figure
    bandwidth = kernel.peak_dram_bytes_per_s
    best_us = kernel.best_median_us
    base_us = kernel.baseline.timing.median_us
    if kernel.flops_total > 0 and kernel.compulsory_bytes > 0:
        intensity = kernel.flops_total / kernel.compulsory_bytes
        low, high = min(intensity / 10, 0.1), max(intensity * 10, 100.0)
        xs = [low * (high / low) ** (i / 63) for i in range(64)]
        ax.plot(xs, [min(peak_flops, x * bandwidth) for x in xs],
                color="0.3", label="roofline")
        for label, us, marker in (("baseline", base_us, "o"),
                                  ("best", best_us, "*")):
            ax.plot([intensity], [kernel.flops_total / (us * 1e-6)],
                    marker=marker, markersize=10, linestyle="none",
                    label=f"{label} ({us:.1f} us)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("arithmetic intensity (flop / byte)")
        ax.set_ylabel("FLOP/s")
    else:
        achieved = [kernel.compulsory_bytes / (us * 1e-6)
                    for us in (base_us, best_us)]
        ax.bar(["baseline", "best"], achieved, color=["0.6", "tab:green"])
        ax.axhline(bandwidth, color="0.3", linestyle="--",
                   label=f"measured DRAM bandwidth ({bandwidth / 1e9:.0f} "
                         "GB/s)")
        ax.set_ylabel("compulsory bytes / s")
    ax.set_title(f"{kernel.name}: {kernel.speedup:.2f}x, "
                 f"{kernel.roofline_fraction(peak_flops):.2f} of the floor",
                 fontsize=10)
    ax.legend(fontsize=8)
    figure.tight_layout()
    return figure


def speedups(report: OptimizeReport,
             peak_flops: float = H200_FP32_PEAK_FLOPS):
    """Every kernel's speedup (log scale) and roofline fraction."""
    kernels = report.kernels
    figure, (left, right) = plt.subplots(
        1, 2, figsize=(10, 0.35 * max(len(kernels), 4) + 1.2), dpi=100)
    # A kernel's own name where it is unique, else with its gpu.module (the
    # kernels of upstream's softmax are four softmax_kernel).
    short = [k.name for k in kernels]
    names = [k.name if short.count(k.name) == 1 else k.kernel
             for k in kernels]
    rows = list(range(len(kernels)))
    fractions = [k.roofline_fraction(peak_flops) for k in kernels]
    for ax, values, color in ((left, [k.speedup for k in kernels],
                               "tab:blue"),
                              (right, fractions, "tab:green")):
        ax.barh(rows, values, color=color)
        ax.set_yticks(rows)
        ax.set_yticklabels(names, fontsize=8)
        ax.invert_yaxis()
    left.set_xscale("log")
    left.set_xlabel("speedup over the baseline")
    # Not clipped: a fraction above 1 says the floor's peak is too low for
    # the kernel (an f16 matmul on tensor cores against the FP32 peak).
    right.set_xlim(0, max([1.05] + [1.05 * f for f in fractions]))
    right.axvline(1.0, color="0.3", linewidth=0.8)
    right.set_xlabel("fraction of the roofline floor")
    figure.tight_layout()
    return figure


def learning_curve(rounds):
    """The training score of the tree at every round of a learner log, with
    the score each proposed edit would have given."""
    figure, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
    for entry in rounds:
        scored = [p.train_score for p in entry.proposals
                  if p.train_score is not None]
        ax.scatter([entry.round] * len(scored), scored, s=12,
                   color="0.7", label="proposed edits"
                   if entry is rounds[0] else None)
    ax.plot([r.round for r in rounds], [r.train_score for r in rounds],
            marker="o", color="tab:blue", label="tree")
    ax.set_xlabel("round")
    ax.set_ylabel("training score")
    ax.set_xticks([r.round for r in rounds])
    ax.legend(fontsize=8)
    figure.tight_layout()
    return figure


def tree(profiling_tree):
    """The profiling tree drawn top-down: each split with its test (the
    branch taken when it holds on the left, a missing feature's branch
    marked), each leaf with what it collects."""
    from .trees import Leaf

    positions, edges = {}, []

    def place(node, depth, next_x):
        # Leaves take consecutive columns; a split sits above its children.
        if isinstance(node, Leaf):
            positions[id(node)] = (next_x, depth, node)
            return next_x + 1, next_x
        next_x, left = place(node.then, depth + 1, next_x)
        next_x, right = place(node.otherwise, depth + 1, next_x)
        x = (left + right) / 2
        positions[id(node)] = (x, depth, node)
        edges.append((x, depth, left, "yes" + (" / missing" if node.missing
                                               == "then" else "")))
        edges.append((x, depth, right, "no" + (" / missing" if node.missing
                                               == "else" else "")))
        return next_x, x

    width, _ = place(profiling_tree.root, 0, 0)
    depth = max(d for _, d, _ in positions.values()) + 1
    figure, ax = plt.subplots(figsize=(max(4.0, 2.6 * width),
                                       max(2.0, 1.3 * depth)), dpi=100)
    for x, d, child_x, label in edges:
        ax.annotate("", xy=(child_x, -(d + 1) + 0.18), xytext=(x, -d - 0.18),
                    arrowprops=dict(arrowstyle="->", color="0.5"))
        ax.text((x + child_x) / 2, -d - 0.5, label, fontsize=7,
                ha="center", color="0.3")
    for x, d, node in positions.values():
        leaf = isinstance(node, Leaf)
        text = node.label()
        if leaf and len(text) > 28:
            text = text[:26] + "..."
        ax.text(x, -d, text, ha="center", va="center", fontsize=7,
                bbox=dict(boxstyle="round", facecolor="#e8f4e8" if leaf
                          else "#e8eef8", edgecolor="0.5"))
    ax.set_xlim(-0.7, width - 0.3)
    ax.set_ylim(-depth + 0.4, 0.6)
    ax.set_title(f"profiling tree @{profiling_tree.name} "
                 f"({profiling_tree.chip})", fontsize=9)
    ax.axis("off")
    figure.tight_layout()
    return figure


def _outcome_scatter(table, xs, xlabel, title):
    """Each configuration's geometric-mean speedup over the kernels every
    configuration of every module was measured on, against `xs` (one value
    per summary, None to leave it out), the per-kernel oracle as a line."""
    from .outcomes import common_scope, oracle, summarize

    figure, ax = plt.subplots(figsize=(6, 3.8), dpi=100)
    for summary, x in zip(summarize(table), xs):
        if x is None or summary.common_mean is None:
            continue
        ax.scatter([x], [summary.common_mean], color="tab:blue", s=24)
        ax.annotate(summary.name, (x, summary.common_mean), fontsize=7,
                    xytext=(4, 3), textcoords="offset points")
    best = oracle(table)
    if best:
        ax.axhline(best, color="tab:green", linestyle="--", linewidth=1,
                   label=f"per-kernel oracle {best:.2f}x")
        ax.legend(fontsize=8, loc="lower right")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("geometric-mean verified speedup\n(kernels "
                  f"{common_scope(table)})", fontsize=8)
    ax.set_title(title, fontsize=9)
    ax.margins(x=0.15)
    figure.tight_layout()
    return figure


def outcome_vs_cost(table, cost: str = "passes"):
    """What each profiling configuration of an outcome table reached (the
    geometric mean of its kernels' speedups) against what it costs: replay
    passes (`cost="passes"`) or seconds of profiling."""
    from .outcomes import summarize

    xs = [s.cost_passes if cost == "passes" else s.cost_seconds
          for s in summarize(table)]
    return _outcome_scatter(
        table, xs, "replay passes" if cost == "passes"
        else "profiling seconds", "outcome vs profiling cost")


def outcome_vs_metrics(table, catalog):
    """The same against the number of distinct metrics each configuration
    collects (its groups' metrics by `catalog` and the ones it names)."""
    from .outcomes import summarize

    return _outcome_scatter(
        table, [s.metric_count for s in summarize(table, catalog)],
        "metrics collected", "outcome vs number of metrics")


def configurations(log, title: str = "Triton configurations"):
    """The times of the configurations `autoprof.triton.optimize` tried
    (its `log`): the caller's first, then each in the order it ran; those
    rejected or refused drawn as empty bars with their status. Returns the
    matplotlib Figure."""
    figure, ax = plt.subplots(figsize=(9, 0.45 * len(log) + 1.4), dpi=100)
    labels, times, colors = [], [], []
    timed = [e["us"] for e in log if "us" in e]
    best = min(timed) if timed else 0
    for entry in log:
        status = entry.get("status", "")
        labels.append(f"{entry['configuration']} ({status})")
        times.append(entry.get("us", 0.0))
        colors.append("0.6" if status == "baseline" else
                      "tab:green" if entry.get("us") == best else
                      "tab:blue" if "us" in entry else "white")
    rows = list(range(len(log)))[::-1]
    ax.barh(rows, times, color=colors, edgecolor="0.3")
    for row, us in zip(rows, times):
        if us:
            ax.text(us, row, f" {us:.1f} us", va="center", fontsize=8)
    ax.set_yticks(rows)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlabel("median time (us)")
    ax.set_xlim(0, max(times + [1.0]) * 1.25)
    ax.set_title(title, fontsize=10)
    figure.tight_layout()
    return figure


def to_png(figure) -> bytes:
    """The figure as PNG bytes; closes it."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    plt.close(figure)
    return buffer.getvalue()
