"""Applies every built-in rewrite the proposer finds applicable, each on its
own, to every kernel of the given corpora, and verifies each result against
the normalized original on the GPU (autoprof-optimize with search=each and a
budget that covers every proposal). A verifier rejection of a built-in
rewrite is a compiler bug: its preconditions let a wrong kernel through.
Prints one line per kernel and a final "N kernels, N rewrites verified, N
rejected, N failed" line.
Usage: rewrite-soundness.py AUTOPROF_OPT OUT_DIR CORPUS_DIR... [--only S...]"""

import json
import subprocess
import sys

import corpus_args

opt, out, modules = corpus_args.parse(sys.argv[1:])
kernels = verified = rejected = failed = 0
for corpus, module in modules:
    report = out / f"{corpus.name}-{module.stem}.json"
    proc = subprocess.run(
        [opt, str(module),
         "--autoprof-optimize=search=each budget=32 time-budget=0.02 "
         f"report={report}", "-o", "/dev/null"],
        capture_output=True, text=True)
    if proc.returncode != 0 or not report.exists():
        print(f"FAILED {module.name}: {proc.stderr.strip()[-400:]}")
        failed += 1
        continue
    for kernel in json.loads(report.read_text())["kernels"]:
        kernels += 1
        name = f"{module.stem}/{kernel['kernel'].split('::')[1]}"
        tried = []
        for candidate in kernel["candidates"]:
            status = candidate["status"]
            tried.append(f"{candidate['rewrite']}:{status}")
            if status == "verified":
                verified += 1
            elif status == "rejected":
                rejected += 1
                print(f"REJECTED {name} {candidate['rewrite']}: "
                      f"{candidate.get('reason', '')[:300]}")
            else:
                failed += 1
                print(f"FAILED {name} {candidate['rewrite']}: {status} "
                      f"{candidate.get('reason', '')[:300]}")
        print(f"{name}: {' '.join(tried) or 'no rewrite applies'}")
print(f"{kernels} kernels, {verified} rewrites verified, {rejected} rejected, "
      f"{failed} failed")
