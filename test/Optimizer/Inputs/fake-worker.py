#!/usr/bin/env python3
# A stand-in for autoprof-worker in tests of the optimizer's control flow on
# machines without a GPU: the baseline takes 100 us, every candidate is
# verified and takes 50 us; CUDA C++ compiles unless it holds an #error or does
# not name the entry. Every
# metric reads 1.0 unless the JSON object in
# AUTOPROF_FAKE_METRICS gives its value (the bytes that global loads or stores
# request read 32 per sector they fetch: every byte used). With
# AUTOPROF_FAKE_JOBS set, each job
# is appended to that file as one line of JSON. A job for the kernel entry
# named by AUTOPROF_FAKE_FAIL_ENTRY is an error (the device is lost). The
# stand-in device moves 400 TB/s, so that its fixed times are physically
# possible for every test module, unless AUTOPROF_FAKE_BANDWIDTH (bytes/s)
# says otherwise; AUTOPROF_FAKE_SM_CLOCK_KHZ sets the SM clock it reports.
# AUTOPROF_FAKE_CANDIDATE_US ("t1,t2,...") gives the candidates' times in
# the order their jobs come (the last one for every later candidate),
# counted in the file AUTOPROF_FAKE_COUNTER. A job that times its kernel
# interleaved with another (the re-timing of a winner) gives each kernel the
# time it was given before (remembered by code, in AUTOPROF_FAKE_COUNTER
# .times), else 50 us for the kernel and 100 us for the other, unless
# AUTOPROF_FAKE_RETIME_US ("kernel,other") says; AUTOPROF_FAKE_CLOCK_DROP
# makes the SM clock drop during it. With AUTOPROF_FAKE_REJECT_UNTIMED set, a
# job that verifies a candidate without timing it rejects it. A job that
# does not time its kernel gets no timing and no peak bandwidth back, as
# from the worker. Usage:
# fake-worker.py --job J --result R [...]
import hashlib
import json
import os
import sys

args = sys.argv[1:]
job = json.load(open(args[args.index("--job") + 1]))
if "AUTOPROF_FAKE_JOBS" in os.environ:
    with open(os.environ["AUTOPROF_FAKE_JOBS"], "a") as log:
        log.write(json.dumps(job, sort_keys=True) + "\n")
result = {
    "status": "ok",
    "device": {"name": "Stand-in GPU", "sm_count": 132, "l2_bytes": 1,
               "driver_version": 13000,
               "peak_bandwidth": float(os.environ.get(
                   "AUTOPROF_FAKE_BANDWIDTH", "4.0e14"))},
    "timing": {"median_us": 100.0, "mad_us": 0.1, "samples": 10},
}
if "AUTOPROF_FAKE_SM_CLOCK_KHZ" in os.environ:
    clock = int(os.environ["AUTOPROF_FAKE_SM_CLOCK_KHZ"])
    result["timing"]["sm_clock_khz_before"] = clock
    result["timing"]["sm_clock_khz_after"] = clock
if job["kernel"]["entry"] == os.environ.get("AUTOPROF_FAKE_FAIL_ENTRY"):
    json.dump({"status": "error",
               "reason": "the stand-in device is lost"},
              open(args[args.index("--result") + 1], "w"))
    sys.exit(0)
if "compile" in job:
    # CUDA C++ with an #error does not compile, nor does code that does not
    # define the entry; anything else gives PTX.
    code = job["kernel"]["code"]
    if "#error" in code:
        result = {"status": "rejected",
                  "reason": "the candidate does not compile: #error in "
                            + job["kernel"]["entry"] + ".cu"}
    elif job["kernel"]["entry"] not in code:
        result = {"status": "rejected",
                  "reason": "the candidate does not compile: no "
                            + job["kernel"]["entry"] + " in the source"}
    else:
        result = {"status": "ok",
                  "ptx": "// compiled by the stand-in worker for "
                         + job["compile"]["arch"] + "\n.visible .entry "
                         + job["kernel"]["entry"] + "()\n{\n\tret;\n}\n"}
    json.dump(result, open(args[args.index("--result") + 1], "w"))
    sys.exit(0)
# Times given so far, by code, for the interleaved re-timings.
memo_path = (os.environ["AUTOPROF_FAKE_COUNTER"] + ".times"
             if "AUTOPROF_FAKE_COUNTER" in os.environ else None)
memo = (json.load(open(memo_path))
        if memo_path and os.path.exists(memo_path) else {})


def digest(kernel):
    return hashlib.sha1(kernel["code"].encode()).hexdigest()


def remember(kernel, us):
    if memo_path:
        memo[digest(kernel)] = us
        json.dump(memo, open(memo_path, "w"))


interleaved = job.get("time", {}).get("interleaved_with")
if interleaved:
    mine = memo.get(digest(job["kernel"]), 50.0)
    theirs = memo.get(digest(interleaved), 100.0)
    if "AUTOPROF_FAKE_RETIME_US" in os.environ:
        mine, theirs = [float(t) for t in
                        os.environ["AUTOPROF_FAKE_RETIME_US"].split(",")]
    result["timing"]["median_us"] = mine
    result["interleaved_timing"] = {"median_us": theirs, "mad_us": 0.1,
                                    "samples": 10}
    if "AUTOPROF_FAKE_CLOCK_DROP" in os.environ:
        result["timing"]["sm_clock_khz_before"] = 1980000
        result["timing"]["sm_clock_khz_min"] = 1500000
    json.dump(result, open(args[args.index("--result") + 1], "w"))
    sys.exit(0)
if ("candidate" in job and "time" not in job
        and "AUTOPROF_FAKE_REJECT_UNTIMED" in os.environ):
    json.dump({"status": "rejected", "verified": False,
               "reason": "wrong result on the stand-in device"},
              open(args[args.index("--result") + 1], "w"))
    sys.exit(0)
# A job that launches its kernel once (a run under compute-sanitizer) gives
# no timing worth remembering.
if ("candidate" not in job and "time" in job
        and job["time"].get("max_repetitions") != 1):
    remember(job["kernel"], result["timing"]["median_us"])
if "candidate" in job:
    result["verified"] = True
    result["timing"]["median_us"] = 50.0
    if "AUTOPROF_FAKE_CANDIDATE_US" in os.environ:
        times = [float(t) for t in
                 os.environ["AUTOPROF_FAKE_CANDIDATE_US"].split(",")]
        counter = os.environ["AUTOPROF_FAKE_COUNTER"]
        seen = int(open(counter).read()) if os.path.exists(counter) else 0
        open(counter, "w").write(str(seen + 1))
        result["timing"]["median_us"] = times[min(seen, len(times) - 1)]
    remember(job["candidate"], result["timing"]["median_us"])
values = json.loads(os.environ.get("AUTOPROF_FAKE_METRICS", "{}"))


def metric_value(name):
    """The value given for `name`, else 1.0; the bytes global loads (stores)
    request default to 32 per sector they fetch: every byte used."""
    if name in values:
        return values[name]
    for op in ("ld", "st"):
        if name == "smsp__sass_data_bytes_mem_global_op_%s.sum" % op:
            return 32 * values.get(
                "l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum" % op, 1.0)
    return 1.0


if "profile" in job:
    result["profile"] = {
        "metrics": [{"name": name, "collected": True,
                     "value": metric_value(name)}
                    for name in job["profile"]["metrics"]],
        "replay_passes": 1, "seconds": 0.1}
if "time" not in job:
    # As the worker: no timing, and no peak bandwidth (measured with it).
    result.pop("timing", None)
    result["device"].pop("peak_bandwidth", None)
json.dump(result, open(args[args.index("--result") + 1], "w"))
