"""The evaluation of a learned tree: autoprof-learn's --evaluation JSON, the
Markdown page with its answers, and the charts (on the synthetic outcome
table of the learner's tests, not a measurement)."""

import json
import pathlib

import pytest

from autoprof.catalog import load_catalog
from autoprof.evaluation import (answers, evaluate, goal_verdict,
                                 load_evaluation, parse_evaluation,
                                 reaches_more)
from autoprof.outcomes import load_outcomes, parse_outcomes
from autoprof.reports import ReportError

REPO = pathlib.Path(__file__).resolve().parents[2]
SYNTHETIC = REPO / "test/Learn/Inputs/synthetic-outcomes.json"


def test_evaluate_learns_and_writes_the_page(tmp_path, learn_tool):
    catalog = load_catalog("sm_90", tool=learn_tool)
    # Seed 2 holds out four programs, eight kernels.
    text = evaluate(SYNTHETIC, tmp_path, learn_tool=learn_tool,
                    catalog=catalog, title="Synthetic", seed=2)
    assert text.startswith("# Synthetic")
    assert (tmp_path / "evaluation.md").read_text() == text
    for name in ("tree.mlir", "learn-log.json", "evaluation.json",
                 "outcome-vs-cost.png", "outcome-vs-metrics.png",
                 "tree.png"):
        assert (tmp_path / name).stat().st_size > 0, name
    assert (tmp_path / "tree.png").read_bytes().startswith(b"\x89PNG")
    # The learner's rounds, every row, and the answers with their numbers.
    assert "round 1: accepted SPLIT leaf 1 on arith_intensity" in text
    assert "| learned tree | - | 2.790x | 3.00 | 0.9959 | 8 |" in text
    assert "| best fixed on train (MemoryWorkloadAnalysis) |" in text
    assert "- The learned tree beats the best fixed configuration chosen on " \
           "the training kernels (MemoryWorkloadAnalysis): 2.79x against " \
           "2.09x on 8 held-out kernels, at a mean 3.00 replay passes " \
           "against 4.00 (0.75 of its cost)." in text
    assert "Goal (at least the best fixed configuration's outcome at no " \
           "more than half its cost): not met." in text
    # Each held-out kernel's leaf: MemoryWorkloadAnalysis (4 passes) or
    # LaunchStats+Occupancy (2).
    assert "Median replay passes per held-out kernel under the learned " \
           "tree: 3 (goal: at most 4" in text
    # The oracle picks each kernel's best score: compared on the score.
    assert "- The per-kernel oracle (each kernel's best score) reaches " \
           "2.79x at 3.00 replay passes, score 0.9959; the learned tree " \
           "scores 0.9959." in text


def test_more_metrics_reaching_less_within_the_noise_is_said_so(
        tmp_path, learn_tool):
    evaluate(SYNTHETIC, tmp_path, learn_tool=learn_tool, seed=2)
    evaluation = load_evaluation(tmp_path / "evaluation.json")
    table = load_outcomes(SYNTHETIC)
    catalog = load_catalog("sm_90", tool=learn_tool)
    said = answers(evaluation, table, catalog)
    # LaunchStats+Occupancy collects more metrics than
    # MemoryWorkloadAnalysis and reaches less on the geometric mean, but
    # two of the four held-out programs gain 2x with MemoryWorkloadAnalysis
    # and two 1.8x with LaunchStats+Occupancy: no difference a bootstrap
    # over the programs can tell from noise.
    assert said[0].startswith(
        "Within the noise, more metrics never lowered the outcome: in 1 "
        "pair of the 5 fixed configurations more metrics reached less, none "
        "of them beyond the noise: by more than 1% on a kernel, in a "
        "bootstrap over the held-out programs, 90% (the largest: "
        "LaunchStats+Occupancy, 18 metrics, 1.97x against "
        "MemoryWorkloadAnalysis, 17, 2.09x).")
    # Without a catalog the groups' metrics are unknown: nothing is said of
    # them.
    assert not answers(evaluation, table)[0].startswith("Within the noise")


