"""Optimization reports as typed objects.

`autoprof-opt --autoprof-optimize="report=FILE"` writes one JSON document per
run (docs/optimizer.md): for every searched kernel its baseline (timing with
spread, the metrics the profiling tree selected, replay passes), every
candidate (verified, rejected with the reason, skipped, error) and the
speedup, and the kernels whose search failed. `load_report` reads it and
says where a document does not have the expected shape.

`KernelResult.outcomes` says of every candidate why it was kept or not,
replaying the search's rule; `KernelResult.roof` is the compute roof of the
GPU the kernel ran on and of its element types (autoprof.peaks).
"""

from __future__ import annotations

import json
import math
import pathlib
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from . import files
from .units import microseconds as _us
from .peaks import Roof, choose_roof, given_roof

# The FP32 (non-tensor) peak of an H200 SXM: 132 SMs x 128 lanes x 2 flops x
# 1.98 GHz. The roof of kernels now comes from autoprof.peaks; this stays for
# callers that name it.
H200_FP32_PEAK_FLOPS = 67e12

# A candidate wins only when faster than the incumbent by more than this
# fraction of the incumbent's time, or twice the two timings' MADs if more
# (the search's rule, docs/optimizer.md).
NOISE_FRACTION = 0.01


class ReportError(files.InputError):
    """A report that cannot be read, with where: "report.json: kernels[2].
    baseline.timing: missing 'median_us'"."""


@dataclass
class Timing:
    median_us: float
    mad_us: float = 0.0
    p10_us: Optional[float] = None
    p90_us: Optional[float] = None
    samples: int = 0


@dataclass
class Metric:
    name: str
    collected: bool
    value: Optional[float] = None
    note: str = ""


@dataclass
class Retiming:
    """A winner timed once more, interleaved with the incumbent in one worker
    run, before it was accepted (docs/optimizer.md)."""
    candidate: Timing
    incumbent: Timing
    confirmed: bool
    runs: int = 1
    clock_dropped: bool = False
    sm_clock_khz_before: int = 0
    sm_clock_khz_min: int = 0


@dataclass
class Candidate:
    """One candidate of a kernel's search: `label` is the rewrite
    ("coalesce=32") or the model's proposal ("llm#2")."""
    label: str
    source: str
    status: str
    reason: str = ""
    accepted: bool = False
    timing: Optional[Timing] = None
    metrics: List[Metric] = field(default_factory=list)
    # Where its evaluation's wall time went, in seconds ("lower", "worker",
    # "setup", "verify", "verify_inputs", ..., "time", "profile"); empty
    # when the report does not say.
    seconds: Dict[str, float] = field(default_factory=dict)
    # Set when its first timing won: the interleaved re-timing that decided.
    retimed: Optional[Retiming] = None
    # What else decided it or went wrong after it was timed: a re-timing
    # that failed (and cost it its win), compute-sanitizer's findings, a
    # re-profile of the winner that failed.
    retime_error: str = ""
    sanitizer: str = ""
    reprofile_error: str = ""

    @property
    def notes(self) -> str:
        """The reason, and whatever else the search said of it."""
        parts = [self.reason] if self.reason else []
        if self.retime_error:
            parts.append(f"re-timing failed: {self.retime_error}")
        if self.sanitizer:
            parts.append(f"compute-sanitizer: {self.sanitizer}")
        if self.reprofile_error:
            parts.append(f"re-profile failed: {self.reprofile_error}")
        return "; ".join(parts)

    @property
    def verified(self) -> bool:
        return self.status == "verified"


@dataclass
class Baseline:
    timing: Timing
    metrics: List[Metric]
    replay_passes: int = 0
    profile_seconds: float = 0.0
    profile_leaf: int = -1
    launches: int = 1
    # The profiling tree that chose the metrics ("" in reports written
    # before it was recorded).
    profile_tree: str = ""
    seconds: Dict[str, float] = field(default_factory=dict)


@dataclass
class CandidateOutcome:
    """What became of a candidate, and why: `kind` is "accepted",
    "rejected", "skipped", "error" (or another status the search gave),
    "slower", "noise" (faster by less than the noise), "unconfirmed" (won,
    then lost the interleaved re-timing), "retime-failed", "untimed" or
    "unexplained" (faster beyond the noise, yet not kept, in a report that
    does not say why). `incumbent_us` and `noise_us` are what a verified
    candidate was held against."""
    candidate: Candidate
    kind: str
    why: str
    incumbent_us: Optional[float] = None
    noise_us: Optional[float] = None


