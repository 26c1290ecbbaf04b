"""One self-contained HTML page per run: a summary table, then per kernel
its roofline chart, its candidates with their outcome and reason, and the
baseline's metrics with what they mean. Charts are embedded as PNG data; the
page loads nothing else."""

from __future__ import annotations

import base64
import html
from typing import Optional

from . import plots
from .catalog import Catalog
from .reports import H200_FP32_PEAK_FLOPS, KernelResult, OptimizeReport

_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left;
         vertical-align: top; font-size: 0.9em; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.verified { color: #176; } .rejected { color: #a11; } .failed { color: #a11; }
section.kernel { border-top: 2px solid #ddd; margin-top: 2em; }
img { max-width: 100%; }
"""


def _e(value) -> str:
    return html.escape(str(value))


def _image(figure, alt: str) -> str:
    data = base64.b64encode(plots.to_png(figure)).decode("ascii")
    return f'<img alt="{_e(alt)}" src="data:image/png;base64,{data}">'


def _timing(timing) -> str:
    if timing is None:
        return "-"
    return f"{timing.median_us:.2f} ({timing.mad_us:.2f})"


# The parts of an evaluation the page names, in the order they happen.
_TIME_PARTS = [("lower", "lowering to PTX"), ("setup", "worker setup"),
               ("gpu_wait", "waiting for the GPU"),
               ("verify", "verification"), ("time", "timing"),
               ("profile", "profiling")]


def _accepted(candidate) -> str:
    """Whether the candidate was kept, with the interleaved re-timing that
    decided when its first timing won."""
    retimed = candidate.retimed
    verdict = "yes" if candidate.accepted else ""
    if retimed is None:
        return verdict
    note = (f"re-timed with the incumbent: {retimed.candidate.median_us:.2f}"
            f" against {retimed.incumbent.median_us:.2f} us"
            + ("" if retimed.confirmed else ", not confirmed")
            + (", the SM clock dropped" if retimed.clock_dropped else ""))
    return _e(f"{verdict} ({note})" if verdict else note)


def _evaluation(seconds) -> str:
    """A candidate's evaluation time (lowering and worker), or '-'."""
    if not seconds:
        return "-"
    return f"{seconds.get('lower', 0.0) + seconds.get('worker', 0.0):.2f}"


def _kernel_section(kernel: KernelResult, catalog: Optional[Catalog],
                    peak_flops: float) -> str:
    parts = [f'<section class="kernel" id="{_e(kernel.kernel)}">',
             f"<h2>{_e(kernel.kernel)}</h2>"]
    if kernel.failed:
        parts.append(f'<p class="failed">The search failed: '
                     f"{_e(kernel.failed)}</p>")
    parts.append(
        f"<p>Baseline {_timing(kernel.baseline.timing)} us"
        + (f" ({kernel.baseline.launches} launches of a host loop)"
           if kernel.baseline.launches > 1 else "")
        + f", best {kernel.best_median_us:.2f} us, {kernel.speedup:.2f}x; "
        f"floor {kernel.floor_us(peak_flops):.2f} us; accepted: "
        f"{_e(', '.join(kernel.accepted) or 'none (the original is kept)')}"
        f"; profiled in {kernel.baseline.replay_passes} replay passes "
        f"({kernel.baseline.profile_seconds:.2f} s).</p>")
    seconds = kernel.evaluation_seconds()
    if seconds:
        parts.append(f'<p class="seconds">Evaluations took '
                     f"{seconds['total']:.1f} s: "
                     + ", ".join(f"{_e(label)} {seconds.get(key, 0.0):.1f} s"
                                 for key, label in _TIME_PARTS) + ".</p>")
    parts.append(_image(plots.roofline(kernel, peak_flops),
                        f"roofline of {kernel.name}"))
    parts.append("<h3>Candidates</h3><table><tr><th>candidate</th>"
                 "<th>source</th><th>outcome</th><th>median us (MAD)</th>"
                 "<th>accepted</th><th>evaluation s</th><th>reason</th></tr>")
    for candidate in kernel.candidates:
        parts.append(
            f"<tr><td>{_e(candidate.label)}</td><td>{_e(candidate.source)}"
            f'</td><td class="{_e(candidate.status)}">{_e(candidate.status)}'
            f'</td><td class="num">{_timing(candidate.timing)}</td>'
            f"<td>{_accepted(candidate)}</td>"
            f'<td class="num">{_evaluation(candidate.seconds)}</td>'
            f"<td>{_e(candidate.notes)}</td></tr>")
    parts.append("</table><h3>Baseline metrics</h3><table><tr><th>metric</th>"
                 "<th>value</th><th>unit</th><th>meaning</th></tr>")
    for metric in kernel.baseline.metrics:
        meaning = catalog.meaning(metric.name) if catalog else None
        value = (f"{metric.value:.6g}" if metric.collected and
                 metric.value is not None else
                 f"not collected{': ' + metric.note if metric.note else ''}")
        parts.append(
            f"<tr><td>{_e(metric.name)}</td><td class=\"num\">{_e(value)}"
            f"</td><td>{_e(meaning.unit if meaning else '')}</td>"
            f"<td>{_e(meaning.meaning if meaning else '')}</td></tr>")
    parts.append("</table></section>")
    return "\n".join(parts)


def render(report: OptimizeReport, catalog: Optional[Catalog] = None,
           title: str = "AutoProf run",
           peak_flops: float = H200_FP32_PEAK_FLOPS,
           learner_rounds=None, profiling_tree=None) -> str:
    """The page of `report` as one HTML string; with the rounds of a learner
    log (autoprof.learning), its learning curve too, and with a profiling
    tree (autoprof.trees), the tree drawn."""
    kernels = report.kernels
    gpu = next((k.gpu for k in kernels if k.gpu), "unknown GPU")
    rows = []
    for k in kernels:
        rows.append(
            f'<tr><td><a href="#{_e(k.kernel)}">{_e(k.kernel)}</a></td>'
            f'<td class="num">{_timing(k.baseline.timing)}</td>'
            f'<td class="num">{_timing(k.best_timing)}</td>'
            f'<td class="num">{k.speedup:.2f}x</td>'
            f'<td class="num">{k.roofline_fraction(peak_flops):.2f}</td>'
            f"<td>{len(k.candidates)} / {k.count('verified')} / "
            f"{k.count('rejected')}</td>"
            f"<td>{_e(', '.join(k.accepted) or '-')}</td>"
            f'<td class="failed">{_e(k.failed)}</td></tr>')
    failed = "".join(
        f'<li class="failed">{_e(f.kernel)}: {_e(f.reason)}</li>'
        for f in report.failed_kernels)
    above = [k.kernel for k in kernels
             if k.roofline_fraction(peak_flops) > 1.05]
    summary = (
        f"<p>{len(kernels)} kernels on {_e(gpu)}; geometric mean speedup "
        f"{report.geometric_mean_speedup():.2f}x; the compute roof is "
        f"{peak_flops / 1e12:.1f} TFLOP/s.</p>"
        + (f"<p>Failed kernels:</p><ul>{failed}</ul>" if failed else "")
        + (f'<p class="failed">Above the roofline ({_e(", ".join(above))}):'
           f" the kernel did its flops faster than the compute roof allows,"
           f" so the roof is not its peak (tensor-core products against the"
           f" FP32 peak): give the right one (autoprof report --peak-flops"
           f" or --flops-peaks).</p>" if above else ""))
    body = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>", summary,
        "<table><tr><th>kernel</th><th>baseline us (MAD)</th>"
        "<th>best us (MAD)</th><th>speedup</th><th>roofline fraction</th>"
        "<th>tried / verified / rejected</th><th>accepted</th>"
        "<th>failure</th></tr>", *rows, "</table>"]
    if kernels:
        body.append(_image(plots.speedups(report, peak_flops),
                           "speedup and roofline fraction of every kernel"))
    if profiling_tree is not None:
        body.append(f"<h2>Profiling tree @{_e(profiling_tree.name)}</h2>")
        body.append(_image(plots.tree(profiling_tree),
                           f"profiling tree {profiling_tree.name}"))
        body.append("<ul>" + "".join(
            f"<li>leaf {_e(leaf.label())}</li>"
            for leaf in profiling_tree.leaves()) + "</ul>")
    if learner_rounds:
        body.append("<h2>Learning the profiling tree</h2>")
        body.append(_image(plots.learning_curve(learner_rounds),
                           "training score per round"))
        body.append("<ul>" + "".join(
            f"<li>round {r.round}: {_e(r.decision)}</li>"
            for r in learner_rounds) + "</ul>")
    body.extend(_kernel_section(k, catalog, peak_flops) for k in kernels)
    body.append("</body></html>")
    return "\n".join(body) + "\n"
