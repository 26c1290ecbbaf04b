#!/usr/bin/env python3
"""Compares AutoProf's measurements with Nsight Compute on a GPU host.

For each corpus kernel: autoprof-opt --autoprof-profile builds the evaluation
job (and measures through the real pass); autoprof-worker re-runs the job to
get AutoProf's timing and counter values; ncu (--clock-control none) profiles
one launch of the same job for the same metric names. Also times AutoProf's
collection of one metric group against `ncu --set full` on the same kernel.
Writes a Markdown report and the raw numbers (JSON).

Usage: fidelity-vs-ncu.py --bin BUNDLE/bin --out DIR [--ncu ncu]
"""

import argparse
import json
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import time

KERNELS = [  # (corpus file, kernel, kind)
    ("saxpy", "saxpy", "elementwise"),
    ("transpose_naive", "transpose_naive", "transpose"),
    ("stencil_2d_5pt", "jacobi_5pt", "stencil"),
    ("gemm_smem_tiled", "matmul_tiled16", "gemm"),
    ("reduce_sum_atomic", "reduce_sum_atomic", "reduction"),
    ("math_transcendental", "transcendental_mix", "math"),
]
COUNTERS = [
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "smsp__inst_executed.sum",
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "smsp__sass_inst_executed_op_global_ld.sum",
    "smsp__sass_inst_executed_op_global_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "lts__t_sectors_op_read.sum",
    "sm__cycles_elapsed.avg.per_second",
]
DURATION = "gpu__time_duration.sum"
# `ncu --set full` takes tens of seconds per kernel: time it on the first few.
FULL_SET_KERNELS = 2


def group_metrics(opt, module, group):
    """The metric names of a catalog group, as the tools expand them: a
    one-leaf tree that collects the group, evaluated by select-profile."""
    tree = pathlib.Path("/tmp/autoprof-fidelity-group.tree.mlir")
    tree.write_text(f'autoprof.tree @g attributes {{chip = "sm_90"}} {{\n'
                    f'  autoprof.collect id(1) groups ["{group}"]\n}}\n')
    proc, _ = run([str(opt), str(module),
                   f"--autoprof-select-profile=tree-file={tree}"])
    match = re.search(r'autoprof\.profile = \{.*?metrics = \[([^\]]*)\]',
                      proc.stdout)
    return re.findall(r'"([^"]+)"', match.group(1)) if match else []


def run(cmd, **kwargs):
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    return proc, time.monotonic() - start


def worker_result(worker, job_path):
    proc, _ = run([worker, "--job", str(job_path), "--watchdog=300"])
    return json.loads(proc.stdout)


