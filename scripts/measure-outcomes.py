#!/usr/bin/env python3
"""Measures the outcome table autoprof-learn learns from: for every kernel of
the given modules and every profiling configuration, the verified speedup
autoprof-optimize reaches with a fixed search budget when the profile it is
given is that configuration, and what collecting it cost (replay passes,
seconds: the baseline's profile and each winner's re-profile). Each
configuration becomes a one-leaf profiling tree passed as tree-file=;
static features come from --autoprof-extract-features. A measurement that
fails is left out of the table (never written as zero) and listed in its
"notes". Besides the outcome at --budget, each kernel records the outcome
and cost the search had after 1, 2, 3 and 5 of its candidates
("speedup_at", "costs_at"; the configurations' median costs per budget in
their "costs_at"), which is what a search of that budget reaches:
`autoprof-learn --budget K` learns from those. Each kernel also records,
per configuration, the candidates its search tried in order and which of
them won ("paths"; the path of a budget K search is its first K), so that
where the metrics a configuration collects changed what the search did is
read from the table, not guessed from the speedups.

A candidate's timing does not depend on which configuration ranked it: with
scripts/worker-pool.py as the worker, every job (a candidate's verification
and timing, the baseline's timing, which is a job of its own, a profile) is
kept by content and measured once for all configurations. Two
configurations whose searches ended on one variant (the same candidates
accepted, in order) then report one speedup. Tables measured while the
baseline was timed in its profile's job (tools before that split) differ
there by timing noise alone, up to 9% on a kernel of a few microseconds, and
a timing the pool does not keep (the SM clock dropped) is measured anew. The
table therefore gives every configuration the median of the speedups
measured by all configurations that ended on its variant ("speedup", and per
budget "speedup_at", where the variant is that of the first K candidates),
and keeps each run's own measurement beside it ("speedup_measured",
"speedup_at_measured"). Differences between configurations are then
differences between the variants their searches kept. --pool OLD.json
writes an older table in that form (to --out), measuring nothing.

Usage: measure-outcomes.py --opt BIN/autoprof-opt --out TABLE.json
           [--configurations SPEC.json | --names NAME...] [--budget N]
           [--time-budget S] [--worker PATH] [--jobs N] [--only NAME...]
           [--extend OLD.json] MODULE_OR_DIR...
       measure-outcomes.py --pool OLD.json --out TABLE.json
       measure-outcomes.py --list-configurations
       measure-outcomes.py --write-trees DIR [--configurations SPEC.json |
           --names NAME...]

SPEC.json is a list of {"name", "groups", "metrics"} (a configuration that
collects nothing runs autoprof-optimize with no-profile=true: no counters
at all), each optionally with "modules", the module names (file stems) it
runs on where not every one (what `autoprof-learn --wanted` writes: the
modules whose kernels reach the leaf a configuration is one step from; the
table records them with the configuration); the default is "none" (that),
one configuration per Nsight Compute section, all sections together,
"launch-only" (driver-derived launch metrics: no counters, no replay) and
the two published fixed metric lists "cudaforge-24" and "kernelagent-29",
restricted to the metrics of the sm_90 catalog (docs/fixed-metric-lists.md
gives their sources and which of their metrics are left out). --names picks
built-in configurations by name; --list-configurations prints them;
--write-trees writes the one-leaf tree of each configuration and measures
nothing. A SPEC.json that cannot be read or is not such a list (an empty
one is: nothing to measure), a name given twice, a configuration whose tree
does not verify (an unknown group or metric), a budget below 1, a time
budget not above 0 and a --out that is a folder or in one that cannot be
written are refused before any run.

--extend OLD.json measures only what OLD.json lacks and writes OLD.json's
table with it added: the configurations it does not have (by name, and not
one that collects what one of its configurations collects: what
`autoprof-learn --wanted` asks for, so that the next round of learning can
try it) on every module (or on its "modules"), and the configurations it
has on the modules it did not measure with them or has a note about
(modules added to the corpus, runs that failed, a kernel that failed, runs
that were stopped).
The budget must be OLD.json's.

A table holds one optimizer's outcomes: it records the commit its tools
were built from ("tools"), and --extend refuses a table measured with other
tools (an outcome compares with another only under the same search), unless
--allow-other-tools says the two optimizers are the same (`git diff OLD NEW
-- lib include tools` is empty but for the learner, lib/Learn,
include/autoprof/Learn and tools/autoprof-learn, which no measurement
runs); the table then lists both commits.

--stop-after S starts no run after S seconds (runs already started finish):
the runs left are noted and the table written, so that a table too large
for one sitting grows by --extend in several.
"""

import argparse
import concurrent.futures
import copy
import datetime
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

SECTIONS = ["SpeedOfLight", "MemoryWorkloadAnalysis", "Occupancy",
            "LaunchStats", "SchedulerStats", "WarpStateStats",
            "ComputeWorkloadAnalysis", "InstructionStats"]

