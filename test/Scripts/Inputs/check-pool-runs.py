#!/usr/bin/env python3
# Reads the "GPU START END PID" lines pool-worker.py wrote and prints how
# many runs each GPU had and whether two runs ever overlapped on one GPU.
import collections
import sys

runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    gpu, start, end, _ = line.split()
    runs[gpu].append((float(start), float(end)))
for gpu in sorted(runs):
    spans = sorted(runs[gpu])
    overlap = any(b[0] < a[1] for a, b in zip(spans, spans[1:]))
    print(f"gpu {gpu}: {len(spans)} runs, {'overlap' if overlap else 'one at a time'}")
