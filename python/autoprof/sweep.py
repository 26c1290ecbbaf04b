"""Learning over many seeded splits and cost weights: one held-out
evaluation (`evaluation.evaluate`) rests on one split of the programs, and
on a corpus of a few dozen kernels which programs land on which side decides
much of what it says. `sweep` learns a tree for every seed and every weight
of the profiling cost (lambda), each time held out on its own split, and
says per weight how often the learned tree met the goal (at least the best
fixed configuration's held-out outcome at no more than half its cost), how
its outcome compares with the best fixed configuration chosen on the
training kernels and with the fixed configuration that reached the most on
the held-out ones, what it cost, and which trees were learned
(`docs/profiling-tree.md`, "Learning over many splits").
"""

from __future__ import annotations

import collections
import json
import math
import pathlib
import re
import statistics
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

from .evaluation import Evaluation, Row, goal_verdict, load_evaluation
from .learning import load_learner_log


@dataclass
class SweepRun:
    """One learning run: its weight, seed, evaluation and what it learned."""
    lam: float
    seed: int
    evaluation: Evaluation
    # The edits the learner accepted, in order.
    accepted: List[str]
    goal: str
    # The median replay passes per held-out kernel under the learned tree.
    median_passes: Optional[float]

    @property
    def learned(self) -> Row:
        return self.evaluation.row("learned")

    @property
    def best_fixed(self) -> Row:
        return self.evaluation.row("best-fixed")

    @property
    def best_outcome(self) -> Row:
        """The fixed configuration that reached the most on the held-out
        kernels (the cheaper one of equals): what no split can choose in
        advance."""
        fixed = [r for r in self.evaluation.rows if r.kind == "fixed"]
        return max(fixed, key=lambda r: (round(r.mean_log_speedup, 12),
                                         -r.mean_cost))


def tree_shape(accepted: Sequence[str]) -> str:
    """The learned tree in words, its thresholds left out (they move with
    the split): "SPLIT leaf 1 on flops_total < 7.2e8 into launch-only /
    cudaforge-24" is "flops_total: launch-only / cudaforge-24"."""
    if not accepted:
        return "the starting leaf"
    shapes = []
    for edit in accepted:
        split = re.match(r"SPLIT leaf \d+ on (\S+) [<>=!]+ \S+ into (.+)$",
                         edit)
        rewrite = re.match(r"REWRITE leaf \d+ to collect (.+)$", edit)
        shapes.append(f"{split.group(1)}: {split.group(2)}" if split else
                      f"leaf: {rewrite.group(1)}" if rewrite else edit)
    return "; ".join(shapes)


def _ratio(a: Row, b: Row) -> float:
    """a's geometric-mean speedup over b's."""
    return math.exp(a.mean_log_speedup - b.mean_log_speedup)


def sweep(table_path, out_dir, seeds: Sequence[int],
          lambdas: Sequence[float], learn_tool: Optional[str] = None,
          held_out: float = 0.3, cost: str = "passes",
          budget: Optional[int] = None) -> str:
    """Learns from the outcome table `table_path` once per seed and weight
    (`out_dir`/lambda-L/seed-S/ gets the tree, the learner's log and the
    evaluation of each) and writes `out_dir`/sweep.md (returned), sweep.json
    (every run's numbers) and sweep.png (each learned tree's held-out
    outcome against its cost)."""
    from . import plots
    from .outcomes import load_outcomes
    from .tools import run_tool

    out = pathlib.Path(out_dir)
    table = load_outcomes(table_path)
    runs: List[SweepRun] = []
    for lam in lambdas:
        for seed in seeds:
            where = out / f"lambda-{lam:g}" / f"seed-{seed}"
            where.mkdir(parents=True, exist_ok=True)
            run_tool("autoprof-learn", [
                f"--outcomes={table_path}", f"-o={where / 'tree.mlir'}",
                f"--log={where / 'learn-log.json'}",
                f"--evaluation={where / 'evaluation.json'}",
                f"--seed={seed}", f"--held-out={held_out}",
                f"--lambda={lam}", f"--cost={cost}"] +
                ([f"--budget={budget}"] if budget is not None else []),
                learn_tool)
            evaluation = load_evaluation(where / "evaluation.json")
            accepted = [r.decision[len("accepted "):] for r in
                        load_learner_log(where / "learn-log.json")
                        if r.accepted]
            learned = evaluation.row("learned")
            runs.append(SweepRun(
                lam=lam, seed=seed, evaluation=evaluation, accepted=accepted,
                goal=goal_verdict(evaluation),
                median_passes=learned.median_cost(table, "passes",
                                                  evaluation.costs)
                if learned else None))
    (out / "sweep.json").write_text(json.dumps([{
        "lambda": r.lam, "seed": r.seed, "goal": r.goal,
        "accepted": r.accepted,
        "scored_held_out_kernels": len(r.learned.kernels),
        "learned": {"speedup": r.learned.speedup,
                    "mean_cost": r.learned.mean_cost,
                    "median_passes": r.median_passes},
        "best_fixed": {"configuration": r.best_fixed.configuration,
                       "speedup": r.best_fixed.speedup,
                       "mean_cost": r.best_fixed.mean_cost},
        "best_outcome": {"configuration": r.best_outcome.configuration,
                         "speedup": r.best_outcome.speedup,
                         "mean_cost": r.best_outcome.mean_cost}}
        for r in runs], indent=1) + "\n")
    (out / "sweep.png").write_bytes(plots.to_png(sweep_chart(runs, cost)))
    text = markdown(runs, table, cost, held_out)
    (out / "sweep.md").write_text(text)
    return text