@dataclass
class KernelResult:
    """The search of one kernel ("module::kernel")."""
    kernel: str
    gpu: str
    peak_dram_bytes_per_s: float
    compulsory_bytes: int
    flops_total: float
    baseline: Baseline
    candidates: List[Candidate]
    accepted: List[str]
    best_median_us: float
    speedup: float
    failed: str = ""
    # The kernel's features (flops per element type, tensor_core_ops, ...)
    # and element types, where the report records them; they choose the
    # compute roof.
    features: Dict[str, float] = field(default_factory=dict)
    element_types: List[str] = field(default_factory=list)
    # The report's file name, whose words may name the element type
    # (matmul_f16.tile16x16.json).
    source_name: str = ""

    @property
    def name(self) -> str:
        """The kernel's own name, without its gpu.module."""
        return self.kernel.split("::")[-1]

    @property
    def best_timing(self) -> Timing:
        """The timing of the last accepted candidate, or the baseline's."""
        for candidate in reversed(self.candidates):
            if candidate.accepted and candidate.timing:
                return candidate.timing
        return self.baseline.timing

    def roof(self, peak_flops: Optional[float] = None) -> Roof:
        """The compute roof: `peak_flops` when given, else the peak of the
        GPU the report records for the kernel's element types
        (autoprof.peaks.choose_roof)."""
        if peak_flops is not None:
            return given_roof(peak_flops)
        return choose_roof(self.gpu, self.features, self.element_types,
                           (self.kernel, self.source_name))

    def floor_us(self, peak_flops: Optional[float] = None) -> float:
        """The roofline floor: the compulsory bytes at the measured DRAM
        bandwidth or the flops at the compute roof (`peak_flops`, else the
        kernel's `roof()`), whichever takes longer."""
        peak = self.roof(peak_flops).flops_per_s
        memory = (self.compulsory_bytes / self.peak_dram_bytes_per_s
                  if self.peak_dram_bytes_per_s > 0 else 0.0)
        compute = self.flops_total / peak if peak > 0 else 0.0
        return max(memory, compute) * 1e6

    def roofline_fraction(self, peak_flops: Optional[float] = None) -> float:
        """Floor over best time: 1.0 runs at the roofline."""
        if self.best_median_us <= 0:
            return 0.0
        return self.floor_us(peak_flops) / self.best_median_us

    def outcomes(self) -> List[CandidateOutcome]:
        """Every candidate with what became of it and why, in the order
        they were tried. A verified candidate is held against the incumbent
        of its time (the baseline, then each accepted one) as the search
        held it: it wins when faster by more than the noise, the larger of
        NOISE_FRACTION of the incumbent's time and twice the two MADs."""
        incumbent = self.baseline.timing
        result = []
        for candidate in self.candidates:
            outcome = _outcome(candidate, incumbent)
            if candidate.accepted and candidate.timing:
                incumbent = candidate.timing
            result.append(outcome)
        return result

    def count(self, status: str) -> int:
        return sum(c.status == status for c in self.candidates)

    def evaluation_seconds(self) -> Dict[str, float]:
        """The seconds of every part of the baseline's and the candidates'
        evaluations, summed; "total" is lowering plus the worker's wall time.
        Empty when the report does not record them."""
        records = [self.baseline.seconds] + [c.seconds
                                             for c in self.candidates]
        totals: Dict[str, float] = {}
        for record in records:
            for key, value in record.items():
                totals[key] = totals.get(key, 0.0) + value
        if totals:
            totals["total"] = totals.get("lower", 0.0) + totals.get(
                "worker", 0.0)
        return totals


@dataclass
class FailedKernel:
    kernel: str
    reason: str


@dataclass
class OptimizeReport:
    kernels: List[KernelResult]
    failed_kernels: List[FailedKernel] = field(default_factory=list)
    path: Optional[pathlib.Path] = None

    def geometric_mean_speedup(self) -> float:
        speedups = [k.speedup for k in self.kernels if k.speedup > 0]
        if not speedups:
            return 0.0
        return math.exp(sum(math.log(s) for s in speedups) / len(speedups))

    def kernel(self, name: str) -> KernelResult:
        """The kernel called `name` ("k" or "module::k")."""
        for result in self.kernels:
            if name in (result.kernel, result.name):
                return result
        raise KeyError(name)


