#!/usr/bin/env python3
"""Measures the outcome table autoprof-learn learns from: for every kernel of
the given modules and every profiling configuration, the verified speedup
autoprof-optimize reaches with a fixed search budget when the profile it is
given is that configuration, and what collecting it cost (replay passes,
seconds). Each configuration becomes a one-leaf profiling tree passed as
tree-file=; static features come from --autoprof-extract-features. A
measurement that fails is left out of the table (never written as zero) and
listed in its "notes".

Usage: measure-outcomes.py --opt BIN/autoprof-opt --out TABLE.json
           [--configurations SPEC.json] [--budget N] [--time-budget S]
           [--worker PATH] [--only NAME...] MODULE_OR_DIR...

SPEC.json is a list of {"name", "groups", "metrics"}; the default is one
configuration per Nsight Compute section, all sections together, and
"launch-only" (driver-derived launch metrics: no counters, no replay).
"""

import argparse
import datetime
import json
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile

SECTIONS = ["SpeedOfLight", "MemoryWorkloadAnalysis", "Occupancy",
            "LaunchStats", "SchedulerStats", "WarpStateStats",
            "ComputeWorkloadAnalysis", "InstructionStats"]
DEFAULT_CONFIGURATIONS = (
    [{"name": "launch-only", "groups": [],
      "metrics": ["launch__grid_size", "launch__block_size",
                  "launch__registers_per_thread"]}] +
    [{"name": section, "groups": [section], "metrics": []}
     for section in SECTIONS] +
    [{"name": "all-sections", "groups": SECTIONS, "metrics": []}])

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


def kernel_features(opt, module):
    """Features per kernel name, from the annotated module."""
    proc = subprocess.run([opt, str(module), "--autoprof-extract-features"],
                          capture_output=True, text=True)
    features = {}
    if proc.returncode != 0:
        return features, proc.stderr.strip()[-300:]
    for line in proc.stdout.splitlines():
        match = re.search(r"gpu\.func @(\w+)\(.*autoprof\.features = \{(.*?)\}",
                          line)
        if match:
            features[match.group(1)] = {
                name: float(value)
                for name, value in FEATURE.findall(match.group(2))}
    return features, ""


def modules_of(paths, only):
    for path in map(pathlib.Path, paths):
        candidates = sorted(path.glob("*.mlir")) if path.is_dir() else [path]
        for module in candidates:
            if not only or any(o in module.name for o in only):
                yield module


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opt", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--configurations")
    parser.add_argument("--budget", type=int, default=3)
    parser.add_argument("--time-budget", type=float, default=0.1)
    parser.add_argument("--worker", default="")
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("modules", nargs="+")
    args = parser.parse_args()
    configurations = (json.loads(pathlib.Path(args.configurations).read_text())
                      if args.configurations else DEFAULT_CONFIGURATIONS)
    with tempfile.TemporaryDirectory(prefix="autoprof-outcomes-") as tmp:
        return measure(args, configurations, pathlib.Path(tmp))


def measure(args, configurations, work):
    """Runs every module under every configuration, writes the table."""
    for configuration in configurations:
        (work / f"{configuration['name']}.tree.mlir").write_text(
            leaf_tree(configuration))

    kernels, notes, costs, gpu = {}, [], {}, ""
    for module in modules_of(args.modules, args.only):
        features, error = kernel_features(args.opt, module)
        if error:
            notes.append(f"{module.name}: no features: {error}")
            continue
        for configuration in configurations:
            name = configuration["name"]
            report = work / f"{module.stem}.{name}.json"
            options = (f"tree-file={work / (name + '.tree.mlir')} "
                       f"budget={args.budget} time-budget={args.time_budget} "
                       f"report={report}")
            if args.worker:
                options += f" worker={args.worker}"
            proc = subprocess.run(
                [args.opt, str(module), f"--autoprof-optimize={options}",
                 "-o", "/dev/null"], capture_output=True, text=True)
            if proc.returncode != 0 or not report.exists():
                notes.append(f"{module.name} with {name}: "
                             f"{proc.stderr.strip()[-300:]}")
                continue
            for kernel in json.loads(report.read_text())["kernels"]:
                short = kernel["kernel"].split("::")[1]
                key = f"{module.stem}/{short}"
                entry = kernels.setdefault(key, {
                    "name": key, "program": module.stem.split(".")[0],
                    "features": features.get(short, {}), "speedup": {}})
                gpu = gpu or kernel.get("gpu", "")
                if kernel.get("speedup", 0) > 0:
                    entry["speedup"][name] = kernel["speedup"]
                baseline = kernel["baseline"]
                costs.setdefault(name, []).append(
                    (baseline["replay_passes"], baseline["profile_seconds"]))

    table_configurations = []
    for configuration in configurations:
        measured = costs.get(configuration["name"], [])
        table_configurations.append({
            "name": configuration["name"],
            "groups": configuration.get("groups", []),
            "metrics": configuration.get("metrics", []),
            "cost_passes": statistics.median(p for p, _ in measured)
            if measured else 0,
            "cost_seconds": statistics.median(s for _, s in measured)
            if measured else 0.0})
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ""
    table = {
        "provenance": (f"scripts/measure-outcomes.py on "
                       f"{gpu or 'an unnamed GPU'}, "
                       f"{datetime.date.today().isoformat()}, commit "
                       f"{commit or 'unknown'}, budget {args.budget}, "
                       f"time budget {args.time_budget} s"),
        "budget": args.budget,
        "configurations": table_configurations,
        "kernels": list(kernels.values()),
        "notes": notes}
    pathlib.Path(args.out).write_text(json.dumps(table, indent=1) + "\n")
    print(f"{len(kernels)} kernels x {len(configurations)} configurations; "
          f"{len(notes)} measurements failed")
    for note in notes:
        print(f"note: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
