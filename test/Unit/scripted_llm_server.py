#!/usr/bin/env python3
# ===- scripted_llm_server.py - A loopback LLM server for unit tests ------===#
#
# Part of the AutoProf project.
#
# ===----------------------------------------------------------------------===#
#
# Plays scripted HTTP responses so that ChatClientTest can exercise the chat
# client without a model. The script is a JSON list; the n-th request gets the
# n-th entry:
#
#   {"status": 200, "headers": {"retry-after": "1"}, "body": {...} or "text",
#    "delay_s": 0.0, "drop": false}
#
# "drop": true closes the connection without answering. Requests beyond the
# script get HTTP 500. Every request is appended to the --requests file as one
# JSON line ({"method", "path", "headers", "body"}) before it is answered. The
# server listens on 127.0.0.1 on a free port, writes the port to --port-file
# (atomically) once it accepts connections, and exits by itself after
# --lifetime seconds in case the test that started it cannot stop it.
#
# Python standard library only.
#
# ===----------------------------------------------------------------------===#

import argparse
import http.server
import json
import os
import threading
import time


def main():
    parser = argparse.ArgumentParser(
        description="A scripted loopback LLM server for unit tests."
    )
    parser.add_argument("--script", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--requests", required=True)
    parser.add_argument("--lifetime", type=float, default=60.0)
    args = parser.parse_args()

    with open(args.script) as f:
        script = json.load(f)
    lock = threading.Lock()
    state = {"next": 0}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args):
            pass

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length).decode("utf-8", "replace")
            with lock:
                index = state["next"]
                state["next"] += 1
                with open(args.requests, "a") as f:
                    f.write(
                        json.dumps(
                            {
                                "method": self.command,
                                "path": self.path,
                                "headers": {
                                    k.lower(): v
                                    for k, v in self.headers.items()
                                },
                                "body": body,
                            }
                        )
                        + "\n"
                    )
            if index < len(script):
                entry = script[index]
            else:
                entry = {
                    "status": 500,
                    "body": {"error": {"message": "script exhausted"}},
                }
            time.sleep(entry.get("delay_s", 0))
            if entry.get("drop"):
                self.close_connection = True
                return
            payload = entry.get("body", "")
            if not isinstance(payload, str):
                payload = json.dumps(payload)
            data = payload.encode("utf-8")
            try:
                self.send_response(entry.get("status", 200))
                headers = {"Content-Type": "application/json"}
                headers.update(entry.get("headers", {}))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                # The client gave up (a timeout test).
                pass
            self.close_connection = True

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    timer = threading.Timer(args.lifetime, lambda: os._exit(0))
    timer.daemon = True
    timer.start()
    temporary = args.port_file + ".tmp"
    with open(temporary, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(temporary, args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
