#!/usr/bin/env bash
# Builds a relocatable bundle of the AutoProf tools for GPU hosts that have
# no LLVM installation: bin/ with the tools, lib/ with libLLVM.so.22.1 and the
# few shared libraries an Ubuntu 24.04 host may lack; binaries find them
# through the rpath $ORIGIN/../lib. Output: bundle/autoprof-bundle.tar.xz
# (or .tar.gz with AUTOPROF_BUNDLE_COMPRESS=gzip). With --with-test-tools the
# bundle also carries lit, FileCheck, not and count, so that the lit suite
# (GPU tests included) can run on the GPU host: scripts/gpu-host-tests.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${AUTOPROF_BUILD_DIR:-build}
out=bundle
root=$out/autoprof

with_test_tools=0
[ "${1:-}" = "--with-test-tools" ] && with_test_tools=1

scripts/build.sh >/dev/null
rm -rf "$root"
mkdir -p "$root/bin" "$root/lib"
cmake --install "$build" --prefix "$root" >/dev/null

# libLLVM and libz3 (a dependency of Debian's libLLVM that Ubuntu hosts often
# lack); everything else the tools need is part of a stock Ubuntu 24.04.
tool=$root/bin/autoprof-opt
for lib in libLLVM.so.22.1 libz3.so.4; do
  path=$(ldd "$tool" | awk -v lib="$lib" '$1 == lib {print $3}')
  [ -n "$path" ] || { echo "bundle: $lib not found in ldd $tool" >&2; exit 1; }
  cp -L "$path" "$root/lib/$lib"
done

# The commit the tools were built from, for the provenance of what they
# measure on the host (which gets a copy of the files, not the history);
# "-modified" where tracked files differ from it.
mkdir -p "$root/share/autoprof"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && ! git diff --quiet HEAD 2>/dev/null; then
  commit=$commit-modified
fi
echo "$commit" > "$root/share/autoprof/commit"

if [ "$with_test_tools" = 1 ]; then
  for helper in FileCheck not count split-file; do
    cp -L "/usr/lib/llvm-22/bin/$helper" "$root/bin/"
  done
  for smoke in autoprof-runtime-smoke autoprof-profiler-smoke; do
    [ -x "$build/bin/$smoke" ] && cp "$build/bin/$smoke" "$root/bin/"
  done
  mkdir -p "$root/share"
  cp -rL /usr/lib/llvm-22/utils/lit "$root/share/lit"
  find "$root/share/lit" -name __pycache__ -prune -exec rm -rf {} +
fi

rpath=$(readelf -d "$tool" | sed -n 's/.*R\(UN\)\?PATH.*\[\(.*\)\]/\2/p')
case "$rpath" in
  '$ORIGIN/../lib'*) ;;
  *) echo "bundle: unexpected rpath '$rpath' in $tool" >&2; exit 1 ;;
esac

case "${AUTOPROF_BUNDLE_COMPRESS:-xz}" in
  gzip) tar -C "$out" -czf "$out/autoprof-bundle.tar.gz" autoprof
        echo "bundle: $out/autoprof-bundle.tar.gz" ;;
  *)    tar -C "$out" -cf - autoprof | xz -T0 -9 > "$out/autoprof-bundle.tar.xz"
        echo "bundle: $out/autoprof-bundle.tar.xz" ;;
esac
