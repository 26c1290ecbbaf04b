"""Numbers in the units people read."""

import pytest

from autoprof import units


@pytest.mark.parametrize("name, value, catalog_unit, shown", [
    ("gpu__time_duration.sum", 1400896, "", "1,401 us"),
    ("gpu__time_duration.sum", 2345, "ns", "2.35 us"),
    ("dram__throughput.avg.pct_of_peak_sustained_elapsed", 1.3557, "",
     "1.36 %"),
    ("lts__t_sector_hit_rate.pct", 94.028, "%", "94.0 %"),
    ("dram__bytes.sum.per_second", 65234044497.2, "bytes/s", "65.2 GB/s"),
    ("dram__bytes.sum.per_second", 3.007e12, "", "3.01 TB/s"),
    ("sm__cycles_elapsed.avg.per_second", 1973531236.5, "Hz", "1.97 GHz"),
    ("dram__bytes_read.sum", 67170560, "bytes", "67.2 MB"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 33558528, "sectors",
     "33.6 M sectors"),
    ("launch__registers_per_thread", 40, "registers", "40 registers"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 0,
     "conflicts", "0 conflicts"),
    ("sm__cycles_active.avg", 2746212.95, "", "2.75 M cycles"),
    ("smsp__average_warp_latency_per_inst_issued.ratio", 7.25,
     "cycles/inst", "7.25 cycles/inst"),
])
def test_metric_values(name, value, catalog_unit, shown):
    assert units.metric_value(name, value, catalog_unit) == shown


def test_times_rates_and_fractions():
    assert units.microseconds(70.752) == "70.8 us"
    assert units.microseconds(38312.48) == "38,312 us"
    assert units.microseconds(0.512) == "0.512 us"
    assert units.microseconds(None) == "-"
    assert units.percent(0.2453) == "24.5 %"
    assert units.percent(3.62) == "362 %"
    assert units.percent(float("nan")) == "-"
    assert units.flop_rate(989.4e12) == "989 TFLOP/s"
    assert units.flop_rate(5e11) == "500 GFLOP/s"
    assert units.bandwidth(4.8e12) == "4.80 TB/s"
    assert units.data_size(512) == "512 B"
