#!/usr/bin/env python3
# Reads the lines pool-worker.py wrote and prints, for each GPU, how many
# runs it had, whether two turns on it ever overlapped, the most workers it
# had at once and whether each worker took its turns on its own GPU's lock.
import collections
import sys


def most_at_once(spans):
    events = sorted([(b, 1) for b, _ in spans] + [(f, -1) for _, f in spans])
    now = most = 0
    for _, step in events:
        now += step
        most = max(most, now)
    return most


turns = collections.defaultdict(list)
workers = collections.defaultdict(list)
locks = collections.defaultdict(set)
for line in open(sys.argv[1]):
    gpu, start, end, _, begin, finish, lock = line.split()
    turns[gpu].append((float(start), float(end)))
    workers[gpu].append((float(begin), float(finish)))
    locks[gpu].add(lock)
for gpu in sorted(turns):
    spans = sorted(turns[gpu])
    overlap = any(b[0] < a[1] for a, b in zip(spans, spans[1:]))
    lock = ("its own lock" if locks[gpu] == {f"gpu{gpu}.lock"}
            else "locks " + ",".join(sorted(locks[gpu])))
    print(f"gpu {gpu}: {len(spans)} runs, "
          f"{'overlap' if overlap else 'one at a time'} on the GPU, "
          f"workers at once: {most_at_once(workers[gpu])}, {lock}")