def test_more_metrics_reaching_less_beyond_the_noise_is_said(
        tmp_path, learn_tool):
    # LaunchStats+Occupancy reaches 0.8 of MemoryWorkloadAnalysis's speedup
    # on every kernel: a loss on every held-out program.
    table = json.loads(SYNTHETIC.read_text())
    for kernel in table["kernels"]:
        speedup = kernel["speedup"]
        if "MemoryWorkloadAnalysis" in speedup and \
                "LaunchStats+Occupancy" in speedup:
            speedup["LaunchStats+Occupancy"] = \
                0.8 * speedup["MemoryWorkloadAnalysis"]
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table))
    evaluate(path, tmp_path / "out", learn_tool=learn_tool, seed=2)
    evaluation = load_evaluation(tmp_path / "out" / "evaluation.json")
    said = answers(evaluation, load_outcomes(path),
                   load_catalog("sm_90", tool=learn_tool))
    assert said[0].startswith(
        "More profiling does not help monotonically: LaunchStats+Occupancy "
        "collects 18 metrics and reaches ")
    assert "where more metrics reached less beyond the noise: by more than " \
           "1% on a kernel, in a bootstrap over the held-out programs, 90%; " \
           "1 with any difference)." in said[0]


def test_a_broken_evaluation_names_the_field():
    good = {"seed": 1, "held_out_fraction": 0.3, "lambda": 0.01,
            "cost": "passes", "train_kernels": [], "held_out_kernels": [],
            "train_score": 0.5, "timing_noise": 0.00995, "confidence": 0.9,
            "rows": [{"kind": "learned", "score": 0.1,
                      "mean_log_speedup": 0.2, "mean_cost": 3,
                      "kernels": [], "beats": []}]}
    assert parse_evaluation(good).row("learned").mean_cost == 3.0
    bad = json.loads(json.dumps(good))
    bad["rows"][0]["kind"] = "guess"
    with pytest.raises(ReportError, match=r"x.json: rows\[0\].kind 'guess'"):
        parse_evaluation(bad, "x.json")
    del good["rows"][0]["mean_cost"]
    with pytest.raises(ReportError, match=r"rows\[0\] lacks 'mean_cost'"):
        parse_evaluation(good, "x.json")


def test_the_command(tmp_path, learn_tool, capsys):
    from autoprof.cli import main

    assert main(["evaluate", str(SYNTHETIC), "--out-dir", str(tmp_path),
                 "--learn-tool", learn_tool, "--title", "T"]) == 0
    assert capsys.readouterr().out.startswith("# T")
    assert (tmp_path / "outcome-vs-metrics.png").exists()
    assert main(["evaluate", str(tmp_path / "none.json"), "--out-dir",
                 str(tmp_path), "--learn-tool", learn_tool]) == 1
    assert "none.json: cannot read" in capsys.readouterr().err


def test_evaluate_at_a_smaller_budget(tmp_path, learn_tool):
    # A table whose search of budget 3 also records budget 1: the page is
    # of budget 1, its median cost the cost there.
    table = json.loads(SYNTHETIC.read_text())
    table["budget"] = 3
    for configuration in table["configurations"]:
        configuration["costs_at"] = {"1": {"passes": 1, "seconds": 0.01}}
    for kernel in table["kernels"]:
        kernel["speedup_at"] = {"1": {name: 1.1 for name in
                                      kernel["speedup"]}}
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table))
    text = evaluate(path, tmp_path / "out", learn_tool=learn_tool, seed=2,
                    budget=1)
    evaluation = load_evaluation(tmp_path / "out" / "evaluation.json")
    assert evaluation.budget == 1
    assert evaluation.costs["MemoryWorkloadAnalysis"] == (1.0, 0.01)
    assert "configurations, budget 1)." in text
    assert "Median replay passes per held-out kernel under the learned " \
           "tree: 1 (goal" in text


