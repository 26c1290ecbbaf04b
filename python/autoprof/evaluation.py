"""The evaluation of a learned profiling tree on held-out programs: what
`autoprof-learn --evaluation` writes (every fixed configuration, the best
one on the training kernels, the learned tree and the per-kernel oracle,
each scored on the held-out kernels), and `evaluate`, which learns from an
outcome table and writes the evaluation as a Markdown page with its charts
(`docs/profiling-tree.md`, "Evaluation of a learned tree").
"""

from __future__ import annotations

import math
import pathlib
import statistics
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from .outcomes import path_summary
from .reports import ReportError, read_json


@dataclass
class Row:
    # "fixed", "best-fixed", "learned" or "oracle".
    kind: str
    configuration: Optional[str]
    score: float
    mean_log_speedup: float
    mean_cost: float
    kernels: List[str]
    excluded: List[str] = field(default_factory=list)
    # The configuration each kernel was scored with.
    configurations: Dict[str, str] = field(default_factory=dict)
    # The rows (indices) it reaches more than beyond the noise.
    beats: List[int] = field(default_factory=list)

    def median_cost(self, table, cost: str = "passes",
                    costs: Optional[Dict[str, Tuple[float, float]]] = None
                    ) -> Optional[float]:
        """The median over its kernels of what the configuration each was
        scored with costs: by `costs` (the evaluation's, at the budget it
        learned from) where given, else by `table`'s configurations."""
        values = []
        for name in self.configurations.values():
            if costs and name in costs:
                passes, seconds = costs[name]
            else:
                configuration = table.configuration(name)
                if configuration is None:
                    return None
                passes = configuration.cost_passes
                seconds = configuration.cost_seconds
            values.append(passes if cost == "passes" else seconds)
        return statistics.median(values) if values else None

    @property
    def speedup(self) -> float:
        """The geometric-mean speedup over the kernels it scored."""
        return math.exp(self.mean_log_speedup)

    @property
    def label(self) -> str:
        return {"fixed": self.configuration or "",
                "best-fixed": f"best fixed on train ({self.configuration})",
                "learned": "learned tree",
                "oracle": "per-kernel oracle"}[self.kind]


@dataclass
class Evaluation:
    seed: int
    held_out_fraction: float
    lam: float
    cost: str
    train_kernels: List[str]
    held_out_kernels: List[str]
    train_score: float
    rows: List[Row]
    # The search budget the outcomes are of, and each configuration's cost
    # (passes, seconds) there, where autoprof-learn wrote them.
    budget: Optional[int] = None
    costs: Dict[str, Tuple[float, float]] = field(default_factory=dict)
    # What a difference had to exceed to be beyond the noise: a kernel's
    # change of log speedup, and the bootstrap's confidence.
    timing_noise: float = math.log(1.01)
    confidence: float = 0.9

    def row(self, kind: str) -> Optional[Row]:
        return next((r for r in self.rows if r.kind == kind), None)


