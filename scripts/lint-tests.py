#!/usr/bin/env python3
"""Catches test directives that silently check nothing.

A RUN line without its colon is not run, a misspelled `expected-*` directive
is ignored by -verify-diagnostics, and a CHECK directive without its colon (or
with a misspelled suffix) is ignored by FileCheck.
Usage: lint-tests.py DIR-OR-FILE...
(files under Inputs/ folders are fixtures and are skipped when a folder is
scanned).
Exits 1 and lists every problem with file:line when it finds one.
"""

import pathlib
import re
import sys

VERIFY_KINDS = {"error", "warning", "remark", "note"}
CHECK_SUFFIXES = {"", "-NEXT", "-SAME", "-NOT", "-DAG", "-LABEL", "-EMPTY",
                  "-COUNT"}
COMMENT = re.compile(r"^\s*(//|#|;)")
RUN = re.compile(r"\bRUN\b(?!:)")
EXPECTED = re.compile(r"\bexpected-([a-z]+)\b")
# A directive-like word at the start of a comment, and whether a colon follows.
TOKEN = re.compile(r"([A-Z][A-Z0-9_-]*)(:?)(?=\s|$)")


def prefixes(text):
    found = {"CHECK"}
    option = r"--check-prefix(?:es)?[= ]([A-Za-z0-9_,-]+)"
    for match in re.finditer(option, text):
        found.update(match.group(1).split(","))
    return found


def lint(path):
    problems = []
    text = path.read_text(errors="replace")
    known = prefixes(text)
    for number, line in enumerate(text.splitlines(), 1):
        if not COMMENT.match(line):
            continue
        body = COMMENT.sub("", line, count=1).lstrip()
        where = f"{path}:{number}"
        if body.startswith("RUN") and RUN.match(body):
            problems.append(f"{where}: RUN line without ':'")
        for match in EXPECTED.finditer(body):
            if match.group(1) not in VERIFY_KINDS:
                problems.append(
                    f"{where}: unknown directive 'expected-{match.group(1)}'")
        match = TOKEN.match(body)
        if match:
            token, colon = match.group(1), match.group(2)
            # The longest known prefix the token starts with; the rest must
            # be a FileCheck suffix (-NEXT, -SAME, -COUNT-4, ...).
            prefix = max((p for p in known
                          if token == p or token.startswith(p + "-")),
                         key=len, default=None)
            if prefix:
                suffix = re.sub(r"-\d+$", "", token[len(prefix):])
                if suffix not in CHECK_SUFFIXES:
                    problems.append(f"{where}: unknown FileCheck directive "
                                    f"'{token}'")
                elif not colon:
                    problems.append(f"{where}: FileCheck directive without "
                                    f"':'")
    return problems


def main(argv):
    problems = []
    for root in map(pathlib.Path, argv[1:]):
        if root.is_file():
            problems += lint(root)
            continue
        for path in sorted(root.rglob("*")):
            if (path.suffix in {".mlir", ".test"} and path.is_file() and
                    "Inputs" not in path.parts):
                problems += lint(path)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
