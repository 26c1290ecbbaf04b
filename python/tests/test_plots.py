"""The chart of the configurations autoprof.triton.optimize tried."""

from autoprof import plots

LOG = [
    {"configuration": "BK=32, BM=64, BN=64, num_warps=4, num_stages=3",
     "us": 51.2, "status": "baseline", "facts": {}},
    {"configuration": "BK=32, BM=64, BN=128, num_warps=4, num_stages=4",
     "us": 37.6, "status": "verified", "why": "l2-bound"},
    {"configuration": "BK=64, BM=128, BN=128, num_warps=4, num_stages=4",
     "status": "failed", "reason": "out of resource: shared memory"},
    {"configuration": "BK=32, BM=64, BN=64, num_warps=8, num_stages=4",
     "status": "rejected",
     "reason": "outputs differ from the original call's"},
]


def test_one_bar_per_configuration_the_fastest_marked():
    figure = plots.configurations(LOG)
    ax = figure.axes[0]
    bars = ax.patches
    assert len(bars) == 4
    # Bars run top to bottom in the log's order.
    widths = [b.get_width() for b in sorted(bars, key=lambda b: -b.get_y())]
    assert widths == [51.2, 37.6, 0.0, 0.0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[0].endswith("(baseline)")
    assert labels[2].endswith("(failed)") and labels[3].endswith("(rejected)")
    color = {b.get_width(): b.get_facecolor()[:3] for b in bars}
    assert color[37.6] != color[51.2]  # the fastest stands out
    assert color[0.0] == (1.0, 1.0, 1.0)  # not timed: empty
    assert plots.to_png(figure).startswith(b"\x89PNG")


def test_speedup_chart_shows_fractions_above_one_unclipped(report_path):
    from autoprof import load_report
    report = load_report(report_path)
    # A peak far below the kernels' flop rate puts their fraction above 1:
    # the bar and the axis show it as it is, with a line at 1.
    peak = 1e6
    fractions = [k.roofline_fraction(peak) for k in report.kernels]
    assert max(fractions) > 1.5
    figure = plots.speedups(report, peak_flops=peak)
    right = figure.axes[1]
    widths = sorted(b.get_width() for b in right.patches)
    assert widths == sorted(fractions)
    assert right.get_xlim()[1] >= max(fractions)
    assert any(list(line.get_xdata()) == [1.0, 1.0]
               for line in right.get_lines())


def texts_of(figure):
    """Every text drawn in `figure` with its box, after a draw."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    from matplotlib.text import Text
    found = []
    for text in figure.findobj(Text):
        if text.get_visible() and text.get_text().strip():
            if hasattr(text, "update_positions"):
                text.update_positions(renderer)
            found.append((text, Text.get_window_extent(text, renderer)))
    return found


def assert_inside(figure):
    """Nothing drawn, axis labels and titles included, lies outside the
    figure."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    box = figure.bbox

    def within(extent, what):
        assert (extent.x0 >= box.x0 - 0.5 and extent.x1 <= box.x1 + 0.5 and
                extent.y0 >= box.y0 - 0.5 and extent.y1 <= box.y1 + 0.5), \
            what

    for ax in figure.axes:
        for text in (ax.xaxis.label, ax.yaxis.label, ax.title):
            if text.get_text():
                within(text.get_window_extent(renderer), text.get_text())
    tight = figure.get_tightbbox(renderer)
    within(tight.transformed(figure.dpi_scale_trans), "the drawing")


def crowded_table(spread):
    """An outcome table of twelve configurations, many at one cost, whose
    means differ by about `spread`."""
    from autoprof.outcomes import parse_outcomes
    names = [f"configuration-{i}" for i in range(12)]
    return parse_outcomes({
        "configurations": [{"name": n, "groups": [], "metrics": [],
                            "cost_passes": float(i % 3),
                            "cost_seconds": 0.1 * (i % 3)}
                           for i, n in enumerate(names)],
        "kernels": [{"name": "k", "program": "p",
                     "speedup": {n: 2.0 * (1 + spread * i / 12)
                                 for i, n in enumerate(names)}}]})


def test_outcome_labels_do_not_overlap_and_stay_inside():
    table = crowded_table(0.002)
    figure = plots.outcome_vs_cost(table)
    ax = figure.axes[0]
    labels = [(t, e) for t, e in texts_of(figure)
              if t.get_text().startswith("configuration-")]
    assert len(labels) == 12
    for i, (_, a) in enumerate(labels):
        for _, b in labels[i + 1:]:
            assert not a.overlaps(b)
    inside = ax.get_window_extent()
    for text, extent in labels:
        assert inside.contains(extent.x0, extent.y0) and \
            inside.contains(extent.x1, extent.y1), text.get_text()
    assert_inside(figure)


def test_a_spread_within_the_noise_is_noted():
    quiet = plots.outcome_vs_cost(crowded_table(0.002))
    assert any("within 1% of each other" in t.get_text()
               for t in quiet.axes[0].texts)
    loud = plots.outcome_vs_cost(crowded_table(0.5))
    assert not any("within" in t.get_text() for t in loud.axes[0].texts)
    # The band is the caller's.
    wide = plots.outcome_vs_cost(crowded_table(0.02), noise=0.05)
    assert any("within 5% of each other" in t.get_text()
               for t in wide.axes[0].texts)


def test_axis_labels_stay_inside_every_chart(report_path,
                                             mixed_outcomes_path):
    from autoprof import load_report
    report = load_report(report_path)
    for figure in (plots.speedups(report),
                   plots.roofline(report.kernels[0]),
                   plots.roofline(report.kernels[1]),
                   plots.roofline(load_report(mixed_outcomes_path)
                                  .kernels[0]),
                   plots.configurations(LOG),
                   plots.outcome_vs_cost(crowded_table(0.5))):
        assert_inside(figure)
        assert plots.to_png(figure).startswith(b"\x89PNG")


def test_the_roofline_names_its_roof(mixed_outcomes_path):
    from autoprof import load_report
    kernel = load_report(mixed_outcomes_path).kernels[0]
    figure = plots.roofline(kernel)
    legend = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert legend[0] == ("roof: 3.00 TB/s, H100 SXM BF16 tensor-core "
                         "989 TFLOP/s")
    assert figure.axes[0].get_ylabel() == "TFLOP/s"


def test_evaluation_charts_keep_their_labels_apart(tmp_path, learn_tool):
    from autoprof import load_catalog, load_outcomes
    from autoprof.evaluation import evaluate, load_evaluation, outcome_chart
    import pathlib
    table_path = (pathlib.Path(__file__).resolve().parents[2] /
                  "test/Learn/Inputs/synthetic-outcomes.json")
    evaluate(table_path, tmp_path, learn_tool=learn_tool, seed=2)
    evaluation = load_evaluation(tmp_path / "evaluation.json")
    table = load_outcomes(table_path)
    catalog = load_catalog("sm_90", tool=learn_tool)
    for x in ("cost", "metrics"):
        figure = outcome_chart(evaluation, table, catalog, x=x)
        ax = figure.axes[0]
        labels = [t.get_window_extent() for t in ax.texts
                  if t.get_text() and "within" not in t.get_text()]
        assert labels
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                assert not a.overlaps(b)
        assert_inside(figure)
