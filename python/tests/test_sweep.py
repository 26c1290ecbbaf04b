"""Learning over many seeded splits and cost weights (on the synthetic
outcome table of the learner's tests, not a measurement)."""

import json
import pathlib

from autoprof.cli import main
from autoprof.evaluation import goal_verdict, load_evaluation
from autoprof.outcomes import load_outcomes
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
    table = load_outcomes(SYNTHETIC)
    for run in runs:
        where = tmp_path / f"lambda-{run['lambda']:g}" / f"seed-{run['seed']}"
        assert (where / "tree.mlir").stat().st_size > 0
        evaluation = load_evaluation(where / "evaluation.json")
        # Each run is its own split, judged as `evaluate` judges one.
        assert run["goal"] == goal_verdict(evaluation, table)
        assert run["learned"]["speedup"] == \
            evaluation.row("learned").speedup
        # The held-out kernels the learned tree could be scored on (a kernel
        # without an outcome for its leaf's configuration is not).
        assert run["scored_held_out_kernels"] == \
            len(evaluation.row("learned").kernels)
        assert run["scored_held_out_kernels"] <= \
            len(evaluation.held_out_kernels)
    # Seed 2 at lambda 0.01 is the split `evaluate`'s test reads: the tree
    # splits on arith_intensity and does not halve the cost.
    seed2 = next(r for r in runs if r["lambda"] == 0.01 and r["seed"] == 2)
    assert seed2["goal"] == "not met"
    assert seed2["accepted"][0].startswith(
        "SPLIT leaf 1 on arith_intensity")
    # One row per weight, with the count of splits that met the goal.
    rows = [line for line in text.splitlines() if line.startswith("| 0")]
    assert len(rows) == 2
    met = sum(r["goal"] == "met" for r in runs if r["lambda"] == 0.01)
    assert rows[1].startswith(f"| 0.01 | {met} of 3")
    assert "- lambda 0.01: arith_intensity: " in text


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
    broken = tmp_path / "broken.json"
    broken.write_text("{}")
    assert main(["sweep", str(broken), "--out-dir", str(tmp_path / "o"),
                 "--learn-tool", learn_tool]) == 1
    assert "autoprof: " in capsys.readouterr().err
    assert main(["sweep", str(SYNTHETIC), "--out-dir", str(tmp_path / "ok"),
                 "--seeds", "2", "--lambdas", "0.01", "--learn-tool",
                 learn_tool]) == 0
    assert "| 0.01 | " in capsys.readouterr().out
