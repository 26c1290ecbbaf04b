#!/usr/bin/env bash
# Configures and builds AutoProf in ./build (or $AUTOPROF_BUILD_DIR) with
# Debian's LLVM/MLIR 22. Run scripts/setup.sh first on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${AUTOPROF_BUILD_DIR:-build}

args=(-G Ninja -S . -B "$build"
  -DCMAKE_BUILD_TYPE=Release
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit)
command -v ccache >/dev/null && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
command -v ld.lld >/dev/null && args+=(-DLLVM_USE_LINKER=lld)

cmake "${args[@]}" >/dev/null
targets=(autoprof-opt autoprof-learn autoprof-chat AutoProfUnitTests)
# autoprof-worker exists when the CUDA toolkit was found.
# (grep reads the whole list: with -q it could stop early and ninja's
# SIGPIPE would fail the pipeline under pipefail.)
if ninja -C "$build" -t targets all | grep '^autoprof-worker:' >/dev/null; then
  targets+=(autoprof-worker autoprof-runtime-smoke autoprof-profiler-smoke)
fi
# The catalog checker exists when the toolkit's CUPTI library was found.
if ninja -C "$build" -t targets all | grep '^autoprof-metric-names:' >/dev/null; then
  targets+=(autoprof-metric-names)
fi
ninja -C "$build" "${targets[@]}" "$@"
