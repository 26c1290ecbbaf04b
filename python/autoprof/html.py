"""One self-contained HTML page per run: a summary table, the profiling tree
with the path each kernel took, then per kernel its roofline chart, its
candidates with what became of each and why, and the baseline's metrics in
units people read with what they mean. Charts are embedded as PNG data; the
page loads nothing else and fits the width of the window.

Each kernel is held to the compute roof of the GPU the report records and
of its element types (`KernelResult.roof`, autoprof.peaks) unless the
caller gives one roof for all.
"""

from __future__ import annotations

import base64
import html
from typing import Dict, List, Optional

from . import plots, units
from .catalog import Catalog
from .peaks import Roof, given_roof
from .reports import KernelResult, OptimizeReport

_STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222;
       max-width: 72em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; max-width: 100%; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left;
         vertical-align: top; font-size: 0.9em; }
td:first-child, td.why { overflow-wrap: anywhere; }
td.why { min-width: 16em; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums;
         white-space: nowrap; }
.mad { color: #666; }
.scroll { overflow-x: auto; max-width: 100%; }
.accepted { color: #176; } .failed, .above { color: #a11; }
tr.outcome-rejected td.outcome, tr.outcome-error td.outcome { color: #a11; }
tr.outcome-accepted td.outcome { color: #176; font-weight: bold; }
section.kernel { border-top: 2px solid #ddd; margin-top: 2em; }
img { max-width: 100%; height: auto; }
ul.tree, ul.tree ul { list-style: none; margin: 0; padding-left: 1.4em; }
ul.tree { padding-left: 0; }
ul.tree li { border-left: 1px solid #bbb; padding: 0.1em 0 0.1em 0.6em;
             overflow-wrap: anywhere; }
ul.tree li.taken { border-left: 3px solid #d60; }
.node { display: inline-block; padding: 0.05em 0.4em; border-radius: 0.3em;
        background: #e8eef8; }
.node.leaf { background: #e8f4e8; }
li.taken > .node { background: #fde6c8; font-weight: bold; }
.branch { color: #555; font-size: 0.85em; margin-right: 0.3em; }
.took { color: #a50; font-size: 0.85em; margin-left: 0.4em; }
ol.path { margin: 0.3em 0 1em; }
ol.path li.leaf { font-weight: bold; color: #a50; }
"""


def _e(value) -> str:
    return html.escape(str(value))


def _image(figure, alt: str) -> str:
    data = base64.b64encode(plots.to_png(figure)).decode("ascii")
    return f'<img alt="{_e(alt)}" src="data:image/png;base64,{data}">'


def _timing(timing) -> str:
    """"1,400 us <span>± 1.15 us</span>": the median and its MAD."""
    if timing is None:
        return "-"
    return (f"{units.microseconds(timing.median_us)} <span class=\"mad\">"
            f"± {units.microseconds(timing.mad_us)}</span>")


# The parts of an evaluation the page names, in the order they happen.
_TIME_PARTS = [("lower", "lowering to PTX"), ("setup", "worker setup"),
               ("gpu_wait", "waiting for the GPU"),
               ("verify", "verification"), ("time", "timing"),
               ("profile", "profiling")]

# What the outcome column says of each kind of CandidateOutcome.
_OUTCOME_WORDS = {
    "accepted": "kept", "slower": "slower", "noise": "within noise",
    "unconfirmed": "not confirmed", "retime-failed": "re-timing failed",
    "untimed": "not timed", "unexplained": "not kept",
}


def _evaluation(seconds) -> str:
    """A candidate's evaluation time (lowering and worker), or '-'."""
    if not seconds:
        return "-"
    return f"{seconds.get('lower', 0.0) + seconds.get('worker', 0.0):.2f} s"


def _retimed(candidate) -> str:
    """The interleaved re-timing that decided a first win, in words."""
    retimed = candidate.retimed
    if retimed is None:
        return ""
    return (f". Re-timed alongside the incumbent: "
            f"{units.microseconds(retimed.candidate.median_us)} against "
            f"{units.microseconds(retimed.incumbent.median_us)}"
            + ("" if retimed.confirmed else ", not confirmed")
            + (", the SM clock dropped" if retimed.clock_dropped else ""))


def _tree_nodes(node, branch: str, taken: Dict[int, List[str]],
                on_path: set) -> str:
    """The subtree of `node` as nested list items: each split with its test,
    its "yes" branch first; the nodes on a kernel's path marked `taken`,
    each leaf with the kernels that reached it. The recursion is as deep as
    the tree, which autoprof.files bounds."""
    from .trees import Leaf

    leaf = isinstance(node, Leaf)
    classes = "taken" if node.id in on_path else ""
    label = node.label()
    if leaf and node.summary:
        label += f" ({node.summary})"
    parts = [f'<li class="{classes}" data-node="{node.id}">']
    if branch:
        parts.append(f'<span class="branch">{_e(branch)}</span>')
    parts.append(f'<span class="node{" leaf" if leaf else ""}">'
                 f"{_e(label)}</span>")
    if leaf:
        if taken.get(node.id):
            parts.append(f'<span class="took">&larr; '
                         f"{_e(', '.join(taken[node.id]))}</span>")
    else:
        then = "yes" + (" / missing" if node.missing == "then" else "")
        otherwise = "no" + (" / missing" if node.missing == "else" else "")
        parts.append("<ul>" + _tree_nodes(node.then, then, taken, on_path)
                     + _tree_nodes(node.otherwise, otherwise, taken, on_path)
                     + "</ul>")
    parts.append("</li>")
    return "".join(parts)


def _profiled_by(kernel: KernelResult, tree) -> bool:
    """Whether `kernel`'s leaf is one of `tree`'s: the report names the
    tree (or, written before it did, is taken to mean this one)."""
    return (tree is not None and kernel.baseline.profile_leaf >= 0 and
            kernel.baseline.profile_tree in ("", tree.name))


def _tree_section(tree, kernels: List[KernelResult]) -> str:
    taken: Dict[int, List[str]] = {}
    on_path = set()
    elsewhere = []
    for kernel in kernels:
        if kernel.baseline.profile_leaf < 0:
            continue
        path = tree.path_to(kernel.baseline.profile_leaf) \
            if _profiled_by(kernel, tree) else None
        if path is None:
            elsewhere.append(kernel.name)
            continue
        on_path.update(node.id for node, _ in path)
        taken.setdefault(kernel.baseline.profile_leaf, []).append(
            kernel.name)
    parts = [f'<section class="tree-section"><h2>Profiling tree '
             f"@{_e(tree.name)} ({_e(tree.chip)})</h2>",
             "<p>Each split tests a feature of the kernel: its first branch "
             "is taken when the test holds. The path each kernel took is "
             "highlighted, its leaf names the kernel and what was "
             "collected.</p>"]
    if elsewhere:
        parts.append(f"<p>Not profiled by this tree's leaves: "
                     f"{_e(', '.join(elsewhere))}.</p>")
    parts.append('<ul class="tree">' + _tree_nodes(tree.root, "", taken,
                                                   on_path) + "</ul>")
    parts.append("</section>")
    return "\n".join(parts)


def _path(kernel: KernelResult, tree) -> str:
    """The profiling tree's path to the kernel's leaf, or what the report
    says of the leaf when no tree of its name is given."""
    leaf = kernel.baseline.profile_leaf
    if leaf < 0:
        return ""
    named = kernel.baseline.profile_tree
    path = tree.path_to(leaf) if _profiled_by(kernel, tree) else None
    if path is None:
        where = f"of tree @{named}" if named else "of the profiling tree"
        return (f'<p class="path">Profiled by leaf #{leaf} {_e(where)} '
                f"(give the tree, autoprof report --tree, to see its "
                f"path).</p>")
    steps = []
    for node, branch in path:
        if branch:
            steps.append(f"<li>{_e(node.label())}: <b>{_e(branch)}</b>"
                         f"</li>")
        else:
            steps.append(f'<li class="leaf">leaf {_e(node.label())}'
                         + (f" ({_e(node.summary)})" if node.summary else "")
                         + "</li>")
    return ("<p>Profiling path through the tree:</p>"
            f'<ol class="path">{"".join(steps)}</ol>')


def _candidates(kernel: KernelResult) -> str:
    parts = ['<div class="scroll"><table class="candidates"><tr>'
             "<th>candidate</th><th>source</th><th>outcome</th>"
             "<th>median (± MAD)</th><th>incumbent</th><th>evaluation</th>"
             "<th>why</th></tr>"]
    for outcome in kernel.outcomes():
        candidate = outcome.candidate
        word = _OUTCOME_WORDS.get(outcome.kind, outcome.kind)
        against = (units.microseconds(outcome.incumbent_us)
                   if outcome.incumbent_us is not None else "-")
        why = outcome.why + _retimed(candidate) if outcome.kind in (
            "accepted", "noise", "slower", "unexplained") else outcome.why
        parts.append(
            f'<tr class="outcome-{_e(outcome.kind)}">'
            f"<td>{_e(candidate.label)}</td><td>{_e(candidate.source)}</td>"
            f'<td class="outcome">{_e(word)}</td>'
            f'<td class="num">{_timing(candidate.timing)}</td>'
            f'<td class="num">{_e(against)}</td>'
            f'<td class="num">{_evaluation(candidate.seconds)}</td>'
            f'<td class="why">{_e(why)}</td></tr>')
    parts.append("</table></div>")
    return "\n".join(parts)


def _metrics(kernel: KernelResult, catalog: Optional[Catalog]) -> str:
    parts = ['<div class="scroll"><table class="metrics"><tr><th>metric'
             "</th><th>value</th><th>meaning</th></tr>"]
    for metric in kernel.baseline.metrics:
        meaning = catalog.meaning(metric.name) if catalog else None
        if metric.collected and metric.value is not None:
            value = units.metric_value(metric.name, metric.value,
                                       meaning.unit if meaning else "")
            cell = f'<td class="num" title="{metric.value!r}">{_e(value)}'
        else:
            cell = ("<td>not collected"
                    + (f": {_e(metric.note)}" if metric.note else ""))
        parts.append(
            f"<tr><td>{_e(metric.name)}</td>{cell}</td>"
            f"<td>{_e(meaning.meaning if meaning else '')}</td></tr>")
    parts.append("</table></div>")
    return "\n".join(parts)


def _kernel_section(kernel: KernelResult, catalog: Optional[Catalog],
                    roof: Roof, tree) -> str:
    fraction = kernel.roofline_fraction(roof.flops_per_s)
    parts = [f'<section class="kernel" id="{_e(kernel.kernel)}">',
             f"<h2>{_e(kernel.kernel)}</h2>"]
    if kernel.failed:
        parts.append(f'<p class="failed">The search failed: '
                     f"{_e(kernel.failed)}</p>")
    parts.append(
        f"<p>Baseline {_timing(kernel.baseline.timing)}"
        + (f" ({kernel.baseline.launches} launches of a host loop)"
           if kernel.baseline.launches > 1 else "")
        + f", best {units.microseconds(kernel.best_median_us)}, "
        f"{kernel.speedup:.2f}x; roofline floor "
        f"{units.microseconds(kernel.floor_us(roof.flops_per_s))}, "
        f"{units.percent(fraction)} of the roofline, against the DRAM "
        f"bandwidth the worker measured "
        f"({units.bandwidth(kernel.peak_dram_bytes_per_s)}) and the "
        f"{_e(roof.describe())}; accepted: "
        f"{_e(', '.join(kernel.accepted) or 'none (the original is kept)')}"
        f"; profiled in {kernel.baseline.replay_passes} replay passes "
        f"({kernel.baseline.profile_seconds:.2f} s).</p>")
    parts.append(_path(kernel, tree))
    seconds = kernel.evaluation_seconds()
    if seconds:
        parts.append(f'<p class="seconds">Evaluations took '
                     f"{seconds['total']:.1f} s: "
                     + ", ".join(f"{_e(label)} {seconds.get(key, 0.0):.1f} s"
                                 for key, label in _TIME_PARTS) + ".</p>")
    parts.append(_image(plots.roofline(kernel, roof=roof),
                        f"roofline of {kernel.name}"))
    parts.append("<h3>Candidates</h3>")
    parts.append(_candidates(kernel))
    parts.append("<h3>Baseline metrics</h3>")
    parts.append(_metrics(kernel, catalog))
    parts.append("</section>")
    return "\n".join(parts)


def render(report: OptimizeReport, catalog: Optional[Catalog] = None,
           title: str = "AutoProf run", peak_flops: Optional[float] = None,
           learner_rounds=None, profiling_tree=None,
           peak_basis: str = "given") -> str:
    """The page of `report` as one HTML string. Each kernel is held to its
    own compute roof (`KernelResult.roof`), or to `peak_flops` when given
    (`peak_basis` says where it came from). With the rounds of a learner log
    (autoprof.learning), its learning curve too, and with a profiling tree
    (autoprof.trees), the tree with each kernel's path."""
    kernels = report.kernels
    gpu = next((k.gpu for k in kernels if k.gpu), "unknown GPU")
    roofs = {id(k): (given_roof(peak_flops, peak_basis)
                     if peak_flops is not None else k.roof())
             for k in kernels}
    rows = []
    for k in kernels:
        roof = roofs[id(k)]
        fraction = k.roofline_fraction(roof.flops_per_s)
        rows.append(
            f'<tr><td><a href="#{_e(k.kernel)}">{_e(k.kernel)}</a></td>'
            f'<td class="num">{_timing(k.baseline.timing)}</td>'
            f'<td class="num">{_timing(k.best_timing)}</td>'
            f'<td class="num">{k.speedup:.2f}x</td>'
            f"<td>{_e(roof.label)}, {_e(units.flop_rate(roof.flops_per_s))}"
            f"</td>"
            f'<td class="num{" above" if fraction > 1.05 else ""}">'
            f"{units.percent(fraction)}</td>"
            f"<td>{len(k.candidates)} / {k.count('verified')} / "
            f"{k.count('rejected')}</td>"
            f"<td>{_e(', '.join(k.accepted) or '-')}</td>"
            f'<td class="failed">{_e(k.failed)}</td></tr>')
    failed = "".join(
        f'<li class="failed">{_e(f.kernel)}: {_e(f.reason)}</li>'
        for f in report.failed_kernels)
    above = [k.kernel for k in kernels
             if k.roofline_fraction(roofs[id(k)].flops_per_s) > 1.05]
    described = sorted({roof.describe() for roof in roofs.values()})
    summary = (
        f"<p>{len(kernels)} kernels on {_e(gpu)}; geometric mean speedup "
        f"{report.geometric_mean_speedup():.2f}x. Compute roofs: "
        f"{_e('; '.join(described) or 'none')}.</p>"
        + (f"<p>Failed kernels:</p><ul>{failed}</ul>" if failed else "")
        + (f'<p class="above">Above the roofline ({_e(", ".join(above))}):'
           f" the kernel did its flops faster than its compute roof allows,"
           f" so the roof is not its peak (its element types are not the"
           f" ones the roof assumed): give the right one (autoprof report"
           f" --peak-flops or --flops-peaks).</p>" if above else ""))
    body = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, '
        'initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>", summary,
        '<div class="scroll"><table class="summary"><tr><th>kernel</th>'
        "<th>baseline (± MAD)</th><th>best (± MAD)</th><th>speedup</th>"
        "<th>compute roof</th><th>of the roofline</th>"
        "<th>tried / verified / rejected</th><th>accepted</th>"
        "<th>failure</th></tr>", *rows, "</table></div>"]
    if kernels:
        body.append(_image(plots.speedups(report, peak_flops),
                           "speedup and roofline fraction of every kernel"))
    if profiling_tree is not None:
        body.append(_tree_section(profiling_tree, kernels))
    if learner_rounds:
        body.append("<h2>Learning the profiling tree</h2>")
        body.append(_image(plots.learning_curve(learner_rounds),
                           "training score per round"))
        body.append("<ul>" + "".join(
            f"<li>round {r.round}: {_e(r.decision)}</li>"
            for r in learner_rounds) + "</ul>")
    body.extend(_kernel_section(k, catalog, roofs[id(k)], profiling_tree)
                for k in kernels)
    body.append("</body></html>")
    return "\n".join(body) + "\n"