# Published fixed metric lists, as Nsight Compute metric names in their
# published order: the list CudaForge collects (run_ncu.py, METRICS) and the
# list Meta's KernelAgent collected in the 29-entry revision of
# kernel_perf_agent/kernel_opt/profiler/ncu_profiler.py (METRICS). The exact
# sources (repositories, commits) are in docs/fixed-metric-lists.md.
CUDAFORGE_24 = [
    "sm__cycles_active.avg",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "launch__occupancy_limit_blocks",
    "launch__occupancy_limit_registers",
    "launch__occupancy_limit_shared_mem",
    "launch__registers_per_thread",
    "sm__inst_executed.sum",
    "sm__inst_executed_pipe_fp32.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_tensor.avg.pct_of_peak_sustained_active",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__bytes.sum.per_second",
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__t_sector_hit_rate.pct",
    "l1tex__throughput.avg.pct_of_peak_sustained_active",
    "lts__t_sector_hit_rate.pct",
    "lts__throughput.avg.pct_of_peak_sustained_active",
    "smsp__warp_issue_stalled_memory_dependency_per_warp_active.pct",
    "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct",
    "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
    "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
    "smsp__warp_issue_stalled_branch_resolving_per_warp_active.pct",
    "smsp__sass_average_branch_targets_threads_uniform.pct",
]
KERNELAGENT_29 = [
    "sm__cycles_active.avg",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "launch__occupancy_limit_blocks",
    "launch__occupancy_limit_registers",
    "launch__occupancy_limit_shared_mem",
    "launch__registers_per_thread",
    "sm__inst_executed.sum",
    "sm__inst_executed_pipe_fp32.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_tensor.avg.pct_of_peak_sustained_active",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__bytes.sum.per_second",
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
    "launch__shared_mem_per_block_allocated",
    "l1tex__t_sector_hit_rate.pct",
    "l1tex__throughput.avg.pct_of_peak_sustained_active",
    "lts__t_sector_hit_rate.pct",
    "lts__throughput.avg.pct_of_peak_sustained_active",
    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
    "smsp__warp_issue_stalled_memory_dependency_per_warp_active.pct",
    "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct",
    "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
    "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
    "smsp__warp_issue_stalled_branch_resolving_per_warp_active.pct",
    "smsp__sass_average_branch_targets_threads_uniform.pct",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
]

# The sm_90 catalog name (lib/Profiling/MetricCatalog.cpp) collected for a
# published name that the catalog does not hold under the same name: the
# same counter under another name or normalization. None: the catalog has no
# metric for it, and it is left out. Names not listed here are catalog names.
CATALOG_NAME = {
    # Same value: warp instructions executed, summed over all SMs (sm__) or
    # over all SM sub-partitions (smsp__).
    "sm__inst_executed.sum": "smsp__inst_executed.sum",
    # Same counters, normalized to active instead of elapsed cycles (L2) or
    # the other way round (tensor pipe).
    "lts__throughput.avg.pct_of_peak_sustained_active":
        "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed":
        "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
    # Same stall counters, per issue-active cycle instead of per warp-active
    # cycle.
    "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct":
        "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active"
        ".ratio",
    "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct":
        "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active"
        ".ratio",
    "smsp__warp_issue_stalled_barrier_per_warp_active.pct":
        "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
    "smsp__warp_issue_stalled_branch_resolving_per_warp_active.pct":
        "smsp__average_warps_issue_stalled_branch_resolving_per_issue_active"
        ".ratio",
    # Not in the catalog.
    "sm__inst_executed_pipe_fp32.avg.pct_of_peak_sustained_active": None,
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed": None,
    "launch__shared_mem_per_block_allocated": None,
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct": None,
    "smsp__warp_issue_stalled_memory_dependency_per_warp_active.pct": None,
    "smsp__sass_average_branch_targets_threads_uniform.pct": None,
}


def catalog_metrics(published):
    """The catalog names collected for a published list, in its order."""
    names = []
    for name in published:
        mapped = CATALOG_NAME.get(name, name)
        if mapped is not None and mapped not in names:
            names.append(mapped)
    return names


PUBLISHED_CONFIGURATIONS = [
    {"name": "cudaforge-24", "groups": [],
     "metrics": catalog_metrics(CUDAFORGE_24), "published": CUDAFORGE_24},
    {"name": "kernelagent-29", "groups": [],
     "metrics": catalog_metrics(KERNELAGENT_29), "published": KERNELAGENT_29},
]

DEFAULT_CONFIGURATIONS = (
    [{"name": "none", "groups": [], "metrics": []},
     {"name": "launch-only", "groups": [],
      "metrics": ["launch__grid_size", "launch__block_size",
                  "launch__registers_per_thread"]}] +
    [{"name": section, "groups": [section], "metrics": []}
     for section in SECTIONS] +
    [{"name": "all-sections", "groups": SECTIONS, "metrics": []}] +
    PUBLISHED_CONFIGURATIONS)

# The search budgets a table records outcomes for (those up to --budget,
# and --budget itself): one search of budget B gives them all, since a
# search proposes in the same order whatever its budget.
BUDGETS = (1, 2, 3, 5)

# One entry of a printed `autoprof.features = {...}` dictionary.
FEATURE = re.compile(r"(\w+) = (-?[0-9][0-9.e+-]*)(?: : (?:i64|f64))?")