def parse_evaluation(document, source: str = "<evaluation>") -> Evaluation:
    """An Evaluation from the JSON `autoprof-learn --evaluation` writes;
    raises ReportError naming `source` and the field that is wrong."""
    def need(obj, key, kind, where):
        if not isinstance(obj, dict) or key not in obj:
            raise ReportError(f"{source}: {where} lacks '{key}'")
        value = obj[key]
        if kind is float and isinstance(value, int) and \
                not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind):
            wanted = "a number" if kind is float else kind.__name__
            raise ReportError(f"{source}: {where}.{key} is not {wanted}")
        return value

    rows = []
    for index, entry in enumerate(need(document, "rows", list, "the file")):
        where = f"rows[{index}]"
        kind = need(entry, "kind", str, where)
        if kind not in ("fixed", "best-fixed", "learned", "oracle"):
            raise ReportError(f"{source}: {where}.kind '{kind}' is not one "
                              "of fixed, best-fixed, learned, oracle")
        rows.append(Row(
            kind=kind, configuration=entry.get("configuration"),
            score=need(entry, "score", float, where),
            mean_log_speedup=need(entry, "mean_log_speedup", float, where),
            mean_cost=need(entry, "mean_cost", float, where),
            kernels=need(entry, "kernels", list, where),
            excluded=entry.get("excluded", []),
            configurations=entry.get("configurations", {}),
            beats=need(entry, "beats", list, where)))
    for index, row in enumerate(rows):
        if not all(isinstance(i, int) and 0 <= i < len(rows)
                   for i in row.beats):
            raise ReportError(f"{source}: rows[{index}].beats is not a list "
                              f"of row indices")
    return Evaluation(
        seed=need(document, "seed", int, "the file"),
        held_out_fraction=need(document, "held_out_fraction", float,
                               "the file"),
        lam=need(document, "lambda", float, "the file"),
        cost=need(document, "cost", str, "the file"),
        train_kernels=need(document, "train_kernels", list, "the file"),
        held_out_kernels=need(document, "held_out_kernels", list, "the file"),
        train_score=need(document, "train_score", float, "the file"),
        rows=rows,
        budget=document.get("budget") if isinstance(
            document.get("budget"), int) else None,
        costs=_costs(document.get("costs", {}), source),
        timing_noise=need(document, "timing_noise", float, "the file"),
        confidence=need(document, "confidence", float, "the file"))


def _costs(value, source: str) -> Dict[str, Tuple[float, float]]:
    """The evaluation's cost of each configuration (passes, seconds)."""
    if not isinstance(value, dict):
        raise ReportError(f"{source}: costs is not an object")
    costs = {}
    for name, entry in value.items():
        if not isinstance(entry, dict) or not all(
                isinstance(entry.get(k), (int, float)) and
                not isinstance(entry.get(k), bool)
                for k in ("passes", "seconds")):
            raise ReportError(f"{source}: costs.{name} lacks its passes and "
                              f"seconds")
        costs[name] = (float(entry["passes"]), float(entry["seconds"]))
    return costs


def load_evaluation(path) -> Evaluation:
    return parse_evaluation(read_json(pathlib.Path(path)), str(path))


def _metric_counts(table, catalog):
    """Metrics each configuration of `table` collects (None where unknown)."""
    return {c.name: c.metric_count(catalog) for c in table.configurations}


# Costs closer than this, per unit of the score's cost, are the same cost.
COST_TOLERANCE = {"passes": 1e-9, "seconds": 1e-3}


def reaches_more(evaluation: Evaluation, better: Row, worse: Row) -> bool:
    """Whether `better` reaches more than `worse` beyond the noise, as
    autoprof-learn judged it ("beats": reachesMoreBeyondNoise in
    include/autoprof/Learn/Learner.h, the rule it accepts an edit by,
    costs aside)."""
    index = next(i for i, row in enumerate(evaluation.rows) if row is worse)
    return index in better.beats


def goal_verdict(evaluation: Evaluation) -> str:
    """Whether the learned tree reaches at least the best fixed
    configuration's held-out outcome at no more than half its cost: "met",
    "met within the noise" (half the cost, an outcome below but not beyond
    the noise) or "not met"."""
    learned, best = evaluation.row("learned"), evaluation.row("best-fixed")
    if not learned or not best:
        return "not met"
    # A leaf collects something: launch metrics without counters cost no
    # replay pass but a tenth of a millisecond of driver queries, which is
    # not what "half the cost" is about.
    if learned.mean_cost > best.mean_cost / 2 + \
            COST_TOLERANCE.get(evaluation.cost, 1e-9):
        return "not met"
    if learned.speedup >= best.speedup - 1e-9:
        return "met"
    return ("not met" if reaches_more(evaluation, best, learned)
            else "met within the noise")


