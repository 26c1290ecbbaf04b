"""Charts of a run with matplotlib.

`roofline` draws one kernel against the device: the memory roof (the DRAM
bandwidth the worker measured) and the compute roof (the FP32 peak), with the
baseline and the winner at their achieved rates. `speedups` draws every
kernel's speedup and roofline fraction.
"""

from __future__ import annotations

import io
from typing import Optional

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .reports import H200_FP32_PEAK_FLOPS, KernelResult, OptimizeReport  # noqa: E402


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
    names = [k.name for k in kernels]
    left.barh(names, [k.speedup for k in kernels], color="tab:blue")
    left.set_xscale("log")
    left.set_xlabel("speedup over the baseline")
    left.invert_yaxis()
    right.barh(names, [k.roofline_fraction(peak_flops) for k in kernels],
               color="tab:green")
    right.set_xlim(0, 1.05)
    right.set_xlabel("fraction of the roofline floor")
    right.invert_yaxis()
    figure.tight_layout()
    return figure


def learning_curve(rounds):
    """The training score of the tree at every round of a learner log, with
    the score each proposed edit would have given."""
    figure, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
    for entry in rounds:
        ax.scatter([entry.round] * len(entry.proposals),
                   [p.train_score for p in entry.proposals], s=12,
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


def to_png(figure) -> bytes:
    """The figure as PNG bytes; closes it."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    plt.close(figure)
    return buffer.getvalue()