def leaf_tree(configuration):
    """A one-leaf profiling tree that collects `configuration`."""
    def strings(names):
        return "[" + ", ".join(json.dumps(n) for n in names) + "]"
    parts = []
    if configuration.get("groups"):
        parts.append("groups " + strings(configuration["groups"]))
    if configuration.get("metrics"):
        parts.append("metrics " + strings(configuration["metrics"]))
    return ("autoprof.tree @fixed attributes {chip = \"sm_90\", note = "
            f"\"fixed configuration {configuration['name']}\"}} {{\n"
            f"  autoprof.collect id(1) {' '.join(parts)}\n}}\n")


def runs_on(configuration, module_stem):
    """Whether `configuration` is measured on the module `module_stem`: on
    every module, unless it names its "modules" (autoprof-learn --wanted
    wants a configuration one step from a leaf only on the modules whose
    kernels reach that leaf)."""
    return module_stem in configuration.get("modules", [module_stem])


def table_configuration(configuration, ran_on):
    """What a table records of a configuration it measured on the modules
    `ran_on`: those, where it is not meant for every module."""
    entry = {"name": configuration["name"],
             "groups": configuration.get("groups", []),
             "metrics": configuration.get("metrics", [])}
    if "modules" in configuration:
        entry["modules"] = sorted(ran_on)
    return entry


def collects_nothing(configuration):
    """Whether `configuration` is no profiling at all (autoprof-optimize's
    no-profile), which no tree's leaf can express."""
    return not configuration.get("groups") and not configuration.get("metrics")


def read_configurations(parser, path):
    """The configurations of --configurations SPEC.json, or an error naming
    the file and what is wrong."""
    try:
        configurations = json.loads(pathlib.Path(path).read_text())
    except OSError as error:
        parser.error(f"--configurations {path}: cannot read it: "
                     f"{error.strerror}")
    except ValueError as error:
        parser.error(f"--configurations {path}: not JSON ({error})")
    # An empty list is one: autoprof-learn --wanted writes it when the
    # table has every configuration one step from the learned tree.
    if not isinstance(configurations, list):
        parser.error(f"--configurations {path}: expected a list of "
                     f"{{\"name\", \"groups\", \"metrics\"}}")
    names = set()
    for i, c in enumerate(configurations):
        lists = [c.get(key, []) for key in ("groups", "metrics")] \
            if isinstance(c, dict) else []
        if not isinstance(c, dict) or not isinstance(c.get("name"), str) \
                or not c["name"] or not all(
                    isinstance(names_of, list) and
                    all(isinstance(n, str) for n in names_of)
                    for names_of in lists):
            parser.error(f"--configurations {path}: entry {i}: expected "
                         f"a \"name\" and lists of \"groups\" and "
                         f"\"metrics\" names")
        if c["name"] in names:
            parser.error(f"--configurations {path}: '{c['name']}' is named "
                         f"twice")
        names.add(c["name"])
        modules = c.get("modules", ["any"])
        if not isinstance(modules, list) or not modules or \
                not all(isinstance(m, str) for m in modules):
            parser.error(f"--configurations {path}: configuration "
                         f"'{c['name']}': \"modules\" is a list of module "
                         f"names (file stems), left out for every module")
    return configurations


def check_trees(parser, opt, configurations):
    """Refuses, with autoprof-opt's diagnostic, a configuration whose
    one-leaf tree does not verify (an unknown group or metric), which
    would otherwise fail every run it has."""
    with tempfile.TemporaryDirectory(prefix="autoprof-trees-") as tmp:
        for configuration in configurations:
            if collects_nothing(configuration):
                continue
            tree = pathlib.Path(tmp) / "tree.mlir"
            tree.write_text(leaf_tree(configuration))
            try:
                proc = subprocess.run([opt, str(tree), "-o", os.devnull],
                                      capture_output=True, text=True)
            except OSError as error:
                parser.error(f"--opt {opt}: cannot run it: {error.strerror}")
            if proc.returncode != 0:
                lines = proc.stderr.strip().splitlines()
                # The first diagnostic, without the temporary file's name.
                reason = re.sub(r"^.*?:\d+:\d+: error: ", "",
                                lines[0]) if lines else "no reason given"
                parser.error(f"configuration '{configuration['name']}' "
                             f"does not make a tree that verifies: {reason}")


def write_trees(configurations, directory):
    """Writes `<name>.tree.mlir`, the one-leaf tree of each configuration
    that collects something."""
    directory.mkdir(parents=True, exist_ok=True)
    for configuration in configurations:
        if not collects_nothing(configuration):
            (directory / f"{configuration['name']}.tree.mlir").write_text(
                leaf_tree(configuration))


