"""Learning over many seeded splits and cost weights (on the synthetic
outcome table of the learner's tests, not a measurement)."""

import json
import pathlib

import pytest

from autoprof.cli import main
from autoprof.evaluation import goal_verdict, load_evaluation
from autoprof.sweep import sweep, tree_shape

REPO = pathlib.Path(__file__).resolve().parents[2]
SYNTHETIC = REPO / "test/Learn/Inputs/synthetic-outcomes.json"


def test_sweep_learns_once_per_seed_and_weight(tmp_path, learn_tool):
    text = sweep(SYNTHETIC, tmp_path, seeds=[1, 2, 3], lambdas=[0, 0.01],
                 learn_tool=learn_tool)
    assert (tmp_path / "sweep.md").read_text() == text
    assert (tmp_path / "sweep.png").read_bytes().startswith(b"\x89PNG")
    runs = json.loads((tmp_path / "sweep.json").read_text())
    assert [(r["lambda"], r["seed"]) for r in runs] == [
        (0, 1), (0, 2), (0, 3), (0.01, 1), (0.01, 2), (0.01, 3)]
    for run in runs:
        where = tmp_path / f"lambda-{run['lambda']:g}" / f"seed-{run['seed']}"
        assert (where / "tree.mlir").stat().st_size > 0
        evaluation = load_evaluation(where / "evaluation.json")
        # The held-out kernels the learned tree could be scored on (a kernel
        # without an outcome for its leaf's configuration is not).
        assert run["scored_held_out_kernels"] <= \
            len(evaluation.held_out_kernels)
    # Cost free, every split learns to send the compute-bound programs to
    # LaunchStats+Occupancy (2 passes) and the others to
    # MemoryWorkloadAnalysis (4), where "all" (38) is the best fixed
    # configuration on train: at least its outcome at a tenth of its cost.
    free = [r for r in runs if r["lambda"] == 0]
    assert [r["goal"] for r in free] == ["met"] * 3
    assert all(tree_shape(r["accepted"]) == "arith_intensity: "
               "MemoryWorkloadAnalysis / LaunchStats+Occupancy"
               for r in free)
    assert [r["best_fixed"]["configuration"] for r in free] == ["all"] * 3
    # At 0.01 a pass, the best fixed configuration is a cheap one, and the
    # split costs more than half of it (seed 3 learns nothing).
    costly = [r for r in runs if r["lambda"] == 0.01]
    assert [r["goal"] for r in costly] == ["not met"] * 3
    assert costly[2]["accepted"] == []
    assert "| 0 | 3 of 3 | 1.0370; 1.0345 | " in text
    assert "| 0.01 | 0 of 3 | " in text
    assert "- lambda 0.01: arith_intensity: MemoryWorkloadAnalysis / " \
           "LaunchStats+Occupancy (2); the starting leaf (1)." in text


def test_tree_shape_leaves_the_thresholds_out():
    assert tree_shape([]) == "the starting leaf"
    assert tree_shape([
        "SPLIT leaf 1 on flops_total < 721420288.00 into launch-only / "
        "cudaforge-24", "REWRITE leaf 3 to collect Occupancy"]) == \
        "flops_total: launch-only / cudaforge-24; leaf: Occupancy"


def test_the_command_refuses_bad_weights_and_names_a_broken_table(
        tmp_path, learn_tool, capsys):
    assert main(["sweep", str(SYNTHETIC), "--out-dir", str(tmp_path),
                 "--lambdas", "-1", "--learn-tool", learn_tool]) == 1
    assert "a lambda is a finite number, not negative" in \
        capsys.readouterr().err
    assert main(["sweep", str(SYNTHETIC), "--out-dir", str(tmp_path),
                 "--seeds", "0", "--learn-tool", learn_tool]) == 1
    assert "--seeds must be at least 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["sweep", str(SYNTHETIC), "--out-dir", str(tmp_path),
              "--budget", "0", "--learn-tool", learn_tool])
    assert "--budget must be at least 1, got 0" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text("{}")
    assert main(["sweep", str(broken), "--out-dir", str(tmp_path / "o"),
                 "--learn-tool", learn_tool]) == 1
    assert "autoprof: " in capsys.readouterr().err
    assert main(["sweep", str(SYNTHETIC), "--out-dir", str(tmp_path / "ok"),
                 "--seeds", "2", "--lambdas", "0.01", "--learn-tool",
                 learn_tool]) == 0
    assert "| 0.01 | " in capsys.readouterr().out


def test_a_tenth_of_a_millisecond_is_not_twice_nothing():
    # Scored in seconds, the learned tree's launch-only leaf costs 0.1 ms
    # against "none"'s nothing, and reaches the same: the goal is met. At
    # 2 s against 1 s it is not.
    from autoprof.evaluation import parse_evaluation

    def evaluation(learned_cost, best_cost):
        def row(kind, name, cost):
            return {"kind": kind, "configuration": name, "score": 0.0,
                    "mean_log_speedup": 0.6931471805599453,
                    "mean_cost": cost, "kernels": ["p/k"],
                    "configurations": {"p/k": name}, "beats": []}
        return parse_evaluation({
            "seed": 1, "held_out_fraction": 0.3, "lambda": 0.01,
            "cost": "seconds", "train_kernels": [],
            "held_out_kernels": ["p/k"], "train_score": 0.0,
            "timing_noise": 0.00995, "confidence": 0.9,
            "rows": [row("best-fixed", "none", best_cost),
                     row("learned", "launch-only", learned_cost)]})

    assert goal_verdict(evaluation(1e-4, 0.0)) == "met"
    assert goal_verdict(evaluation(2.0, 1.0)) == "not met"
