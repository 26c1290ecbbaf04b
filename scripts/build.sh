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
# Targets that exist only with parts of the CUDA toolkit: autoprof-worker
# when its headers were found, autoprof-metric-names when its CUPTI library
# was.
available=$(ninja -C "$build" -t targets all)
if grep '^autoprof-worker:' <<<"$available" >/dev/null; then
  targets+=(autoprof-worker autoprof-runtime-smoke autoprof-profiler-smoke)
fi
if grep '^autoprof-metric-names:' <<<"$available" >/dev/null; then
  targets+=(autoprof-metric-names)
fi
ninja -C "$build" "${targets[@]}" "$@"
