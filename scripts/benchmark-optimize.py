#!/usr/bin/env python3
"""Runs autoprof-optimize over the kernel corpus on a GPU host and writes a
Markdown table: per kernel the baseline and best time (median and MAD), the
speedup, the fraction of the roofline floor (measured DRAM bandwidth and an
FP32 peak), candidates tried / verified / rejected, profiling passes and
seconds; and the geometric mean speedup. A module with several kernels also
gets a row with the sums of its kernels' times.

With --torch-times (the JSON of scripts/torch-baselines.py), modules of the
upstream corpus (`<program>.<mapping>`) are compared with what PyTorch runs
for their program: PyTorch's time and PyTorch time / best time, on the
kernel's row or, for a module of several kernels, on its sum row.

With --worker scripts/worker-pool.py and --jobs N, N modules run at once and
their evaluation jobs spread over the host's GPUs, one worker per GPU
(scripts/worker-pool.py); the table is the same.

With --shard K/N only every N-th of the selected modules runs, from the K-th
(in name order): N commands of a few minutes each cover the corpus, and
--from-reports over their reports, gathered in one folder, writes the table
of the whole run. Given several folders, --from-reports takes a module's
report from the last folder that has one: a re-run of some modules replaces
their rows of an earlier run, and the table says which folder gave how many
modules and which reports were replaced.

Usage: benchmark-optimize.py --opt BIN/autoprof-opt --out DIR [--budget N]
                             [--corpus DIR] [--only NAME... [--exact]]
                             [--shard K/N]
                             [--torch-times FILE...] [--flops-peaks FILE]
                             [--worker PATH] [--jobs N]
                             [--tree-file TREE.mlir]
       benchmark-optimize.py --from-reports DIR... --out DIR   (tables only)
                             [--corpus DIR] [--torch-times FILE...]
"""

import argparse
import concurrent.futures
import itertools
import json
import math
import pathlib
import re
import subprocess
import sys
import time

# The file next to a module's report that holds what this script measured
# around the optimizer: the module's wall time and the re-verification
# verdicts by kernel ("*": the module's, for kernels not named).
BENCH_SUFFIX = ".bench.json"

