#!/usr/bin/env python3
"""Spreads evaluation jobs over the GPUs of a host and keeps their results by
content: a stand-in for autoprof-worker (the same command line, `--job J
--result R [--watchdog=S]`) that `--autoprof-optimize="worker=..."` and the
runners (scripts/benchmark-optimize.py, scripts/measure-outcomes.py) can use
unchanged.

For each job it
  1. computes the job's key: SHA-256 of the job's JSON (device index left
     out), the worker executable's contents and the name of the GPUs it may
     run on; a result stored under that key is the answer (a candidate's
     verification and timing do not depend on which search asked for them);
  2. otherwise takes a free place on a GPU: AUTOPROF_POOL_SLOTS lock files
     per GPU (fcntl.flock), so that however many optimizer processes share
     the host, that many workers run per GPU;
  3. runs the real worker on that GPU alone (CUDA_VISIBLE_DEVICES, the job's
     device set to 0) with the GPU's lock file in AUTOPROF_GPU_LOCK: the
     workers of one GPU start, create their contexts and load their kernels
     side by side and run on the GPU in turns, one at a time (verification,
     timing and profiling need the GPU to themselves;
     include/autoprof/Runtime/GpuTurn.h);
  4. when the worker dies without a result (killed by a signal, or exits
     without writing one) or reports an error (a lost device, a driver that
     does not answer), runs the job again on another GPU, up to
     AUTOPROF_POOL_ATTEMPTS times; a verdict on the candidate ("ok" or
     "rejected", a hang stopped by the watchdog included) is final;
  5. stores a verdict under its key (written to a temporary file in the
     cache folder, then renamed: readers never see half a file; errors are
     not kept, nor a passed job whose timing ran while the SM clock
     dropped, which the next asker measures anew: the optimizer's
     interleaved re-timing asks again at once) and writes the result to R.
     A job asked for again while it runs (a lock file per key) waits for
     that verdict instead of running twice.
Every job is one line of the log (AUTOPROF_POOL_LOG): its key, GPU,
attempts, seconds and whether it came from the cache.

Configuration (environment, so that the optimizer need not know):
  AUTOPROF_POOL_WORKER   the real worker (default: autoprof-worker next to
                         this repository's build, then on PATH)
  AUTOPROF_POOL_GPUS     GPU indices, comma-separated (default: every GPU
                         nvidia-smi lists, else 0)
  AUTOPROF_POOL_SLOTS    workers per GPU at once, one of them on the GPU
                         (default 3; 1: each worker has the GPU from its
                         start to its exit)
  AUTOPROF_POOL_DIR      lock and cache folder (default:
                         $TMPDIR/autoprof-pool)
  AUTOPROF_POOL_CACHE    0 to leave the cache out (default 1)
  AUTOPROF_POOL_ATTEMPTS runs of a job before it is given up (default 2)
  AUTOPROF_POOL_LOG      file to append the job lines to

Across hosts, the pool runs under Open MPI: `mpirun -np N worker-pool.py
--serve-mpi SOCKET` makes rank 0 the coordinator, which takes the jobs of
the clients on this host through the Unix socket SOCKET and hands each to an
idle evaluating rank (ranks 1 .. N-1, one per GPU: the evaluating ranks
of a host take the GPUs of AUTOPROF_POOL_GPUS, or the host's, in rank
order; ranks that share a GPU take turns on it), so that the search
and any LLM traffic stay with the optimizer processes next to the
coordinator and the ranks only evaluate. A client is this script with
AUTOPROF_POOL_SOCKET=SOCKET set (the cache is still looked up and written on
the client's host). A job whose worker dies, or whose rank does not answer
within the job's watchdog plus AUTOPROF_POOL_GRACE seconds (default 60),
runs again on another rank; a rank that did not answer gets no more jobs,
and its late answer is dropped, so no result is counted twice.
`worker-pool.py --stop-mpi SOCKET` ends the ranks.

Usage: worker-pool.py --job JOB.json --result RESULT.json [--watchdog=S]
       worker-pool.py --list-gpus
       mpirun -np N worker-pool.py --serve-mpi SOCKET
       worker-pool.py --stop-mpi SOCKET
"""

