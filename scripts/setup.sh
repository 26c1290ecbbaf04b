#!/usr/bin/env bash
# Installs what AutoProf needs to build and test on a fresh Debian 12 or
# Ubuntu 24.04 machine. Safe to run again: it only installs what is missing
# and stops with a clear message when a package cannot be had.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 pkg-config
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libcurl4-openssl-dev libgtest-dev
  xz-utils file
  # scripts/fuzz.sh: the clang of the same LLVM release and its libFuzzer and
  # AddressSanitizer runtimes (on Ubuntu 24.04 also from apt.llvm.org's
  # llvm-toolchain-noble-22).
  clang-22 libclang-rt-22-dev
  # scripts/worker-pool.py across Open MPI ranks (test/Scripts/worker-pool-mpi.test).
  openmpi-bin python3-mpi4py
  # The Python package (python/) and its tests: scripts/python-tests.sh.
  python3-venv python3-setuptools python3-wheel python3-matplotlib
  python3-pytest
)

missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$pkg")
done

if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null ||
      { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  unavailable=()
  for pkg in "${missing[@]}"; do
    candidate=$(apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ {print $2}')
    if [ -z "$candidate" ] || [ "$candidate" = "(none)" ]; then
      unavailable+=("$pkg")
    fi
  done
  if [ ${#unavailable[@]} -gt 0 ]; then
    cat >&2 <<MSG
setup: these packages are not available from this machine's apt sources:
  ${unavailable[*]}
AutoProf needs LLVM/MLIR 22. Debian 12 ships them (bookworm-security); on
Ubuntu 24.04 add the LLVM 22 apt repository of apt.llvm.org
(llvm-toolchain-noble-22) and run this script again.
MSG
    exit 1
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi

# Optional helpers that speed up rebuilds, and the browser the HTML report's
# test renders the page in; their absence is not an error (that test is then
# skipped, and says so).
for optional in ccache lld chromium; do
  if ! command -v "$optional" >/dev/null && [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$optional" \
      >/dev/null 2>&1 || true
  fi
done

test -f /usr/lib/llvm-22/lib/cmake/mlir/MLIRConfig.cmake ||
  { echo "setup: MLIR 22 CMake files are missing after install" >&2; exit 1; }
test -x /usr/lib/llvm-22/bin/lit ||
  { echo "setup: lit (llvm-22-tools) is missing after install" >&2; exit 1; }

if command -v ptxas >/dev/null || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" ]; then
  echo "setup: ok (CUDA toolkit found: generated PTX is assembled by ptxas in the tests)"
else
  echo "setup: ok (no CUDA toolkit: tests that assemble PTX with ptxas are skipped)"
fi