# H200 SXM FP32 (non-tensor) peak, used for the compute side of the roofline.
FP32_PEAK_FLOPS = 67e12


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opt")
    parser.add_argument("--from-reports", nargs="+", metavar="DIR",
                        help="only aggregate the JSON reports in these "
                             "folders; a module's report in a later folder "
                             "replaces its report in an earlier one")
    parser.add_argument("--out", required=True)
    parser.add_argument("--budget", type=int, default=6)
    parser.add_argument("--time-budget", type=float, default=0.3)
    parser.add_argument("--corpus", default="test/Corpus",
                        help="folder of modules, relative to the repository "
                             "(test/Corpus/Upstream: the upstream corpus)")
    parser.add_argument("--reverify", action="store_true",
                        help="verify each optimized module against the "
                             "original in a run of its own, on other seeds")
    parser.add_argument("--only", nargs="*", default=[],
                        help="corpus modules whose name contains one of these")
    parser.add_argument("--exact", action="store_true",
                        help="--only names whole modules (matmul.tile16x16 "
                             "and not batch_matmul.tile16x16)")
    parser.add_argument("--shard", metavar="K/N",
                        help="run only the K-th of every N selected modules "
                             "(1 <= K <= N, in name order)")
    parser.add_argument("--torch-times", nargs="+", default=[],
                        metavar="FILE",
                        help="JSON of scripts/torch-baselines.py: adds "
                             "PyTorch columns for the upstream corpus (with "
                             "several files, each program from the one "
                             "that measured it)")
    parser.add_argument("--tree-file", metavar="TREE.mlir",
                        help="the profiling tree the optimizer selects "
                             "metrics with (default: its own, "
                             "lib/Transforms/LearnedTree.mlir)")
    parser.add_argument("--worker",
                        help="the worker the optimizer and "
                             "the re-verification "
                             "run jobs in (default: autoprof-worker next to "
                             "--opt); scripts/worker-pool.py "
                             "spreads them over "
                             "the host's GPUs")
    parser.add_argument("--floor-reasons",
                        help="JSON object: program or module name -> why "
                             "its kernels stay beyond 3x of their floor "
                             "(docs/results/floor-reasons.json); the table "
                             "ends with every such kernel and its reason")
    parser.add_argument("--flops-peaks",
                        help="JSON object: program or module name -> "
                             "{\"flops_per_s\", \"why\"}, the peak its "
                             "kernels' floor does their flops at instead of "
                             "the FP32 peak (docs/results/flops-peaks.json: "
                             "f16 products on tensor cores)")
    parser.add_argument("--split", metavar="SPLIT.json",
                        help="the corpus split (scripts/split-corpus.py: "
                             "test/Corpus/Upstream/split.json): the summary "
                             "gives the tuned and the held-out programs "
                             "apart")
    parser.add_argument("--jobs", type=int, default=1,
                        help="modules optimized at once (with "
                             "scripts/worker-pool.py as --worker: "
                             "one per GPU)")
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.tree_file and not pathlib.Path(args.tree_file).is_file():
        parser.error(f"--tree-file {args.tree_file}: no such file")
    shard = None
    if args.shard:
        match = re.fullmatch(r"(\d+)/(\d+)", args.shard)
        if not match or not 1 <= int(match[1]) <= int(match[2]):
            parser.error(f"--shard must be K/N with 1 <= K <= N, "
                         f"not '{args.shard}'")
        shard = (int(match[1]), int(match[2]))
    repo = pathlib.Path(__file__).resolve().parent.parent
    split = None
    if args.split:
        try:
            split = json.loads(pathlib.Path(args.split).read_text())
            split = {name: part for part in ("tuned", "held_out")
                     for name in split[part]}
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"--split {args.split}: {error}")
    torch_times = None
    for path in args.torch_times:
        measured = json.loads(pathlib.Path(path).read_text())
        if torch_times is None:
            torch_times = measured
            continue
        for program, entry in measured.get("programs", {}).items():
            if program in torch_times["programs"]:
                sys.exit(f"benchmark-optimize: {program} is measured in "
                         f"{path} and in an earlier --torch-times file")
            torch_times["programs"][program] = entry
    floor_reasons = (json.loads(pathlib.Path(args.floor_reasons).read_text())
                     if args.floor_reasons else {})
    # Program or module name -> {"flops_per_s", "why"}: the peak its floor
    # does its flops at instead of the FP32 one.
    flops_peaks = (json.loads(pathlib.Path(args.flops_peaks).read_text())
                   if args.flops_peaks else {})
    # Where a module's source is read to find its launches.
    module_dirs = [repo / args.corpus, repo / "test" / "Corpus" / "Upstream"]
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows, kernels = [], []
    start = time.monotonic()
    notes = []
    if args.from_reports:
        reports, replaced, counts = {}, [], []
        for folder in args.from_reports:
            found = [r for r in pathlib.Path(folder).glob("*.json")
                     if not r.name.endswith(BENCH_SUFFIX)]
            if not found:
                parser.error(f"--from-reports: no reports in '{folder}'")
            counts.append(f"{folder} ({len(found)})")
            for report in found:
                if report.name in reports:
                    replaced.append(report.stem)
                reports[report.name] = report
        if len(args.from_reports) > 1:
            notes.append("Modules' reports by folder (a later folder's "
                         "report replaces an earlier one's): "
                         + ", ".join(counts) + "; replaced: "
                         + (", ".join(sorted(replaced)) or "none") + ".")
        for name in sorted(reports):
            report = reports[name]
            # What this script measured around the optimizer (the module's
            # wall time, the re-verification verdicts), when it ran there.
            extra = report.with_name(report.stem + BENCH_SUFFIX)
            extra = json.loads(extra.read_text()) if extra.exists() else {}
            for k in json.loads(report.read_text())["kernels"]:
                if "module_wall_s" in extra:
                    k["module_wall_s"] = extra["module_wall_s"]
                if "reverified" in extra:
                    k["reverified"] = extra["reverified"].get(
                        k["kernel"], extra["reverified"].get("*", "-"))
                kernels.append((report.stem, k))
    else:
        worker = f" worker={args.worker}" if args.worker else ""
        tree = (f" tree-file={pathlib.Path(args.tree_file).resolve()}"
                if args.tree_file else "")
        modules = [m for m in sorted((repo / args.corpus).glob("*.mlir"))
                   if not args.only or any(
                       o == m.stem if args.exact else o in m.stem
                       for o in args.only)]
        if args.exact:
            missing = sorted(set(args.only) -
                             {m.stem for m in modules})
            if missing:
                sys.exit(f"benchmark-optimize: no module {', '.join(missing)}"
                         f" in {args.corpus}")
        if shard:
            modules = modules[shard[0] - 1::shard[1]]

        def optimize(module):
            """Optimizes and re-verifies one module: its kernels' rows, or
            the row of its failure."""
            report = out / f"{module.stem}.json"
            module_start = time.monotonic()
            proc = subprocess.run(
                [args.opt, str(module),
                 f"--autoprof-optimize=budget={args.budget} "
                 f"time-budget={args.time_budget} report={report}{worker}"
                 f"{tree}",
                 "-o", str(out / f"{module.stem}.opt.mlir")],
                capture_output=True, text=True)
            (out / f"{module.stem}.log").write_text(proc.stderr)
            if proc.returncode != 0 or not report.exists():
                return [], (f"| {module.stem} | failed: "
                            f"{failure_summary(proc.stderr)} "
                            f"({module.stem}.log) |")
            seconds = time.monotonic() - module_start
            verdicts = (reverify(args.opt, module,
                                 out / f"{module.stem}.opt.mlir", out, worker)
                        if args.reverify else {})
            found = []
            for k in json.loads(report.read_text())["kernels"]:
                k["module_wall_s"] = seconds
                if args.reverify:
                    k["reverified"] = verdicts.get(k["kernel"],
                                                   verdicts["*"])
                found.append((module.stem, k))
            # Next to the report, for --from-reports.
            extra = {"module_wall_s": seconds}
            if args.reverify:
                extra["reverified"] = verdicts
            (out / f"{module.stem}{BENCH_SUFFIX}").write_text(
                json.dumps(extra, indent=1) + "\n")
            return found, None

        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for found, failure in pool.map(optimize, modules):
                kernels.extend(found)
                if failure:
                    rows.append(failure)
                # Keep a table of what is done so far, in case of a time
                # limit.
                write_tables(out, kernels, rows, time.monotonic() - start,
                             torch_times, module_dirs,
                             floor_reasons=floor_reasons,
                             flops_peaks=flops_peaks, split=split)
    # Reports do not record the wall time of the run that wrote them.
    write_tables(out, kernels, rows,
                 None if args.from_reports else time.monotonic() - start,
                 torch_times, module_dirs, notes, floor_reasons, flops_peaks,
                 split)


