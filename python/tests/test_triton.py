"""autoprof.triton without a GPU: a Triton kernel compiled for sm_90 becomes
a kernel spec that autoprof-opt imports, and the diagnosis ranks Triton's
configurations. (optimize itself, which runs the kernel, is tested on a GPU
host: test/Runtime/triton-optimize.test.)"""

import json
import os
import pathlib
import subprocess

import pytest

triton = pytest.importorskip("triton")
tl = pytest.importorskip("triton.language")

from autoprof.triton import (Configuration, Space, TritonError,  # noqa: E402
                             configurations, kernel_spec, optimize,
                             rank_configurations)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) +
             tl.load(y_ptr + offs, mask=mask), mask=mask)


class FakeTensor:
    """What kernel_spec reads of a tensor: its dtype and element count."""

    def __init__(self, dtype, count):
        self.dtype = dtype
        self._count = count

    def numel(self):
        return self._count


def compile_add(block=1024, warps=4):
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    source = ASTSource(fn=add_kernel, signature={
        "x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
        "BLOCK": "constexpr"}, constexprs={"BLOCK": block})
    return triton.compile(source, target=GPUTarget("cuda", 90, 32),
                          options={"num_warps": warps})


ARGS = [FakeTensor("torch.float32", 1 << 20), FakeTensor("torch.float32", 1 << 20),
        FakeTensor("torch.float32", 1 << 20), 1 << 20]
NAMES = ["x_ptr", "y_ptr", "out_ptr", "n"]


def test_a_compiled_kernel_becomes_a_spec(tmp_path):
    compiled = compile_add()
    spec = kernel_spec(compiled.asm["ptx"], compiled.metadata.name, ARGS,
                       (1024,), 4, compiled.metadata.shared, ["out_ptr"],
                       NAMES, tmp_path)
    data = json.loads(spec.read_text())
    assert data["entry"] == "add_kernel"
    assert data["grid"] == [1024, 1, 1] and data["block"] == [128, 1, 1]
    kinds = [(p["name"], p["kind"], p["dtype"], p.get("role"))
             for p in data["params"]]
    # Triton's two scratch pointers follow the kernel's parameters.
    assert kinds == [("x_ptr", "buffer", "f32", "input"),
                     ("y_ptr", "buffer", "f32", "input"),
                     ("out_ptr", "buffer", "f32", "inout"),
                     ("n", "scalar", "u32", None),
                     ("triton_scratch0", "buffer", "u8", "input"),
                     ("triton_scratch1", "buffer", "u8", "input")]
    assert (tmp_path / "add_kernel.ptx").read_text() == compiled.asm["ptx"]


def test_autoprof_opt_imports_the_spec(tmp_path):
    tools = os.environ.get("AUTOPROF_TOOLS_DIR")
    tool = pathlib.Path(tools) / "autoprof-opt" if tools else None
    if not tool or not os.access(tool, os.X_OK):
        pytest.skip("autoprof-opt is not built (set AUTOPROF_TOOLS_DIR)")
    compiled = compile_add()
    spec = kernel_spec(compiled.asm["ptx"], compiled.metadata.name, ARGS,
                       (1024,), 4, compiled.metadata.shared, ["out_ptr"],
                       NAMES, tmp_path)
    proc = subprocess.run([str(tool), f"--autoprof-import-kernel=spec={spec}",
                           "/dev/null", "--autoprof-extract-features"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "gpu.binary @add_kernel" in proc.stdout
    assert "block_threads = 128" in proc.stdout


def test_bad_calls_are_refused(tmp_path):
    compiled = compile_add()
    ptx, entry = compiled.asm["ptx"], compiled.metadata.name
    with pytest.raises(TritonError, match="outputs name no argument: z"):
        kernel_spec(ptx, entry, ARGS, (1,), 4, 0, ["z"], NAMES, tmp_path)
    with pytest.raises(TritonError, match="the PTX has no entry 'other'"):
        kernel_spec(ptx, "other", ARGS, (1,), 4, 0, [], NAMES, tmp_path)
    complex_args = [FakeTensor("torch.complex64", 4)] + ARGS[1:]
    with pytest.raises(TritonError, match="tensors of complex64 are not"):
        kernel_spec(ptx, entry, complex_args, (1,), 4, 0, [], NAMES, tmp_path)
    swapped = ARGS[:3] + [FakeTensor("torch.float32", 4)]
    with pytest.raises(TritonError, match="argument 'n' is a tensor, but the "
                                          "PTX takes .u32 there"):
        kernel_spec(ptx, entry, swapped, (1,), 4, 0, [], NAMES, tmp_path)


SPACE = Space(meta={"BLOCK": [256, 512, 1024, 2048]}, num_warps=[2, 4, 8],
              num_stages=[2, 3])
BASE = Configuration((("BLOCK", 1024),), 4, 3)


def test_a_space_over_block_sizes_needs_a_grid_function():
    # A fixed grid would launch the caller's number of programs with every
    # block size: too many write past the outputs, too few leave them short.
    with pytest.raises(TritonError, match="the space varies BLOCK: give the "
                                          "grid as a function"):
        optimize(add_kernel, *ARGS, grid=(1024,), outputs=["out_ptr"],
                 space=SPACE, BLOCK=1024)


def test_configurations_cover_the_space():
    found = configurations(SPACE)
    assert len(found) == 4 * 3 * 2
    assert Configuration((("BLOCK", 256),), 2, 2) in found


def test_too_few_waves_ranks_smaller_blocks_first():
    ranked = rank_configurations(configurations(SPACE), BASE,
                                 {"too-few-waves": "true"}, 64)
    first, why = ranked[0]
    assert first.meta_dict()["BLOCK"] < 1024
    assert "too-few-waves (64 programs on 132 SMs)" in why
    assert BASE not in [c for c, _ in ranked]


def test_spills_rank_fewer_warps_first():
    ranked = rank_configurations(configurations(SPACE), BASE,
                                 {"register-spills": "true"}, 4096)
    assert ranked[0][0].num_warps < 4 or ranked[0][0].num_stages < 3
    assert all(c.num_warps <= 4 for c, _ in ranked[:3])


def test_unknown_facts_say_nothing():
    unknown = rank_configurations(configurations(SPACE), BASE,
                                  {"too-few-waves": "unknown",
                                   "dram-bound": "unknown"}, 64)
    none = rank_configurations(configurations(SPACE), BASE, {}, 64)
    assert [c for c, _ in unknown] == [c for c, _ in none]
    assert none[0][1] == "no fact holds: nearest configurations first"
