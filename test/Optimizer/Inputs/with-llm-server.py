#!/usr/bin/env python3
"""Runs a command next to the scripted loopback LLM server of the unit tests.

Usage: with-llm-server.py SCRIPT.json REQUESTS.jsonl -- COMMAND...
Every "{port}" in COMMAND becomes the server's port. Exits with COMMAND's
status; the server is stopped either way.
"""
import os
import pathlib
import subprocess
import sys
import tempfile
import time

script, requests = sys.argv[1], sys.argv[2]
command = sys.argv[sys.argv.index("--") + 1:]
server = (pathlib.Path(__file__).resolve().parents[2] / "Unit"
          / "scripted_llm_server.py")
with tempfile.TemporaryDirectory() as tmp:
    port_file = os.path.join(tmp, "port")
    proc = subprocess.Popen([sys.executable, str(server), "--script", script,
                             "--port-file", port_file, "--requests", requests,
                             "--lifetime", "60"])
    try:
        for _ in range(200):
            if os.path.exists(port_file):
                break
            time.sleep(0.05)
        port = open(port_file).read().strip()
        status = subprocess.call([part.replace("{port}", port)
                                  for part in command])
    finally:
        proc.kill()
        proc.wait()
sys.exit(status)
