"""AutoProf for `@triton.jit` kernels.

`optimize(kernel, *args, grid=..., outputs=..., **meta)` profiles a Triton
kernel's launch with the metrics AutoProf's profiling tree selects, turns
them into bottleneck facts (`--autoprof-diagnose`), ranks Triton's own
configuration space (the constexpr values the caller allows, `num_warps`,
`num_stages`) by those facts, runs each ranked configuration on copies of the
caller's outputs, keeps those whose outputs match the original call's, times
them, caches the outcome on disk and returns the fastest as a
`triton.Config`.

The launch reaches AutoProf as a kernel spec (`docs/import.md`): Triton's
PTX, its entry, the grid, blocks of 32 x num_warps threads and each
parameter (tensors as buffers, with the role the caller gives; scalars with
the PTX's type). Triton appends pointer parameters of its own after the
kernel's (global and profiling scratch): they are given as one-byte input
buffers, which a kernel that needs no scratch never reads.

Needs Triton; `optimize` also needs PyTorch and a CUDA GPU, and
`autoprof-opt` with `autoprof-worker` next to it (the build tree or PATH).
`kernel_spec` and `rank_configurations` need neither a GPU nor AutoProf's
tools.
"""

from __future__ import annotations

import hashlib
import inspect
import itertools
import json
import math
import os
import pathlib
import re
import tempfile
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from . import files
from .tools import ToolError, run_tool

# Triton / PyTorch element types -> the kernel spec's dtypes.
_SPEC_DTYPES = {
    "float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "bool": "u8",
}

# PTX parameter types -> the spec's scalar dtypes.
_PTX_SCALARS = {
    ".u8": "u8", ".s8": "i8", ".u16": "u16", ".s16": "i16", ".b16": "u16",
    ".u32": "u32", ".s32": "i32", ".b32": "u32", ".u64": "u64", ".s64": "i64",
    ".b64": "u64", ".f16": "f16", ".f32": "f32", ".f64": "f64",
}


class TritonError(RuntimeError):
    """A Triton kernel or call AutoProf cannot handle, with the reason."""


@dataclass
class Space:
    """The configurations `optimize` may choose from: for each constexpr
    parameter the caller allows to change, its values; and the warps and
    pipeline stages."""
    meta: Dict[str, List[int]] = field(default_factory=dict)
    num_warps: List[int] = field(default_factory=lambda: [2, 4, 8])
    num_stages: List[int] = field(default_factory=lambda: [2, 3, 4])


@dataclass(frozen=True)
class Configuration:
    meta: Tuple[Tuple[str, int], ...]
    num_warps: int
    num_stages: int

    def meta_dict(self) -> Dict[str, int]:
        return dict(self.meta)

    def label(self) -> str:
        parts = [f"{k}={v}" for k, v in self.meta]
        parts += [f"num_warps={self.num_warps}",
                  f"num_stages={self.num_stages}"]
        return ", ".join(parts)


def _ptx_params(ptx: str, entry: str) -> List[str]:
    """The PTX types of `entry`'s parameters, in order."""
    match = re.search(r"\.entry\s+" + re.escape(entry) + r"\s*\(([^)]*)\)",
                      ptx, re.S)
    if not match:
        raise TritonError(f"the PTX has no entry '{entry}'")
    types = []
    for param in match.group(1).split(","):
        words = param.split()
        if not words:
            continue
        if words[0] != ".param" or len(words) < 3:
            raise TritonError(
                f"cannot read the PTX parameter '{param.strip()}'")
        types.append(words[1])
    return types


def _dtype_name(value) -> str:
    dtype = getattr(value, "dtype", None)
    return str(dtype).replace("torch.", "") if dtype is not None else ""


def _span(tensor) -> int:
    """Elements from a tensor's first to its last, as its strides lay them
    out: what a kernel that follows the strides may touch (more than
    `numel()` for a strided view, x[:, ::2])."""
    if not hasattr(tensor, "stride") or int(tensor.numel()) == 0:
        return max(int(tensor.numel()), 1)
    return 1 + sum((int(size) - 1) * abs(int(stride)) for size, stride in
                   zip(tensor.shape, tensor.stride()))


