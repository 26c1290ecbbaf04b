#!/usr/bin/env python3
# A stand-in for autoprof-worker in the tests of scripts/worker-pool.py: it
# prepares for POOL_TEST_PREPARE seconds, then, in its turn on the GPU's
# lock file (AUTOPROF_GPU_LOCK, when the pool gives one), "runs on the GPU"
# for POOL_TEST_SLEEP seconds, and appends "GPU START END PID BEGIN FINISH
# LOCK" to POOL_TEST_RUNS: its CUDA_VISIBLE_DEVICES, the wall-clock times of
# its turn and of its whole run, and the lock file's name ("-" without one).
# It writes an "ok" result that names the job's "tag". On the GPU
# POOL_TEST_DIE_ON it kills itself without a result; on POOL_TEST_ERROR_ON it
# reports an error; on POOL_TEST_SLOW_ON it sleeps POOL_TEST_SLOW seconds
# more. A job with "clock_drop" reports a timing during which the SM clock
# fell from 1980 to 1500 MHz.
import fcntl
import json
import os
import signal
import sys
import time

args = sys.argv[1:]
job = json.load(open(args[args.index("--job") + 1]))
gpu = os.environ.get("CUDA_VISIBLE_DEVICES", "?")
begin = time.time()
if gpu == os.environ.get("POOL_TEST_DIE_ON"):
    os.kill(os.getpid(), signal.SIGKILL)
time.sleep(float(os.environ.get("POOL_TEST_PREPARE", "0")))
lock_path = os.environ.get("AUTOPROF_GPU_LOCK")
turn = open(lock_path, "w") if lock_path else None
if turn:
    fcntl.flock(turn, fcntl.LOCK_EX)
start = time.time()
time.sleep(float(os.environ.get("POOL_TEST_SLEEP", "0")))
if gpu == os.environ.get("POOL_TEST_SLOW_ON"):
    time.sleep(float(os.environ.get("POOL_TEST_SLOW", "0")))
end = time.time()
if turn:
    turn.close()
with open(os.environ["POOL_TEST_RUNS"], "a") as runs:
    lock_name = os.path.basename(lock_path) if lock_path else "-"
    runs.write(f"{gpu} {start} {end} {os.getpid()} {begin} {time.time()} "
               f"{lock_name}\n")
result = {"status": "ok", "tag": job.get("tag"), "device_index": job["device"]}
if job.get("clock_drop"):
    result["timing"] = {"median_us": 10.0, "sm_clock_khz_before": 1980000,
                        "sm_clock_khz_min": 1500000}
if gpu == os.environ.get("POOL_TEST_ERROR_ON"):
    result = {"status": "error", "reason": "the stand-in device is lost"}
json.dump(result, open(args[args.index("--result") + 1], "w"))
