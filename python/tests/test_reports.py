import json

import pytest

from autoprof import ReportError, load_report, parse_report


def test_loads_kernels_candidates_and_failures(report_path):
    report = load_report(report_path)
    assert [k.name for k in report.kernels] == ["vecmat_kernel", "copy_kernel"]
    vecmat = report.kernel("vecmat_kernel")
    assert vecmat.accepted == ["register-accumulate=1"]
    assert [c.label for c in vecmat.candidates] == [
        "form-blocks=256", "register-accumulate=1", "form-blocks=128"]
    assert [c.accepted for c in vecmat.candidates] == [False, True, False]
    assert all(c.verified for c in vecmat.candidates)
    assert vecmat.best_timing.median_us == pytest.approx(221.696, rel=1e-4)
    assert vecmat.speedup == pytest.approx(6.317, rel=1e-3)
    assert vecmat.baseline.launches == 1
    assert vecmat.baseline.replay_passes == 11
    # A report written before reports named the profiling tree reads as
    # naming none.
    assert vecmat.baseline.profile_tree == ""
    assert any(m.name == "dram__bytes_read.sum" and m.collected
               for m in vecmat.baseline.metrics)
    assert report.failed_kernels[0].kernel == "kernels::broken"
    assert "device is lost" in report.failed_kernels[0].reason


def test_floor_and_roofline_fraction(report_path):
    copy = load_report(report_path).kernel("copy_kernel")
    # A copy has no flops: its floor moves the compulsory bytes at the
    # measured bandwidth.
    assert copy.flops_total == 0
    floor = copy.compulsory_bytes / copy.peak_dram_bytes_per_s * 1e6
    assert copy.floor_us() == pytest.approx(floor)
    assert copy.roofline_fraction() == pytest.approx(floor /
                                                     copy.best_median_us)
    assert 0.9 < copy.roofline_fraction() <= 1.0


def test_geometric_mean(report_path):
    report = load_report(report_path)
    a, b = (k.speedup for k in report.kernels)
    assert report.geometric_mean_speedup() == pytest.approx((a * b) ** 0.5)


def test_errors_name_the_file_and_the_field(tmp_path, report_path):
    missing = tmp_path / "none.json"
    with pytest.raises(ReportError, match="none.json: cannot read"):
        load_report(missing)
    broken = tmp_path / "broken.json"
    broken.write_text("{\"kernels\": [")
    with pytest.raises(ReportError, match=r"broken.json: not JSON: .* line 1"):
        load_report(broken)
    document = json.loads(report_path.read_text())
    del document["kernels"][1]["baseline"]["timing"]["median_us"]
    with pytest.raises(ReportError,
                       match=r"r: kernels\[1\]\.baseline\.timing: missing "
                             r"'median_us'"):
        parse_report(document, "r")
    document = json.loads(report_path.read_text())
    document["kernels"][0]["speedup"] = "fast"
    with pytest.raises(ReportError,
                       match=r"kernels\[0\]: 'speedup' should be float"):
        parse_report(document, "r")
    with pytest.raises(ReportError, match="the document: expected an object"):
        parse_report([], "r")


def test_where_the_evaluation_time_went(seconds_report_path, report_path):
    conv = load_report(seconds_report_path).kernel("conv2d_kernel")
    first = conv.candidates[0]
    assert first.label == "coalesce=32"
    assert set(first.seconds) >= {"lower", "worker", "setup", "verify",
                                  "verify_inputs", "verify_transfers",
                                  "verify_kernels", "verify_other", "time",
                                  "profile"}
    # The verification's parts add up to the verification.
    parts = sum(first.seconds[k] for k in ("verify_inputs", "verify_transfers",
                                           "verify_kernels", "verify_other"))
    assert parts == pytest.approx(first.seconds["verify"], rel=0.05)
    # The baseline is not verified, only timed and profiled.
    assert conv.baseline.seconds["verify"] == 0
    assert conv.baseline.seconds["profile"] > 0
    totals = conv.evaluation_seconds()
    expected = sum(r["lower"] + r["worker"] for r in
                   [conv.baseline.seconds] + [c.seconds
                                              for c in conv.candidates])
    assert totals["total"] == pytest.approx(expected)
    # A report that does not record them has none.
    assert load_report(report_path).kernels[0].evaluation_seconds() == {}


def test_malformed_seconds_name_the_field(seconds_report_path):
    document = json.loads(seconds_report_path.read_text())
    document["kernels"][0]["candidates"][1]["seconds"]["verify"] = "slow"
    with pytest.raises(ReportError,
                       match=r"kernels\[0\]\.candidates\[1\]\.seconds: "
                             r"'verify' should be float"):
        parse_report(document, "r")