def answers(evaluation: Evaluation, table, catalog=None) -> List[str]:
    """What the evaluation says, in sentences with its numbers: whether more
    metrics helped monotonically on the held-out kernels, and how the
    learned tree compares with the best fixed configuration in outcome and
    cost."""
    lines = []
    unit = "replay passes" if evaluation.cost == "passes" else "s"
    counts = _metric_counts(table, catalog)
    fixed = [r for r in evaluation.rows if r.kind == "fixed"
             and counts.get(r.configuration) is not None]
    noise = (f"beyond the noise: by more than "
             f"{100 * math.expm1(evaluation.timing_noise):.3g}% on a kernel, "
             f"in a bootstrap over the held-out programs, "
             f"{evaluation.confidence:.0%}")
    if len(fixed) >= 2:
        # Every pair where more metrics reached less, and those of them
        # where the difference is beyond the noise.
        drops = [(a, b) for a in fixed for b in fixed
                 if counts[b.configuration] > counts[a.configuration]
                 and b.speedup < a.speedup - 1e-9]
        real = [(a, b) for a, b in drops
                if reaches_more(evaluation, a, b)]

        def pairs(n):
            return f"{n} pair{'s' if n != 1 else ''}"

        def largest(found):
            """The pair of `found` whose outcomes differ most."""
            return max(found, key=lambda d: d[0].speedup - d[1].speedup)

        if real:
            a, b = largest(real)
            lines.append(
                f"More profiling does not help monotonically: "
                f"{b.configuration} collects {counts[b.configuration]} "
                f"metrics and reaches {b.speedup:.2f}x, "
                f"{a.configuration} collects {counts[a.configuration]} and "
                f"reaches {a.speedup:.2f}x ({pairs(len(real))} of the "
                f"{len(fixed)} fixed configurations where more metrics "
                f"reached less {noise}; {len(drops)} with any difference).")
        elif drops:
            a, b = largest(drops)
            lines.append(
                f"Within the noise, more metrics never lowered the outcome: "
                f"in {pairs(len(drops))} of the {len(fixed)} fixed "
                f"configurations more metrics reached less, none of them "
                f"{noise} (the largest: {b.configuration}, "
                f"{counts[b.configuration]} metrics, {b.speedup:.2f}x "
                f"against {a.configuration}, {counts[a.configuration]}, "
                f"{a.speedup:.2f}x).")
        else:
            lines.append(
                f"On these kernels more metrics never lowered the outcome: "
                f"of the {len(fixed)} fixed configurations, none collecting "
                f"more metrics than another reaches less.")
    learned, best = evaluation.row("learned"), evaluation.row("best-fixed")
    oracle = evaluation.row("oracle")
    if learned and best:
        ahead = reaches_more(evaluation, learned, best)
        behind = reaches_more(evaluation, best, learned)
        verdict = ("beats" if ahead else "falls short of" if behind else
                   "matches" if abs(learned.speedup - best.speedup) <= 1e-9
                   else "matches, within the noise,")
        cost = (f"{learned.mean_cost / best.mean_cost:.2f} of its cost"
                if best.mean_cost > 0 else "against a configuration that "
                "costs nothing")
        lines.append(
            f"The learned tree {verdict} the best fixed configuration "
            f"chosen on the training kernels ({best.configuration}): "
            f"{learned.speedup:.2f}x against {best.speedup:.2f}x on "
            f"{len(learned.kernels)} held-out kernels, at a mean "
            f"{learned.mean_cost:.2f} {unit} against "
            f"{best.mean_cost:.2f} ({cost}).")
        goal = {"met": "met",
                "met within the noise": f"met within the noise (its outcome "
                                        f"below the best fixed "
                                        f"configuration's, not {noise})",
                "not met": "not met"}[goal_verdict(evaluation)]
        lines.append(
            f"Goal (at least the best fixed configuration's outcome at no "
            f"more than half its cost): {goal}.")
        median = learned.median_cost(table, "passes", evaluation.costs)
        if median is not None:
            lines.append(
                f"Median replay passes per held-out kernel under the learned "
                f"tree: {median:g} (goal: at most 4; one profile with "
                f"Nsight Compute's full set takes 38, with SpeedOfLight "
                f"alone 10, and a search profiles its baseline and each "
                f"winner).")
    if learned and oracle and oracle.speedup > 0:
        # The oracle picks each kernel's best score (log speedup - lambda x
        # cost): the learned tree is compared with it on that score; on
        # speedup alone only where lambda is 0, where the two agree.
        line = (f"The per-kernel oracle (each kernel's best score) reaches "
                f"{oracle.speedup:.2f}x at {oracle.mean_cost:.2f} {unit}, "
                f"score {oracle.score:.4f}; the learned tree scores "
                f"{learned.score:.4f}")
        if evaluation.lam == 0 and oracle.mean_log_speedup > 0:
            share = learned.mean_log_speedup / oracle.mean_log_speedup
            line += f", {share:.0%} of its mean log speedup"
        lines.append(line + ".")
    return lines