def reverify(opt, module, optimized, out, worker=""):
    """Verifies every kernel of the optimized module against the original
    module in a run of its own, on seeds the search did not use
    (autoprof-verify-kernels); returns a verdict per kernel name."""
    proc = subprocess.run(
        [opt, str(optimized),
         f"--autoprof-verify-kernels=reference={module} seed=101{worker}",
         "-o", "/dev/null"], capture_output=True, text=True)
    (out / f"{module.stem}.reverify.log").write_text(proc.stderr)
    verdicts = {}
    for line in proc.stderr.splitlines():
        match = re.search(r"remark: @([\w$.-]+)::@([\w$.-]+) verified", line)
        if match:
            verdicts[f"{match.group(1)}::{match.group(2)}"] = "yes"
    # A kernel not verified: a failure when the run failed.
    verdicts["*"] = "FAILED" if proc.returncode != 0 else "skipped"
    return verdicts


LAUNCH = re.compile(r"gpu\.launch_func\s+@([\w$.-]+)::@([\w$.-]+)")
LOOP_OPS = ("scf.for", "scf.while", "scf.parallel", "affine.for",
            "affine.parallel")


def module_launches(module_dirs, stem):
    """The kernels a module launches, in order, as "module::kernel", and
    whether a launch sits in a host loop (then one launch's time is not the
    module's); None when the module's source is not found."""
    for folder in module_dirs:
        path = folder / f"{stem}.mlir"
        if path.exists():
            break
    else:
        return None
    launches, in_loop, regions = [], False, []
    for line in path.read_text().splitlines():
        code = line.split("//")[0].strip()
        match = LAUNCH.search(code)
        if match:
            launches.append(f"{match.group(1)}::{match.group(2)}")
            in_loop = in_loop or any(regions)
        if code.startswith("}") and regions:
            regions.pop()
        if code.endswith("{"):
            regions.append(any(f" {op} " in f" {code} " for op in LOOP_OPS))
    return (launches, in_loop) if launches else None


