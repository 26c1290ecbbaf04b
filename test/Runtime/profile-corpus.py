"""Profiles every corpus module with autoprof-opt --autoprof-profile and
prints one line per kernel: its name, replay passes and median time; then a
final "N profiled, N failed" line. Usage: profile-corpus.py AUTOPROF_OPT DIR"""

import pathlib
import re
import subprocess
import sys

opt, corpus = sys.argv[1], pathlib.Path(sys.argv[2])
profiled = failed = 0
for module in sorted(corpus.glob("*.mlir")):
    proc = subprocess.run([opt, str(module), "--autoprof-profile"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"FAILED {module.name}: {proc.stderr.strip()[:500]}")
        failed += 1
        continue
    for line in proc.stdout.splitlines():
        kernel = re.search(r"gpu\.func @(\w+)\(", line)
        if not kernel or "autoprof.measurement" not in line:
            continue
        measurement = line[line.index("autoprof.measurement"):]
        passes = re.search(r"replay_passes = (\d+)", measurement)
        median = re.search(r"median_us = ([0-9.e+-]+)", measurement)
        print(f"{module.stem}/{kernel.group(1)}: "
              f"{passes.group(1) if passes else '?'} replay passes, "
              f"median {float(median.group(1)) if median else 0:.1f} us")
        profiled += 1
print(f"{profiled} profiled, {failed} failed")