def kernel_features(opt, module):
    """Features per kernel, keyed as reports name kernels ("module::kernel";
    an imported kernel's binary stands for its module), from the annotated
    module."""
    proc = subprocess.run([opt, str(module), "--autoprof-extract-features"],
                          capture_output=True, text=True)
    features = {}
    if proc.returncode != 0:
        return features, proc.stderr.strip()[-300:]
    gpu_module = ""
    for line in proc.stdout.splitlines():
        opened = re.search(r"gpu\.module @([\w$.-]+)", line)
        if opened:
            gpu_module = opened.group(1)
        func = re.search(r"gpu\.func @([\w$.-]+)\(.*autoprof\.features = "
                         r"\{(.*?)\}", line)
        binary = re.search(r"gpu\.binary @([\w$.-]+)\s+\{.*autoprof\.features"
                           r" = \{(.*?)\}", line)
        if func or binary:
            match = func or binary
            scope = gpu_module if func else match.group(1)
            values = {name: float(value)
                      for name, value in FEATURE.findall(match.group(2))}
            features[f"{scope}::{match.group(1)}"] = values
            if binary:
                # The report names an imported kernel binary::entry.
                features[f"{scope}::*"] = values
    return features, ""


def prefix_outcomes(kernel, budget, imported=False):
    """The outcome of `kernel`'s search (a report's kernel) had its budget
    been k, for each k of BUDGETS below `budget` and `budget` itself:
    {k: (speedup, replay passes, profile seconds)}. A search of budget k is
    the first k candidates of a longer one (each candidate, skipped ones
    included, takes one of the budget): its speedup is the baseline's time
    over that of the last candidate accepted among them, its profiling cost
    the baseline's profile and the re-profile of each winner before the
    k-th candidate (a winner is re-profiled only while budget remains).
    An imported kernel's search does not count the families that do not
    apply to it (`imported`: its "skipped" candidates take no budget).
    Nothing for a kernel whose search failed or has no time."""
    baseline = kernel.get("baseline", {})
    base_us = baseline.get("timing", {}).get("median_us")
    if kernel.get("failed") or not base_us or not kernel.get("speedup"):
        return {}
    candidates = budget_candidates(kernel, imported)
    out = {}
    for k in sorted({b for b in BUDGETS if b < budget} | {budget}):
        best_us = base_us
        passes = baseline.get("replay_passes", 0)
        seconds = baseline.get("profile_seconds", 0.0)
        for position, candidate in enumerate(candidates[:k], start=1):
            if candidate.get("accepted"):
                best_us = candidate["timing"]["median_us"]
            if position < k:
                passes += candidate.get("replay_passes", 0)
                seconds += candidate.get("profile_seconds", 0.0)
        out[k] = (base_us / best_us, passes, seconds)
    return out


def budget_candidates(kernel, imported=False):
    """The candidates of `kernel`'s search (a report's kernel) that took its
    budget, in order: every one, but an imported kernel's "skipped" ones
    (the families that do not apply to it)."""
    return [c for c in kernel.get("candidates", [])
            if not (imported and c.get("status") == "skipped")]


def search_path(kernel, imported=False):
    """The candidates `kernel`'s search tried, in order, each as
    {"rewrite", "accepted"}: those that took the budget."""
    return [{"rewrite": c.get("rewrite", ""),
             "accepted": bool(c.get("accepted"))}
            for c in budget_candidates(kernel, imported)]


def kept_variant(path, k=None):
    """The variant a search with `path` (a table kernel's path of one
    configuration) ended on after its first `k` candidates (all, for None):
    the rewrites it accepted, in order."""
    return tuple(step["rewrite"] for step in path[:k] if step["accepted"])


def raw_outcomes(kernel):
    """`kernel` (a table's) with each run's own measurement as its outcome:
    what a table written with pooled outcomes keeps beside them."""
    kernel = dict(kernel)
    for field in ("speedup", "speedup_at"):
        if f"{field}_measured" in kernel:
            kernel[field] = kernel.pop(f"{field}_measured")
    return kernel


def pool_outcomes(kernel):
    """`kernel` (a table's, with each run's own measurement as its outcome)
    with each configuration's outcome the median of those measured by every
    configuration whose search ended on the same variant (per budget too),
    the measurements kept under "speedup_measured" and
    "speedup_at_measured". A configuration without a path keeps its own."""
    paths = kernel.get("paths", {})

    def pooled(speedups, k):
        variants = {name: kept_variant(paths[name], k) for name in speedups
                    if name in paths}
        by_variant = {}
        for name, variant in variants.items():
            by_variant.setdefault(variant, []).append(speedups[name])
        return {name: (statistics.median(by_variant[variants[name]])
                       if name in variants else value)
                for name, value in speedups.items()}

    kernel = dict(kernel)
    kernel["speedup_measured"] = kernel["speedup"]
    kernel["speedup"] = pooled(kernel["speedup"], None)
    if "speedup_at" in kernel:
        kernel["speedup_at_measured"] = kernel["speedup_at"]
        kernel["speedup_at"] = {k: pooled(values, int(k)) for k, values
                                in kernel["speedup_at"].items()}
    return kernel


def pooled_table(table):
    """`table` with every kernel's outcomes pooled by variant
    (pool_outcomes), whether they were pooled before or not."""
    table = dict(table)
    table["kernels"] = [pool_outcomes(raw_outcomes(k))
                        for k in table["kernels"]]
    return table


