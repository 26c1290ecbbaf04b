#!/usr/bin/env bash
# Unpacks the bundle scripts/bundle.sh made (bundle/autoprof-bundle.tar.xz,
# or .tar.gz) into DIR, from the repository root: the tools land in
# DIR/autoprof/bin. What the GPU-host scripts share.
# Usage: scripts/unpack-bundle.sh DIR
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/unpack-bundle.sh DIR" >&2; exit 2; }
mkdir -p "$1"
if [ -f bundle/autoprof-bundle.tar.xz ]; then
  tar -C "$1" -xJf bundle/autoprof-bundle.tar.xz
elif [ -f bundle/autoprof-bundle.tar.gz ]; then
  tar -C "$1" -xzf bundle/autoprof-bundle.tar.gz
else
  echo "unpack-bundle: no bundle/autoprof-bundle.tar.xz or .tar.gz" \
       "(scripts/bundle.sh makes one)" >&2
  exit 1
fi
