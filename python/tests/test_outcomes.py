import json
import pathlib

import pytest

from autoprof import plots
from autoprof.catalog import Catalog
from autoprof.cli import main
from autoprof.outcomes import (common_kernels, compare, load_outcomes,
                               markdown, oracle, parse_outcomes,
                               path_summary, summarize)
from autoprof.reports import ReportError

REPO = pathlib.Path(__file__).resolve().parents[2]
SYNTHETIC = REPO / "test/Learn/Inputs/synthetic-outcomes.json"


def small_table():
    """Three configurations, three kernels; `sol` was not measured on k3."""
    return {
        "provenance": "written for this test", "budget": 3,
        "configurations": [
            {"name": "none", "groups": [], "metrics": [], "cost_passes": 0,
             "cost_seconds": 0.0},
            {"name": "sol", "groups": ["SpeedOfLight"], "cost_passes": 10,
             "cost_seconds": 0.3},
            {"name": "two", "groups": ["SpeedOfLight"],
             "metrics": ["a", "x"], "cost_passes": 12, "cost_seconds": 0.4},
        ],
        "kernels": [
            {"name": "p.v0/k1", "program": "p", "features": {"f": 1},
             "speedup": {"none": 1.0, "sol": 2.0, "two": 4.0}},
            {"name": "p.v1/k2", "program": "p",
             "speedup": {"none": 4.0, "sol": 8.0, "two": 1.0}},
            {"name": "q.v0/k3", "program": "q",
             "speedup": {"none": 2.0, "two": 2.0}},
        ],
    }


def test_summary_per_configuration():
    table = parse_outcomes(small_table())
    assert [k.name for k in common_kernels(table)] == ["p.v0/k1", "p.v1/k2"]
    none, sol, two = summarize(table)
    # Each mean is over the kernels the configuration was measured on; the
    # common mean over the kernels every configuration has.
    assert (none.kernels, sol.kernels, two.kernels) == (3, 2, 3)
    assert none.geometric_mean == pytest.approx(2.0)
    assert none.common_mean == pytest.approx(2.0)
    assert sol.geometric_mean == pytest.approx(4.0)
    assert two.geometric_mean == pytest.approx(2.0)
    assert two.common_mean == pytest.approx(2.0)
    assert (sol.cost_passes, two.cost_seconds) == (10, 0.4)
    # Each kernel's best: 4, 8 and 2.
    assert oracle(table) == pytest.approx(4.0)


def test_a_configuration_of_some_modules_does_not_narrow_the_common_kernels():
    document = small_table()
    # Wanted on p.v0's kernels only (autoprof-learn --wanted).
    document["configurations"].append(
        {"name": "sol+Occupancy", "groups": ["SpeedOfLight", "Occupancy"],
         "cost_passes": 11, "cost_seconds": 0.3, "modules": ["p.v0"]})
    document["kernels"][0]["speedup"]["sol+Occupancy"] = 3.0
    table = parse_outcomes(document)
    assert table.configuration("sol+Occupancy").modules == ["p.v0"]
    assert table.configuration("sol").modules is None
    assert [k.name for k in common_kernels(table)] == ["p.v0/k1", "p.v1/k2"]
    summaries = {s.name: s for s in summarize(table)}
    assert summaries["none"].common_mean == pytest.approx(2.0)
    wanted = summaries["sol+Occupancy"]
    assert (wanted.kernels, wanted.common_mean) == (1, None)
    assert wanted.geometric_mean == pytest.approx(3.0)
    # The summary says which kernels its common column keeps.
    header = markdown(table).splitlines()[0]
    assert ("on the 2 kernels every configuration of every module has (1 "
            "of some modules left out)") in header
    document["configurations"][-1]["modules"] = "p.v0"
    with pytest.raises(ReportError, match=r"configurations\[3\]\.modules"):
        parse_outcomes(document)
    document["configurations"][-1]["modules"] = []
    with pytest.raises(ReportError, match=r"configurations\[3\]\.modules: "
                                          r"empty"):
        parse_outcomes(document)


