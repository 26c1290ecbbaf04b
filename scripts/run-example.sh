#!/usr/bin/env bash
# Sets up, builds and runs AutoProf's main job on an example kernel module:
# kernel features -> profiling tree -> metrics to collect -> PTX for the H200.
# Steps that need a GPU are reported as skipped on machines without one.
#   scripts/run-example.sh [kernels.mlir]   (default: test/Corpus/softmax_rows.mlir)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${AUTOPROF_BUILD_DIR:-build}
input=${1:-test/Corpus/softmax_rows.mlir}
out=$build/example
opt=$build/bin/autoprof-opt

scripts/setup.sh
scripts/build.sh
mkdir -p "$out"

echo
echo "== 1. Static kernel features and profile selection ($input)"
"$opt" "$input" --autoprof-extract-features \
  --autoprof-select-profile=remarks -o "$out/selected.mlir"
echo "   annotated module: $out/selected.mlir"

echo
echo "== 2. Lowering to PTX (sm_90, +ptx80, bare-pointer ABI)"
rm -rf "$out/ptx"
"$opt" "$input" --autoprof-lower-to-ptx="ptx-dir=$out/ptx" -o "$out/lowered.mlir"
ls "$out"/ptx/*.ptx | sed 's/^/   /'

ptxas=$(command -v ptxas || echo "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas")
if [ -x "$ptxas" ]; then
  for ptx in "$out"/ptx/*.ptx; do
    "$ptxas" --gpu-name sm_90 "$ptx" -o "${ptx%.ptx}.cubin"
    echo "   ptxas accepted $(basename "$ptx") -> $(basename "${ptx%.ptx}.cubin")"
  done
else
  echo "   SKIPPED: assembling with ptxas (no CUDA toolkit found)"
fi

echo
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 &&
   [ -x "$build/bin/autoprof-worker" ]; then
  echo "== 3. Timing and profiling on the GPU (metrics chosen by the tree)"
  "$opt" "$out/selected.mlir" --autoprof-profile -o "$out/profiled.mlir"
  grep -o 'gpu.func @[A-Za-z0-9_]*\|median_us = [0-9.e+-]*\|replay_passes = [0-9]*' \
    "$out/profiled.mlir" | paste -sd' ' | sed 's/gpu.func /\n   /g'
  echo
  echo "   measurements: $out/profiled.mlir (autoprof.measurement)"
  echo
  echo "== 4. Optimizing on the GPU (built-in rewrites, verified and timed)"
  "$opt" "$input" --autoprof-optimize="budget=6 report=$out/report.json" \
    -o "$out/optimized.mlir"
  echo "   optimized module: $out/optimized.mlir; report: $out/report.json"
  echo
  echo "== 5. The report as one HTML page (python/autoprof, docs/python.md)"
  python=/usr/bin/python3
  [ -x "$python" ] || python=python3
  PYTHONPATH=python PATH="$build/bin:$PATH" "$python" -m autoprof.cli \
    report "$out/report.json" --html "$out/report.html" --tree -
else
  echo "== 3. SKIPPED: running, timing, profiling and optimizing the kernels,"
  echo "   and the report's HTML page (needs an NVIDIA GPU, and"
  echo "   autoprof-worker, which is built when the CUDA toolkit is found)."
fi
