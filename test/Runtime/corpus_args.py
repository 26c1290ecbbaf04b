"""The command line the corpus scripts of this folder share:
SCRIPT AUTOPROF_OPT OUT_DIR CORPUS_DIR... [--only S...]"""

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
