#!/usr/bin/env bash
# Runs COMMAND (a bash string) as clients of a worker pool under mpirun with
# 3 ranks on this host (loopback TCP), then stops the pool:
#   with-mpi-pool.sh SOCKET LOG COMMAND
# The clients log their jobs to LOG; the ranks' own output goes to LOG.mpi.
# PYTHON is the interpreter (with mpi4py) for the pool and its clients.
set -u
python=${PYTHON:-python3}
socket=$1 log=$2 command=$3
repo=$(cd "$(dirname "$0")/../../.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI refuses to start, even on one host, when its remote launcher
# (ssh or rsh) is missing; the ranks here are all local and never use it.
command -v ssh > /dev/null || command -v rsh > /dev/null ||
  export OMPI_MCA_plm_rsh_agent=false
rm -f "$socket"
mpirun -np 3 --oversubscribe --mca btl self,tcp --mca btl_tcp_if_include lo \
  "$python" "$repo/scripts/worker-pool.py" --serve-mpi "$socket" > "$log.mpi" 2>&1 &
pool=$!
for _ in $(seq 300); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { echo "with-mpi-pool: the pool did not start" >&2; cat "$log.mpi" >&2; exit 1; }
AUTOPROF_POOL_SOCKET=$socket AUTOPROF_POOL_DIR=$(dirname "$log")/pool \
  AUTOPROF_POOL_LOG=$log bash -c "$command"
status=$?
"$python" "$repo/scripts/worker-pool.py" --stop-mpi "$socket"
wait $pool || { echo "with-mpi-pool: mpirun failed" >&2; cat "$log.mpi" >&2; exit 1; }
exit $status
