#!/usr/bin/env bash
# Builds the libFuzzer targets of test/Fuzz with clang (AddressSanitizer and
# coverage instrumentation) in ./build-fuzz (or $AUTOPROF_FUZZ_BUILD_DIR) and
# runs each for a bounded time on a copy of its seed corpus
# (test/Fuzz/corpus/<target>/; the repository is never written to). A target
# fails when it finds a crash, a leak or a slow input; the input is saved
# under <build>/fuzz-artifacts/<target>/ and its path printed. Ends with the
# line "N fuzz targets passed, N failed".
#
# Usage: scripts/fuzz.sh [TARGET...]   (default: every target)
#   AUTOPROF_FUZZ_SECONDS   fuzzing time per target (default 60; 0 runs the
#                           seed corpus once, as a regression test)
#   AUTOPROF_FUZZ_BUILD_DIR build directory (default build-fuzz)
#   AUTOPROF_FUZZ_FLAGS     more libFuzzer flags, e.g. "-max_len=8192"
#   AUTOPROF_FUZZ_CXX       C++ compiler (default clang++-22)
#   AUTOPROF_FUZZ_CC        C compiler (default clang-22)
# Run scripts/setup.sh first on a fresh machine (it installs clang-22 and its
# libFuzzer runtime).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${AUTOPROF_FUZZ_BUILD_DIR:-build-fuzz}
seconds=${AUTOPROF_FUZZ_SECONDS:-60}
all=(tree-fuzzer job-fuzzer answer-fuzzer ptx-fuzzer cubin-fuzzer spec-fuzzer
  table-fuzzer)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

fail_all() {
  echo "fuzz: $1" >&2
  echo "0 fuzz targets passed, ${#targets[@]} failed"
  exit 1
}

case $seconds in
  '' | *[!0-9]*) fail_all "AUTOPROF_FUZZ_SECONDS must be a whole number" ;;
esac
if [ "$seconds" = 0 ]; then
  limit=(-runs=0)
else
  limit=(-max_total_time="$seconds")
fi

for target in "${targets[@]}"; do
  [ -d "test/Fuzz/corpus/$target" ] || fail_all "no fuzz target '$target'"
done

# The clang of the LLVM release AutoProf builds against: older ones cannot
# compile the sources (clang 14 refuses the structured bindings that lambdas
# capture, a C++20 feature g++ accepts in C++17 mode).
cxx=${AUTOPROF_FUZZ_CXX:-clang++-22}
cc=${AUTOPROF_FUZZ_CC:-clang-22}
command -v "$cxx" >/dev/null && command -v "$cc" >/dev/null ||
  fail_all "$cxx or $cc not found; scripts/setup.sh installs clang-22"

# A clang without its libFuzzer runtime fails only at the first link; say so
# before a long build.
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '%s\n' '#include <cstddef>' '#include <cstdint>' \
  'extern "C" int LLVMFuzzerTestOneInput(const uint8_t *, size_t) {' \
  '  return 0;' '}' >"$probe/probe.cpp"
"$cxx" -fsanitize=fuzzer,address "$probe/probe.cpp" -o "$probe/probe" \
  >"$probe/log" 2>&1 ||
  { cat "$probe/log" >&2
    fail_all "$cxx cannot link a libFuzzer target (no libclang-rt-22-dev?)"; }

args=(-G Ninja -S . -B "$build"
  -DCMAKE_BUILD_TYPE=Release
  # OSS-Fuzz's optimization level: fast enough to fuzz, quick to compile.
  "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG"
  "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG"
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc"
  -DAUTOPROF_ENABLE_FUZZERS=ON
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit)
command -v ccache >/dev/null && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
command -v ld.lld >/dev/null && args+=(-DLLVM_USE_LINKER=lld)

start=$SECONDS
cmake "${args[@]}" >"$probe/log" 2>&1 ||
  { cat "$probe/log" >&2; fail_all "configuring $build failed"; }
ninja -C "$build" "${targets[@]}" ||
  fail_all "building the fuzz targets failed"
echo "fuzz: built ${targets[*]} in $((SECONDS - start)) s"

case $build in
  /*) artifactsRoot=$build/fuzz-artifacts ;;
  *) artifactsRoot=$PWD/$build/fuzz-artifacts ;;
esac
passed=0
failed=0
for target in "${targets[@]}"; do
  work=$(mktemp -d)
  artifacts=$artifactsRoot/$target
  mkdir -p "$artifacts"
  cp -R "test/Fuzz/corpus/$target" "$work/corpus"
  # -timeout: an input that takes this long is a bug (a hang), not a slow
  # machine. libFuzzer runs LeakSanitizer after an input that allocated
  # more than it freed, so a leak fails the target too.
  "$build/bin/$target" "$work/corpus" \
    "${limit[@]}" -timeout=30 -rss_limit_mb=4096 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 \
    ${AUTOPROF_FUZZ_FLAGS:-} >"$work/log" 2>&1
  status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" |
    tail -n 1)
  if [ "$status" = 0 ]; then
    passed=$((passed + 1))
    echo "fuzz: $target passed (${runs:-0} inputs)"
  else
    failed=$((failed + 1))
    tail -n 40 "$work/log" >&2
    saved=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$work/log" |
      tail -n 1)
    echo "fuzz: $target FAILED (exit $status); input saved to ${saved:-<none>}"
    if [ -n "$saved" ]; then
      echo "fuzz: reproduce with: $build/bin/$target $saved"
    fi
  fi
  rm -rf "$work"
done
echo "$passed fuzz targets passed, $failed failed"
[ "$failed" = 0 ]
