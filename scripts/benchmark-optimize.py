#!/usr/bin/env python3
"""Runs autoprof-optimize over the kernel corpus on a GPU host and writes a
Markdown table: per kernel the baseline and best time (median and MAD), the
speedup, the fraction of the roofline floor (measured DRAM bandwidth and an
FP32 peak), candidates tried / verified / rejected, profiling passes and
seconds; and the geometric mean speedup.

Usage: benchmark-optimize.py --opt BIN/autoprof-opt --out DIR [--budget N]
                             [--corpus DIR] [--only NAME...]
       benchmark-optimize.py --from-reports DIR --out DIR   (tables only)
"""

import argparse
import json
import math
import pathlib
import subprocess
import sys
import time

# H200 SXM FP32 (non-tensor) peak, used for the compute side of the roofline.
FP32_PEAK_FLOPS = 67e12


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opt")
    parser.add_argument("--from-reports",
                        help="only aggregate the JSON reports in this folder")
    parser.add_argument("--out", required=True)
    parser.add_argument("--budget", type=int, default=6)
    parser.add_argument("--time-budget", type=float, default=0.3)
    parser.add_argument("--corpus", default="test/Corpus",
                        help="folder of modules, relative to the repository "
                             "(test/Corpus/Upstream: the upstream corpus)")
    parser.add_argument("--only", nargs="*", default=[],
                        help="corpus modules whose name contains one of these")
    args = parser.parse_args()
    repo = pathlib.Path(__file__).resolve().parent.parent
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows, kernels = [], []
    start = time.monotonic()
    if args.from_reports:
        for report in sorted(pathlib.Path(args.from_reports).glob("*.json")):
            for k in json.loads(report.read_text())["kernels"]:
                kernels.append((report.stem, k))
    else:
        for module in sorted((repo / args.corpus).glob("*.mlir")):
            if args.only and not any(o in module.stem for o in args.only):
                continue
            report = out / f"{module.stem}.json"
            module_start = time.monotonic()
            proc = subprocess.run(
                [args.opt, str(module),
                 f"--autoprof-optimize=budget={args.budget} "
                 f"time-budget={args.time_budget} report={report}",
                 "-o", str(out / f"{module.stem}.opt.mlir")],
                capture_output=True, text=True)
            (out / f"{module.stem}.log").write_text(proc.stderr)
            if proc.returncode != 0 or not report.exists():
                rows.append(f"| {module.stem} | failed: "
                            f"{proc.stderr.strip().splitlines()[-1:]} |")
                continue
            seconds = time.monotonic() - module_start
            for k in json.loads(report.read_text())["kernels"]:
                k["module_wall_s"] = seconds
                kernels.append((module.stem, k))
            # Keep a table of what is done so far, in case of a time limit.
            write_tables(out, kernels, rows, time.monotonic() - start)
    write_tables(out, kernels, rows, time.monotonic() - start)


def write_tables(out, kernels, rows, elapsed):
    lines = ["| kernel | baseline us (MAD) | best us (MAD) | speedup | "
             "roofline fraction | tried / verified / rejected | accepted | "
             "profiling passes, s | module wall s |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    speedups = []
    for corpus, k in kernels:
        base = k["baseline"]["timing"]
        best_us = k["best_median_us"]
        best_mad = base["mad_us"]
        for c in k["candidates"]:
            if c.get("accepted"):
                best_mad = c["timing"]["mad_us"]
        # The floor moves each buffer once (compulsory traffic) at the
        # measured DRAM bandwidth, or does the flops at the FP32 peak.
        floor_s = max(k.get("compulsory_bytes", 0) / k["peak_dram_bytes_per_s"]
                      if k["peak_dram_bytes_per_s"] else 0.0,
                      k["flops_total"] / FP32_PEAK_FLOPS)
        fraction = floor_s / (best_us * 1e-6) if best_us else 0.0
        statuses = [c["status"] for c in k["candidates"]]
        tried = sum(s != "skipped" for s in statuses)
        verified = statuses.count("verified")
        rejected = statuses.count("rejected")
        speedups.append(k["speedup"])
        lines.append(
            f"| {k['kernel'].split('::')[1]} ({corpus}) | "
            f"{base['median_us']:.1f} ({base['mad_us']:.2f}) | "
            f"{best_us:.1f} ({best_mad:.2f}) | {k['speedup']:.2f}x | "
            f"{fraction:.2f} | {tried} / {verified} / {rejected} | "
            f"{', '.join(k['accepted']) or '-'} | "
            f"{k['baseline']['replay_passes']}, "
            f"{k['baseline']['profile_seconds']:.2f} | "
            f"{k.get('module_wall_s', 0):.0f} |")
    lines += rows
    geomean = math.exp(sum(map(math.log, speedups)) / len(speedups)) \
        if speedups else 0.0
    lines.append("")
    tried_total = sum(c["status"] != "skipped" for _, k in kernels
                      for c in k["candidates"])
    lines.append(f"Geometric mean speedup over {len(speedups)} kernels: "
                 f"{geomean:.3f}x; wall time {elapsed:.0f} s; "
                 f"{tried_total} candidates measured "
                 f"({tried_total / max(elapsed / 60, 1e-9):.1f} per minute).")
    rejected_reasons = [c.get("reason", "") for _, k in kernels
                        for c in k["candidates"] if c["status"] == "rejected"]
    lines.append(f"Rejected candidates: {len(rejected_reasons)}.")
    for reason in rejected_reasons[:10]:
        lines.append(f"- {reason[:300]}")
    (out / "optimize.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