def test_metric_counts_need_the_catalog_for_groups():
    table = parse_outcomes(small_table())
    assert [s.metric_count for s in summarize(table)] == [0, None, None]
    catalog = Catalog("sm_90", {}, {"SpeedOfLight": ["a", "b", "c"]})
    # `two` names "a" again: distinct metrics count once.
    assert [s.metric_count for s in summarize(table, catalog)] == [0, 3, 4]


def test_markdown_lists_every_configuration_and_the_oracle():
    text = markdown(parse_outcomes(small_table()))
    lines = text.splitlines()
    assert "on the 2 kernels every configuration has" in lines[0]
    assert lines[2] == "| none | 3 | 2.000x | 2.000x | 0 | 0 | 0.000 |"
    assert lines[3] == "| sol | 2 | 4.000x | 4.000x | - | 10 | 0.300 |"
    assert lines[-1] == "| per-kernel oracle | 3 | 4.000x | - | - | - | - |"


def test_the_synthetic_table_of_the_learner_tests():
    table = load_outcomes(SYNTHETIC)
    summaries = {s.name: s for s in summarize(table)}
    assert set(summaries) == {c.name for c in table.configurations}
    best = oracle(table)
    # No configuration passes the per-kernel oracle.
    for summary in summaries.values():
        assert summary.common_mean <= best + 1e-12


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.pop("configurations"), "table: missing 'configurations'"),
    (lambda t: t["configurations"].clear(), "table: no configurations"),
    (lambda t: t["configurations"][1].pop("cost_passes"),
     "configurations[1]: missing 'cost_passes'"),
    (lambda t: t["configurations"].append(dict(t["configurations"][0])),
     "configurations[3]: 'none' is defined twice"),
    (lambda t: t["kernels"][2]["speedup"].update(other=1.5),
     "kernels[2].speedup: 'other' is not one of the configurations"),
    (lambda t: t["kernels"][0]["speedup"].update(sol=0),
     "kernels[0].speedup.sol: a speedup is positive"),
    (lambda t: t["kernels"][0]["speedup"].update(sol="fast"),
     "kernels[0].speedup.sol: expected a number"),
    (lambda t: t["kernels"].append(dict(t["kernels"][0])),
     "kernels[3]: kernel 'p.v0/k1' appears twice"),
    (lambda t: t.update(configurations=5), "table: 'configurations' is not a "
                                           "list"),
    (lambda t: t["configurations"][0].update(metrics=5),
     "configurations[0].metrics: expected a list of names"),
    (lambda t: t["kernels"][0].update(features={"x": None}),
     "kernels[0].features.x: expected a number"),
    (lambda t: t.update(budget="ten"),
     "budget: expected a whole number of candidates"),
    (lambda t: t["kernels"][0].update(costs={"sol": {"passes": 3}}),
     "kernels[0].costs.sol: missing 'seconds'"),
    (lambda t: t["kernels"][0].update(costs={"x": {}}),
     "kernels[0].costs: 'x' is not one of the configurations"),
    (lambda t: t["kernels"][0].update(costs={"sol": 3}),
     "kernels[0].costs.sol: expected an object"),
    (lambda t: t["kernels"][0].update(
        costs={"sol": {"passes": -1, "seconds": 0.1}}),
     "kernels[0].costs.sol: a profiling cost is a finite number, not "
     "negative"),
])
def test_errors_name_the_file_and_the_field(tmp_path, edit, message):
    document = small_table()
    edit(document)
    path = tmp_path / "table.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ReportError) as error:
        load_outcomes(path)
    assert str(error.value).startswith(f"{path}: ")
    assert message in str(error.value)


def test_charts():
    table = parse_outcomes(small_table())
    catalog = Catalog("sm_90", {}, {"SpeedOfLight": ["a", "b", "c"]})
    for figure in (plots.outcome_vs_cost(table),
                   plots.outcome_vs_cost(table, cost="seconds"),
                   plots.outcome_vs_metrics(table, catalog)):
        ax = figure.axes[0]
        # One point per configuration measured on the common kernels, and
        # the oracle's line.
        assert len(ax.collections[0].get_offsets()) == 3
        assert ax.lines[0].get_ydata()[0] == pytest.approx(4.0)
        assert "(kernels every configuration has)" in ax.get_ylabel()
        assert plots.to_png(figure).startswith(b"\x89PNG")


