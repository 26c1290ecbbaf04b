#!/usr/bin/env bash
# Runs the whole lit suite, GPU tests included, on a GPU host without LLVM,
# from the repository root, using a bundle made here with
#   scripts/bundle.sh --with-test-tools
# and copied to bundle/autoprof-bundle.tar.xz on the host. Ends with
# "N passed, N failed, N skipped" like scripts/test.sh; lit lists the slowest
# tests before it (--time-tests), to see where the GPU time goes.
#
# The run requires what a GPU host has (the GPU and its driver, ptxas,
# NVRTC, the worker, Triton with PyTorch): where one is missing it fails
# instead of skipping the tests that need it. AUTOPROF_REQUIRE replaces the
# list (comma-separated lit features; empty requires nothing).
set -uo pipefail
repo=$(pwd)
work=${TMPDIR:-/tmp}/autoprof-gpu-tests
rm -rf "$work" && mkdir -p "$work/build/test"
scripts/unpack-bundle.sh "$work" || exit 1
bin=$work/autoprof/bin
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)

cat > "$work/build/test/lit.site.cfg.py" <<CFG
config.llvm_tools_dir = "$bin"
config.autoprof_obj_root = "$work/build"
config.autoprof_tools_dir = "$bin"
config.autoprof_unit_tests_dir = "$work/build/test/Unit"
config.ptxas_executable = "$ptxas"
config.have_ptxas = 1
import lit.llvm
lit.llvm.initialize(lit_config, config)
lit_config.load_config(config, "$repo/test/lit.cfg.py")
CFG

log=$work/lit.log
require=${AUTOPROF_REQUIRE-cuda-device,ptxas,nvrtc,autoprof-worker,triton}
PYTHONPATH=$work/autoprof/share/lit python3 -c "from lit.main import main; main()" -v --time-tests \
  --param "autoprof_require=$require" "$work/build/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() {
  sed -n "s/^ *$1 *: *\([0-9][0-9]*\) (.*/\1/p" "$log" | head -n 1 | grep . || echo 0
}
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count Unresolved) + $(count "Timed Out") ))
skipped=$(count Unsupported)
if [ "$status" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