def ncu_values(ncu, worker, job_path, kernel, metrics, extra=()):
    cmd = [ncu, "--clock-control", "none", "--csv", "--page", "raw",
           "-k", f"regex:^{kernel}$", "--launch-count", "1",
           "--metrics", ",".join(metrics), *extra,
           worker, "--job", str(job_path)]
    proc, seconds = run(cmd)
    lines = [l for l in proc.stdout.splitlines() if l.startswith('"')]
    if len(lines) < 3:
        return {}, seconds, proc.stdout[-2000:] + proc.stderr[-2000:]
    import csv
    rows = list(csv.reader(lines))
    header, units, values = rows[0], rows[1], rows[2]
    out = {}
    for name, unit, value in zip(header, units, values):
        if name in metrics:
            try:
                number = float(value.replace(",", ""))
            except ValueError:
                continue
            # ncu reports durations in ns or us, bytes in byte/Kbyte/Mbyte.
            scale = {"usecond": 1e3, "msecond": 1e6, "nsecond": 1.0,
                     "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9,
                     "KB": 1e3, "MB": 1e6, "GB": 1e9}.get(unit, 1.0)
            out[name] = (number * scale, unit)
    return out, seconds, ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--ncu", default=shutil.which("ncu") or "ncu")
    args = parser.parse_args()
    bin_dir = pathlib.Path(args.bin)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    opt, worker = bin_dir / "autoprof-opt", bin_dir / "autoprof-worker"
    repo = pathlib.Path(__file__).resolve().parent.parent
    report, raw = [], {}
    global SOL
    SOL = group_metrics(opt, repo / "test/Corpus/saxpy.mlir", "SpeedOfLight")
    if not SOL:
        sys.exit("could not expand the SpeedOfLight group with autoprof-opt")

    for corpus, kernel, kind in KERNELS:
        jobs = out / "jobs" / corpus
        metrics = [DURATION] + COUNTERS
        proc, _ = run([str(opt), str(repo / "test/Corpus" / f"{corpus}.mlir"),
                       f"--autoprof-profile=metrics={','.join(metrics)} "
                       f"job-dir={jobs}", "-o", str(out / f"{corpus}.mlir")])
        if proc.returncode != 0:
            print(f"autoprof-profile failed on {corpus}:\n{proc.stderr}",
                  file=sys.stderr)
            continue
        job_path = jobs / f"{kernel}.json"
        ours = worker_result(worker, job_path)

        # ncu profiles one launch: a job with a single timed launch and no
        # CUPTI collection of its own.
        job = json.loads(job_path.read_text())
        job.pop("profile", None)
        job["time"] = {"warmup": 0, "min_repetitions": 1, "max_repetitions": 1,
                       "time_budget_s": 1.0, "flush_l2": True, "seed": 1}
        single = jobs / f"{kernel}.single.json"
        single.write_text(json.dumps(job))
        theirs, _, err = ncu_values(args.ncu, str(worker), single, kernel,
                                    metrics)
        if err:
            print(f"ncu failed on {kernel}: {err}", file=sys.stderr)

        # Profiling cost: one group with AutoProf vs ncu --set full.
        group_job = json.loads(job_path.read_text())
        group_job["time"] = {"warmup": 0, "min_repetitions": 1,
                             "max_repetitions": 1, "time_budget_s": 1.0,
                             "flush_l2": True, "seed": 1}
        group_job["profile"] = {"metrics": SOL}
        group_path = jobs / f"{kernel}.sol.json"
        group_path.write_text(json.dumps(group_job))
        sol = worker_result(worker, group_path)
        _, base_seconds = run([str(worker), "--job", str(single)])
        full_seconds = float("nan")
        if len(report) < FULL_SET_KERNELS:
            _, full_seconds = run([args.ncu, "--set", "full",
                                   "--clock-control", "none", "-k",
                                   f"regex:^{kernel}$", "--launch-count", "1",
                                   str(worker), "--job", str(single)])
        raw[kernel] = {"ours": ours, "ncu": theirs, "sol": sol,
                       "worker_seconds": base_seconds,
                       "ncu_full_seconds": full_seconds}
        report.append((corpus, kernel, kind, ours, theirs, sol, base_seconds,
                       full_seconds))

    (out / "fidelity.json").write_text(json.dumps(raw, indent=1))
    lines = []
    for corpus, kernel, kind, ours, theirs, sol, base, full in report:
        ours_metrics = {m["name"]: m for m in
                        ours.get("profile", {}).get("metrics", [])}
        timing = ours.get("timing", {})
        lines.append(f"### {kernel} ({kind}, test/Corpus/{corpus}.mlir)\n")
        lines.append(f"AutoProf timing: median "
                     f"{timing.get('median_us', 0):.2f} us,"
                     f" MAD {timing.get('mad_us', 0):.2f} us, p10-p90 "
                     f"{timing.get('p10_us', 0):.2f}-"
                     f"{timing.get('p90_us', 0):.2f}"
                     f" us over {timing.get('samples', 0)} launches; SM clock "
                     f"{timing.get('sm_clock_khz_before', 0)/1000:.0f}/"
                     f"{timing.get('sm_clock_khz_after', 0)/1000:.0f} MHz "
                     f"(before/after). CUPTI replay passes: "
                     f"{ours.get('profile', {}).get('replay_passes', '?')}.\n")
        lines.append("| metric | AutoProf | ncu | difference |")
        lines.append("| --- | --- | --- | --- |")
        if DURATION in theirs and "median_us" in timing:
            ncu_us = theirs[DURATION][0] / 1e3
            diff = (timing["median_us"] - ncu_us) / ncu_us * 100
            lines.append(f"| duration (timed median vs ncu {DURATION}) | "
                         f"{timing['median_us']:.2f} us | {ncu_us:.2f} us | "
                         f"{diff:+.1f}% |")
        for name in [DURATION] + COUNTERS:
            mine = ours_metrics.get(name)
            other = theirs.get(name)
            if not mine or not mine.get("collected"):
                lines.append(f"| {name} | missing ("
                             f"{mine.get('note', '') if mine else 'absent'}"
                             ") | "
                             f"{other[0] if other else 'n/a'} | |")
                continue
            value = mine["value"]
            if other:
                base_value = other[0]
                diff = ((value - base_value) / base_value * 100
                        if base_value else 0.0)
                lines.append(f"| {name} | {value:.6g} | {base_value:.6g} | "
                             f"{diff:+.2f}% |")
            else:
                lines.append(f"| {name} | {value:.6g} | n/a | |")
        sol_profile = sol.get("profile", {})
        lines.append("")
        cost = (f"Profiling cost: AutoProf collected SpeedOfLight "
                f"({len(SOL)} metrics) in "
                f"{sol_profile.get('seconds', 0):.3f} s "
                f"({sol_profile.get('replay_passes', '?')} replay passes)")
        if full == full:  # not NaN
            cost += (f"; `ncu --set full` on one launch took {full:.1f} s of "
                     f"wall time against {base:.1f} s for the same worker run "
                     f"without ncu")
        lines.append(cost + ".\n")
    (out / "fidelity.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))



if __name__ == "__main__":
    main()
