"""Applies every built-in rewrite the proposer finds applicable (every
family with every parameter it ranks), each on its own, to every kernel of
the given corpora, and verifies each result against the original module on
the GPU (autoprof-verify-kernels, seeds the search does not use). A
verifier rejection of a built-in rewrite is a compiler bug: its
preconditions let a wrong kernel through. Modules run side by side
(corpus_args.jobs()). Prints one line per kernel and a final "N kernels, N
rewrites verified, N rejected, N failed" line.
With --family F, only the proposals of family F.
Usage: rewrite-soundness.py [--family F] AUTOPROF_OPT OUT_DIR CORPUS_DIR... [--part K/N]
       [--only S...]"""

import re
import subprocess
import sys

import corpus_args

argv = sys.argv[1:]
family = None
if argv[:1] == ["--family"]:
    family, argv = argv[1], argv[2:]
opt, out, modules = corpus_args.parse(argv)


def proposals(module):
    """(kernel symbol, [rewrite, ...]) for every kernel of `module`, from
    autoprof-propose-rewrites, or the error output when it fails."""
    proc = subprocess.run([opt, str(module), "--autoprof-propose-rewrites"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return None, proc.stderr.strip()[-400:]
    kernels, current = [], None
    for line in proc.stdout.splitlines():
        if m := re.match(r"\s*gpu\.module @([\w$.-]+)", line):
            current = m.group(1)
        elif m := re.search(r"gpu\.func @([\w$.-]+)\(.*\bkernel\b", line):
            listed = re.search(r"autoprof\.proposals = \[([^\]]*)\]", line)
            rewrites = (re.findall(r'"([^"]+)"', listed.group(1))
                        if listed else [])
            kernels.append((f"{current}::{m.group(1)}", rewrites))
    return kernels, ""


def check(item):
    """Every proposal of every kernel of one module, applied and verified:
    the lines to print and the counts (kernels, verified, rejected,
    failed)."""
    corpus, module = item
    kernels, error = proposals(module)
    if kernels is None:
        return [f"FAILED {module.name}: {error}"], (0, 0, 0, 1)
    lines, counts = [], [0, 0, 0, 0]
    for kernel, rewrites in kernels:
        counts[0] += 1
        name = f"{module.stem}/{kernel.split('::')[1]}"
        tried = []
        for rewrite in rewrites:
            if family and rewrite.split("=")[0] != family:
                continue
            result = out / (f"{corpus.name}-{module.stem}-"
                            f"{kernel.replace('::', '.')}-{rewrite}.mlir")
            applied, error = corpus_args.apply_rewrites(opt, module, kernel,
                                                        rewrite, result)
            if not applied:
                counts[3] += 1
                tried.append(f"{rewrite}:failed")
                lines.append(f"FAILED {name} {rewrite}: proposed but does not "
                             f"apply: {error[-300:]}")
                continue
            corpus_args.verify_and_record(opt, result, module, kernel,
                                          rewrite, name, counts, tried, lines)
        lines.append(f"{name}: {' '.join(tried) or 'no rewrite applies'}")
    return lines, tuple(counts)


totals = corpus_args.print_all(check, modules)
print(f"{totals[0]} kernels, {totals[1]} rewrites verified, {totals[2]} "
      f"rejected, {totals[3]} failed")
