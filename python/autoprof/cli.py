"""The `autoprof` command.

  autoprof report REPORT.json --html OUT.html [--catalog FILE] [--title T]
                  [--learner-log LOG.json] [--tree TREE.mlir]
  autoprof optimize MODULE.mlir -o OUT.mlir [--report R.json] [--budget N]
                    [--option key=value ...]
  autoprof outcomes TABLE.json [--png-dir DIR] [--catalog FILE]
  autoprof outcomes TABLE.json --against AGAIN.json [--noise F]
  autoprof evaluate TABLE.json --out-dir DIR [--seed N] [--held-out F]
                    [--lambda L] [--cost passes|seconds] [--title T]
  autoprof sweep TABLE.json --out-dir DIR [--seeds N] [--lambdas L ...]

`report` renders a run's report as one HTML page (metric meanings from
`autoprof-learn --print-catalog`, or from a catalog file; each kernel held
to the compute roof of the GPU the report records and of its element types,
autoprof.peaks); `optimize` runs
`autoprof-opt --autoprof-optimize` on a module and prints the summary;
`outcomes` summarizes an outcome table per profiling configuration and draws
outcome against cost and against the number of metrics, or with `--against`
compares two measurements of the same kernels (kept variants, replay passes,
speedups and seconds, pair by pair); `evaluate` learns a
tree from a table and writes its evaluation on held-out programs (a Markdown
page, its charts, the tree; `docs/profiling-tree.md`); `sweep` does that
for many seeded splits and cost weights and says how often the learned tree
met its goal.

The tools come from $AUTOPROF_BIN, else the build tree of the checkout the
package is part of, else PATH (autoprof.tools.find_tool). Every file named
is refused with one line when it is not a regular file or is too large,
and so is a document of the wrong shape (autoprof.files).
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys

from . import html
from .catalog import CatalogError, load_catalog
from .files import InputError
from .learning import load_learner_log
from .outcomes import compare, load_outcomes, markdown
from .trees import load_tree
from .reports import ReportError, load_report, read_json
from .tools import ToolError, optimize


def _catalog(args, needed_for: str):
    """The metric catalog of `args.catalog` or of the tool; None (after
    saying what is left out, `needed_for`) when the tool cannot give it, and
    False (after saying why) when a catalog file was named and cannot be
    read."""
    try:
        return load_catalog(args.chip, tool=args.learn_tool,
                            path=args.catalog)
    except CatalogError as error:
        if args.catalog:
            print(f"autoprof: {error}", file=sys.stderr)
            return False
        print(f"autoprof: {needed_for} left out: {error}", file=sys.stderr)
        return None


def _peak_flops(args):
    """The one compute roof of the page and where it came from:
    --peak-flops, else the entry of --flops-peaks (docs/results/
    flops-peaks.json's format: program -> {"flops_per_s", "why"}) for the
    report's program (its file name up to the first dot, as
    scripts/benchmark-optimize.py names them); (None, "") to hold each
    kernel to its own roof (autoprof.peaks). Raises ReportError when the
    value or the file is bad."""
    if args.peak_flops is not None:
        if not (args.peak_flops > 0 and math.isfinite(args.peak_flops)):
            raise ReportError("--peak-flops must be positive")
        return args.peak_flops, "given with --peak-flops"
    if args.flops_peaks:
        peaks = read_json(pathlib.Path(args.flops_peaks))
        program = pathlib.Path(args.report).name.split(".")[0]
        try:
            entry = peaks.get(program) if isinstance(peaks, dict) else None
            if entry is not None:
                value = float(entry["flops_per_s"])
                if not (value > 0 and math.isfinite(value)):
                    raise ValueError(f"{program}: not a positive rate")
                return value, f"{program}'s entry of {args.flops_peaks}"
        except (KeyError, TypeError, ValueError) as error:
            raise ReportError(f"{args.flops_peaks}: not a table of peaks "
                              f"({error})") from None
    return None, ""


def _tree(args, report):
    """The profiling tree to draw: --tree's, else the shipped tree when the
    report's kernels name it; None (after saying why on stderr) when the
    shipped one cannot be had or is another."""
    if args.tree:
        return load_tree(args.tree, tool=args.learn_tool)
    named = {k.baseline.profile_tree for k in report.kernels
             if k.baseline.profile_tree and k.baseline.profile_leaf >= 0}
    if not named:
        return None
    try:
        shipped = load_tree("-", tool=args.learn_tool)
    except CatalogError as error:
        print(f"autoprof: the profiling tree left out: {error}",
              file=sys.stderr)
        return None
    if shipped.name not in named:
        print(f"autoprof: the profiling tree left out: the report's kernels "
              f"were profiled by @{', @'.join(sorted(named))}, not the "
              f"shipped @{shipped.name} (give it with --tree)",
              file=sys.stderr)
        return None
    return shipped


def _report(args) -> int:
    report = load_report(args.report)
    rounds = (load_learner_log(args.learner_log) if args.learner_log
              else None)
    peak, basis = _peak_flops(args)
    tree = _tree(args, report)
    catalog = _catalog(args, "metric meanings")
    if catalog is False:
        return 1
    page = html.render(report, catalog, title=args.title or
                       f"AutoProf run: {pathlib.Path(args.report).name}",
                       peak_flops=peak, peak_basis=basis,
                       learner_rounds=rounds, profiling_tree=tree)
    pathlib.Path(args.html).write_text(page)
    print(f"autoprof: wrote {args.html} ({len(report.kernels)} kernels)")
    return 0


def _optimize(args) -> int:
    options = dict(option.split("=", 1) for option in args.option)
    if args.budget is not None:
        options["budget"] = str(args.budget)
    try:
        result = optimize(args.module, args.output, report=args.report,
                          tool=args.opt_tool, **options)
    except ToolError as error:
        print(f"autoprof: {error}", file=sys.stderr)
        return 1
    sys.stderr.write(result.log)
    if result.report:
        print(f"autoprof: {len(result.report.kernels)} kernels, geometric "
              f"mean speedup {result.report.geometric_mean_speedup():.2f}x")
    return 0


def _outcomes(args) -> int:
    table = load_outcomes(args.table)
    again = load_outcomes(args.against) if args.against else None
    if again is not None:
        print(compare(table, again, args.noise))
        return 0
    catalog = _catalog(args, "metric counts")
    if catalog is False:
        return 1
    print(markdown(table, catalog))
    if args.png_dir:
        from . import plots

        out = pathlib.Path(args.png_dir)
        out.mkdir(parents=True, exist_ok=True)
        figures = {"outcome-vs-passes.png":
                       plots.outcome_vs_cost(table, noise=args.noise),
                   "outcome-vs-seconds.png":
                       plots.outcome_vs_cost(table, cost="seconds",
                                             noise=args.noise)}
        if catalog:
            figures["outcome-vs-metrics.png"] = plots.outcome_vs_metrics(
                table, catalog, noise=args.noise)
        for name, figure in figures.items():
            (out / name).write_bytes(plots.to_png(figure))
        print(f"autoprof: wrote {', '.join(sorted(figures))} to {out}",
              file=sys.stderr)
    return 0


def _learned(produce, errors, wrote: str) -> int:
    """Prints the page `produce()` returns, and on stderr what was written
    beside it; an error of `errors` is said and is exit status 1."""
    try:
        text = produce()
    except errors as error:
        print(f"autoprof: {error}", file=sys.stderr)
        return 1
    print(text)
    print(f"autoprof: wrote {wrote}", file=sys.stderr)
    return 0


def _evaluate(args) -> int:
    from .evaluation import evaluate

    catalog = _catalog(args, "the chart of outcome vs metrics")
    if catalog is False:
        return 1
    return _learned(
        lambda: evaluate(args.table, args.out_dir, learn_tool=args.learn_tool,
                         seed=args.seed, held_out=args.held_out,
                         lam=args.lam, cost=args.cost, catalog=catalog,
                         title=args.title, budget=args.budget),
        (ReportError, ToolError, CatalogError),
        f"{pathlib.Path(args.out_dir) / 'evaluation.md'} and its charts")


def _sweep(args) -> int:
    from .sweep import sweep

    if not args.seeds >= 1:
        print("autoprof: --seeds must be at least 1", file=sys.stderr)
        return 1
    if any(not (lam >= 0) or math.isinf(lam) for lam in args.lambdas):
        print("autoprof: a lambda is a finite number, not negative",
              file=sys.stderr)
        return 1
    return _learned(
        lambda: sweep(args.table, args.out_dir,
                      range(args.first_seed, args.first_seed + args.seeds),
                      args.lambdas, learn_tool=args.learn_tool,
                      held_out=args.held_out, cost=args.cost,
                      budget=args.budget),
        (ReportError, ToolError),
        f"{pathlib.Path(args.out_dir) / 'sweep.md'}, sweep.json and "
        f"sweep.png")


def _learning_arguments(command) -> None:
    """The options `evaluate` and `sweep` share: how autoprof-learn splits,
    scores and is found."""
    command.add_argument("--held-out", type=float, default=0.3,
                         help="fraction of the programs held out")
    command.add_argument("--cost", choices=["passes", "seconds"],
                         default="passes")
    command.add_argument("--budget", type=int,
                         help="learn from searches of this many candidates "
                              "(default: the table's)")
    command.add_argument("--learn-tool", help="the autoprof-learn to run")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="autoprof")
    commands = parser.add_subparsers(dest="command", required=True)
    report = commands.add_parser("report", help="render a report as HTML")
    report.add_argument("report")
    report.add_argument("--html", required=True)
    report.add_argument("--title")
    report.add_argument("--catalog", help="a catalog file written by "
                        "autoprof-learn --print-catalog")
    report.add_argument("--chip", default="sm_90")
    report.add_argument("--learn-tool", help="the autoprof-learn to ask")
    report.add_argument("--learner-log", help="a log of autoprof-learn "
                        "--log, drawn as a learning curve")
    report.add_argument("--tree", help="a profiling-tree file to draw ('-': "
                        "the shipped starting tree)")
    report.add_argument("--peak-flops", type=float,
                        help="one compute roof in FLOP/s for every kernel "
                             "(default: each kernel's, from the GPU the "
                             "report records and the kernel's element "
                             "types)")
    report.add_argument("--flops-peaks", help="a JSON file of compute roofs "
                        "per program (docs/results/flops-peaks.json)")
    report.set_defaults(run=_report)
    run = commands.add_parser("optimize", help="run autoprof-optimize")
    run.add_argument("module")
    run.add_argument("-o", "--output", required=True)
    run.add_argument("--report")
    run.add_argument("--budget", type=int)
    run.add_argument("--option", action="append", default=[],
                     help="another option of the pass, key=value")
    run.add_argument("--opt-tool", help="the autoprof-opt to run")
    run.set_defaults(run=_optimize)
    outcomes = commands.add_parser(
        "outcomes", help="summarize an outcome table per configuration")
    outcomes.add_argument("table")
    outcomes.add_argument("--png-dir", help="write the charts here")
    outcomes.add_argument("--catalog", help="a catalog file written by "
                          "autoprof-learn --print-catalog (for the number "
                          "of metrics of each group)")
    outcomes.add_argument("--chip", default="sm_90")
    outcomes.add_argument("--learn-tool", help="the autoprof-learn to ask")
    outcomes.add_argument("--against", metavar="AGAIN",
                          help="compare with another table's measurements "
                               "of the same kernels instead")
    outcomes.add_argument("--noise", type=float, default=0.01,
                          help="with --against, list the kernels whose "
                               "speedup moved by more than a factor 1 + F "
                               "either way; on the charts, say when every "
                               "configuration lies within it (default "
                               "0.01, the learner's timing noise)")
    outcomes.set_defaults(run=_outcomes)
    evaluation = commands.add_parser(
        "evaluate", help="learn a tree from an outcome table and evaluate it "
                         "on held-out programs")
    evaluation.add_argument("table")
    evaluation.add_argument("--out-dir", required=True)
    evaluation.add_argument("--seed", type=int, default=1)
    _learning_arguments(evaluation)
    evaluation.add_argument("--lambda", dest="lam", type=float, default=0.01,
                            help="weight of the profiling cost in the score")
    evaluation.add_argument("--title", default="")
    evaluation.add_argument("--catalog", help="a catalog file written by "
                            "autoprof-learn --print-catalog")
    evaluation.add_argument("--chip", default="sm_90")
    evaluation.set_defaults(run=_evaluate)
    many = commands.add_parser(
        "sweep", help="learn and evaluate a tree on many seeded splits and "
                      "cost weights")
    many.add_argument("table")
    many.add_argument("--out-dir", required=True)
    many.add_argument("--seeds", type=int, default=20,
                      help="how many seeded splits (default 20)")
    many.add_argument("--first-seed", type=int, default=1)
    many.add_argument("--lambdas", type=float, nargs="+",
                      default=[0, 0.0001, 0.001, 0.01],
                      help="weights of the profiling cost in the score")
    _learning_arguments(many)
    many.set_defaults(run=_sweep)
    args = parser.parse_args(argv)
    if args.command == "outcomes" and not args.noise >= 0:
        parser.error(f"--noise must be a fraction of at least 0, got "
                     f"{args.noise}")
    if args.command in ("evaluate", "sweep") and args.budget is not None \
            and args.budget < 1:
        parser.error(f"--budget must be at least 1, got {args.budget}")
    for option in getattr(args, "option", []):
        if "=" not in option:
            parser.error(f"--option expects key=value, got '{option}'")
    try:
        return args.run(args)
    except (InputError, CatalogError, ToolError) as error:
        # A file that is not what it should be, a tool that cannot be
        # found or failed: said in a line, not a traceback.
        print(f"autoprof: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        # A page, chart or directory that cannot be written.
        print(f"autoprof: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
