"""Applies chains of built-in rewrites, where a later rewrite applies only
after an earlier one (warp-reduce needs the accumulator that
register-accumulate puts in a register, and so do block-reduce,
contraction-tile, mma-tile, their two-buffer forms contraction-pipeline and
mma-pipeline, halo-tile and coarsen-rows; pad-shared widens the rows of
the shared tiles that those and transpose-tile make; on one-thread blocks
form-blocks comes first, and a host loop's reduction needs fold-host-loop,
which keeps the accumulator in a register itself), to every kernel of the
given corpora where each step of the chain applies, and verifies each result
against the original module on the GPU (autoprof-verify-kernels, seeds the
search does not use). A verifier
rejection is a compiler bug. Modules run side by side (corpus_args.jobs()).
Prints one line per kernel and a final
"N chains applied, N verified, N rejected, N failed" line.
Usage: rewrite-chains.py AUTOPROF_OPT OUT_DIR CORPUS_DIR... [--only S...]"""

import re
import subprocess
import sys

import corpus_args

CHAINS = [
    ["register-accumulate=1", "warp-reduce=32"],
    ["register-accumulate=1", "warp-reduce=8"],
    ["register-accumulate=1", "warp-reduce=32", "unroll=4"],
    ["form-blocks=256", "register-accumulate=1", "warp-reduce=32"],
    ["warp-reduce=32"],
    ["register-accumulate=1", "block-reduce=8"],
    ["register-accumulate=1", "block-reduce=32"],
    ["fold-host-loop=1", "block-reduce=8"],
    ["form-blocks=256", "register-accumulate=1", "block-reduce=8"],
    ["form-blocks=256", "register-accumulate=1", "block-reduce=32"],
    ["fold-host-loop=1", "form-blocks=256", "block-reduce=8"],
    ["register-accumulate=1", "contraction-tile=64"],
    ["register-accumulate=1", "contraction-tile=128"],
    ["register-accumulate=1", "contraction-tile=32"],
    ["register-accumulate=1", "contraction-tile=16"],
    ["form-blocks=256", "register-accumulate=1", "contraction-tile=32"],
    ["form-blocks=256", "register-accumulate=1", "contraction-tile=128"],
    ["coalesce=32", "register-accumulate=1", "contraction-tile=128"],
    ["coalesce=64", "register-accumulate=1", "contraction-tile=64"],
    ["register-accumulate=1", "mma-tile=64"],
    ["coalesce=32", "register-accumulate=1", "mma-tile=64"],
    ["form-blocks=256", "register-accumulate=1", "mma-tile=64"],
    ["register-accumulate=1", "mma-tile=128"],
    ["form-blocks=256", "register-accumulate=1", "mma-tile=128"],
    ["register-accumulate=1", "contraction-pipeline=32"],
    ["register-accumulate=1", "contraction-pipeline=128"],
    ["coalesce=32", "register-accumulate=1", "contraction-pipeline=128"],
    ["register-accumulate=1", "mma-pipeline=64"],
    ["register-accumulate=1", "mma-pipeline=128"],
    ["coalesce=32", "register-accumulate=1", "mma-pipeline=128"],
    ["register-accumulate=1", "halo-tile=1"],
    ["coalesce=32", "register-accumulate=1", "halo-tile=1"],
    ["form-blocks=256", "register-accumulate=1", "halo-tile=1"],
    ["coalesce=32", "register-accumulate=1", "coarsen-rows=4"],
    ["form-blocks=256", "register-accumulate=1", "coarsen-rows=4"],
    ["register-accumulate=1", "coarsen-rows=2"],
    ["block-size=256", "register-accumulate=1", "coarsen-rows=4"],
    ["block-size=256", "register-accumulate=1", "warp-reduce=32"],
    ["block-size=256", "register-accumulate=1", "block-reduce=8"],
    ["register-accumulate=1", "contraction-tile=64", "pad-shared=16"],
    ["register-accumulate=1", "contraction-pipeline=128", "pad-shared=16"],
    ["register-accumulate=1", "mma-tile=128", "pad-shared=16"],
    ["register-accumulate=1", "mma-pipeline=64", "pad-shared=16"],
    ["transpose-tile=32", "pad-shared=4"],
    ["register-accumulate=1", "halo-tile=1", "pad-shared=4"],
]

opt, out, modules = corpus_args.parse(sys.argv[1:])


def check(item):
    """Every chain on every kernel of one module: the lines to print and the
    counts (applied, verified, rejected, failed)."""
    corpus, module = item
    normalized = subprocess.run(
        [opt, str(module), "--autoprof-normalize-kernels"],
        capture_output=True, text=True)
    if normalized.returncode != 0:
        return ([f"FAILED {module.name}: {normalized.stderr.strip()[-400:]}"],
                (0, 0, 0, 1))
    kernels = []
    current = None
    for line in normalized.stdout.splitlines():
        if m := re.match(r"\s*gpu\.module @([\w$.-]+)", line):
            current = m.group(1)
        elif m := re.search(r"gpu\.func @([\w$.-]+)\(.*\bkernel\b", line):
            kernels.append(f"{current}::{m.group(1)}")
    lines, counts = [], [0, 0, 0, 0]
    for kernel in kernels:
        results = []
        for number, chain in enumerate(CHAINS):
            rewrites = ",".join(chain)
            result = out / (f"{corpus.name}-{module.stem}-"
                            f"{kernel.replace('::', '.')}-{number}.mlir")
            applied, _ = corpus_args.apply_rewrites(opt, module, kernel,
                                                    rewrites, result)
            if not applied:
                continue  # a step does not apply
            counts[0] += 1
            corpus_args.verify_and_record(opt, result, module, kernel,
                                          rewrites, f"{module.stem}/{kernel}",
                                          counts, results, lines)
        lines.append(f"{module.stem}/{kernel}: "
                     f"{' '.join(results) or 'no chain applies'}")
    return lines, tuple(counts)


totals = corpus_args.print_all(check, modules)
print(f"{totals[0]} chains applied, {totals[1]} verified, {totals[2]} "
      f"rejected, {totals[3]} failed")