def markdown(evaluation: Evaluation, table, catalog=None) -> str:
    """The held-out comparison as a Markdown table, then the answers."""
    counts = _metric_counts(table, catalog)
    unit = "passes" if evaluation.cost == "passes" else "seconds"
    out = [f"{len(evaluation.train_kernels)} training and "
           f"{len(evaluation.held_out_kernels)} held-out kernels (seed "
           f"{evaluation.seed}, {evaluation.held_out_fraction:.0%} of the "
           f"programs held out); score = mean log speedup - "
           f"{evaluation.lam:g} x mean cost ({unit}).", "",
           f"| profiling | metrics | held-out speedup (geometric mean) | "
           f"mean cost ({unit}) | score | kernels |",
           "| --- | --- | --- | --- | --- | --- |"]
    for row in evaluation.rows:
        metrics = counts.get(row.configuration) if row.configuration else None
        out.append(f"| {row.label} | "
                   f"{metrics if metrics is not None else '-'} | "
                   f"{row.speedup:.3f}x | {row.mean_cost:.2f} | "
                   f"{row.score:.4f} | {len(row.kernels)} |")
    out.append("")
    out += [f"- {line}" for line in answers(evaluation, table, catalog)]
    # Over the whole table: where the metrics changed what the search did.
    out += [f"- {line}" for line in path_summary(table)]
    return "\n".join(out) + "\n"


def outcome_chart(evaluation: Evaluation, table, catalog=None,
                  x: str = "cost", noise: Optional[float] = None):
    """The held-out speedup of every fixed configuration against its mean
    cost (`x="cost"`) or the metrics it collects (`x="metrics"`), the best
    fixed one and the learned tree marked (the tree on the cost chart; on
    the metrics chart, where a tree collects different metrics per kernel,
    as a line), the oracle as a line. Configurations at one point share a
    label, no label overlaps another, and a note says when every speedup
    lies within a factor 1 + `noise` of the others (default: the
    evaluation's timing noise)."""
    from .plots import note_if_within_noise, place_labels, plt

    counts = _metric_counts(table, catalog)
    figure, ax = plt.subplots(figsize=(6.4, 4.2), dpi=100,
                              layout="constrained")
    best = evaluation.row("best-fixed")
    at = {}
    for row in evaluation.rows:
        if row.kind != "fixed":
            continue
        position = (row.mean_cost if x == "cost"
                    else counts.get(row.configuration))
        if position is None:
            continue
        chosen = best is not None and row.configuration == best.configuration
        ax.scatter([position], [row.speedup], s=36 if chosen else 22,
                   color="tab:orange" if chosen else "tab:blue",
                   label="best fixed on train" if chosen else None)
        at.setdefault((position, row.speedup), []).append(row.configuration)
    learned, oracle = evaluation.row("learned"), evaluation.row("oracle")
    if learned is not None:
        if x == "cost":
            ax.scatter([learned.mean_cost], [learned.speedup], marker="*",
                       s=160, color="tab:green", label="learned tree")
        else:
            ax.axhline(learned.speedup, color="tab:green", linewidth=1,
                       label=f"learned tree {learned.speedup:.2f}x")
    if oracle is not None:
        ax.axhline(oracle.speedup, color="0.4", linestyle="--", linewidth=1,
                   label=f"per-kernel oracle {oracle.speedup:.2f}x")
    unit = "replay passes" if evaluation.cost == "passes" else "seconds"
    ax.set_xlabel(f"mean profiling cost ({unit})" if x == "cost"
                  else "metrics collected")
    ax.set_ylabel("held-out speedup (geometric mean)")
    against = "profiling cost" if x == "cost" else "number of metrics"
    ax.set_title(f"outcome vs {against}"
                 f" on {len(evaluation.held_out_kernels)} held-out kernels",
                 fontsize=9)
    if noise is None:
        noise = math.expm1(evaluation.timing_noise)
    note_if_within_noise(ax, [point[1] for point in at], noise)
    ax.margins(x=0.25, y=0.2)
    ax.legend(fontsize=7, loc="lower right")
    place_labels(ax, list(at), [", ".join(names) for names in at.values()])
    return figure


