"""The command line the corpus scripts of this folder share:
SCRIPT AUTOPROF_OPT OUT_DIR CORPUS_DIR... [--part K/N] [--only S...], the pool that runs
their per-module work side by side, and the steps of applying rewrites to a
kernel and verifying the result."""

import concurrent.futures
import os
import pathlib
import subprocess


def parse(argv):
    """Returns autoprof-opt, the output folder (created) and the modules to
    run as (corpus, module) pairs: every module of each corpus in order,
    only those whose name contains one of the --only strings when some are
    given, and of those, with --part K/N, every N-th from the K-th (a shard
    of a check too long for one command)."""
    args = list(argv)
    only = []
    if "--only" in args:
        only = args[args.index("--only") + 1:]
        args = args[:args.index("--only")]
    part, parts = 1, 1
    if "--part" in args:
        at = args.index("--part")
        k, _, n = args[at + 1].partition("/")
        part, parts = int(k), int(n)
        if not 1 <= part <= parts:
            raise SystemExit(f"--part {args[at + 1]}: expected K/N, 1 <= K <= N")
        del args[at:at + 2]
    opt, out = args[0], pathlib.Path(args[1])
    out.mkdir(parents=True, exist_ok=True)
    modules = [(corpus, module)
               for corpus in map(pathlib.Path, args[2:])
               for module in sorted(corpus.glob("*.mlir"))
               if not only or any(o in module.name for o in only)]
    return opt, out, modules[part - 1::parts]


def jobs():
    """How many modules run at once: AUTOPROF_TEST_JOBS, or the CPUs (at
    most 8). Compiling dominates; the kernels of several processes share the
    GPU, which changes their timing, never their results (verification does
    not profile)."""
    if "AUTOPROF_TEST_JOBS" in os.environ:
        return max(1, int(os.environ["AUTOPROF_TEST_JOBS"]))
    return max(1, min(8, os.cpu_count() or 1))


def run_each(function, items):
    """function(item) for every item, `jobs()` at a time; yields the results
    in the order of `items` as they become available."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs()) as pool:
        yield from pool.map(function, items)


def apply_rewrites(opt, module, kernel, rewrites, result):
    """Applies `rewrites` ("family=parameter,...") to `kernel`
    ("module::kernel") of `module`, writing `result`; returns whether they
    applied and autoprof-opt's diagnostics."""
    proc = subprocess.run(
        [opt, str(module),
         f"--autoprof-apply-rewrites=kernel={kernel} rewrites={rewrites}",
         "-o", str(result)], capture_output=True, text=True)
    return proc.returncode == 0, proc.stderr.strip()


def verify_against(opt, result, module, kernel):
    """Verifies `kernel` of the rewritten module `result` against the
    original `module` on the GPU (autoprof-verify-kernels, seeds the search
    does not use): "verified", "rejected" (a verifier rejection) or "failed"
    (anything else), and the verifier's output."""
    proc = subprocess.run(
        [opt, str(result),
         f"--autoprof-verify-kernels=reference={module} seed=101",
         "-o", "/dev/null"], capture_output=True, text=True)
    symbol = kernel.replace("::", "::@")
    if proc.returncode == 0 and f"@{symbol} verified" in proc.stderr:
        return "verified", proc.stderr.strip()
    if "failed verification against the reference (rejected)" in proc.stderr:
        return "rejected", proc.stderr.strip()
    return "failed", proc.stderr.strip()


def verify_and_record(opt, result, module, kernel, label, where, counts,
                      tried, lines):
    """verify_against, then the verdict counted (counts[1], [2], [3]: verified,
    rejected, failed), "label:verdict" appended to `tried`, and a REJECTED or
    FAILED line naming `where` and `label` with the verifier's output appended
    to `lines`."""
    verdict, output = verify_against(opt, result, module, kernel)
    counts[{"verified": 1, "rejected": 2, "failed": 3}[verdict]] += 1
    tried.append(f"{label}:{verdict}")
    if verdict != "verified":
        lines.append(f"{verdict.upper()} {where} {label}: {why(output)}")


def why(output):
    """The diagnostics of a verifier's output, without the operations MLIR
    prints after them (a kernel's whole text would bury the reason)."""
    reasons = [line.strip()[:600] for line in output.splitlines()
               if ": error: " in line or ": warning: " in line]
    return " | ".join(reasons[:3]) or output[-400:]


def print_all(check, modules):
    """Runs check(module) -> (lines, counts) for every module side by side,
    prints each module's lines in order and returns the summed counts."""
    totals = None
    for lines, counts in run_each(check, modules):
        print("\n".join(lines), flush=True)
        totals = [a + b for a, b in zip(totals or [0] * len(counts), counts)]
    return totals or [0, 0, 0, 0]
