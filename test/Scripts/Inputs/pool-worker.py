#!/usr/bin/env python3
# A stand-in for autoprof-worker in the tests of scripts/worker-pool.py: it
# appends "GPU START END PID" (its CUDA_VISIBLE_DEVICES, wall-clock times)
# to POOL_TEST_RUNS, sleeps POOL_TEST_SLEEP seconds, and writes an "ok"
# result that names the job's "tag". On the GPU POOL_TEST_DIE_ON it kills
# itself without a result; on POOL_TEST_ERROR_ON it reports an error; on
# POOL_TEST_SLOW_ON it sleeps POOL_TEST_SLOW seconds more. A job with
# "clock_drop" reports a timing during which the SM clock fell from 1980 to
# 1500 MHz.
import json
import os
import signal
import sys
import time

args = sys.argv[1:]
job = json.load(open(args[args.index("--job") + 1]))
gpu = os.environ.get("CUDA_VISIBLE_DEVICES", "?")
start = time.time()
if gpu == os.environ.get("POOL_TEST_DIE_ON"):
    os.kill(os.getpid(), signal.SIGKILL)
time.sleep(float(os.environ.get("POOL_TEST_SLEEP", "0")))
if gpu == os.environ.get("POOL_TEST_SLOW_ON"):
    time.sleep(float(os.environ.get("POOL_TEST_SLOW", "0")))
with open(os.environ["POOL_TEST_RUNS"], "a") as runs:
    runs.write(f"{gpu} {start} {time.time()} {os.getpid()}\n")
result = {"status": "ok", "tag": job.get("tag"), "device_index": job["device"]}
if job.get("clock_drop"):
    result["timing"] = {"median_us": 10.0, "sm_clock_khz_before": 1980000,
                        "sm_clock_khz_min": 1500000}
if gpu == os.environ.get("POOL_TEST_ERROR_ON"):
    result = {"status": "error", "reason": "the stand-in device is lost"}
json.dump(result, open(args[args.index("--result") + 1], "w"))