def evaluate(table_path, out_dir, learn_tool: Optional[str] = None,
             seed: int = 1, held_out: float = 0.3, lam: float = 0.01,
             cost: str = "passes", catalog=None, title: str = "",
             budget: Optional[int] = None) -> str:
    """Learns a tree from the outcome table `table_path` with
    `autoprof-learn` (from the outcomes of searches of `budget` candidates
    where given and the table records them, else of the table's budget)
    and writes to `out_dir`: the tree (tree.mlir), the
    learner's log (learn-log.json), the evaluation (evaluation.json), the
    charts (outcome-vs-cost.png, outcome-vs-metrics.png when the catalog is
    known, tree.png) and evaluation.md, which it returns."""
    from . import plots
    from .outcomes import load_outcomes
    from .tools import run_tool
    from .trees import load_tree

    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    table = load_outcomes(table_path)
    proc = run_tool("autoprof-learn", [
        f"--outcomes={table_path}", f"-o={out / 'tree.mlir'}",
        f"--log={out / 'learn-log.json'}",
        f"--evaluation={out / 'evaluation.json'}", f"--seed={seed}",
        f"--held-out={held_out}", f"--lambda={lam}", f"--cost={cost}"] +
        ([f"--budget={budget}"] if budget is not None else []), learn_tool)
    evaluation = load_evaluation(out / "evaluation.json")
    charts = {"outcome-vs-cost.png": outcome_chart(evaluation, table,
                                                   catalog, "cost")}
    if catalog is not None:
        charts["outcome-vs-metrics.png"] = outcome_chart(
            evaluation, table, catalog, "metrics")
    charts["tree.png"] = plots.tree(load_tree(str(out / "tree.mlir"),
                                              tool=learn_tool))
    for name, figure in charts.items():
        (out / name).write_bytes(plots.to_png(figure))
    rounds = [line for line in proc.stderr.splitlines()
              if line.startswith("round ")]
    page = [f"# {title or 'Evaluation of a learned profiling tree'}", "",
            f"Outcome table: {table.provenance} ({len(table.kernels)} "
            f"kernels, {len(table.configurations)} configurations, budget "
            f"{evaluation.budget or table.budget}).", "",
            "Learning: " + ("; ".join(rounds) if rounds else "no round"), "",
            markdown(evaluation, table, catalog), "",
            "![outcome vs profiling cost](outcome-vs-cost.png)", ""]
    if "outcome-vs-metrics.png" in charts:
        page += ["![outcome vs number of metrics](outcome-vs-metrics.png)",
                 ""]
    page += ["![the learned tree](tree.png)", ""]
    text = "\n".join(page)
    (out / "evaluation.md").write_text(text)
    return text