def best_mad_of(k):
    best_mad = k["baseline"]["timing"]["mad_us"]
    for c in k["candidates"]:
        if c.get("accepted"):
            best_mad = c["timing"]["mad_us"]
    return best_mad


def module_times(module_kernels, launches):
    """(baseline, best, MAD of best) of the whole module: the sums over its
    launches of each kernel's times (MADs added), and why
    there is none."""
    by_name = {k["kernel"]: k for k in module_kernels}
    if launches is None:
        names = [k["kernel"] for k in module_kernels]
    else:
        names, in_loop = launches
        # A kernel launched in a host loop is timed as the loop's sequence
        # of launches ("launches" > 1): its time is the module's.
        if in_loop and not all(
                by_name.get(n, {}).get("baseline", {}).get("launches", 1) > 1
                for n in names):
            return None, "a launch in a host loop"
        missing = [n for n in names if n not in by_name]
        if missing:
            return None, f"not measured: {', '.join(missing)}"
    if not names or not all(by_name[n]["best_median_us"] for n in names):
        return None, "no time"
    return (sum(by_name[n]["baseline"]["timing"]["median_us"] for n in names),
            sum(by_name[n]["best_median_us"] for n in names),
            sum(best_mad_of(by_name[n]) for n in names)), None


def torch_program(torch_times, stem):
    """The upstream program a module was lowered from, when the PyTorch
    times have it: `matmul.tile16x16` -> `matmul`."""
    if not torch_times or "." not in stem:
        return None
    program = stem.split(".")[0]
    return program if program in torch_times.get("programs", {}) else None


def compiled_time(entry):
    """torch.compile's time for a program (its `compiled` variant), or
    None where it was not measured or failed."""
    return entry.get("variants", {}).get("compiled", {}).get("median_us")


def torch_best(entry):
    """PyTorch's best time for a program: eager or torch.compile."""
    compiled = compiled_time(entry)
    eager = entry["median_us"]
    return min(eager, compiled) if compiled else eager


def torch_cells(torch_times, program, best_us):
    """The PyTorch time and ratio cells, and the ratio when it counts: the
    eager time, torch.compile's where measured, and PyTorch's best of the
    two over the best time."""
    entry = torch_times["programs"][program]
    if "error" in entry:
        return ["error", "-"], None
    time_cell = f"{entry['median_us']:.1f} ({entry['mad_us']:.2f})"
    compiled = entry.get("variants", {}).get("compiled", {})
    if "median_us" in compiled:
        time_cell += (f"; compiled {compiled['median_us']:.1f} "
                      f"({compiled['mad_us']:.2f})")
    elif "error" in compiled:
        time_cell += "; compiled: error"
    if entry.get("verified") is False:
        return [time_cell + " not verified", "-"], None
    if best_us is None:
        return [time_cell, "-"], None
    ratio = torch_best(entry) / best_us
    return [time_cell, f"{ratio:.2f}x"], ratio


