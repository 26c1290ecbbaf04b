#!/usr/bin/env bash
# Run on a GPU host from the repository root after copying
# bundle/autoprof-bundle.tar.xz there: unpacks the bundle, checks that its
# tools find every shared library, lowers every corpus kernel to PTX with the
# bundled autoprof-opt, assembles the PTX with the host's ptxas and loads it
# into the CUDA driver (JIT to the real GPU). Prints one line per kernel file
# and a final "N passed, N failed" line.
set -uo pipefail
work=${TMPDIR:-/tmp}/autoprof-bundle-check
rm -rf "$work" && mkdir -p "$work"
scripts/unpack-bundle.sh "$work" || exit 1
opt=$work/autoprof/bin/autoprof-opt

echo "== host"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true
ptxas --version | tail -n 1 || true
echo "== shared libraries of the bundled autoprof-opt"
ldd "$opt" | grep -E "not found|libLLVM|libz3|libstdc" || true
if ldd "$opt" | grep -q "not found"; then
  echo "bundle: missing shared libraries"; echo "0 passed, 1 failed"; exit 1
fi

passed=0 failed=0
for mlir in test/Corpus/*.mlir; do
  name=$(basename "$mlir" .mlir)
  dir=$work/ptx/$name
  if "$opt" "$mlir" --autoprof-lower-to-ptx="ptx-dir=$dir" -o /dev/null &&
     ptxas --gpu-name sm_90 "$dir/kernels.ptx" -o "$dir/kernels.cubin" &&
     python3 - "$dir/kernels.ptx" <<'PY'
import ctypes, sys
cuda = ctypes.CDLL("libcuda.so.1")
def check(status, what):
    if status != 0:
        raise SystemExit(f"{what} failed with CUresult {status}")
check(cuda.cuInit(0), "cuInit")
device, context, module = ctypes.c_int(), ctypes.c_void_p(), ctypes.c_void_p()
check(cuda.cuDeviceGet(ctypes.byref(device), 0), "cuDeviceGet")
check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(context), device), "cuDevicePrimaryCtxRetain")
check(cuda.cuCtxSetCurrent(context), "cuCtxSetCurrent")
ptx = open(sys.argv[1], "rb").read() + b"\0"
check(cuda.cuModuleLoadData(ctypes.byref(module), ptx), "cuModuleLoadData")
PY
  then
    echo "PASS $name"; passed=$((passed + 1))
  else
    echo "FAIL $name"; failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