def test_a_winner_carries_its_interleaved_retiming(report_path):
    document = json.loads(open(report_path).read())
    vecmat = next(k for k in document["kernels"]
                  if k["kernel"].endswith("vecmat_kernel"))
    winner = next(c for c in vecmat["candidates"] if c["accepted"])
    winner["retimed"] = {
        "candidate": {"median_us": 221.0, "mad_us": 0.4, "samples": 20},
        "incumbent": {"median_us": 1400.0, "mad_us": 1.1, "samples": 20},
        "confirmed": True, "runs": 2, "clock_dropped": True,
        "sm_clock_khz_before": 1980000, "sm_clock_khz_min": 1500000}
    report = parse_report(document, "r")
    candidates = report.kernel("vecmat_kernel").candidates
    retimed = next(c for c in candidates if c.accepted).retimed
    assert retimed.confirmed and retimed.clock_dropped and retimed.runs == 2
    assert retimed.incumbent.median_us == 1400.0
    assert retimed.candidate.samples == 20
    assert retimed.sm_clock_khz_min == 1500000
    # Losers were never re-timed.
    assert all(c.retimed is None for c in candidates if not c.accepted)
    # A re-timing without its verdict names the field.
    del winner["retimed"]["confirmed"]
    with pytest.raises(ReportError, match="retimed: missing 'confirmed'"):
        parse_report(document, "r")


def test_the_profiling_tree_is_read(tmp_path, report_path):
    document = json.loads(report_path.read_text())
    document["kernels"][0]["baseline"]["profile_tree"] = "sm90_learned"
    path = tmp_path / "named.json"
    path.write_text(json.dumps(document))
    assert load_report(path).kernels[0].baseline.profile_tree == \
        "sm90_learned"


def test_every_candidate_not_kept_says_why(mixed_outcomes_path):
    kernel = load_report(mixed_outcomes_path).kernels[0]
    outcomes = kernel.outcomes()
    assert [(o.candidate.label, o.kind) for o in outcomes] == [
        ("coalesce=32", "rejected"), ("vectorize=4", "skipped"),
        ("llm#1", "error"), ("unroll=4", "slower"),
        ("form-blocks=128", "noise"), ("block-size=128", "unconfirmed"),
        ("register-accumulate=1", "retime-failed"),
        ("mma-tile=128", "accepted"), ("mma-pipeline=128", "noise")]
    why = {o.candidate.label: o.why for o in outcomes}
    assert why["coalesce=32"].startswith("rejected: outputs differ")
    assert why["vectorize=4"] == ("skipped: the innermost access is not "
                                  "contiguous")
    assert why["unroll=4"] == ("slower: 120 us against the incumbent's "
                               "100 us (+20.0 %)")
    # 99.5 us against 100 us: the noise is twice the two MADs (1 + 0.5).
    assert why["form-blocks=128"] == (
        "within the noise: 99.5 us against the incumbent's 100 us; a win "
        "needs more than 3.00 us")
    assert "not confirmed when re-timed alongside the incumbent: 99.0 us " \
           "against 98.5 us" in why["block-size=128"]
    assert why["register-accumulate=1"].endswith(
        "then its re-timing failed: the worker exited with status 134")
    # After a win, the next candidate is held against the new incumbent.
    last = outcomes[-1]
    assert last.incumbent_us == 50.0
    assert last.noise_us == pytest.approx(2 * (0.3 + 0.3))
    assert all(o.why for o in outcomes)


def test_a_win_the_report_does_not_explain_says_so(mixed_outcomes_path,
                                                   tmp_path):
    document = json.loads(mixed_outcomes_path.read_text())
    candidate = document["kernels"][0]["candidates"][3]
    candidate["timing"]["median_us"] = 60.0
    path = tmp_path / "report.json"
    path.write_text(json.dumps(document))
    outcome = load_report(path).kernels[0].outcomes()[3]
    assert outcome.kind == "unexplained"
    assert "faster beyond the noise (60.0 us against 100 us), yet not kept" \
        in outcome.why


def test_the_search_rule_matches_a_measured_run(h100_f16_path):
    # The last candidate of this H100 run was 1.76 us faster than the
    # incumbent, within its noise of 2.37 us: the search did not keep it.
    outcome = load_report(h100_f16_path).kernels[0].outcomes()[-1]
    assert outcome.candidate.label == "unroll=4"
    assert outcome.kind == "noise"
    assert outcome.noise_us == pytest.approx(2 * (0.544 + 0.640), abs=0.01)