def test_command(tmp_path, capsys, learn_tool):
    path = tmp_path / "table.json"
    path.write_text(json.dumps(small_table()))
    charts = tmp_path / "charts"
    assert main(["outcomes", str(path), "--png-dir", str(charts),
                 "--learn-tool", learn_tool]) == 0
    out = capsys.readouterr().out
    assert "| per-kernel oracle | 3 | 4.000x |" in out
    # The shipped catalog knows SpeedOfLight: its metrics are counted.
    assert "| sol | 2 | 4.000x | 4.000x | - |" not in out
    assert sorted(p.name for p in charts.iterdir()) == [
        "outcome-vs-metrics.png", "outcome-vs-passes.png",
        "outcome-vs-seconds.png"]


def test_command_on_a_bad_table(tmp_path, capsys):
    path = tmp_path / "table.json"
    path.write_text("{")
    assert main(["outcomes", str(path)]) == 1
    assert f"autoprof: {path}: not JSON" in capsys.readouterr().err


def with_paths():
    """small_table() with the search paths of k1 (every configuration alike)
    and k2 (sol and two part from none at the second candidate)."""
    table = small_table()
    same = [{"rewrite": "coalesce=32", "accepted": True},
            {"rewrite": "vectorize=4", "accepted": False}]
    table["kernels"][0]["paths"] = {"none": same, "sol": same, "two": same}
    table["kernels"][1]["paths"] = {
        "none": [{"rewrite": "coalesce=32", "accepted": True},
                 {"rewrite": "coalesce=64", "accepted": False}],
        "sol": [{"rewrite": "coalesce=32", "accepted": True},
                {"rewrite": "vectorize=8", "accepted": True}],
        "two": [{"rewrite": "coalesce=32", "accepted": True},
                {"rewrite": "vectorize=8", "accepted": True}]}
    return table


def test_paths_say_where_the_metrics_changed_the_search():
    table = parse_outcomes(with_paths())
    assert table.kernels[1].paths["sol"] == [("coalesce=32", True),
                                             ("vectorize=8", True)]
    assert table.kernels[2].paths == {}
    lines = path_summary(table)
    # k3 records no paths and is not counted.
    assert lines[0] == ("Search paths: on 1 of 2 kernels every configuration "
                        "tried the same candidates and kept the same; on 1 "
                        "the metrics collected changed which candidate came "
                        "next; on 0 the same candidate won under some "
                        "configurations and lost under others (its timing).")
    assert lines[1] == ("p.v1/k2, from candidate 2: none: coalesce=64; "
                        "sol / two: vectorize=8 (won)")
    assert lines[0] in markdown(table)
    # Where the paths part only at whether one candidate won, its timing
    # decided, not the metrics.
    timed = with_paths()
    timed["kernels"][1]["paths"]["sol"][1]["rewrite"] = "coalesce=64"
    timed["kernels"][1]["paths"]["two"][1]["rewrite"] = "coalesce=64"
    lines = path_summary(parse_outcomes(timed))
    assert lines[0].endswith("on 0 the metrics collected changed which "
                             "candidate came next; on 1 the same candidate "
                             "won under some configurations and lost under "
                             "others (its timing).")
    assert lines[1] == ("p.v1/k2, from candidate 2: none: coalesce=64; "
                        "sol / two: coalesce=64 (won)")
    # A table without paths says nothing about them.
    assert path_summary(parse_outcomes(small_table())) == []
    assert "Search paths" not in markdown(parse_outcomes(small_table()))


@pytest.mark.parametrize("paths, message", [
    ([], "paths: expected an object"),
    ({"other": []}, "paths: 'other' is not one of the configurations"),
    ({"none": [{"rewrite": "coalesce=32"}]},
     "paths.none: expected a list of"),
    ({"none": [{"rewrite": 3, "accepted": True}]},
     "paths.none: expected a list of"),
])
def test_malformed_paths_are_named(paths, message):
    table = small_table()
    table["kernels"][0]["paths"] = paths
    with pytest.raises(ReportError, match=message):
        parse_outcomes(table, "t.json")