def write_tables(out, kernels, rows, elapsed, torch_times=None,
                 module_dirs=(), notes=(), floor_reasons=None,
                 flops_peaks=None, split=None):
    header = ("| kernel | baseline us (MAD) | best us (MAD) | speedup | "
              "roofline fraction | tried / verified / rejected | accepted | "
              "profiling passes, s | module wall s |")
    columns = 9
    # PyTorch columns only where some module's program has a PyTorch time
    # (the hand-written corpus has none).
    if torch_times and not any(torch_program(torch_times, corpus)
                               for corpus, _ in kernels):
        torch_times = None
    reverified = any("reverified" in k for _, k in kernels)
    if reverified:
        header += " re-verified |"
        columns += 1
    if torch_times:
        if any(compiled_time(entry) for entry in
               torch_times.get("programs", {}).values()):
            header += (" PyTorch us (MAD): eager; torch.compile | vs PyTorch "
                       "(PyTorch's best us / best us) |")
        else:
            header += " PyTorch us (MAD) | vs PyTorch (PyTorch us / best us) |"
        columns += 2
    lines = [header, "|" + " --- |" * columns]
    speedups, torch_ratios, compared = [], [], []
    for corpus, group in itertools.groupby(kernels, key=lambda x: x[0]):
        module_kernels = [k for _, k in group]
        program = torch_program(torch_times, corpus)
        several = len(module_kernels) > 1
        launches = module_launches(module_dirs, corpus)
        sums, why_not = module_times(module_kernels, launches)
        for k in module_kernels:
            base = k["baseline"]["timing"]
            best_us = k["best_median_us"]
            best_mad = best_mad_of(k)
            fraction = roofline_fraction(k, corpus, flops_peaks)
            statuses = [c["status"] for c in k["candidates"]]
            tried = sum(s != "skipped" for s in statuses)
            verified = statuses.count("verified")
            rejected = statuses.count("rejected")
            speedups.append(k["speedup"])
            # The gpu.module's name: it tells apart the kernels of a module
            # whose functions share one name
            # (softmax_kernel_0::softmax_kernel).
            name = k["kernel"].split("::")[0]
            cells = [
                f"{name} ({corpus})",
                f"{base['median_us']:.1f} ({base['mad_us']:.2f})",
                f"{best_us:.1f} ({best_mad:.2f})", f"{k['speedup']:.2f}x",
                f"{fraction:.2f}", f"{tried} / {verified} / {rejected}",
                ", ".join(k["accepted"]) or "-",
                f"{k['baseline']['replay_passes']}, "
                f"{k['baseline']['profile_seconds']:.2f}",
                (f"{k['module_wall_s']:.0f}" if "module_wall_s" in k
                 else "")]
            if reverified:
                cells.append(k.get("reverified", "-"))
            if torch_times:
                if program and not several:
                    extra, ratio = torch_cells(
                        torch_times, program, sums[1] if sums else None)
                    cells += extra
                    if ratio:
                        torch_ratios.append(ratio)
                        compared.append((program, sums[1]))
                else:
                    cells += ["-", "-"] if not program else ["", ""]
            lines.append("| " + " | ".join(cells) + " |")
        if not several:
            if program and why_not:
                lines.append(f"| {corpus}: not compared with PyTorch "
                             f"({why_not}) |")
            continue
        if sums is None:
            lines.append(f"| all kernels ({corpus}): no sum ({why_not}) |")
            continue
        base_sum, best_sum, mad_sum = sums
        cells = [f"all {len(module_kernels)} kernels ({corpus}), sum",
                 f"{base_sum:.1f}", f"{best_sum:.1f} ({mad_sum:.2f})",
                 f"{base_sum / best_sum:.2f}x"] + ["-"] * (
                     6 if reverified else 5)
        if torch_times:
            if program:
                extra, ratio = torch_cells(torch_times, program, best_sum)
                cells += extra
                if ratio:
                    torch_ratios.append(ratio)
                    compared.append((program, best_sum))
            else:
                cells += ["-", "-"]
        lines.append("| " + " | ".join(cells) + " |")
    lines += rows
    geomean = geometric_mean(speedups)
    lines.append("")
    tried_total = sum(c["status"] != "skipped" for _, k in kernels
                      for c in k["candidates"])
    if elapsed is None:
        lines.append(f"Geometric mean speedup over {len(speedups)} kernels: "
                     f"{geomean:.3f}x; {tried_total} candidates measured "
                     f"(the reports do not record the wall time).")
    else:
        lines.append(f"Geometric mean speedup over {len(speedups)} kernels: "
                     f"{geomean:.3f}x; wall time {elapsed:.0f} s; "
                     f"{tried_total} candidates measured "
                     f"({tried_total / max(elapsed / 60, 1e-9):.1f} per "
                     f"minute).")
    lines += time_summary(kernels)
    if torch_times:
        lines += torch_summary(torch_times, torch_ratios, compared)
    if split:
        lines += split_summary(split, kernels, torch_ratios, compared)
    rejected_reasons = [c.get("reason", "") for _, k in kernels
                        for c in k["candidates"] if c["status"] == "rejected"]
    if reverified:
        verdicts = [k.get("reverified", "-") for _, k in kernels]
        lines.append(f"Re-verified by a separate run: "
                     f"{verdicts.count('yes')} of {len(verdicts)} kernels "
                     f"verified, {verdicts.count('FAILED')} failed, "
                     f"{verdicts.count('skipped')} not verifiable.")
    lines.append(f"Rejected candidates: {len(rejected_reasons)}.")
    lines += far_from_floor(kernels, floor_reasons or {}, flops_peaks)
    for reason in rejected_reasons[:10]:
        lines.append(f"- {reason[:300]}")
    if notes:
        lines += [""] + list(notes)
    (out / "optimize.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def flops_peak(stem, peaks=None):
    """The peak (flops per second) the floor of module `stem`'s kernels
    does their flops at: `peaks`' (--flops-peaks) for the module or its
    program, else the FP32 peak."""
    peaks = peaks or {}
    entry = peaks.get(stem, peaks.get(stem.split(".")[0]))
    return entry["flops_per_s"] if entry else FP32_PEAK_FLOPS


def roofline_fraction(k, stem, peaks=None):
    """Floor time / best time: the floor moves each buffer once (compulsory
    traffic) at the measured DRAM bandwidth, or does the flops at the FP32
    peak (or the module's peak, flops_peak)."""
    floor_s = max(
        k.get("compulsory_bytes", 0) / k["peak_dram_bytes_per_s"]
        if k["peak_dram_bytes_per_s"] else 0.0,
        k["flops_total"] / flops_peak(stem, peaks))
    best_us = k["best_median_us"]
    return floor_s / (best_us * 1e-6) if best_us else 0.0


def far_from_floor(kernels, reasons, peaks=None):
    """The kernels whose best time is more than 3x their floor, each with
    the reason `reasons` gives for its module or program, or none."""
    far = [(stem, k) for stem, k in kernels
           if roofline_fraction(k, stem, peaks) < 1 / 3]
    lines = [f"Beyond 3x of their floor (roofline fraction below 0.33): "
             f"{len(far)} kernels" + ("." if not far else ":")]
    for stem, k in far:
        reason = reasons.get(stem, reasons.get(stem.split(".")[0]))
        lines.append(f"- {k['kernel'].split('::')[0]} ({stem}): "
                     f"{roofline_fraction(k, stem, peaks):.2f}; "
                     + (f"why: {reason}" if reason else "no reason given"))
    return lines


# The parts of an evaluation's wall time the reports record ("seconds" of
# the baseline and of each candidate), in the order they happen.
TIME_PARTS = [("lower", "lowering to PTX"), ("setup", "worker setup"),
              ("gpu_wait", "waiting for the GPU's turn"),
              ("verify_inputs", "verification: inputs generated"),
              ("verify_transfers", "verification: host-device copies"),
              ("verify_kernels", "verification: kernel runs"),
              ("verify_other", "verification: comparisons and the rest"),
              ("time", "timing"),
              ("verify_timed", "verification of the timed candidate"),
              ("bandwidth", "peak bandwidth measured"),
              ("profile", "profiling"),
              ("retime", "winners re-timed alongside the incumbent")]


def failure_summary(stderr):
    """The first error autoprof-opt reported, without its location, for a
    table cell: what went wrong, not the caret line under the source."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    message = next((line for line in lines if "error: " in line),
                   lines[-1] if lines else "no output")
    message = message.split("error: ", 1)[-1]
    return message.replace("|", "\\|")


def time_summary(kernels):
    """Where the evaluations spent their time, summed over every baseline
    and candidate whose report says (the worker's start, JSON and exit are
    the worker's wall time less its parts)."""
    records = []
    for _, k in kernels:
        records.append(k["baseline"].get("seconds"))
        records += [c.get("seconds") for c in k["candidates"]]
    records = [r for r in records if r]
    if not records:
        return []
    totals = {key: sum(r.get(key, 0.0) for r in records)
              for key, _ in TIME_PARTS}
    worker = sum(r.get("worker", 0.0) for r in records)
    inside = sum(v for key, v in totals.items()
                 if key not in ("lower", "retime"))
    total = totals["lower"] + worker + totals["retime"]
    parts = [f"{label} {totals[key]:.1f} s" for key, label in TIME_PARTS]
    parts.append(f"worker process start and exit "
                 f"{max(0.0, worker - inside):.1f} s")
    return ["", f"Where the evaluation time went ({len(records)} "
            f"evaluations, {total:.1f} s): " + ", ".join(parts) + "."]


def split_summary(split, kernels, torch_ratios, compared):
    """The geometric means of the tuned and of the held-out programs apart:
    speedup over the input per kernel, and PyTorch's best time / best time
    per compared module (program: the module's name before its first dot)."""
    lines = []
    for part in ("tuned", "held_out"):
        speedups = [k["speedup"] for corpus, k in kernels
                    if split.get(corpus.split(".")[0]) == part]
        ratios = [ratio for (program, _), ratio in zip(compared, torch_ratios)
                  if split.get(program) == part]
        faster = sum(r >= 1 / 1.1 for r in ratios)
        lines.append(
            f"{part.replace('_', '-')} programs: geometric mean speedup "
            f"{geometric_mean(speedups):.3f}x over {len(speedups)} kernels; "
            f"against PyTorch {geometric_mean(ratios):.3f}x over "
            f"{len(ratios)} modules, {faster} within 1.1x of PyTorch's "
            f"time or faster.")
    outside = sorted({corpus.split(".")[0] for corpus, _ in kernels
                      if corpus.split(".")[0] not in split})
    if outside:
        lines.append("Not in the split: " + ", ".join(outside) + ".")
    lines.append("")
    return lines


def geometric_mean(values):
    return (math.exp(sum(map(math.log, values)) / len(values))
            if values else 0.0)


def torch_summary(torch_times, ratios, compared):
    """The PyTorch comparison's summary and how to read its columns."""
    device = torch_times.get("device", {})
    faster = sum(r > 1 for r in ratios)
    lines = [
        f"Against PyTorch (torch {device.get('torch', '?')}, "
        f"{device.get('gpu', '?')}): geometric mean of PyTorch time / best "
        f"time over {len(ratios)} modules: {geometric_mean(ratios):.3f}x "
        f"(above 1: the optimized module is faster); {faster} of "
        f"{len(ratios)} faster than PyTorch.",
        "",
        "PyTorch columns: what `scripts/torch-baselines.py` runs for the "
        "module's program (same shapes and dtypes, TF32 off, the worker's "
        "timing protocol: median over at least 10 runs with L2 flushed "
        "before each, MAD in parentheses; the call for each program is in "
        "its note there; `compiled`: the same call through torch.compile, "
        "default mode, compiled in the warm-up). vs PyTorch is PyTorch's "
        "best time (eager or compiled, where compiled was measured) / best "
        "time. A module "
        "of several kernels (softmax, layernorm) is compared on its `all N "
        "kernels` row: the sum over its launches of each kernel's best "
        "time, each kernel timed alone with L2 flushed, against PyTorch's "
        "time for the program's final result, often one fused kernel that "
        "keeps no intermediates. A kernel launched in a host loop (col_sum) "
        "is timed as the loop's sequence of launches, which is the module's "
        "time. A PyTorch result that did not match its reference is "
        "shown as not verified and left out of the mean."]
    # Where PyTorch spends an extra kernel on the accumulation into the
    # output that the program specifies, its time without it.
    plain = {}
    for program, _ in compared:
        variant = torch_times["programs"][program].get(
            "variants", {}).get("no_accumulation", {})
        if "median_us" in variant:
            plain[program] = variant["median_us"]
    if plain:
        mixed = [plain[program] / best_us if program in plain else ratio
                 for (program, best_us), ratio in zip(compared, ratios)]
        lines += [
            "",
            "PyTorch needs a separate kernel for the accumulation into the "
            "output these programs specify (`out +=`, `out = max(out, "
            "...)`); without it (`no_accumulation`, less work than the "
            "program): " +
            ", ".join(f"{program} {us:.1f} us"
                      for program, us in sorted(plain.items())) +
            f"; with these times the geometric mean is "
            f"{geometric_mean(mixed):.3f}x."]
    lines.append("")
    return lines


if __name__ == "__main__":
    sys.exit(main())