def test_what_is_beyond_the_noise_is_the_learner_s_verdict():
    # The best fixed row is ahead of the learned one (0.6 against 0.5 in
    # mean log speedup): whether beyond the noise is what autoprof-learn
    # wrote ("beats"), not recomputed here.
    def evaluation(beats):
        def row(kind, name, index):
            return {"kind": kind, "configuration": name, "score": 0.0,
                    "mean_log_speedup": 0.5 if kind == "learned" else 0.6,
                    "mean_cost": 1.0 if kind == "learned" else 10.0,
                    "kernels": ["p/k"], "configurations": {"p/k": name},
                    "beats": beats.get(index, [])}
        return parse_evaluation({
            "seed": 1, "held_out_fraction": 0.3, "lambda": 0.01,
            "cost": "passes", "train_kernels": [],
            "held_out_kernels": ["p/k"], "train_score": 0.0,
            "timing_noise": 0.00995, "confidence": 0.9,
            "rows": [row("best-fixed", "all", 0),
                     row("learned", "none", 1)]})

    within = evaluation({})
    assert goal_verdict(within) == "met within the noise"
    behind = evaluation({0: [1]})
    assert goal_verdict(behind) == "not met"
    assert reaches_more(behind, behind.rows[0], behind.rows[1])
    assert not reaches_more(behind, behind.rows[1], behind.rows[0])
    broken = {"seed": 1, "held_out_fraction": 0.3, "lambda": 0.01,
              "cost": "passes", "train_kernels": [], "held_out_kernels": [],
              "train_score": 0.0, "timing_noise": 0.00995, "confidence": 0.9,
              "rows": [{"kind": "learned", "score": 0.1,
                        "mean_log_speedup": 0.2, "mean_cost": 3,
                        "kernels": [], "beats": [3]}]}
    with pytest.raises(ReportError, match=r"rows\[0\].beats is not a list "
                                          r"of row indices"):
        parse_evaluation(broken, "x.json")


def test_speedups_by_budget_are_read_and_checked():
    table = {"budget": 3, "configurations": [
        {"name": "none", "cost_passes": 0, "cost_seconds": 0}],
        "kernels": [{"name": "k", "program": "p", "speedup": {"none": 2.0},
                     "speedup_at": {"1": {"none": 1.5}}}]}
    kernel = parse_outcomes(table).kernels[0]
    assert kernel.speedup_with("none") == 2.0
    assert kernel.speedup_with("none", 1) == 1.5
    assert kernel.speedup_with("none", 3) == 2.0
    table["kernels"][0]["speedup_at"] = {"1": {"none": 0}}
    with pytest.raises(ReportError, match=r"kernels\[0\].speedup_at.1.none: "
                       r"a speedup is positive"):
        parse_outcomes(table, "t.json")
    table["kernels"][0]["speedup_at"] = {"one": {"none": 1.5}}
    with pytest.raises(ReportError, match=r"speedup_at.one: expected a "
                       r"budget"):
        parse_outcomes(table, "t.json")


def test_the_page_says_where_the_metrics_changed_the_search(
        tmp_path, learn_tool):
    # The synthetic table with the search paths of two kernels: every
    # configuration alike on one, MemoryWorkloadAnalysis apart on the other.
    table = json.loads(SYNTHETIC.read_text())
    first, second = table["kernels"][0], table["kernels"][1]
    for kernel, apart in ((first, None), (second, "MemoryWorkloadAnalysis")):
        kernel["paths"] = {
            name: [{"rewrite": "coalesce=32", "accepted": True},
                   {"rewrite": "unroll=4" if name == apart else "coarsen=2",
                    "accepted": name == apart}]
            for name in kernel["speedup"]}
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table))
    text = evaluate(path, tmp_path / "out", learn_tool=learn_tool, seed=2)
    assert "- Search paths: on 1 of 2 kernels every configuration tried the " \
           "same candidates and kept the same; on 1 the metrics collected " \
           "changed which candidate came next; on 0 the same candidate won " \
           "under some configurations and lost under others (its timing)." \
           in text
    assert f"- {second['name']}, from candidate 2: " in text
    assert "MemoryWorkloadAnalysis: unroll=4 (won)" in text