def measured_twice():
    """with_paths() and the same kernels measured again: k1 kept the same
    variant everywhere, 3% slower under sol; k2 under none tried another
    second candidate and its sol profile took one more replay pass; k3 is
    not in the second table."""
    first = with_paths()
    for kernel in first["kernels"][:2]:
        kernel["costs"] = {"none": {"passes": 0, "seconds": 0.0},
                           "sol": {"passes": 10, "seconds": 0.5},
                           "two": {"passes": 12, "seconds": 0.4}}
    again = json.loads(json.dumps(first))
    del again["kernels"][2]
    again["kernels"][0]["speedup"]["sol"] = 2.0 * 0.97
    again["kernels"][1]["paths"]["none"][1]["rewrite"] = "vectorize=4"
    again["kernels"][1]["costs"]["sol"] = {"passes": 11, "seconds": 0.6}
    return parse_outcomes(first), parse_outcomes(again)


def test_two_measurements_of_the_same_kernels_compare_pair_by_pair():
    first, again = measured_twice()
    text = compare(first, again)
    assert text.startswith("6 (kernel, configuration) pairs of 2 kernels")
    # k2 under none kept coalesce=32 alone both times, after another
    # second candidate.
    assert "| kept variant (the accepted rewrites) | the same on 6 of 6 |" \
        in text
    assert "| candidates tried, in order, and which won | the same on 5 " \
        "of 6 |" in text
    assert "| replay passes | equal on 5 of 6 |" in text
    assert "| verified speedup, median (min-max) | 1.000 (0.970-1.000) |" \
        in text
    # Seconds of the 4 pairs that profile: 1, 1, 1.2 and 1.
    assert "| profiling seconds, median (min-max), 4 pairs that profile | " \
        "1.000 (1.000-1.200) |" in text
    assert "Speedups that moved by more than a factor 1.01:" in text
    assert "- p.v0/k1: 0.970 (0.970-0.970) on 1 configuration(s)" in text
    assert "p.v1/k2:" not in text
    assert "Warning" not in text
    assert "No speedup moved by more than a factor 1.05." in compare(
        first, again, noise=0.05)
    # A ratio just within 1/1.01 is in the band; just below it is not.
    again.kernels[0].speedup["sol"] = 2.0 / 1.0099
    assert "p.v0/k1:" not in compare(first, again)
    again.kernels[0].speedup["sol"] = 2.0 / 1.0101
    assert "p.v0/k1:" in compare(first, again)


def test_tables_that_do_not_compare_are_compared_with_a_warning():
    first, again = measured_twice()
    again.budget = 5
    again.configuration("sol").groups = ["Occupancy"]
    text = compare(first, again)
    assert text.startswith("Warning: the searches had budgets 3 and 5.\n"
                           "Warning: 'sol' collects different metrics in "
                           "the two tables.\n6 (kernel, configuration)")


def test_a_profile_of_no_seconds_is_left_out_of_the_seconds_ratio():
    first, again = measured_twice()
    first.kernels[0].costs["sol"] = (10, 0.0)
    text = compare(first, again)
    assert "| profiling seconds, median (min-max), 3 pairs that profile" \
        in text


def test_tables_without_common_pairs_say_so(tmp_path, capsys):
    first, again = measured_twice()
    again.kernels = [k for k in again.kernels if k.name == "nothing"]
    assert compare(first, again).startswith("No (kernel, configuration)")
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(small_table()))
    b.write_text("[]")
    assert main(["outcomes", str(a), "--against", str(b)]) == 1
    assert f"autoprof: {b}: " in capsys.readouterr().err


def test_command_compares_two_tables(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(small_table()))
    document = small_table()
    document["kernels"][1]["speedup"]["two"] = 1.5
    b.write_text(json.dumps(document))
    assert main(["outcomes", str(a), "--against", str(b),
                 "--noise", "0.1"]) == 0
    out = capsys.readouterr().out
    assert "8 (kernel, configuration) pairs of 3 kernels" in out
    assert "- p.v1/k2: 1.500 (1.500-1.500) on 1 configuration(s)" in out
    assert "by more than a factor 1.1:" in out
    # Without paths and costs, only the speedups are compared.
    assert "kept variant" not in out and "replay passes" not in out
    with pytest.raises(SystemExit) as exit_:
        main(["outcomes", str(a), "--against", str(b), "--noise", "-1"])
    assert exit_.value.code == 2
    assert "--noise must be a fraction of at least 0, got -1.0" in \
        capsys.readouterr().err
