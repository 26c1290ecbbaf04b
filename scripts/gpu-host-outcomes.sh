#!/usr/bin/env bash
# Measures the outcome table (scripts/measure-outcomes.py) on a GPU host
# without LLVM, from the repository root, in sittings: each run measures what
# the table in STATE_DIR lacks for SECONDS at most, writes the table there
# and keeps the worker pool's verdicts there too (scripts/worker-pool.py), so
# that the next sitting, on this host or on a fresh one given STATE_DIR back,
# neither repeats a run nor re-evaluates a candidate. Uses a bundle made with
#   scripts/bundle.sh
# at bundle/autoprof-bundle.tar.xz (or .tar.gz).
#
# Usage: scripts/gpu-host-outcomes.sh STATE_DIR SECONDS MODULE_OR_DIR...
#            [-- MEASURE-OUTCOMES OPTIONS...]
# STATE_DIR must exist (an empty one starts a new table); its outcomes.json
# is the table, its pool.tar.gz the verdicts, its gpu the GPUs the table is
# measured on (a host with others is refused); the options (e.g. --only
# tile16x16, --names ..., --budget 3) go to measure-outcomes.py. No run
# starts after SECONDS and the sitting ends by SECONDS + 70 at the latest
# (give a 10-minute command SECONDS <= 480).
# Prints measure-outcomes.py's summary.
# AUTOPROF_POOL_WORKER, when set, is the worker the pool runs (default: the
# bundle's autoprof-worker); AUTOPROF_POOL_SLOTS, the workers per GPU (default
# 3), four searches run at once for each.
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,22p' "$0" >&2; exit 2; }
state=$1 seconds=$2
shift 2
modules=() options=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do modules+=("$1"); shift; done
[ $# -gt 0 ] && { shift; options=("$@"); }
# Workers per GPU (scripts/worker-pool.py), checked before anything runs.
places=${AUTOPROF_POOL_SLOTS:-3}
if [[ ! $places =~ ^[0-9]+$ ]] || (( 10#$places < 1 )); then
  echo "gpu-host-outcomes: AUTOPROF_POOL_SLOTS '$places' is not a positive number" >&2
  exit 2
fi
places=$(( 10#$places ))
# A new table starts in a folder made for it: a STATE_DIR that does not
# exist is a mistyped or lost one, whose sitting would otherwise start a
# new table and measure again what the old one has.
if [ ! -d "$state" ]; then
  echo "gpu-host-outcomes: STATE_DIR '$state' is not a folder: make it" \
    "(mkdir) to start a new table; to go on with a table, give the folder" \
    "of its last sitting" >&2
  exit 2
fi
state=$(cd "$state" && pwd)

# One table, one kind of GPU: STATE_DIR/gpu names the GPUs of its first
# sitting, and a host with others is refused before anything runs (its
# outcomes would mix with another GPU's).
gpus_here=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null |
  sort -u | paste -sd+ -)
if [ -n "$gpus_here" ]; then
  if [ -f "$state/gpu" ] && [ "$(cat "$state/gpu")" != "$gpus_here" ]; then
    echo "gpu-host-outcomes: the table in $state was measured on" \
      "$(cat "$state/gpu"); this host has $gpus_here: give it a state" \
      "folder of its own" >&2
    exit 1
  fi
  [ -f "$state/gpu" ] || echo "$gpus_here" > "$state/gpu"
fi

work=${TMPDIR:-/tmp}/autoprof-gpu-outcomes
rm -rf "$work" && mkdir -p "$work/pool"
scripts/unpack-bundle.sh "$work" || exit 1
bin=$work/autoprof/bin
# Verdicts of earlier sittings; an archive cut short (a sitting killed while
# it was written) is said and left, not fatal.
if [ -f "$state/pool.tar.gz" ]; then
  tar -C "$work/pool" -xzf "$state/pool.tar.gz" ||
    echo "gpu-host-outcomes: $state/pool.tar.gz is damaged; its verdicts are measured again" >&2
fi

extend=()
[ -f "$state/outcomes.json" ] && extend=(--extend "$state/outcomes.json")
# Searches compile on the CPU while others hold the GPUs, and each runs one
# job at a time: four per place of the pool (AUTOPROF_POOL_SLOTS workers per
# GPU take turns on it; docs/results/gpu-turns-h100.md).
gpus=$(python3 scripts/worker-pool.py --list-gpus | wc -l)
export AUTOPROF_POOL_DIR=$work/pool
export AUTOPROF_POOL_WORKER=${AUTOPROF_POOL_WORKER:-$bin/autoprof-worker}
status=0
# No run starts after SECONDS; runs under way get 60 s more, then the
# sitting is stopped (the table is written after every run, so what finished
# stays). The modules come before the options, which may take lists.
timeout -k 10 $(( seconds + 60 )) \
  python3 scripts/measure-outcomes.py --opt "$bin/autoprof-opt" \
  --worker scripts/worker-pool.py --jobs $(( 4 * places * (gpus > 0 ? gpus : 1) )) \
  --stop-after "$seconds" "${extend[@]}" --out "$work/outcomes.json" \
  "${modules[@]}" "${options[@]}" || status=$?
# The table and the verdicts survive a failed or stopped run: what was
# measured stays. Each file is replaced whole.
if [ -f "$work/outcomes.json" ]; then
  cp "$work/outcomes.json" "$state/outcomes.json.partial"
  mv "$state/outcomes.json.partial" "$state/outcomes.json"
fi
mkdir -p "$work/pool/cache"
tar -C "$work/pool" -czf "$state/pool.tar.gz.partial" cache
mv "$state/pool.tar.gz.partial" "$state/pool.tar.gz"
exit $status
