#!/usr/bin/env python3
"""Tells, without a GPU, whether two builds of autoprof-opt propose and
rewrite alike over whole corpora: for every module, as normalized and after
each chain of --after, it compares what --autoprof-propose-rewrites ranks
for every kernel, with the reason of every refusal (remarks and refusals),
and what each proposed rewrite makes of its kernel (the rewritten module or
the refusal). Where every step is byte for byte the same, a change of the
optimizer's code changed no proposal or rewrite there; scripts/
diff-search-paths.py asks the narrower question for the paths measured
searches took.

Prints one line per module ("identical" or the first step that differs)
and a final "N modules identical, N differ" line; exits 1 when one differs.

Usage: diff-proposals.py --old OPT --new OPT --corpus DIR...
                         [--only NAME...] [--after CHAIN...] [--jobs N]

A CHAIN is rewrites separated by commas (register-accumulate=1); a module
where a chain does not apply with either build is compared without it.
"""

import argparse
import concurrent.futures
import os
import pathlib
import re
import subprocess
import sys


def run(opt, module_text, *options):
    """autoprof-opt's exit status, output and errors on `module_text`."""
    proc = subprocess.run([opt, "-", *options], input=module_text,
                          capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def kernel_proposals(text):
    """(MODULE::NAME, [rewrite, ...]) for every kernel of a printed module
    that carries autoprof.proposals, in order."""
    found, module = [], ""
    for line in text.splitlines():
        opened = re.match(r"\s*gpu\.module @([\w.$-]+)", line)
        if opened:
            module = opened.group(1)
        func = re.match(r"\s*gpu\.func @([\w.$-]+)\(", line)
        listed = re.search(r"autoprof\.proposals = \[([^\]]*)\]", line)
        if func and listed:
            rewrites = re.findall(r'"([^"]+)"', listed.group(1))
            found.append((f"{module}::{func.group(1)}", rewrites))
    return found


def compare_step(old, new, text, label):
    """The first difference of one module state between the builds, or
    None: the proposals with their remarks, then every proposed rewrite."""
    options = ["--autoprof-propose-rewrites=remarks refusals"]
    first = run(old, text, *options)
    second = run(new, text, *options)
    if first != second:
        return f"{label}: the proposals or their remarks differ"
    for kernel, rewrites in kernel_proposals(first[1]):
        for rewrite in rewrites:
            option = (f"--autoprof-apply-rewrites=kernel={kernel} "
                      f"rewrites={rewrite}")
            if run(old, text, option)[:2] != run(new, text, option)[:2]:
                return f"{label}: {kernel} after {rewrite} differs"
    return None


def compare_module(old, new, path, chains):
    """One module's line."""
    source = path.read_text()
    status_old, base_old, _ = run(old, source, "--autoprof-normalize-kernels")
    status_new, base_new, _ = run(new, source, "--autoprof-normalize-kernels")
    if (status_old, base_old) != (status_new, base_new):
        return False, f"{path.stem}: differs when normalized"
    if status_old != 0:
        return True, f"{path.stem}: identical (neither build reads it)"
    for chain in [""] + chains:
        text = base_old
        if chain:
            option = f"--autoprof-apply-rewrites=rewrites={chain}"
            applied_old = run(old, base_old, option)[:2]
            applied_new = run(new, base_old, option)[:2]
            if applied_old != applied_new:
                return False, f"{path.stem}: differs after {chain}"
            if applied_old[0] != 0:
                continue
            text = applied_old[1]
        difference = compare_step(old, new, text, chain or "normalized")
        if difference:
            return False, f"{path.stem}: differs at {difference}"
    return True, f"{path.stem}: identical"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--corpus", nargs="+", required=True)
    parser.add_argument("--only", nargs="+", default=[],
                        help="modules whose names start with one of these")
    parser.add_argument("--after", nargs="+", default=[],
                        help="chains of rewrites to compare after as well")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    for opt in (args.old, args.new):
        if not os.access(opt, os.X_OK):
            parser.error(f"{opt} is not an executable")
    modules = []
    for folder in args.corpus:
        path = pathlib.Path(folder)
        if not path.is_dir():
            parser.error(f"{folder}: no such folder")
        modules += sorted(path.glob("*.mlir"))
    if args.only:
        modules = [m for m in modules
                   if any(m.stem.startswith(name) for name in args.only)]
    if not modules:
        parser.error("no module selected")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(
            lambda m: compare_module(args.old, args.new, m, args.after),
            modules))
    for _, line in results:
        print(line)
    same = sum(1 for identical, _ in results if identical)
    print(f"{same} modules identical, {len(results) - same} differ")
    return 0 if same == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
