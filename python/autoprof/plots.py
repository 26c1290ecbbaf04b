"""Charts of a run with matplotlib.

`roofline` draws one kernel against the device: the memory roof (the DRAM
bandwidth the worker measured) and the compute roof (the peak of the GPU the
report records for the kernel's element types, `KernelResult.roof`), with
the baseline and the winner at their achieved rates. `speedups` draws every
kernel's speedup and roofline fraction; `configurations` the times of the
configurations `autoprof.triton.optimize` tried; `outcome_vs_cost` and
`outcome_vs_metrics` an outcome table's configurations, their labels kept
apart. Every chart lays itself out so that its labels stay inside it.
"""

from __future__ import annotations

import io
from typing import Optional, Sequence, Tuple

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402

from . import units  # noqa: E402
from .peaks import Roof  # noqa: E402
from .reports import KernelResult, OptimizeReport  # noqa: E402


def roofline(kernel: KernelResult, peak_flops: Optional[float] = None,
             ax=None, roof: Optional[Roof] = None):
    """The roofline chart of `kernel` against its compute roof (`roof`, else
    `peak_flops` when given, else `kernel.roof()`); returns the matplotlib
    Figure.

    A kernel with flops is placed at its arithmetic intensity (flops per
    compulsory byte) and achieved FLOP/s; one without (a copy) at its
    achieved bandwidth against the memory roof alone."""
    figure = None
    if ax is None:
        figure, ax = plt.subplots(figsize=(6, 3.8), dpi=100,
                                  layout="constrained")
    else:
        figure = ax.figure
    roof = roof or kernel.roof(peak_flops)
    peak_flops = roof.flops_per_s
    bandwidth = kernel.peak_dram_bytes_per_s
    best_us = kernel.best_median_us
    base_us = kernel.baseline.timing.median_us
    if kernel.flops_total > 0 and kernel.compulsory_bytes > 0:
        intensity = kernel.flops_total / kernel.compulsory_bytes
        low, high = min(intensity / 10, 0.1), max(intensity * 10, 100.0)
        xs = [low * (high / low) ** (i / 63) for i in range(64)]
        ax.plot(xs, [min(peak_flops, x * bandwidth) / 1e12 for x in xs],
                color="0.3", label=f"roof: {units.bandwidth(bandwidth)}, "
                                   f"{roof.label} "
                                   f"{units.flop_rate(peak_flops)}")
        for label, us, marker in (("baseline", base_us, "o"),
                                  ("best", best_us, "*")):
            ax.plot([intensity], [kernel.flops_total / (us * 1e-6) / 1e12],
                    marker=marker, markersize=10, linestyle="none",
                    label=f"{label} ({units.microseconds(us)})")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("arithmetic intensity (flop / byte)")
        ax.set_ylabel("TFLOP/s")
    else:
        achieved = [kernel.compulsory_bytes / (us * 1e-6) / 1e9
                    for us in (base_us, best_us)]
        ax.bar(["baseline", "best"], achieved, color=["0.6", "tab:green"])
        ax.axhline(bandwidth / 1e9, color="0.3", linestyle="--",
                   label=f"measured DRAM bandwidth "
                         f"({units.bandwidth(bandwidth)})")
        ax.set_ylabel("compulsory bytes moved (GB/s)")
    ax.set_title(f"{kernel.name}: {kernel.speedup:.2f}x, "
                 f"{units.percent(kernel.roofline_fraction(peak_flops))} of "
                 f"the roofline", fontsize=10)
    ax.legend(fontsize=7)
    return figure


def speedups(report: OptimizeReport, peak_flops: Optional[float] = None):
    """Every kernel's speedup (log scale) and roofline fraction (against
    `peak_flops` when given, else each kernel's own roof)."""
    kernels = report.kernels
    figure, (left, right) = plt.subplots(
        1, 2, figsize=(10, 0.35 * max(len(kernels), 4) + 1.2), dpi=100,
        layout="constrained")
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


def _overlaps(box, boxes) -> bool:
    return any(box.x0 < other.x1 and other.x0 < box.x1 and
               box.y0 < other.y1 and other.y0 < box.y1 for other in boxes)