def specialized_away(value, name: str, do_not_specialize=()) -> bool:
    """Whether Triton compiles `value`, passed for parameter `name`, into
    the kernel as a constant, leaving it out of the PTX's parameters: None,
    and an integer equal to 1 (not a bool) unless the parameter is in the
    kernel's `do_not_specialize`."""
    if value is None:
        return True
    return (isinstance(value, int) and not isinstance(value, bool)
            and value == 1 and name not in do_not_specialize)


def kernel_spec(ptx: str, entry: str, args: Sequence, grid: Sequence[int],
                num_warps: int, shared_bytes: int, outputs: Sequence[str],
                names: Sequence[str], directory) -> pathlib.Path:
    """Writes `entry`'s PTX and a kernel spec of one launch into
    `directory`; returns the spec's path. `args` are the kernel's runtime
    arguments (constexprs left out) named `names`: tensors (anything with
    `dtype` and `numel()`) become buffers, `outputs` naming those the
    kernel writes (they are `inout`: the kernel may read them too), other
    values scalars with the PTX's type."""
    directory = pathlib.Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    types = _ptx_params(ptx, entry)
    if len(types) < len(args):
        raise TritonError(f"'{entry}' takes {len(types)} parameters in its "
                          f"PTX, fewer than the {len(args)} arguments given")
    unknown = set(outputs) - set(names)
    if unknown:
        raise TritonError("outputs name no argument: " +
                          ", ".join(sorted(unknown)))
    params = []
    for name, value, ptx_type in zip(names, args, types):
        if hasattr(value, "numel") and hasattr(value, "dtype"):
            dtype = _SPEC_DTYPES.get(_dtype_name(value))
            if dtype is None:
                raise TritonError(f"argument '{name}': tensors of "
                                  f"{_dtype_name(value)} are not supported")
            if ptx_type not in (".u64", ".b64"):
                raise TritonError(f"argument '{name}' is a tensor, but the "
                                  f"PTX takes {ptx_type} there")
            params.append({"name": name, "kind": "buffer", "dtype": dtype,
                           "count": _span(value),
                           "role": "inout" if name in outputs else "input"})
        else:
            dtype = _PTX_SCALARS.get(ptx_type)
            if dtype is None:
                raise TritonError(f"argument '{name}': the PTX takes "
                                  f"{ptx_type}, not a scalar AutoProf knows")
            if isinstance(value, bool):
                value = int(value)
            if not isinstance(value, (int, float)):
                raise TritonError(f"argument '{name}' is neither a tensor "
                                  f"nor a number ({type(value).__name__})")
            params.append({"name": name, "kind": "scalar", "dtype": dtype,
                           "value": value})
    for index, ptx_type in enumerate(types[len(args):]):
        if ptx_type not in (".u64", ".b64"):
            raise TritonError(f"'{entry}' has a parameter of its own of type "
                              f"{ptx_type} after the kernel's")
        params.append({"name": f"triton_scratch{index}", "kind": "buffer",
                       "dtype": "u8", "count": 1, "role": "input"})
    sizes = list(grid) + [1] * (3 - len(grid))
    (directory / f"{entry}.ptx").write_text(ptx)
    spec = {"source": f"{entry}.ptx", "entry": entry, "grid": sizes[:3],
            "block": [32 * num_warps, 1, 1],
            "dynamic_shared_bytes": int(shared_bytes), "params": params}
    path = directory / f"{entry}.json"
    path.write_text(json.dumps(spec, indent=2) + "\n")
    return path


def configurations(space: Space) -> List[Configuration]:
    """Every configuration of `space`."""
    keys = sorted(space.meta)
    result = []
    for values in itertools.product(*(space.meta[k] for k in keys)):
        for warps in space.num_warps:
            for stages in space.num_stages:
                result.append(Configuration(tuple(zip(keys, values)), warps,
                                            stages))
    return result


