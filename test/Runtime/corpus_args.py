"""The command line the corpus scripts of this folder share:
SCRIPT AUTOPROF_OPT OUT_DIR CORPUS_DIR... [--only S...], and the pool that
runs their per-module work side by side."""

import concurrent.futures
import os
import pathlib


def parse(argv):
    """Returns autoprof-opt, the output folder (created) and the modules to
    run as (corpus, module) pairs: every module of each corpus in order,
    only those whose name contains one of the --only strings when some are
    given."""
    args = list(argv)
    only = []
    if "--only" in args:
        only = args[args.index("--only") + 1:]
        args = args[:args.index("--only")]
    opt, out = args[0], pathlib.Path(args[1])
    out.mkdir(parents=True, exist_ok=True)
    modules = [(corpus, module)
               for corpus in map(pathlib.Path, args[2:])
               for module in sorted(corpus.glob("*.mlir"))
               if not only or any(o in module.name for o in only)]
    return opt, out, modules


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