def read_table(parser, option, path):
    """The outcome table in `path` as written, and with its outcomes pooled
    (pooled_table); a file that cannot be read, or is not such a table, is
    an error of `option` with the reason."""
    try:
        text = pathlib.Path(path).read_text()
    except OSError as error:
        parser.error(f"{option} {path}: cannot read it: {error.strerror}")
    try:
        table = json.loads(text)
        table["configurations"]
        return table, pooled_table(table)
    except (ValueError, KeyError, TypeError, AttributeError,
            IndexError) as error:
        parser.error(f"{option} {path}: not an outcome table ({error!r})")


def modules_of(paths, only):
    for path in map(pathlib.Path, paths):
        candidates = sorted(path.glob("*.mlir")) if path.is_dir() else [path]
        for module in candidates:
            if not only or any(o in module.name for o in only):
                yield module


def main():
    parser = argparse.ArgumentParser(
        description="Measures the outcome table autoprof-learn learns from "
                    "(see this script's docstring).")
    parser.add_argument("--opt", help="the autoprof-opt to run")
    parser.add_argument("--out", help="the table to write")
    parser.add_argument("--configurations", metavar="SPEC.json",
                        help="the configurations to measure (default: the "
                             "built-in ones)")
    parser.add_argument("--names", nargs="+", default=[],
                        help="built-in configurations by name")
    parser.add_argument("--list-configurations", action="store_true",
                        help="print the built-in configurations")
    parser.add_argument("--write-trees", metavar="DIR",
                        help="write each configuration's one-leaf tree and "
                             "measure nothing")
    parser.add_argument("--budget", type=int, default=3,
                        help="candidates per kernel (default 3)")
    parser.add_argument("--time-budget", type=float, default=0.1,
                        help="seconds of timed launches per variant")
    parser.add_argument("--worker", default="",
                        help="the worker the searches use (e.g. "
                             "scripts/worker-pool.py)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="searches at once")
    parser.add_argument("--only", nargs="*", default=[],
                        help="modules whose name contains one of these")
    parser.add_argument("--extend", metavar="OLD.json",
                        help="measure only what OLD.json lacks and add it")
    parser.add_argument("--allow-other-tools", action="store_true",
                        help="extend a table measured with tools of another "
                             "commit whose optimizer is the same")
    parser.add_argument("--pool", metavar="OLD.json",
                        help="write OLD.json with its outcomes pooled by "
                             "variant to --out and measure nothing")
    parser.add_argument("--stop-after", type=float, metavar="S",
                        help="start no run after S seconds")
    parser.add_argument("modules", nargs="*")
    args = parser.parse_args()
    if args.list_configurations:
        for configuration in DEFAULT_CONFIGURATIONS:
            line = (f"{configuration['name']}: "
                    f"{len(configuration['groups'])} groups, "
                    f"{len(configuration['metrics'])} metrics")
            published = configuration.get("published")
            if published:
                left_out = [n for n in published
                            if CATALOG_NAME.get(n, n) is None]
                line += (f" ({len(published)} published, "
                         f"{len(left_out)} left out: {', '.join(left_out)})")
            print(line)
        return 0
    if args.configurations and args.names:
        parser.error("--configurations and --names exclude each other")
    configurations = (read_configurations(parser, args.configurations)
                      if args.configurations else DEFAULT_CONFIGURATIONS)
    if args.names:
        known = {c["name"]: c for c in DEFAULT_CONFIGURATIONS}
        unknown = [n for n in args.names if n not in known]
        if unknown:
            parser.error(f"unknown configuration {', '.join(unknown)} "
                         f"(known: {', '.join(known)})")
        configurations = [known[n] for n in args.names]
    if args.write_trees:
        write_trees(configurations, pathlib.Path(args.write_trees))
        return 0
    if args.pool:
        if not args.out:
            parser.error("--pool needs --out")
        _, table = read_table(parser, "--pool", args.pool)
        try:
            pathlib.Path(args.out).write_text(json.dumps(table, indent=1) +
                                              "\n")
        except OSError as error:
            parser.error(f"cannot write {args.out}: {error.strerror}")
        changed = sum(k["speedup"] != k["speedup_measured"]
                      for k in table["kernels"])
        print(f"{args.out}: {len(table['kernels'])} kernels, the outcomes "
              f"of {changed} pooled over configurations that kept one "
              f"variant")
        return 0
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.budget < 1:
        parser.error(f"--budget must be at least 1, got {args.budget}")
    if not args.time_budget > 0:
        parser.error(f"--time-budget must be positive, got "
                     f"{args.time_budget}")
    missing = [option for option, value in
               (("--opt", args.opt), ("--out", args.out),
                ("MODULE_OR_DIR", args.modules)) if not value]
    if missing:
        parser.error(f"the following arguments are required: "
                     f"{', '.join(missing)}")
    if args.stop_after is not None and args.stop_after <= 0:
        parser.error("--stop-after must be positive")
    # Refused before any run, not after them: a table that could not be
    # written.
    out_folder = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(out_folder) or not os.access(out_folder, os.W_OK):
        parser.error(f"cannot write {args.out}: {out_folder} is not a "
                     f"writable folder")
    if os.path.isdir(args.out):
        parser.error(f"cannot write {args.out}: it is a folder")
    old = None
    skip = set()
    # The tools' commit: what an extended table must have been measured
    # with, and what the provenance of every write of the table names.
    commit = tools_commit(args.opt)
    if args.extend:
        # Read and pooled before anything is measured: a table the sitting
        # could not write back is refused now, not after its runs.
        old, old_pooled = read_table(parser, "--extend", args.extend)
        old_configurations = old["configurations"]
        if old.get("budget") != args.budget:
            parser.error(f"--extend {args.extend}: its outcomes were "
                         f"measured with budget {old.get('budget')}, not "
                         f"{args.budget}")

        def collects(c):
            return (frozenset(c.get("groups", [])),
                    frozenset(c.get("metrics", [])))

        by_name = {c["name"]: c for c in old_configurations}
        measured = {collects(c) for c in old_configurations}
        for c in configurations:
            if c["name"] in by_name and collects(by_name[c["name"]]) != \
                    collects(c):
                parser.error(f"--extend {args.extend}: configuration "
                             f"'{c['name']}' there collects something else")
        # A configuration the table has under its name runs only on the
        # modules it lacks; one it has under another name does not run.
        configurations = [c for c in configurations
                          if c["name"] in by_name or
                          collects(c) not in measured]
        done = measured_pairs(old)
        skip = {(module.stem, c["name"])
                for module in modules_of(args.modules, args.only)
                for c in configurations
                if (module.stem, c["name"]) in done}
        wanted = [(module.stem, c["name"])
                  for module in modules_of(args.modules, args.only)
                  for c in configurations
                  if (module.stem, c["name"]) not in skip and
                  runs_on(c, module.stem)]
        if not wanted:
            # Nothing to run: no module's features need reading either.
            pathlib.Path(args.out).write_text(
                json.dumps(old_pooled, indent=1) + "\n")
            print(f"nothing to measure: {args.extend} has every "
                  f"configuration asked for on every module; {args.out} is "
                  f"that table")
            return 0
        # Only what is measured must come from the table's tools: a table
        # that needs nothing more is written back whatever the tools.
        others = [c for c in table_tools(old) if not same_commit(c, commit)]
        if others and commit and not args.allow_other_tools:
            parser.error(
                f"--extend {args.extend}: its outcomes were measured with "
                f"the tools of {', '.join(others)}, these are {commit}: "
                f"outcomes of two optimizers do not compare; measure a new "
                f"table, or, where `git diff {others[0]} {commit} -- lib "
                f"include tools ':!lib/Learn' ':!include/autoprof/Learn' "
                f"':!tools/autoprof-learn'` is empty (the learner, which no "
                f"measurement runs, may differ), pass --allow-other-tools")
    # A configuration whose tree does not verify would fail every run it
    # has: refused before the first (where something is to run at all).
    check_trees(parser, args.opt, configurations)
    with tempfile.TemporaryDirectory(prefix="autoprof-outcomes-") as tmp:
        return measure(args, configurations, pathlib.Path(tmp), commit, old,
                       skip)


def module_of(kernel):
    """The module (file stem) a table's kernel came from."""
    return kernel.get("module") or kernel["name"].split("/")[0]


# A note of a run: "<module file> with <configuration>: ...".
RUN_NOTE = re.compile(r"^(.+?)\.mlir with (.+?): ")


def tools_commit(opt):
    """The commit the tools were built from: what a bundle records
    (scripts/bundle.sh, share/autoprof/commit next to its bin/), else the
    checkout's HEAD; empty where neither is known."""
    stamp = pathlib.Path(os.path.abspath(opt)).parent.parent / "share" / \
        "autoprof" / "commit"
    if stamp.is_file():
        return stamp.read_text().strip()
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True,
                              cwd=pathlib.Path(__file__).resolve().parent
                              ).stdout.strip()
    except OSError:
        return ""


