#!/usr/bin/env python3
# A stand-in for autoprof-worker that runs nothing: it rejects every job with
# a reason describing the job's verification (the candidate's parameter map,
# the parameter kinds, repeated launches, the seeds, which sections are
# present), so that tests
# without a GPU can check what a pass asked for. Usage: describe-job-worker.py
# --job J --result R [...]
import json
import sys

args = sys.argv[1:]
job = json.load(open(args[args.index("--job") + 1]))


def kinds(kernel):
    return " ".join(f"{p['dtype']}:{p['role']}" if p["kind"] == "buffer" else
                    f"{p['dtype']}={p['value']}"
                    for p in kernel["launch"]["params"])


def repeat(kernel):
    r = kernel.get("launch", {}).get("repeat")
    return (f" repeating #{r['param']} from {r['start']} by {r['step']} "
            f"{r['count']} times" if r else "")


candidate = job.get("candidate", {})
reason = (f"reference ({kinds(job['kernel'])}){repeat(job['kernel'])}, "
          f"candidate ({kinds(candidate) if candidate else 'none'})"
          f"{repeat(candidate)}, "
          f"reference_params {candidate.get('reference_params', 'absent')}, "
          f"seeds {job.get('verify', {}).get('seeds')}, "
          f"sections {' '.join(sorted(job))}")
json.dump({"status": "rejected", "reason": reason},
          open(args[args.index("--result") + 1], "w"))
