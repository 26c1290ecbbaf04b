#!/usr/bin/env python3
"""Tells, without a GPU, whether a benchmark report of one build of
autoprof-opt still describes another build: for every kernel of every
report, it replays the search path the report records (each candidate is
the accepted rewrites so far plus the candidate's rewrite) with both
builds' --autoprof-apply-rewrites, and compares what each build makes of
every step: the rewritten module (or the refusal) and the rewrites
--autoprof-propose-rewrites ranks for the incumbent before each step.
Where all of them are byte for byte the same, the new build's search takes
the same path on the same measurements, and the report's rows hold for it.

Prints one line per module ("identical" or the first step that differs) and
a final "N modules identical, N differ" line; exits 1 when one differs.

Usage: diff-search-paths.py --old OPT --new OPT --reports DIR... \
           --corpus DIR... [--only NAME...]
"""

import argparse
import json
import pathlib
import re
import subprocess
import sys


def run(opt, module, *options):
    """autoprof-opt's output and exit status on `module` with `options`."""
    proc = subprocess.run([opt, str(module), *options], capture_output=True,
                          text=True)
    return proc.returncode, proc.stdout


def proposals(text):
    """The autoprof.proposals attributes of a printed module, in order."""
    return re.findall(r"autoprof\.proposals = \[[^\]]*\]", text)


def step(opt, module, kernel, rewrites):
    """What `opt` makes of one step: the rewritten module (or its refusal)
    and the proposals for the result."""
    if rewrites:
        status, text = run(opt, module, "--autoprof-apply-rewrites="
                           f"kernel={kernel} rewrites={','.join(rewrites)}")
    else:
        status, text = run(opt, module, "--autoprof-normalize-kernels")
    if status != 0:
        return ("refused", status), ()
    proc = subprocess.run([opt, "--autoprof-propose-rewrites"], input=text,
                          capture_output=True, text=True)
    return ("applied", text), (proc.returncode, proposals(proc.stdout))


def paths(report):
    """Per kernel of a report, the rewrite lists its search evaluated: the
    incumbent before each candidate, and the incumbent plus the candidate.
    A revision ("revises": the last winner) replaces that winner: it is
    built on the incumbent before it."""
    for entry in json.loads(report.read_text()).get("kernels", []):
        incumbent, chains = [], [[]]
        for candidate in entry.get("candidates", []):
            rewrite = candidate.get("rewrite")
            if not rewrite:
                continue  # a proposer's own kernel (LLM): nothing to replay
            base = incumbent
            if candidate.get("revises") and incumbent and \
                    incumbent[-1] == candidate["revises"]:
                base = incumbent[:-1]
            chains.append(base + [rewrite])
            if candidate.get("accepted"):
                incumbent = base + [rewrite]
        yield entry["kernel"], chains


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--reports", nargs="+", required=True)
    parser.add_argument("--corpus", nargs="+", required=True)
    parser.add_argument("--only", nargs="*", default=[])
    args = parser.parse_args()
    corpus = [pathlib.Path(folder) for folder in args.corpus]
    identical = differ = 0
    for folder in args.reports:
        for report in sorted(pathlib.Path(folder).glob("*.json")):
            if report.name.endswith(".bench.json"):
                continue
            name = report.stem
            if args.only and not any(o in name for o in args.only):
                continue
            module = next((c / f"{name}.mlir" for c in corpus
                           if (c / f"{name}.mlir").exists()), None)
            if module is None:
                print(f"{name}: no module of that name in the corpus folders")
                differ += 1
                continue
            difference = None
            for kernel, chains in paths(report):
                for chain in chains:
                    if step(args.old, module, kernel, chain) != \
                            step(args.new, module, kernel, chain):
                        after = ",".join(chain) or "normalization"
                        difference = f"{kernel} after {after}"
                        break
                if difference:
                    break
            if difference:
                print(f"{name}: differs at {difference}")
                differ += 1
            else:
                print(f"{name}: identical")
                identical += 1
    print(f"{identical} modules identical, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