def same_commit(a, b):
    """Whether two abbreviations name one commit (they may differ in
    length)."""
    return a.startswith(b) or b.startswith(a)


def stop_note(module, configuration_name):
    """How a run left by --stop-after is noted begins (the seconds follow)."""
    return (f"{module.name} with {configuration_name}: not measured, "
            f"stopped after ")


def table_tools(table):
    """The commits of the tools that measured `table`, oldest first: its
    "tools", or for a table written before it recorded them, the commits its
    provenance names."""
    tools = table.get("tools")
    if isinstance(tools, list):
        return [str(t) for t in tools]
    named = re.findall(r"commit ([0-9a-f]{7,40})\b",
                       str(table.get("provenance", "")))
    return list(dict.fromkeys(named))


def measured_pairs(table):
    """(module, configuration) pairs `table` holds a measurement of: a
    kernel of the module has that configuration's outcome, and no note says
    that the run, or a kernel of it, failed or was not run (those are
    measured again)."""
    pairs = set()
    for kernel in table["kernels"]:
        for name in kernel["speedup"]:
            pairs.add((module_of(kernel), name))
    failed = {match.groups() for match in map(RUN_NOTE.match,
                                               table.get("notes", []))
              if match}
    return pairs - failed


def measure(args, configurations, work, commit, old=None,
            skip=frozenset()):
    """Runs every module under every configuration but the (module stem,
    configuration name) pairs in `skip` with the tools of `commit`, writes
    the table (with `old`, that table with these measurements added)."""
    write_trees(configurations, work)

    feature_notes = []
    runs = []
    for module in modules_of(args.modules, args.only):
        todo = [c for c in configurations
                if (module.stem, c["name"]) not in skip and
                runs_on(c, module.stem)]
        if not todo:
            continue
        features, error = kernel_features(args.opt, module)
        if error:
            feature_notes.append(f"{module.name}: no features: {error}")
            continue
        runs += [(module, features, c) for c in todo]
    start = time.monotonic()

    def optimize(run):
        """One module under one configuration: its report, or the note of
        its failure."""
        module, _, configuration = run
        name = configuration["name"]
        if args.stop_after is not None and \
                time.monotonic() - start > args.stop_after:
            return None, f"{stop_note(module, name)}{args.stop_after:g} s"
        report = work / f"{module.stem}.{name}.json"
        profile = ("no-profile=true" if collects_nothing(configuration)
                   else f"tree-file={work / (name + '.tree.mlir')}")
        # keep-going: one kernel that fails leaves the module's others
        # measured (the report lists it under failed_kernels).
        options = (f"{profile} budget={args.budget} "
                   f"time-budget={args.time_budget} report={report} "
                   f"keep-going=true")
        if args.worker:
            options += f" worker={args.worker}"
        proc = subprocess.run(
            [args.opt, str(module), f"--autoprof-optimize={options}",
             "-o", "/dev/null"], capture_output=True, text=True)
        if not report.exists():
            return None, (f"{module.name} with {name}: "
                          f"{proc.stderr.strip()[-300:]}")
        return json.loads(report.read_text()), None

    def write_table(outcomes, final):
        """Writes the table of the runs finished so far (`outcomes` holds
        (report, note) per run, (None, None) for one not finished): after
        every run, so that a sitting stopped from outside keeps what it
        measured, and once more at the end, with the summary. The file is
        replaced whole, never left half written."""
        kernels, notes, gpu = {}, list(feature_notes), ""
        for (module, features, configuration), (report, note) in zip(runs,
                                                                     outcomes):
            name = configuration["name"]
            if note:
                notes.append(note)
                continue
            if report is None:
                continue  # not finished yet
            for failure in report.get("failed_kernels", []):
                notes.append(f"{module.name} with {name}: "
                             f"{failure.get('kernel')}: "
                             f"{failure.get('reason', '')[-300:]}")
            # A kernel is named by its own name where that is unique in the
            # module, else with its gpu.module (upstream's layernorm is three
            # gpu.modules each holding a layernorm_kernel).
            shorts = [k["kernel"].split("::")[-1] for k in report["kernels"]]
            for kernel in report["kernels"]:
                scope, _, short = kernel["kernel"].rpartition("::")
                key = (f"{module.stem}/{short}" if shorts.count(short) == 1
                       else f"{module.stem}/{kernel['kernel']}")
                entry = kernels.setdefault(key, {
                    "name": key, "program": module.stem.split(".")[0],
                    "module": module.stem,
                    "features": features.get(
                        kernel["kernel"], features.get(f"{scope}::*", {})),
                    "speedup": {}, "costs": {}})
                gpu = gpu or kernel.get("gpu", "")
                imported = f"{scope}::*" in features
                by_budget = prefix_outcomes(kernel, args.budget, imported)
                if not by_budget:
                    # Left out of the table, and said why: never a zero.
                    notes.append(f"{module.name} with {name}: "
                                 f"{kernel['kernel']}: no verified outcome ("
                                 f"{kernel.get('failed') or 'no timing'})")
                    continue
                speedup, passes, seconds = by_budget[args.budget]
                entry["speedup"][name] = speedup
                entry["costs"][name] = {"passes": passes, "seconds": seconds}
                entry.setdefault("paths", {})[name] = search_path(
                    kernel, imported)
                for k, (speedup, passes, seconds) in by_budget.items():
                    entry.setdefault("speedup_at", {}).setdefault(
                        str(k), {})[name] = speedup
                    entry.setdefault("costs_at", {}).setdefault(
                        str(k), {})[name] = {"passes": passes,
                                             "seconds": seconds}
        provenance = (f"scripts/measure-outcomes.py on "
                      f"{gpu or 'an unnamed GPU'}, "
                      f"{datetime.date.today().isoformat()}, commit "
                      f"{commit or 'unknown'}, budget {args.budget}, "
                      f"time budget {args.time_budget} s")
        ran = [c for c in configurations
               if any(r[2]["name"] == c["name"] for r in runs)]
        table_configurations = [
            table_configuration(c, {r[0].stem for r in runs
                                    if r[2]["name"] == c["name"]})
            for c in ran]
        if old is not None:
            # The old table's kernels keep their features and outcomes and gain
            # the new measurements; kernels only the new runs saw come after
            # them. Its configurations come first.
            # Measurements merge with the old table's own (never with
            # outcomes pooled from them); `old` stays as it was read.
            merged = {k["name"]: copy.deepcopy(raw_outcomes(k))
                      for k in old["kernels"]}
            for name, entry in kernels.items():
                if name in merged:
                    merged[name]["speedup"].update(entry["speedup"])
                    merged[name].setdefault("costs", {}).update(entry["costs"])
                    merged[name].setdefault("paths", {}).update(
                        entry.get("paths", {}))
                    for field in ("speedup_at", "costs_at"):
                        for k, values in entry.get(field, {}).items():
                            merged[name].setdefault(field, {}).setdefault(
                                k, {}).update(values)
                else:
                    merged[name] = entry
            names = ", ".join(c["name"] for c in ran) or "none"
            modules = len({r[0] for r in runs})
            provenance = (f"{old.get('provenance', '')}; extended with "
                          f"{len(ran)} configurations ({names}) on {modules} "
                          f"modules by {provenance}")
            # A configuration measured on some modules only, and now on
            # more, is recorded with the modules of both (on every module
            # as soon as one of them was).
            now = {c["name"]: c for c in table_configurations}
            known = {c["name"] for c in old["configurations"]}
            table_configurations = [dict(c) for c in old["configurations"]] + [
                c for c in table_configurations if c["name"] not in known]
            for c in table_configurations:
                if c["name"] in known and c["name"] in now:
                    if "modules" in c and "modules" in now[c["name"]]:
                        c["modules"] = sorted(set(c["modules"]) |
                                              set(now[c["name"]]["modules"]))
                    else:
                        c.pop("modules", None)
            kernels = merged
            # An old note about a run this sitting ran (one stopped or
            # failed before, or a module whose features failed) no longer
            # holds: the run was measured, or failed now with its own note.
            # Of a run stopped again, only the old "stopped" note gives way
            # to this sitting's (a run stopped in several sittings is noted
            # once), while what an earlier sitting found (a kernel that
            # failed) stays.
            done, stopped_again = set(), set()
            for (module, _, configuration), (report, note) in zip(runs,
                                                                  outcomes):
                stop = stop_note(module, configuration["name"])
                if note is not None and note.startswith(stop):
                    stopped_again.add(stop)
                elif report is not None or note is not None:
                    done.add(f"{module.name} with {configuration['name']}:")
            done |= {f"{module.name}: no features:" for module, _, _ in runs}
            notes = [n for n in old.get("notes", [])
                     if not any(n.startswith(d) for d in done)
                     and not any(n.startswith(s) for s in stopped_again)
                     ] + notes
        # Each note once.
        notes = list(dict.fromkeys(notes))
        # Each configuration's cost: the median over the kernels measured
        # with it (a table written before kernels carried their costs keeps
        # its own), the upper one of an even count, so that a cost in passes
        # is one a kernel paid; per budget too.
        def median(values):
            values = sorted(values)
            return values[len(values) // 2]

        for configuration in table_configurations:
            name = configuration["name"]
            measured = [k["costs"][name] for k in kernels.values()
                        if name in k.get("costs", {})]
            if measured or "cost_passes" not in configuration:
                configuration["cost_passes"] = median(
                    m["passes"] for m in measured) if measured else 0
                configuration["cost_seconds"] = median(
                    m["seconds"] for m in measured) if measured else 0.0
            at = {}
            for k in sorted({k for kernel in kernels.values()
                             for k in kernel.get("costs_at", {})}, key=int):
                costs = [kernel["costs_at"][k][name]
                         for kernel in kernels.values()
                         if name in kernel.get("costs_at", {}).get(k, {})]
                if costs:
                    at[k] = {"passes": median(c["passes"] for c in costs),
                             "seconds": median(c["seconds"] for c in costs)}
            if at:
                configuration["costs_at"] = at
        tools = table_tools(old) if old is not None else []
        if commit and not any(same_commit(t, commit) for t in tools):
            tools.append(commit)
        table = {
            "provenance": provenance,
            "tools": tools,
            "budget": args.budget,
            "configurations": table_configurations,
            "kernels": [pool_outcomes(k) for k in kernels.values()],
            "notes": notes}
        partial = pathlib.Path(f"{args.out}.partial")
        partial.write_text(json.dumps(table, indent=1) + "\n")
        os.replace(partial, args.out)
        if not final:
            return 0
        print(f"{len(kernels)} kernels x {len(table_configurations)} "
              f"configurations ({len(ran)} measured now); "
              f"{len(notes)} measurements failed or not run")
        for note in notes:
            print(f"note: {note}")
        return 0

    # --jobs runs at once (with scripts/worker-pool.py as the worker, their
    # jobs spread over the host's GPUs); the table keeps the order of runs
    # and is written after each.
    outcomes = [(None, None)] * len(runs)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(optimize, run): index
                   for index, run in enumerate(runs)}
        for future in concurrent.futures.as_completed(futures):
            outcomes[futures[future]] = future.result()
            write_table(outcomes, final=False)
    return write_table(outcomes, final=True)


if __name__ == "__main__":
    sys.exit(main())
