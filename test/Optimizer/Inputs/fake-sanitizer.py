#!/usr/bin/env python3
# A stand-in for compute-sanitizer in tests of the optimizer's sanitizer runs
# on machines without a GPU: it runs the command line that follows its own
# options (--tool T --error-exitcode N --report-api-errors no --log-file L)
# and writes a log like the tool's. When AUTOPROF_FAKE_SANITIZER_FINDING is
# "TOOL:ENTRY", a job
# whose kernel entry is ENTRY, run under TOOL, gets a reported error and the
# exit status N. Each invocation's tool is appended to the file
# AUTOPROF_FAKE_SANITIZER_RUNS when that is set.
import json
import os
import subprocess
import sys

args = sys.argv[1:]
options = {}
while args and args[0].startswith("--"):
    options[args[0]] = args[1]
    args = args[2:]
tool = options["--tool"]
if "AUTOPROF_FAKE_SANITIZER_RUNS" in os.environ:
    with open(os.environ["AUTOPROF_FAKE_SANITIZER_RUNS"], "a") as runs:
        runs.write(tool + "\n")
status = subprocess.call(args)
job = json.load(open(args[args.index("--job") + 1]))
entry = job["kernel"]["entry"]
finding = os.environ.get("AUTOPROF_FAKE_SANITIZER_FINDING", "")
with open(options["--log-file"], "w") as log:
    log.write("========= COMPUTE-SANITIZER\n")
    if finding == tool + ":" + entry:
        if tool == "racecheck":
            log.write("========= Error: Race reported between Write access "
                      "at %s+0x90 and Read access at %s+0xb0 [64 hazards]\n"
                      "=========\n"
                      "========= RACECHECK SUMMARY: 1 hazard displayed "
                      "(1 error, 0 warnings)\n" % (entry, entry))
        else:
            log.write("========= Invalid __global__ write of size 4 bytes\n"
                      "=========     at %s+0x70\n"
                      "========= ERROR SUMMARY: 1 error\n" % entry)
        sys.exit(int(options["--error-exitcode"]))
    log.write("========= ERROR SUMMARY: 0 errors\n")
sys.exit(status)
