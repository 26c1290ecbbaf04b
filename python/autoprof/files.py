"""Reading the files a user names: reports, outcome tables, learner logs,
catalogs, tables of peaks, profiling trees.

Every such file is refused with a one-line reason when it is not a regular
file (a FIFO would block the reader forever, /dev/zero would never end), when
it is larger than the cap, or, for JSON, when it holds a number JSON does not
have (NaN, Infinity) or nests deeper than any document the tools write.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import stat

# The largest file read: an outcome table of a few hundred kernels is a few
# megabytes, a report well under one.
MAX_BYTES = 64 * 1024 * 1024

# The deepest nesting of arrays and objects accepted: reports nest about six
# levels, profiling trees one level per split.
MAX_DEPTH = 200


class InputError(ValueError):
    """A file that cannot be read, or a document of the wrong shape, with
    the file's name in the message."""


def check_regular(path, limit: int = MAX_BYTES) -> pathlib.Path:
    """`path` when it names a regular file no larger than `limit` bytes;
    raises InputError saying why not. For a file a tool reads instead of
    this package, before the tool is run."""
    path = pathlib.Path(path)
    try:
        info = os.stat(path)
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror}") from None
    _check(path, info, limit)
    return path


def _check(path: pathlib.Path, info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{path}: not a regular file")
    if info.st_size > limit:
        raise InputError(f"{path}: {info.st_size} bytes, more than the "
                         f"{limit} this reads")


def read_text(path, limit: int = MAX_BYTES) -> str:
    """The text of the regular file `path`, at most `limit` bytes; raises
    InputError naming the file otherwise. Opened without blocking, so that a
    FIFO is refused instead of waited on."""
    path = pathlib.Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror}") from None
    try:
        _check(path, os.fstat(fd), limit)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror}") from None
    finally:
        os.close(fd)
    if size > limit:
        # It grew while it was read.
        raise InputError(f"{path}: more than the {limit} bytes this reads")
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 text (byte {error.start})") \
            from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def _depth(document) -> int:
    """How deep `document` nests, counted without recursion."""
    deepest, stack = 0, [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (list, dict)):
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                return deepest
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return deepest


def parse_json(text: str, source: str):
    """The JSON document `text`; raises InputError naming `source` when it is
    not JSON, holds NaN or Infinity (also as a number too large for a
    float), or nests deeper than MAX_DEPTH."""
    try:
        document = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise InputError(f"{source}: not JSON: {error.msg} at line "
                         f"{error.lineno} column {error.colno}") from None
    except ValueError as error:
        raise InputError(f"{source}: not JSON: {error}") from None
    except RecursionError:
        raise InputError(f"{source}: nested too deeply") from None
    if _depth(document) > MAX_DEPTH:
        raise InputError(f"{source}: nested deeper than {MAX_DEPTH} levels")
    stack = [document]
    while stack:
        value = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            raise InputError(f"{source}: holds a number too large for a "
                             f"float")
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return document


def read_json(path, limit: int = MAX_BYTES):
    """The JSON document in the regular file `path` (read_text, parse_json);
    raises InputError naming the file."""
    return parse_json(read_text(path, limit), str(path))