class _Reader:
    """Reads fields of a JSON object, naming the path of what is wrong."""

    def __init__(self, source: str, value: Any, where: str):
        self.source, self.value, self.where = source, value, where
        if not isinstance(value, dict):
            self.fail("expected an object")

    def fail(self, message: str) -> None:
        raise ReportError(f"{self.source}: {self.where or 'the document'}: "
                          f"{message}")

    def child(self, key: str, value: Any) -> "_Reader":
        return _Reader(self.source, value, f"{self.where}.{key}"
                       if self.where else key)

    def get(self, key: str, kind, default=None, required=True):
        if key not in self.value:
            if required:
                self.fail(f"missing '{key}'")
            return default
        value = self.value[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if float in kinds:
            kinds = kinds + (int,)
        if not isinstance(value, kinds) or isinstance(value, bool) and \
                bool not in kinds:
            names = "/".join(k.__name__ for k in kinds)
            self.fail(f"'{key}' should be {names}, got {type(value).__name__}")
        if isinstance(value, int) and not isinstance(value, bool):
            try:
                float(value)
            except OverflowError:
                self.fail(f"'{key}' is too large a number")
        if isinstance(value, float) and not math.isfinite(value):
            self.fail(f"'{key}' is {value}, not a finite number")
        return value

    def positive(self, key: str) -> float:
        """The required number `key`, which must be above zero."""
        value = float(self.get(key, float))
        if not value > 0:
            self.fail(f"'{key}' must be positive, got {value:g}")
        return value

    def items(self, key: str, required=True) -> List["_Reader"]:
        values = self.get(key, list, [], required)
        return [_Reader(self.source, v, f"{self.where}.{key}[{i}]"
                        if self.where else f"{key}[{i}]")
                for i, v in enumerate(values)]


def _outcome(candidate: Candidate, incumbent: Timing) -> CandidateOutcome:
    """What became of `candidate`, tried against `incumbent`."""
    notes = candidate.notes
    if candidate.status != "verified":
        return CandidateOutcome(candidate, candidate.status,
                                f"{candidate.status}: "
                                f"{notes or 'the report gives no reason'}")
    timing = candidate.timing
    if timing is None:
        return CandidateOutcome(candidate, "untimed",
                                "verified, but no timing came back"
                                + (f"; {notes}" if notes else ""))
    noise = max(2 * (incumbent.mad_us + timing.mad_us),
                NOISE_FRACTION * incumbent.median_us)
    held = dict(incumbent_us=incumbent.median_us, noise_us=noise)
    us, against = timing.median_us, incumbent.median_us
    if candidate.accepted:
        return CandidateOutcome(candidate, "accepted",
                                f"faster: {_us(us)} against "
                                f"{_us(against)}", **held)
    retimed = candidate.retimed
    if candidate.retime_error:
        why, kind = (f"won its first timing ({_us(us)} against "
                     f"{_us(against)}), then its re-timing failed: "
                     f"{candidate.retime_error}", "retime-failed")
    elif retimed is not None and not retimed.confirmed:
        why, kind = (f"won its first timing ({_us(us)} against "
                     f"{_us(against)}), not confirmed when re-timed "
                     f"alongside the incumbent: "
                     f"{_us(retimed.candidate.median_us)} against "
                     f"{_us(retimed.incumbent.median_us)}"
                     + (", the SM clock dropped" if retimed.clock_dropped
                        else ""), "unconfirmed")
    elif us >= against:
        why, kind = (f"slower: {_us(us)} against the incumbent's "
                     f"{_us(against)} (+{(us / against - 1) * 100:.1f} %)",
                     "slower")
    elif us >= against - noise:
        why, kind = (f"within the noise: {_us(us)} against the "
                     f"incumbent's {_us(against)}; a win needs more than "
                     f"{_us(noise)}", "noise")
    else:
        why, kind = (f"faster beyond the noise ({_us(us)} against "
                     f"{_us(against)}), yet not kept; the report does not "
                     f"say why", "unexplained")
    others = [n for n in (candidate.reason, candidate.sanitizer and
                          f"compute-sanitizer: {candidate.sanitizer}",
                          candidate.reprofile_error and
                          f"re-profile failed: {candidate.reprofile_error}")
              if n]
    if others:
        why += "; " + "; ".join(others)
    return CandidateOutcome(candidate, kind, why, **held)


def _timing(reader: _Reader) -> Timing:
    median = float(reader.get("median_us", float))
    if not median > 0 or math.isinf(median):
        reader.fail(f"median_us must be a positive time, got {median}")
    return Timing(median_us=median,
                  mad_us=float(reader.get("mad_us", float, 0.0, False)),
                  p10_us=reader.get("p10_us", float, None, False),
                  p90_us=reader.get("p90_us", float, None, False),
                  samples=int(reader.get("samples", int, 0, False)))


def _metrics(readers: List[_Reader]) -> List[Metric]:
    return [Metric(name=r.get("name", str),
                   collected=r.get("collected", bool),
                   value=r.get("value", float, None, False),
                   note=r.get("note", str, "", False)) for r in readers]


def _seconds(reader: _Reader) -> Dict[str, float]:
    seconds = reader.get("seconds", dict, None, False)
    if seconds is None:
        return {}
    child = reader.child("seconds", seconds)
    return {key: float(child.get(key, float)) for key in seconds}


def _retiming(reader: _Reader) -> Retiming:
    return Retiming(
        candidate=_timing(reader.child("candidate",
                                       reader.get("candidate", dict))),
        incumbent=_timing(reader.child("incumbent",
                                       reader.get("incumbent", dict))),
        confirmed=reader.get("confirmed", bool),
        runs=int(reader.get("runs", int, 1, False)),
        clock_dropped=reader.get("clock_dropped", bool, False, False),
        sm_clock_khz_before=int(reader.get("sm_clock_khz_before", int, 0,
                                           False)),
        sm_clock_khz_min=int(reader.get("sm_clock_khz_min", int, 0, False)))


def _candidate(reader: _Reader) -> Candidate:
    timing = reader.get("timing", dict, None, False)
    retimed = reader.get("retimed", dict, None, False)
    return Candidate(
        label=reader.get("rewrite", str),
        source=reader.get("source", str, "", False),
        status=reader.get("status", str),
        reason=reader.get("reason", str, "", False),
        accepted=reader.get("accepted", bool, False, False),
        timing=_timing(reader.child("timing", timing)) if timing else None,
        metrics=_metrics(reader.items("metrics", False)),
        seconds=_seconds(reader),
        retimed=(_retiming(reader.child("retimed", retimed))
                 if retimed else None),
        retime_error=reader.get("retime_error", str, "", False),
        sanitizer=_text(reader.get("sanitizer", (str, dict, list), "",
                                   False)),
        reprofile_error=reader.get("reprofile_error", str, "", False))


def _labels(reader: _Reader) -> List[str]:
    """The kernel's accepted rewrites: a list of labels."""
    labels = reader.get("accepted", list, [], False)
    if not all(isinstance(label, str) for label in labels):
        reader.fail("'accepted' should list the accepted rewrites' labels")
    return list(labels)


def _text(value) -> str:
    """A report field that is a string or a JSON document, as text."""
    return value if isinstance(value, str) else json.dumps(value)


def _features(reader: _Reader) -> Dict[str, float]:
    features = reader.get("features", dict, None, False)
    if features is None:
        return {}
    child = reader.child("features", features)
    return {key: float(child.get(key, float)) for key in features}


def _kernel(reader: _Reader, source_name: str) -> KernelResult:
    baseline = reader.child("baseline", reader.get("baseline", dict))
    types = reader.get("element_types", list, [], False)
    if not all(isinstance(t, str) for t in types):
        reader.fail("'element_types' should list type names")
    return KernelResult(
        kernel=reader.get("kernel", str),
        gpu=reader.get("gpu", str, "", False),
        peak_dram_bytes_per_s=float(
            reader.get("peak_dram_bytes_per_s", float, 0.0, False)),
        compulsory_bytes=int(reader.get("compulsory_bytes", int, 0, False)),
        flops_total=float(reader.get("flops_total", float, 0.0, False)),
        baseline=Baseline(
            timing=_timing(baseline.child("timing",
                                          baseline.get("timing", dict))),
            metrics=_metrics(baseline.items("metrics", False)),
            replay_passes=int(baseline.get("replay_passes", int, 0, False)),
            profile_seconds=float(
                baseline.get("profile_seconds", float, 0.0, False)),
            profile_leaf=int(baseline.get("profile_leaf", int, -1, False)),
            profile_tree=str(baseline.get("profile_tree", str, "", False)),
            launches=int(baseline.get("launches", int, 1, False)),
            seconds=_seconds(baseline)),
        candidates=[_candidate(c) for c in reader.items("candidates")],
        accepted=_labels(reader),
        best_median_us=reader.positive("best_median_us"),
        speedup=reader.positive("speedup"),
        failed=reader.get("failed", str, "", False),
        features=_features(reader), element_types=list(types),
        source_name=source_name)


def parse_report(document: Dict[str, Any],
                 source: str = "report") -> OptimizeReport:
    """The report in `document` (parsed JSON); `source` names it in
    errors."""
    reader = _Reader(source, document, "")
    name = pathlib.Path(source).name
    return OptimizeReport(
        kernels=[_kernel(k, name) for k in reader.items("kernels")],
        failed_kernels=[
            FailedKernel(f.get("kernel", str), f.get("reason", str))
            for f in reader.items("failed_kernels", False)])


def read_json(path):
    """The JSON document in `path`; raises ReportError naming the file when
    it is not a regular file of at most files.MAX_BYTES, or not JSON of
    finite numbers and reasonable nesting (autoprof.files)."""
    try:
        return files.read_json(path)
    except files.InputError as error:
        raise ReportError(str(error)) from None


def load_report(path) -> OptimizeReport:
    """Reads the report at `path`; raises ReportError naming the file and
    the field when it is not a report."""
    path = pathlib.Path(path)
    document = read_json(path)
    report = parse_report(document, str(path))
    report.path = path
    return report
