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
