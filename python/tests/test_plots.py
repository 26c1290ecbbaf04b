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
     "status": "rejected", "reason": "outputs differ from the original call's"},
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