def place_labels(ax, points: Sequence[Tuple[float, float]],
                 labels: Sequence[str], fontsize: float = 7):
    """Writes each label beside its point, inside the axes, where it
    overlaps no label placed before it, no point and nothing else drawn in
    the axes (legend, notes): to the right, to the left, then further up or
    down with a line to its point. Lays the figure out first and then fixes
    it, since a layout after the placement would move the axes under the
    labels. Returns the text artists."""
    figure = ax.figure
    figure.canvas.draw()
    figure.set_layout_engine("none")
    renderer = figure.canvas.get_renderer()
    inside = ax.get_window_extent(renderer)
    placed = [artist.get_window_extent(renderer)
              for artist in [*ax.texts, ax.get_legend()] if artist]
    for x, y in points:
        px, py = ax.transData.transform((x, y))
        placed.append(Bbox.from_extents(px - 4, py - 4, px + 4, py + 4))
    texts = []
    steps = [0] + [k * sign for k in range(1, 25) for sign in (1, -1)]
    order = sorted(range(len(points)), key=lambda i: (points[i][1],
                                                      points[i][0]))

    def extent(text):
        text.update_positions(renderer)
        return Text.get_window_extent(text, renderer)

    for i in order:
        # The leader line shows only where a label had to move off its
        # point's line; boxes are the text's alone.
        text = ax.annotate(labels[i], points[i], xytext=(6, 0),
                           textcoords="offset points", fontsize=fontsize,
                           va="center", ha="left",
                           arrowprops=dict(arrowstyle="-", color="0.6",
                                           linewidth=0.6, shrinkA=0,
                                           shrinkB=3))
        height = extent(text).height * 72 / figure.dpi
        chosen = None
        for step in steps:
            for dx, ha in ((6, "left"), (-6, "right")):
                text.set_position((dx, step * (height + 1)))
                text.set_horizontalalignment(ha)
                box = extent(text).padded(1)
                if (box.x0 >= inside.x0 and box.x1 <= inside.x1 and
                        box.y0 >= inside.y0 and box.y1 <= inside.y1 and
                        not _overlaps(box, placed)):
                    chosen = box
                    break
            if chosen is not None:
                break
        if chosen is None:
            text.set_position((6, 0))
            text.set_horizontalalignment("left")
            chosen = extent(text)
        text.arrow_patch.set_visible(text.get_position()[1] != 0)
        placed.append(chosen)
        texts.append(text)
    return texts


def within_noise(values: Sequence[float], noise: float) -> bool:
    """Whether the largest of `values` (speedups) is within a factor
    1 + `noise` of the smallest."""
    values = [v for v in values if v and v > 0]
    return len(values) >= 2 and max(values) <= min(values) * (1 + noise)


def note_if_within_noise(ax, values: Sequence[float], noise: float) -> bool:
    """Writes in the corner of `ax` that `values` (speedups) all lie within
    a factor 1 + `noise` of each other, when they do: their order is then
    the timing noise's. Returns whether it did."""
    if not within_noise(values, noise):
        return False
    ax.text(0.02, 0.98, f"all within {noise:.0%} of each other, the timing "
            f"noise:\ntheir order says nothing", transform=ax.transAxes,
            fontsize=8, va="top", ha="left", color="tab:red",
            bbox=dict(facecolor="white", edgecolor="tab:red", alpha=0.9))
    return True


def _outcome_scatter(table, xs, xlabel, title, noise: float = 0.01):
    """Each configuration's geometric-mean speedup over the kernels every
    configuration of every module was measured on, against `xs` (one value
    per summary, None to leave it out), the per-kernel oracle as a line;
    configurations at one point share a label. When all the means lie within
    a factor 1 + `noise` of each other (the timing noise), the chart says
    so: their order says nothing."""
    from .outcomes import common_scope, oracle, summarize

    figure, ax = plt.subplots(figsize=(6.4, 4.2), dpi=100,
                              layout="constrained")
    at = {}
    for summary, x in zip(summarize(table), xs):
        if x is None or summary.common_mean is None:
            continue
        at.setdefault((x, summary.common_mean), []).append(summary.name)
    points = list(at)
    ax.scatter([p[0] for p in points], [p[1] for p in points],
               color="tab:blue", s=24, zorder=3)
    best = oracle(table)
    if best:
        ax.axhline(best, color="tab:green", linestyle="--", linewidth=1,
                   label=f"per-kernel oracle {best:.2f}x")
        ax.legend(fontsize=8, loc="lower right")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("geometric-mean verified speedup\n(kernels "
                  f"{common_scope(table)})", fontsize=8)
    ax.set_title(title, fontsize=9)
    note_if_within_noise(ax, [p[1] for p in points], noise)
    ax.margins(x=0.25, y=0.2)
    place_labels(ax, points, [", ".join(names) for names in at.values()])
    return figure


def outcome_vs_cost(table, cost: str = "passes", noise: float = 0.01):
    """What each profiling configuration of an outcome table reached (the
    geometric mean of its kernels' speedups) against what it costs: replay
    passes (`cost="passes"`) or seconds of profiling; noted when the means
    lie within `noise` of each other."""
    from .outcomes import summarize

    xs = [s.cost_passes if cost == "passes" else s.cost_seconds
          for s in summarize(table)]
    return _outcome_scatter(
        table, xs, "replay passes" if cost == "passes"
        else "profiling seconds", "outcome vs profiling cost", noise)


def outcome_vs_metrics(table, catalog, noise: float = 0.01):
    """The same against the number of distinct metrics each configuration
    collects (its groups' metrics by `catalog` and the ones it names)."""
    from .outcomes import summarize

    return _outcome_scatter(
        table, [s.metric_count for s in summarize(table, catalog)],
        "metrics collected", "outcome vs number of metrics", noise)


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
    """The figure as PNG bytes, cropped to what is drawn (nothing of it
    outside); closes it."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight",
                   pad_inches=0.05)
    plt.close(figure)
    return buffer.getvalue()
