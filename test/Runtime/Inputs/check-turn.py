#!/usr/bin/env python3
# Prints what a worker's result says of its turn on the GPU: its status,
# whether it verified, and whether it waited at least MIN seconds for the
# turn (and at most MAX, when given), for FileCheck.
import json
import sys

result = json.load(open(sys.argv[1]))
low = float(sys.argv[2])
high = float(sys.argv[3]) if len(sys.argv) > 3 else None
wait = result.get("seconds", {}).get("gpu_wait", 0.0)
within = wait >= low and (high is None or wait <= high)
print(f"status {result['status']}, verified {result.get('verified')}, "
      f"waited {'as expected' if within else f'{wait:.2f} s'}")
