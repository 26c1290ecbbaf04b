"""Runs autoprof-optimize with the built-in proposer over every corpus
module and checks what a user relies on: the pass succeeds, its output lowers
to PTX, every accepted rewrite was verified against the original, and no
built-in rewrite is ever rejected by the verifier (a rejection means its
preconditions let a wrong kernel through). Prints one line per kernel and a
final "N optimized, N failed" line.
Usage: optimize-corpus.py AUTOPROF_OPT CORPUS_DIR OUT_DIR BUDGET"""

import json
import pathlib
import subprocess
import sys

opt, corpus, out = (sys.argv[1], pathlib.Path(sys.argv[2]),
                    pathlib.Path(sys.argv[3]))
budget = sys.argv[4]
out.mkdir(parents=True, exist_ok=True)
optimized = failed = 0
for module in sorted(corpus.glob("*.mlir")):
    report = out / f"{module.stem}.json"
    result = out / f"{module.stem}.mlir"
    proc = subprocess.run(
        [opt, str(module),
         f"--autoprof-optimize=budget={budget} time-budget=0.05 "
         f"report={report}",
         "-o", str(result)], capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"FAILED {module.name}: {proc.stderr.strip()[-500:]}")
        failed += 1
        continue
    lower = subprocess.run([opt, str(result), "--autoprof-lower-to-ptx",
                            "-o", "/dev/null"], capture_output=True, text=True)
    if lower.returncode != 0:
        print(f"FAILED {module.name}: the output does not lower: "
              f"{lower.stderr.strip()[-500:]}")
        failed += 1
        continue
    for kernel in json.loads(report.read_text())["kernels"]:
        name = f"{module.stem}/{kernel['kernel'].split('::')[1]}"
        statuses = {}
        for candidate in kernel["candidates"]:
            status = candidate["status"]
            statuses[status] = statuses.get(status, 0) + 1
            if status == "rejected":
                print(f"REJECTED {name} {candidate['rewrite']}: "
                      f"{candidate.get('reason', '')[:300]}")
            if candidate.get("accepted") and status != "verified":
                print(f"FAILED {name}: {candidate['rewrite']} was accepted "
                      f"but is {status}")
                failed += 1
        print(f"{name}: {kernel['speedup']:.2f}x with "
              f"{', '.join(kernel['accepted']) or 'the original'}; "
              f"{json.dumps(statuses, sort_keys=True)}")
        optimized += 1
print(f"{optimized} optimized, {failed} failed")
