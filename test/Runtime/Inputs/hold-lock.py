#!/usr/bin/env python3
# Holds the GPU's lock file LOCK (flock, as a worker in its turn does) for
# SECONDS: another worker on the GPU, in the tests of the worker's turns.
import fcntl
import sys
import time

with open(sys.argv[1], "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    time.sleep(float(sys.argv[2]))