def rank_configurations(candidates: Sequence[Configuration],
                        base: Configuration, facts: Dict[str, str],
                        grid_blocks: int, multiprocessors: int = 132
                        ) -> List[Tuple[Configuration, str]]:
    """`candidates` (the base left out) best first, each with why: the
    facts' direction for the block-size constexprs (those the candidates
    vary whose name contains BLOCK), the warps and the stages, then the
    distance from the base. A fact that is "unknown" says nothing."""
    holds = {name for name, value in facts.items() if value == "true"}
    reasons = []
    block_keys = [k for k, _ in base.meta if "BLOCK" in k.upper()]
    base_meta = base.meta_dict()

    def block_ratio(c: Configuration) -> float:
        ratio = 1.0
        for key in block_keys:
            ratio *= c.meta_dict()[key] / max(base_meta[key], 1)
        return ratio

    # Each rule: (fact, preferred direction of (blocks, warps, stages)).
    wants = [0, 0, 0]
    if "too-few-waves" in holds or "tail-effect" in holds:
        wants[0] -= 1  # smaller blocks: more of them
        fact = "too-few-waves" if "too-few-waves" in holds else "tail-effect"
        reasons.append(f"{fact}"
                       f" ({grid_blocks} programs on {multiprocessors} SMs): "
                       "smaller blocks first")
    if "register-spills" in holds or ("low-occupancy" in holds and
                                      "too-few-waves" not in holds):
        wants[1] -= 1
        wants[2] -= 1
        reasons.append("low-occupancy or register-spills: fewer warps and "
                       "stages first")
    if "latency-bound" in holds or "dram-bound" in holds or \
            "l2-bound" in holds:
        wants[2] += 1
        larger = block_keys and "too-few-waves" not in holds
        if larger:
            wants[0] += 1
        reasons.append("latency- or memory-bound: more stages "
                       + ("and larger blocks " if larger else "") + "first")
    if "issue-bound" in holds or "compute-bound" in holds:
        wants[1] += 1
        reasons.append("issue- or compute-bound: more warps first")

    def direction(value: float) -> int:
        return 0 if value == 0 else (1 if value > 0 else -1)

    def score(c: Configuration) -> Tuple:
        moves = [math.log2(block_ratio(c)) if block_keys else 0.0,
                 math.log2(c.num_warps / base.num_warps),
                 c.num_stages - base.num_stages]
        agree = sum(w * direction(m) for w, m in zip(wants, moves))
        against = sum(1 for w, m in zip(wants, moves)
                      if w and direction(m) == -direction(w))
        distance = sum(abs(m) for m in moves) + sum(
            1 for k, v in c.meta if k not in block_keys and v != base_meta[k])
        return (against, -agree, distance, c.label())

    why = "; ".join(reasons) if reasons else \
        "no fact holds: nearest configurations first"
    ranked = sorted((c for c in candidates if c != base), key=score)
    return [(c, why) for c in ranked]


def _profile_facts(spec: pathlib.Path, tool: Optional[str],
                   tree: Optional[str]) -> Dict[str, str]:
    """The bottleneck facts of the spec's launch: imported, profiled with
    the metrics the tree selects, diagnosed."""
    profile = "time-budget=0.2" + (f" tree-file={tree}" if tree else "")
    proc = run_tool("autoprof-opt", [
        f"--autoprof-import-kernel=spec={spec}", "/dev/null",
        f"--autoprof-profile={profile}", "--autoprof-diagnose"], tool)
    match = re.search(r"autoprof\.facts = \{([^}]*)\}", proc.stdout)
    if not match:
        raise ToolError("autoprof-opt attached no autoprof.facts to the "
                        "imported kernel")
    return dict(re.findall(r'"?([\w-]+)"? = "(true|false|unknown)"',
                           match.group(1)))


