"""Running the AutoProf tools from Python."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
from dataclasses import dataclass
from typing import List, Optional

from .reports import OptimizeReport, load_report


class ToolError(RuntimeError):
    """A tool that could not be found or that failed, with its output."""


@dataclass
class OptimizeResult:
    output: pathlib.Path
    report: Optional[OptimizeReport]
    log: str


# The build tree of the checkout this package sits in: python/autoprof is
# two levels under the repository root, whose build/bin the build fills.
_CHECKOUT_BIN = pathlib.Path(__file__).resolve().parents[2] / "build" / "bin"


def _executable(path: pathlib.Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def tool_places() -> List[str]:
    """Where find_tool looks, in its order, in words."""
    bin_dir = os.environ.get("AUTOPROF_BIN")
    return [f"$AUTOPROF_BIN ({bin_dir})" if bin_dir else
            "$AUTOPROF_BIN (not set)", str(_CHECKOUT_BIN), "PATH"]


def find_tool(name: str, tool: Optional[str] = None) -> str:
    """The AutoProf tool `name`: `tool` when given, else the one in the
    directory $AUTOPROF_BIN names, else in the build tree of the checkout
    this package is part of (build/bin), else on PATH. Raises ToolError
    naming those places when none has it."""
    if tool:
        return tool
    bin_dir = os.environ.get("AUTOPROF_BIN")
    for directory in ([pathlib.Path(bin_dir)] if bin_dir else []) + \
            [_CHECKOUT_BIN]:
        if _executable(directory / name):
            return str(directory / name)
    found = shutil.which(name)
    if found:
        return found
    raise ToolError(f"{name} not found in {', '.join(tool_places())}: build "
                    f"AutoProf or set AUTOPROF_BIN to its bin directory")


def run_tool(name: str, arguments, tool: Optional[str] = None,
             timeout: Optional[float] = None):
    """Runs the AutoProf tool `name` (or the executable `tool`) with
    `arguments`; returns the completed process. Raises ToolError when the
    tool cannot be found or run, fails (with its diagnostics), or runs
    longer than `timeout` seconds (when given; it is then killed)."""
    path = find_tool(name, tool)
    try:
        proc = subprocess.run([path, *arguments], capture_output=True,
                              text=True, timeout=timeout)
    except OSError as error:
        raise ToolError(f"cannot run {path}: {error.strerror}") from None
    except subprocess.TimeoutExpired:
        raise ToolError(f"{name} did not finish within {timeout:g} s") \
            from None
    if proc.returncode != 0:
        raise ToolError(f"{name} failed (status {proc.returncode}):\n"
                        f"{proc.stderr.strip()}")
    return proc


def optimize(module, output, report=None, tool: Optional[str] = None,
             **options) -> OptimizeResult:
    """Runs `autoprof-opt MODULE --autoprof-optimize="OPTIONS" -o OUTPUT`;
    `options` are the pass's (budget=3, worker=..., proposer="llm", ...).
    Raises ToolError with the tool's diagnostics when it fails."""
    if report is not None:
        options["report"] = str(report)
    for key, value in options.items():
        if any(c.isspace() for c in str(value)):
            raise ToolError(f"option {key}={value!r} holds whitespace")
    passes = " ".join(f"{key}={value}" for key, value in options.items())
    proc = run_tool("autoprof-opt", [str(module),
                                     f"--autoprof-optimize={passes}", "-o",
                                     str(output)], tool)
    loaded = load_report(report) if report is not None else None
    return OptimizeResult(pathlib.Path(output), loaded, proc.stderr)
