"""Numbers in the units people read: times in us, bandwidths in GB/s,
fractions in %, counts with k/M/G.

A metric's unit comes from the catalog when there is one, else from the
way Nsight Compute names metrics (`gpu__time_duration` in ns, `.pct` and
`pct_of_peak` in percent, `.per_second` a rate, `bytes` bytes).
"""

from __future__ import annotations

import math
from typing import Optional


def _digits(value: float) -> str:
    """Three significant figures or more, without an exponent; an int as
    it is."""
    size = abs(value)
    if size >= 100 or isinstance(value, int):
        return f"{value:,.0f}"
    if size >= 10:
        return f"{value:.1f}"
    if size >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def microseconds(us: Optional[float]) -> str:
    """A time in us: "1,400 us", "70.8 us", "2.35 us"."""
    if us is None or not math.isfinite(us):
        return "-"
    return f"{_digits(us)} us"


def percent(fraction: Optional[float]) -> str:
    """A fraction as a percentage: 0.245 -> "24.5 %"."""
    if fraction is None or not math.isfinite(fraction):
        return "-"
    return f"{_digits(fraction * 100)} %"


def bandwidth(bytes_per_s: float) -> str:
    """A rate of bytes in GB/s (TB/s from a thousand GB/s)."""
    if bytes_per_s >= 1e12:
        return f"{bytes_per_s / 1e12:.2f} TB/s"
    return f"{_digits(bytes_per_s / 1e9)} GB/s"


def flop_rate(flops_per_s: float) -> str:
    """A rate of operations in TFLOP/s (GFLOP/s below one TFLOP/s)."""
    if flops_per_s >= 1e12:
        return f"{_digits(flops_per_s / 1e12)} TFLOP/s"
    return f"{_digits(flops_per_s / 1e9)} GFLOP/s"


def data_size(count: float) -> str:
    """Bytes with decimal prefixes: "67.2 MB"."""
    for scale, prefix in ((1e12, "TB"), (1e9, "GB"), (1e6, "MB"),
                          (1e3, "kB")):
        if abs(count) >= scale:
            return f"{_digits(count / scale)} {prefix}"
    return f"{_digits(count)} B"


def count(value: float, unit: str = "") -> str:
    """A count with k/M/G and its unit: "33.6 M sectors"."""
    suffix = f" {unit}" if unit else ""
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return f"{_digits(value / scale)} {prefix}{suffix}"
    return f"{_digits(value)}{suffix}"


def metric_unit(name: str, catalog_unit: str = "") -> str:
    """The unit of the metric `name`: the catalog's, else the one its name
    implies ("" for a plain count)."""
    if catalog_unit:
        return catalog_unit
    lowered = name.lower()
    if "pct" in lowered:
        return "%"
    if lowered.startswith("gpu__time_duration"):
        return "ns"
    if "bytes" in lowered and lowered.endswith(".per_second"):
        return "bytes/s"
    if "cycles" in lowered and lowered.endswith(".per_second"):
        return "Hz"
    if "bytes" in lowered:
        return "bytes"
    if "cycles" in lowered:
        return "cycles"
    return ""


def metric_value(name: str, value: float, catalog_unit: str = "") -> str:
    """The metric's value in a unit people read: ns as us, bytes/s as GB/s,
    Hz as GHz, percentages with %, bytes as kB/MB/GB, other counts with
    k/M/G and their unit."""
    if not math.isfinite(value):
        return str(value)
    unit = metric_unit(name, catalog_unit)
    if unit == "%":
        return f"{_digits(value)} %"
    if unit == "ns":
        return microseconds(value / 1e3)
    if unit == "bytes/s":
        return bandwidth(value)
    if unit == "Hz":
        return f"{value / 1e9:.2f} GHz"
    if unit == "bytes":
        return data_size(value)
    return count(value, unit)