def _cache_key(kernel, args, grid, space: Space, base: Configuration,
               outputs, device: str, settings: Dict[str, object]) -> str:
    """What decides an outcome: the kernel's code (Triton's cache_key,
    which covers the @triton.jit functions it calls, where it has one), the
    arguments' shapes, strides and dtypes (and scalars' values), the grid,
    the space, the caller's configuration, the outputs, the GPU and
    `settings` (the fixed meta-parameters, tolerance, budget, profiling
    tree and tool, Triton's version)."""
    source = getattr(kernel, "cache_key", None) or getattr(
        kernel, "src", None) or inspect.getsource(getattr(kernel, "fn",
                                                          kernel))
    shapes = [(tuple(a.shape), tuple(a.stride()), _dtype_name(a))
              if hasattr(a, "stride") else repr(a) for a in args]
    blob = json.dumps({"source": source, "args": shapes, "grid": list(grid),
                       "space": [sorted(space.meta.items()), space.num_warps,
                                 space.num_stages],
                       "base": base.label(), "outputs": sorted(outputs),
                       "device": device, "settings": settings},
                      sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def _bits(tensor):
    """The bytes of `tensor`'s elements in order (a contiguous copy where it
    is strided)."""
    import torch
    return tensor.contiguous().view(-1).view(torch.uint8)


def _same_bits(a, b) -> bool:
    """Whether two tensors hold the same bits. torch.equal compares values,
    and NaN equals nothing: an input holding NaN would never compare equal
    to its own copy."""
    import torch
    return a.shape == b.shape and a.dtype == b.dtype and torch.equal(
        _bits(a), _bits(b))


def _fill_bytes(tensor, byte: int) -> None:
    """Overwrites every byte of `tensor`'s elements with `byte` (a bool
    tensor, whose bytes must be 0 or 1, becomes all False or all True)."""
    import torch
    if tensor.dtype == torch.bool:
        tensor.fill_(bool(byte))
    elif tensor.is_contiguous():
        tensor.view(-1).view(torch.uint8).fill_(byte)
    else:
        flat = torch.empty(tensor.numel(), dtype=tensor.dtype,
                           device=tensor.device)
        flat.view(torch.uint8).fill_(byte)
        tensor.copy_(flat.view(tensor.shape))


def _poison(tensor) -> None:
    """Fills the copy of an output that a kernel must write completely, so
    that a kernel that leaves it unwritten does not match: NaN for floats
    (which matches no finite reference), the byte 0xA5 repeated for
    integers (True for bools)."""
    if tensor.dtype.is_floating_point:
        tensor.fill_(float("nan"))
    else:
        _fill_bytes(tensor, 0xA5)


class _Call:
    """A caller's launch of a Triton kernel: runs it, or another kernel with
    the same parameters, in any configuration on copies of every tensor,
    checks outputs against the caller's configuration's and times it.

    The copies of the outputs start as the caller's tensors, which may
    already hold the result (a caller that launches twice, or clones its
    outputs from an earlier run): a kernel that wrote nothing would match.
    So `reference` first finds the outputs the caller's kernel writes
    completely without reading them, and every run (the reference's too)
    fills those with poison before it launches; outputs it also reads
    (in-place updates) keep the caller's contents, which the kernel needs."""

    def __init__(self, kernel, args, grid, outputs: Sequence[str],
                 space: Space, num_warps: int, num_stages: int,
                 rtol: Optional[float], meta: Dict[str, int]):
        if space.meta and not callable(grid):
            raise TritonError(
                f"the space varies {', '.join(sorted(space.meta))}: give the "
                "grid as a function of the meta-parameters (lambda meta: "
                "...), as a Triton launch takes it, so that each "
                "configuration launches the programs it needs")
        if type(kernel).__name__ in ("Autotuner", "Heuristics") or \
                not hasattr(kernel, "arg_names"):
            raise TritonError(
                f"a {type(kernel).__name__} is not supported: pass the "
                "@triton.jit function itself (autotuned and heuristics "
                "kernels choose their own configurations)")
        import torch
        self.torch = torch
        self.kernel, self.args, self.grid = kernel, args, grid
        # Parameter names Triton does not specialize (its do_not_specialize
        # holds names or indices).
        self.do_not_specialize = {
            kernel.arg_names[p] if isinstance(p, int) else p
            for p in getattr(kernel, "do_not_specialize", ()) or ()}
        self.outputs, self.rtol = list(outputs), rtol
        self.names = [name for name in kernel.arg_names
                      if name not in meta and name not in space.meta]
        if len(self.names) != len(args):
            raise TritonError(
                f"the kernel takes {len(self.names)} runtime arguments "
                f"({', '.join(self.names)}), {len(args)} were given")
        for name in space.meta:
            if name not in meta:
                raise TritonError(f"space.meta names '{name}', which the "
                                  "call does not give")
        unknown = set(outputs) - set(self.names)
        if unknown:
            raise TritonError("outputs name no argument: " +
                              ", ".join(sorted(unknown)))
        self.base = Configuration(tuple(sorted(
            (k, v) for k, v in meta.items() if k in space.meta)), num_warps,
            num_stages)
        self.fixed = {k: v for k, v in meta.items() if k not in space.meta}
        self.out_index = {name: self.names.index(name) for name in outputs}
        self.tensors = [i for i, a in enumerate(args)
                        if isinstance(a, torch.Tensor)]
        self.inputs = [i for i in self.tensors
                       if i not in self.out_index.values()]
        # Indices of the outputs the caller's kernel writes completely
        # without reading them (found by `reference`).
        self.write_only: List[int] = []

    def grid_of(self, config: Configuration) -> Tuple[int, ...]:
        sizes = self.grid({**self.fixed, **config.meta_dict()}) \
            if callable(self.grid) else self.grid
        return tuple(int(size) for size in sizes)

    def launch(self, config: Configuration, arguments, kernel=None):
        kernel = kernel or self.kernel
        return kernel[self.grid_of(config)](
            *arguments, **self.fixed, **config.meta_dict(),
            num_warps=config.num_warps, num_stages=config.num_stages)

    def reference(self):
        """The caller's launch as every later run's reference: finds the
        outputs it writes completely without reading them, then runs it as
        `run` runs every candidate (those outputs poisoned) and returns
        what `run` returns."""
        self.write_only = self.find_write_only()
        return self.run(self.base)

    def find_write_only(self) -> List[int]:
        """The outputs the caller's kernel writes completely without
        reading them: those that come back the same whether their copies
        start as zeros or as 0xFF bytes (NaN in most float types). An output it
        reads, or writes only in part, comes back different; so does one
        it writes nondeterministically (atomics), which then keeps the
        caller's contents as before."""
        outputs = [i for i in self.out_index.values() if i in self.tensors]
        runs = []
        for byte in (0x00, 0xFF):
            got, _, _, _ = self.run(self.base, fills={
                index: (lambda tensor, b=byte: _fill_bytes(tensor, b))
                for index in outputs})
            runs.append(got)
        found = []
        for position, index in enumerate(self.out_index.values()):
            if index in outputs and _same_bits(runs[0][position],
                                                runs[1][position]):
                found.append(index)
        return found

    def run(self, config: Configuration, kernel=None, fills=None):
        """One launch on copies of every tensor: its outputs, the copies,
        its compiled kernel, and whether the tensors it does not name as
        outputs came back unchanged (bit for bit: an input may hold NaN).
        `fills` maps argument indices to what overwrites their copies
        before the launch; by default the write-only outputs are
        poisoned."""
        if fills is None:
            fills = {index: _poison for index in self.write_only}
        copied = list(self.args)
        for index in self.tensors:
            copied[index] = self.args[index].clone()
            if index in fills:
                fills[index](copied[index])
        compiled = self.launch(config, copied, kernel)
        self.synchronize(copied)
        untouched = all(_same_bits(copied[i], self.args[i])
                        for i in self.inputs)
        return ([copied[i] for i in self.out_index.values()], copied,
                compiled, untouched)

    def synchronize(self, copied) -> None:
        """Waits for the launch where it runs on a GPU (Triton's
        interpreter runs kernels on CPU tensors, synchronously)."""
        if any(copied[i].is_cuda for i in self.tensors):
            self.torch.cuda.synchronize()

    def tolerance(self, tensor) -> float:
        """The relative tolerance of a floating output: `rtol`, by default
        1e-2 for 16-bit floats and narrower, 1e-5 for wider."""
        if self.rtol is not None:
            return self.rtol
        return 1e-2 if tensor.element_size() <= 2 else 1e-5

    def close(self, got, want) -> bool:
        """Whether the floating output `got` matches `want`: within the
        relative tolerance of each element, plus an absolute tolerance of
        the relative one times the largest finite magnitude of `want` (an
        element far below the output's scale may differ by rounding, but
        an output of small values must still match: a fixed absolute
        tolerance would pass zeros for it). An all-zero `want` needs zeros
        (the floor is the dtype's smallest normal number). NaN matches
        NaN."""
        torch = self.torch
        if got.shape != want.shape:
            return False
        if want.numel() == 0:
            return True
        magnitudes = want.float().abs()
        finite = magnitudes[torch.isfinite(magnitudes)]
        scale = finite.max().item() if finite.numel() else 0.0
        rtol = self.tolerance(want)
        atol = rtol * max(scale, torch.finfo(want.dtype).tiny)
        return torch.allclose(got.float(), want.float(), rtol=rtol,
                              atol=atol, equal_nan=True)

    def matches(self, got, want) -> bool:
        """Whether every output matches the reference's: floats as `close`
        says, anything else bit for bit."""
        for a, b in zip(got, want):
            if a.dtype.is_floating_point:
                if not self.close(a, b):
                    return False
            elif not _same_bits(a, b):
                return False
        return True

    def evaluate(self, config: Configuration, reference,
                 kernel=None) -> Dict[str, object]:
        """Runs `kernel` (the caller's by default) in `config` on copies and
        checks it against the caller's outputs `reference`: its status
        (failed: Triton refused it; rejected: it wrote a tensor not named in
        outputs or its outputs differ; verified: with its time in us) and
        reason."""
        try:
            got, copied, _, untouched = self.run(config, kernel)
        except Exception as error:  # Triton refuses the kernel or config
            text = str(error).strip()
            # A device fault or exhausted memory is not this configuration's
            # outcome: every later run would fail the same way (a CUDA error
            # sticks to the context), so the search stops and caches
            # nothing.
            if isinstance(error, self.torch.cuda.OutOfMemoryError) or \
                    "CUDA error" in text or "out of memory" in text:
                raise TritonError(f"configuration {config.label()}: the "
                                  f"device failed: {text.splitlines()[0]}"
                                  ) from error
            return {"status": "failed", "reason": text.splitlines()[0]
                    if text else type(error).__name__}
        if not untouched:
            return {"status": "rejected",
                    "reason": "writes a tensor not named in outputs"}
        if not self.matches(got, reference):
            return {"status": "rejected",
                    "reason": "outputs differ from the original call's"}
        return {"status": "verified", "us": self.time(config, copied, kernel)}

    def time(self, config: Configuration, copied, kernel=None) -> float:
        """Microseconds per launch (triton.testing.do_bench)."""
        from triton.testing import do_bench
        return do_bench(lambda: self.launch(config, copied, kernel)) * 1000

    def facts(self, compiled, tool: Optional[str],
              tree: Optional[str]) -> Dict[str, str]:
        """The bottleneck facts of the caller's launch (`compiled`, its
        compiled kernel)."""
        # The arguments the PTX takes: Triton compiles those it specializes
        # (None, an integer 1) into the kernel as constants.
        keep = [i for i, (name, value) in enumerate(zip(self.names,
                                                        self.args))
                if not specialized_away(value, name,
                                        self.do_not_specialize)]
        with tempfile.TemporaryDirectory() as scratch:
            spec = kernel_spec(compiled.asm["ptx"], compiled.metadata.name,
                               [self.args[i] for i in keep],
                               self.grid_of(self.base),
                               self.base.num_warps, compiled.metadata.shared,
                               self.outputs, [self.names[i] for i in keep],
                               scratch)
            return _profile_facts(spec, tool, tree)

    def blocks(self) -> int:
        blocks = 1
        for size in self.grid_of(self.base):
            blocks *= size
        return blocks


def optimize(kernel, *args, grid, outputs: Sequence[str],
             space: Optional[Space] = None, budget: int = 5,
             num_warps: int = 4, num_stages: int = 3,
             cache_dir=None, tool: Optional[str] = None,
             tree: Optional[str] = None, rtol: Optional[float] = None,
             log: Optional[list] = None, **meta):
    """The fastest verified configuration of `kernel(*args, **meta)` as a
    `triton.Config`. `grid` is a tuple of up to three sizes or, as in a
    Triton launch, a function of the meta-parameters' dict that returns one;
    a space over constexprs needs the function (a block size changes the
    number of programs).

    `outputs` names the arguments the kernel writes; `space` the values it
    may try (by default: the warps and stages only; constexprs change only
    where `space.meta` lists them); `budget` how many configurations besides
    the caller's run. Each configuration runs on copies of the tensors, and
    is kept only when it leaves those not named in `outputs` unchanged and
    its outputs match the caller's configuration's: integers exactly,
    floats within the relative tolerance `rtol` (by default 1e-5 for f32
    and f64, 1e-2 for f16 and bf16) plus an absolute tolerance of `rtol`
    times the largest magnitude of that output of the caller's (an
    all-zero output must stay zero), so an output of small values is not
    waved through. Outputs the caller's configuration writes completely
    without reading them start each run as NaN (floats) or 0xA5 bytes
    (integers), so a configuration that leaves them unwritten fails; the
    others keep the caller's contents. The fastest beyond 2% of the
    caller's configuration wins, else the caller's stays. Outcomes are
    cached in `cache_dir` (by default ~/.cache/autoprof/triton) by the
    kernel's code (the functions it calls included), the arguments' shapes,
    strides and dtypes, the grid, the space, the fixed meta-parameters, the
    tolerance, the budget, the profiling tree and tool, Triton's version
    and the GPU the tensors are on; a device fault or exhausted memory ends
    the search with a TritonError and caches nothing.
    `log`, when given, receives one dict per configuration tried."""
    space = space or Space()
    call = _Call(kernel, args, grid, outputs, space, num_warps, num_stages,
                 rtol, meta)

    import torch
    import triton

    base, fixed = call.base, call.fixed
    # The GPU the tensors are on (the current device when none is).
    index = next((a.device.index for a in args
                  if isinstance(a, torch.Tensor) and a.is_cuda), None)
    index = torch.cuda.current_device() if index is None else index
    device = torch.cuda.get_device_name(index)
    cache = pathlib.Path(cache_dir or default_cache_dir())
    key = _cache_key(kernel, args, call.grid_of(base), space, base, outputs,
                     device, {"fixed": sorted(fixed.items()), "rtol": rtol,
                              "budget": budget, "tool": tool, "tree": tree,
                              "triton": triton.__version__})
    cached = cache / f"{key}.json"
    try:
        # Read as a user's file: a cache directory can hold anything.
        entry = files.read_json(cached)
        return triton.Config(entry["meta"], num_warps=entry["num_warps"],
                             num_stages=entry["num_stages"])
    except (files.InputError, KeyError, TypeError):
        pass  # not cached, or a file that cannot be read: measured again

    reference, copied, compiled, untouched = call.reference()
    if not untouched:
        raise TritonError("the caller's configuration writes a tensor that "
                          f"outputs ({', '.join(outputs)}) does not name")
    base_us = call.time(base, copied)
    facts = call.facts(compiled, tool, tree)
    sms = torch.cuda.get_device_properties(index).multi_processor_count
    ranked = rank_configurations(configurations(space), base, facts,
                                 call.blocks(), sms)
    best, best_us = base, base_us
    if log is not None:
        log.append({"configuration": base.label(), "us": base_us,
                    "status": "baseline", "facts": facts})
    for config, why in ranked[:budget]:
        entry = {"configuration": config.label(), "why": why}
        entry.update(call.evaluate(config, reference))
        if entry["status"] == "verified" and entry["us"] < best_us * 0.98:
            best, best_us = config, entry["us"]
        if log is not None:
            log.append(entry)
    cache.mkdir(parents=True, exist_ok=True)
    # Written whole or not at all: a reader never sees half a file.
    partial = cache / f"{key}.json.{os.getpid()}.tmp"
    partial.write_text(json.dumps({
        "meta": {**fixed, **best.meta_dict()}, "num_warps": best.num_warps,
        "num_stages": best.num_stages, "us": best_us, "baseline_us": base_us,
        "facts": facts}, indent=2) + "\n")
    os.replace(partial, cached)
    return triton.Config({**fixed, **best.meta_dict()},
                         num_warps=best.num_warps, num_stages=best.num_stages)


def default_cache_dir() -> pathlib.Path:
    """Where the Triton integration caches outcomes and answers:
    ~/.cache/autoprof/triton."""
    return pathlib.Path.home() / ".cache" / "autoprof" / "triton"