import collections
import fcntl
import hashlib
import json
import os
import pathlib
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent


def fail(message):
    print(f"worker-pool: {message}", file=sys.stderr)
    sys.exit(2)


def find_worker():
    explicit = os.environ.get("AUTOPROF_POOL_WORKER")
    if explicit:
        if not os.access(explicit, os.X_OK):
            fail(f"AUTOPROF_POOL_WORKER '{explicit}' is not an executable")
        return explicit
    built = REPO / "build" / "bin" / "autoprof-worker"
    if built.exists():
        return str(built)
    found = shutil.which("autoprof-worker")
    if not found:
        fail("no autoprof-worker: set AUTOPROF_POOL_WORKER")
    return found


def list_gpus():
    """(index, name) of the GPUs the pool may use."""
    names = {}
    try:
        listing = subprocess.run(
            ["nvidia-smi", "--query-gpu=index,name", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=30)
        for line in listing.stdout.splitlines():
            index, _, name = line.partition(",")
            if index.strip().isdigit():
                names[int(index)] = name.strip()
    except (OSError, subprocess.TimeoutExpired):
        pass
    wanted = os.environ.get("AUTOPROF_POOL_GPUS")
    if wanted:
        try:
            indices = [int(part) for part in wanted.split(",") if part.strip()]
        except ValueError:
            fail(f"AUTOPROF_POOL_GPUS '{wanted}' is not a list of indices")
        if not indices:
            fail("AUTOPROF_POOL_GPUS names no GPU")
    else:
        indices = sorted(names) or [0]
    return [(index, names.get(index, "unknown GPU")) for index in indices]


def job_key(job, worker, gpus):
    """The content a result depends on: the job without its device index,
    the worker's code and the kind of GPU."""
    content = dict(job)
    content.pop("device", None)
    digest = hashlib.sha256()
    digest.update(json.dumps(content, sort_keys=True).encode())
    with open(worker, "rb") as code:
        digest.update(hashlib.sha256(code.read()).digest())
    digest.update("|".join(sorted({name for _, name in gpus})).encode())
    return digest.hexdigest()


def suspect(folder, index):
    """Whether GPU `index` failed a job that another GPU then ran (a lost
    device fails every job at once, and so is free the most often)."""
    return (folder / f"gpu{index}.suspect").exists()


def pool_folder():
    """The folder of the GPUs' lock files and of the cache, made if
    missing."""
    folder = pathlib.Path(os.environ.get(
        "AUTOPROF_POOL_DIR",
        pathlib.Path(tempfile.gettempdir()) / "autoprof-pool"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def slots_per_gpu():
    wanted = os.environ.get("AUTOPROF_POOL_SLOTS", "3")
    if not wanted.isdigit() or int(wanted) < 1:
        fail(f"AUTOPROF_POOL_SLOTS '{wanted}' is not a positive number")
    return int(wanted)


def acquire(folder, gpus, avoid, slots):
    """Blocks until one of `gpus` has a free place of its `slots`,
    preferring GPUs not in `avoid` and, among them, those not suspect (any
    free place of a preferred GPU first), and within each of these groups a
    GPU's first free place to another's second (the jobs spread over the
    GPUs); returns (index, open lock file of the place)."""
    groups = [[g for g in gpus if g[0] not in avoid and
               not suspect(folder, g[0])],
              [g for g in gpus if g[0] not in avoid and
               suspect(folder, g[0])],
              [g for g in gpus if g[0] in avoid]]
    while True:
        for group in groups:
            for slot in range(slots):
                for index, _ in group:
                    lock = open(folder / f"gpu{index}.slot{slot}.lock", "w")
                    try:
                        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        return index, lock
                    except BlockingIOError:
                        lock.close()
        time.sleep(0.05)


def die_with_parent(parent):
    """In the worker's process, before it runs: be killed when the pool
    process dies (autoprof-opt kills it past its deadline), so that no
    worker goes on running on a GPU whose lock is free again (Linux's
    PR_SET_PDEATHSIG; elsewhere nothing)."""
    def arm():
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            return
        if os.getppid() != parent:  # the pool died before the prctl
            os._exit(1)
    return arm


def run_once(worker, job, gpu, watchdog, scratch, turn_lock=None):
    """Runs `job` on GPU `gpu` alone, in its turns on the lock file
    `turn_lock` where given; the result, or None when the worker died
    without one."""
    job = dict(job, device=0)
    job_path = scratch / "job.json"
    result_path = scratch / "result.json"
    job_path.write_text(json.dumps(job))
    if result_path.exists():
        result_path.unlink()
    env = dict(os.environ, CUDA_VISIBLE_DEVICES=str(gpu))
    env.pop("AUTOPROF_GPU_LOCK", None)
    if turn_lock:
        env["AUTOPROF_GPU_LOCK"] = str(turn_lock)
    command = [worker, "--job", str(job_path), "--result", str(result_path)]
    if watchdog:
        command.append(watchdog)
    proc = subprocess.run(command, env=env,
                          preexec_fn=die_with_parent(os.getpid()))
    if proc.returncode < 0 or not result_path.exists():
        return None
    try:
        return json.loads(result_path.read_text())
    except json.JSONDecodeError:
        return None


# A timing whose SM clock fell below this fraction of its reading at the
# start was disturbed (throttling, another tenant): the optimizer's
# interleaved re-timing asks for the same job again then
# (lib/Optimizer/SearchDriver.cpp, kClockDropFraction), so it is not kept.
CLOCK_DROP_FRACTION = 0.95


def keepable(result):
    """Whether a result is a verdict to keep: the candidate was rejected
    (whatever the clock did), or it passed and its timing, if it has one,
    was not disturbed."""
    if result.get("status") == "rejected":
        return True
    if result.get("status") != "ok":
        return False
    timing = result.get("timing") or {}
    before = timing.get("sm_clock_khz_before", 0)
    lowest = timing.get("sm_clock_khz_min", 0)
    return not (before > 0 and 0 < lowest < CLOCK_DROP_FRACTION * before)


def store(folder, key, result):
    cache = folder / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=cache, suffix=".tmp")
    with os.fdopen(handle, "w") as out:
        json.dump(result, out)
    os.replace(temporary, cache / f"{key}.json")


def attempts_allowed():
    try:
        return max(1, int(os.environ.get("AUTOPROF_POOL_ATTEMPTS", "2")))
    except ValueError:
        fail("AUTOPROF_POOL_ATTEMPTS is not a number")


def died(tried, what="GPUs"):
    return {"status": "error",
            "reason": f"the worker died without a result on {len(tried)} "
                      f"attempt(s) ({what} {', '.join(map(str, tried))})"}


# MPI tags of the coordinator's protocol.
JOB, RESULT, STOP = 1, 2, 3


def serve_mpi(path):
    """Rank 0: takes jobs from clients on the Unix socket `path` and hands
    them to idle evaluating ranks. The other ranks: run the jobs on their
    GPU."""
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    # The evaluating ranks of each host take its GPUs in rank order.
    hosts = comm.allgather(MPI.Get_processor_name())
    if rank != 0:
        peers = [r for r in range(1, size) if hosts[r] == hosts[rank]]
        evaluate_mpi(comm, rank, peers.index(rank))
        return 0
    if size < 2:
        fail("--serve-mpi needs at least 2 ranks (a coordinator and an "
             "evaluating rank)")
    try:
        grace = float(os.environ.get("AUTOPROF_POOL_GRACE", "60"))
    except ValueError:
        fail("AUTOPROF_POOL_GRACE is not a number")
    attempts = attempts_allowed()
    if os.path.exists(path):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(64)
    server.setblocking(False)
    events = selectors.DefaultSelector()
    events.register(server, selectors.EVENT_READ)
    idle = collections.deque(range(1, size))
    dead = set()
    queue = collections.deque()   # (connection, request, ranks tried)
    # rank -> (connection, request, tried, deadline)
    running = {}
    buffers = {}
    stopping = False
    while not stopping or running:
        for key, _ in events.select(timeout=0.01):
            if key.fileobj is server:
                connection, _ = server.accept()
                connection.setblocking(False)
                buffers[connection] = b""
                events.register(connection, selectors.EVENT_READ)
                continue
            connection = key.fileobj
            chunk = connection.recv(1 << 20)
            if not chunk:
                events.unregister(connection)
                connection.close()
                buffers.pop(connection, None)
                continue
            buffers[connection] += chunk
            if not buffers[connection].endswith(b"\n"):
                continue
            request = json.loads(buffers[connection])
            buffers[connection] = b""
            if request.get("stop"):
                stopping = True
                connection.sendall(b"{}\n")
                continue
            queue.append((connection, request, []))
        # Hand queued jobs to idle ranks, preferring ranks not tried yet.
        for _ in range(len(queue)):
            if not idle:
                break
            connection, request, tried = queue.popleft()
            choice = next((r for r in idle if r not in tried), idle[0])
            idle.remove(choice)
            comm.send(request, dest=choice, tag=JOB)
            watchdog = request.get("watchdog_s") or 120
            running[choice] = (connection, request, tried + [choice],
                               time.monotonic() + watchdog + grace)
        # Answers.
        while comm.Iprobe(source=MPI.ANY_SOURCE, tag=RESULT):
            status = MPI.Status()
            answer = comm.recv(source=MPI.ANY_SOURCE, tag=RESULT,
                               status=status)
            source = status.Get_source()
            if source in dead or source not in running:
                continue  # Too late: the job ran elsewhere.
            connection, request, tried, _ = running.pop(source)
            idle.append(source)
            result = answer.get("result")
            if (result is None or result.get("status") == "error") and \
                    len(tried) < attempts and len(dead) < size - 1:
                queue.append((connection, request, tried))
                continue
            if result is None:
                result = died(tried, "ranks")
            connection.sendall((json.dumps(
                {"result": result, "ranks": tried}) + "\n").encode())
        # Ranks that did not answer in time.
        now = time.monotonic()
        for source, (connection, request, tried, deadline) in list(
                running.items()):
            if now < deadline:
                continue
            del running[source]
            dead.add(source)
            if len(tried) < attempts and len(dead) < size - 1:
                queue.append((connection, request, tried))
            else:
                connection.sendall((json.dumps(
                    {"result": {"status": "error",
                                "reason": f"rank {source} did not answer "
                                          f"within the job's deadline"},
                     "ranks": tried}) + "\n").encode())
        # Without a rank left, what waits is an error.
        if len(dead) == size - 1:
            while queue:
                connection, request, tried = queue.popleft()
                connection.sendall((json.dumps(
                    {"result": {"status": "error",
                                "reason": "no evaluating rank is left"},
                     "ranks": tried}) + "\n").encode())
        if stopping and not running and not queue:
            break
    # Every rank, the late ones too: they end once they answer.
    for other in range(1, size):
        comm.send(None, dest=other, tag=STOP)
    server.close()
    os.unlink(path)
    return 0


def evaluate_mpi(comm, rank, position):
    """An evaluating rank, the `position`-th of its host: runs each job it
    is given on that GPU of the host, in turns with the other ranks of the
    host that share it (more ranks than GPUs)."""
    from mpi4py import MPI
    worker = find_worker()
    gpus = list_gpus()
    gpu = gpus[position % len(gpus)][0]
    turn_lock = pool_folder() / f"gpu{gpu}.lock"
    scratch = pathlib.Path(tempfile.mkdtemp(prefix=f"autoprof-rank{rank}-"))
    try:
        while True:
            status = MPI.Status()
            request = comm.recv(source=0, tag=MPI.ANY_TAG, status=status)
            if status.Get_tag() == STOP:
                return
            watchdog = request.get("watchdog")
            result = run_once(worker, request["job"], gpu, watchdog, scratch,
                              turn_lock)
            comm.send({"result": result}, dest=0, tag=RESULT)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def ask_coordinator(path, request):
    """Sends one request to the coordinator and returns its answer."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        client.connect(path)
    except OSError as error:
        fail(f"cannot reach the coordinator at {path}: {error}")
    client.sendall((json.dumps(request) + "\n").encode())
    answer = b""
    while not answer.endswith(b"\n"):
        chunk = client.recv(1 << 20)
        if not chunk:
            fail(f"the coordinator at {path} closed the connection")
        answer += chunk
    client.close()
    return json.loads(answer)


def main(argv):
    if len(argv) == 2 and argv[0] == "--serve-mpi":
        return serve_mpi(argv[1])
    if len(argv) == 2 and argv[0] == "--stop-mpi":
        ask_coordinator(argv[1], {"stop": True})
        return 0
    if argv == ["--list-gpus"]:
        for index, name in list_gpus():
            print(f"{index}: {name}")
        return 0
    try:
        job_path = argv[argv.index("--job") + 1]
        result_path = argv[argv.index("--result") + 1]
    except (ValueError, IndexError):
        fail("usage: worker-pool.py --job JOB.json --result RESULT.json "
             "[--watchdog=S]")
    watchdog = next((a for a in argv if a.startswith("--watchdog=")), None)
    try:
        job = json.loads(pathlib.Path(job_path).read_text())
    except (OSError, json.JSONDecodeError) as error:
        fail(f"cannot read the job {job_path}: {error}")
    attempts = attempts_allowed()
    slots = slots_per_gpu()
    coordinator = os.environ.get("AUTOPROF_POOL_SOCKET")
    worker = find_worker()
    gpus = list_gpus()
    folder = pool_folder()
    use_cache = os.environ.get("AUTOPROF_POOL_CACHE", "1") != "0"
    key = job_key(job, worker, gpus)
    start = time.monotonic()
    cached = folder / "cache" / f"{key}.json"
    result, tried = None, []
    # The same job asked for twice at once runs once: the second asker
    # waits for the first one's verdict.
    (folder / "cache").mkdir(parents=True, exist_ok=True)
    claim = open(folder / "cache" / f"{key}.lock", "w")
    if use_cache:
        fcntl.flock(claim, fcntl.LOCK_EX)
    if use_cache and cached.exists():
        result = json.loads(cached.read_text())
    elif coordinator:
        seconds = int(watchdog.split("=")[1]) if watchdog else None
        answer = ask_coordinator(coordinator, {
            "job": job, "watchdog": watchdog, "watchdog_s": seconds})
        result, tried = answer["result"], answer["ranks"]
        if use_cache and keepable(result):
            store(folder, key, result)
    else:
        with tempfile.TemporaryDirectory(dir=folder) as scratch:
            for _ in range(attempts):
                gpu, lock = acquire(folder, gpus, set(tried), slots)
                try:
                    tried.append(gpu)
                    result = run_once(worker, job, gpu, watchdog,
                                      pathlib.Path(scratch),
                                      folder / f"gpu{gpu}.lock")
                finally:
                    lock.close()
                if result is not None and result.get("status") != "error":
                    # The GPUs that failed this job before another ran it
                    # are suspect: later jobs try them last.
                    for failed in tried[:-1]:
                        (folder / f"gpu{failed}.suspect").touch()
                    break
        if result is None:
            result = died(tried)
        elif use_cache and keepable(result):
            store(folder, key, result)
    claim.close()
    pathlib.Path(result_path).write_text(json.dumps(result))
    log = os.environ.get("AUTOPROF_POOL_LOG")
    if log:
        line = {"key": key[:16], "cached": not tried,
                "ranks" if coordinator else "gpus": tried,
                "status": result.get("status"),
                "seconds": round(time.monotonic() - start, 3)}
        with open(log, "a") as out:
            fcntl.flock(out, fcntl.LOCK_EX)
            out.write(json.dumps(line) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