def markdown(runs: Sequence[SweepRun], table, cost: str,
             held_out: float) -> str:
    """The sweep's page: per weight, how the learned trees fared over the
    splits, then the trees learned."""
    unit = "replay passes" if cost == "passes" else "s"
    seeds = sorted({r.seed for r in runs})
    lines = [
        f"Outcome table: {len(table.kernels)} kernels, "
        f"{len(table.configurations)} configurations. {len(seeds)} seeded "
        f"splits (seeds {seeds[0]}-{seeds[-1]}), "
        f"{held_out:.0%} of the programs held out each time; score = mean "
        f"log speedup - lambda x mean cost ({unit}).", "",
        "| lambda | goal met | learned / best fixed on train (geometric "
        "mean; lowest) | learned / best held-out fixed (geometric mean; "
        "lowest) | learned cost (mean) | best fixed on train cost (mean) | "
        "median passes per kernel (median over splits) | accepted edits "
        "(mean) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    by_lambda: Dict[float, List[SweepRun]] = collections.OrderedDict()
    for r in runs:
        by_lambda.setdefault(r.lam, []).append(r)
    for lam, group in by_lambda.items():
        met = sum(r.goal == "met" for r in group)
        within = sum(r.goal == "met within the noise" for r in group)
        to_best = [_ratio(r.learned, r.best_fixed) for r in group]
        to_top = [_ratio(r.learned, r.best_outcome) for r in group]
        medians = [r.median_passes for r in group
                   if r.median_passes is not None]
        lines.append(
            f"| {lam:g} | {met} of {len(group)}"
            + (f" (+{within} within the noise)" if within else "")
            + f" | {statistics.geometric_mean(to_best):.4f}; "
            f"{min(to_best):.4f} | {statistics.geometric_mean(to_top):.4f}; "
            f"{min(to_top):.4f} | "
            f"{statistics.mean(r.learned.mean_cost for r in group):.2f} | "
            f"{statistics.mean(r.best_fixed.mean_cost for r in group):.2f} | "
            f"{statistics.median(medians) if medians else '-'} | "
            f"{statistics.mean(len(r.accepted) for r in group):.2f} |")
    lines += ["", "Trees learned (thresholds left out), per lambda: how "
              "many splits learned each.", ""]
    for lam, group in by_lambda.items():
        shapes = collections.Counter(tree_shape(r.accepted) for r in group)
        best = collections.Counter(r.best_fixed.configuration for r in group)
        lines.append(
            f"- lambda {lam:g}: " + "; ".join(
                f"{shape} ({count})" for shape, count in shapes.most_common())
            + ". Starting leaf (best fixed on train): " + ", ".join(
                f"{name} ({count})" for name, count in best.most_common())
            + ".")
    lines += ["", "![learned trees' held-out outcome against their cost]"
              "(sweep.png)", ""]
    return "\n".join(lines)


def sweep_chart(runs: Sequence[SweepRun], cost: str = "passes"):
    """Each run's learned tree: its held-out outcome over the best held-out
    fixed configuration's, against its mean profiling cost, one colour per
    weight."""
    from .plots import plt

    figure, ax = plt.subplots(figsize=(6.4, 4.0))
    lambdas = sorted({r.lam for r in runs})
    for index, lam in enumerate(lambdas):
        group = [r for r in runs if r.lam == lam]
        ax.scatter([r.learned.mean_cost for r in group],
                   [_ratio(r.learned, r.best_outcome) for r in group],
                   s=22, alpha=0.7, color=f"C{index}",
                   label=f"lambda {lam:g}")
    ax.axhline(1.0, color="0.4", linestyle="--", linewidth=1,
               label="best held-out fixed configuration")
    ax.axhline(1 / 1.01, color="0.6", linestyle=":", linewidth=1,
               label="1% below it (the timing's noise)")
    ax.set_xlabel("learned tree's mean profiling cost per held-out kernel ("
                  + ("replay passes" if cost == "passes" else "s") + ")")
    ax.set_ylabel("held-out outcome / best fixed")
    ax.set_title("Learned trees over seeded splits")
    ax.legend(fontsize=7, loc="lower right")
    figure.tight_layout()
    return figure
