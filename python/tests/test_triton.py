"""autoprof.triton without a GPU: a Triton kernel compiled for sm_90 becomes
a kernel spec that autoprof-opt imports, the diagnosis ranks Triton's
configurations, and (where PyTorch is installed) Triton's interpreter runs
the checks of a launch on CPU tensors. (optimize itself, which runs the
kernel on a GPU, is tested on a GPU host:
test/Runtime/triton-optimize.test.)"""

import json
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


ARGS = [FakeTensor("torch.float32", 1 << 20),
        FakeTensor("torch.float32", 1 << 20),
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


def test_autoprof_opt_imports_the_spec(tmp_path, opt_tool):
    tool = opt_tool
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


# Kernels run by Triton's interpreter on CPU tensors: the checks of a run
# (`_Call`) without a GPU. They need PyTorch.
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, 2 * tl.load(x_ptr + offs, mask=mask), mask=mask)


def idle_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n)


def accumulate_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(y_ptr + offs, mask=mask) +
             tl.load(x_ptr + offs, mask=mask), mask=mask)


def interpreted(fn):
    from triton.runtime.interpreter import InterpretedFunction
    return InterpretedFunction(fn)


def interpreted_call(fn, x, y, monkeypatch):
    """The call `fn(x, y, n)` on one program, timed as 1 us (timing needs a
    GPU)."""
    from autoprof.triton import _Call
    call = _Call(interpreted(fn), (x, y, x.numel()), (1,), ["y_ptr"],
                 Space(), 4, 3, None, {"BLOCK": 64})
    monkeypatch.setattr(call, "time", lambda *args, **kwargs: 1.0)
    return call


def test_a_kernel_that_writes_nothing_is_rejected(monkeypatch):
    torch = pytest.importorskip("torch")
    x = torch.arange(64, dtype=torch.float32)
    y = 2 * x  # the caller's output already holds the result
    call = interpreted_call(scale_kernel, x, y, monkeypatch)
    reference, _, _, untouched = call.reference()
    assert untouched and call.write_only == [1]
    assert torch.equal(reference[0], 2 * x)
    # Its copy of y starts as NaN, which it leaves.
    assert call.evaluate(call.base, reference, interpreted(idle_kernel)) == {
        "status": "rejected",
        "reason": "outputs differ from the original call's"}
    assert call.evaluate(call.base, reference,
                         interpreted(scale_kernel))["status"] == "verified"
    assert torch.equal(y, 2 * x)


def test_an_output_the_kernel_reads_keeps_the_callers_contents(monkeypatch):
    torch = pytest.importorskip("torch")
    x = torch.ones(64)
    y = torch.arange(64, dtype=torch.float32)
    call = interpreted_call(accumulate_kernel, x, y, monkeypatch)
    reference, _, _, _ = call.reference()
    assert call.write_only == []
    assert torch.equal(reference[0], y + 1)
    assert call.evaluate(call.base, reference, interpreted(
        accumulate_kernel))["status"] == "verified"


def test_an_integer_output_is_poisoned_with_a_byte_pattern(monkeypatch):
    torch = pytest.importorskip("torch")
    x = torch.arange(64, dtype=torch.int32)
    call = interpreted_call(scale_kernel, x, 2 * x, monkeypatch)
    reference, _, _, _ = call.reference()
    assert call.write_only == [1]
    got, _, _, _ = call.run(call.base, interpreted(idle_kernel))
    assert (got[0] == int.from_bytes(b"\xa5" * 4, "little",
                                     signed=True)).all()


def test_small_outputs_are_not_waved_through(monkeypatch):
    torch = pytest.importorskip("torch")
    x = torch.zeros(64)
    call = interpreted_call(scale_kernel, x, x.clone(), monkeypatch)
    small = torch.full((64,), 1e-3, dtype=torch.float16)
    assert not call.matches([torch.zeros_like(small)], [small])
    assert call.matches([small * (1 + 1e-3)], [small])
    # Elements far below the output's scale may differ by rounding.
    wide = torch.tensor([1000.0, 1e-3])
    assert call.matches([torch.tensor([1000.0, 0.0])], [wide])
    # An all-zero output must stay zero.
    zeros = torch.zeros(4)
    assert call.matches([zeros.clone()], [zeros])
    assert not call.matches([zeros + 1e-3], [zeros])


def test_an_input_holding_nan_comes_back_untouched(monkeypatch):
    torch = pytest.importorskip("torch")
    x = torch.arange(64, dtype=torch.float32)
    x[3] = float("nan")
    call = interpreted_call(scale_kernel, x, torch.zeros(64), monkeypatch)
    assert call.run(call.base)[3]
    reference, _, _, untouched = call.reference()
    assert untouched
    assert call.evaluate(call.base, reference,
                         interpreted(scale_kernel))["status"] == "verified"
    # A strided input too: its bits are compared as a contiguous copy.
    wide = torch.full((64, 2), float("nan"))
    strided = interpreted_call(scale_kernel, wide[:, 0], torch.zeros(64),
                               monkeypatch)
    assert strided.run(strided.base)[3]


class StridedTensor(FakeTensor):
    """A view x[:, ::2] of a 4 x 16 tensor: 32 elements over a span of 63."""

    shape = (4, 8)

    def stride(self):
        return (16, 2)


def test_a_strided_view_is_sized_by_its_span(tmp_path):
    from autoprof.triton import _span
    view = StridedTensor("torch.float32", 32)
    assert _span(view) == 1 + 3 * 16 + 7 * 2
    compiled = compile_add()
    spec = kernel_spec(compiled.asm["ptx"], compiled.metadata.name,
                       [view] + ARGS[1:], (1,), 4, 0, ["out_ptr"], NAMES,
                       tmp_path)
    assert json.loads(spec.read_text())["params"][0]["count"] == 63


def test_what_triton_specializes_away():
    from autoprof.triton import specialized_away
    assert specialized_away(None, "n")
    assert specialized_away(1, "n")
    assert not specialized_away(1, "n", do_not_specialize={"n"})
    assert not specialized_away(True, "flag")
    assert not specialized_away(2, "n")
    assert not specialized_away(1.0, "scale")


def test_the_cache_key_covers_what_changes_the_outcome():
    from autoprof.triton import _cache_key
    base = Configuration((), 4, 3)

    def key(**settings):
        return _cache_key(add_kernel, ARGS, (1,), Space(), base, ["out_ptr"],
                          "GPU", {"fixed": [("BLOCK", 1024)], **settings})

    assert key() == key()
    assert key() != _cache_key(add_kernel, ARGS, (1,), Space(), base,
                               ["out_ptr"], "GPU", {"fixed": [("BLOCK", 512)]})
    assert key() != key(rtol=1e-3)
    strided = [StridedTensor("torch.float32", 32)] + ARGS[1:]
    contiguous = [FakeTensor("torch.float32", 32)] + ARGS[1:]
    assert _cache_key(add_kernel, strided, (1,), Space(), base, [], "GPU",
                      {}) != _cache_key(add_kernel, contiguous, (1,),
                                        Space(), base, [], "GPU", {})


def test_an_autotuned_kernel_is_refused():
    from autoprof.triton import _Call
    tuned = triton.autotune(configs=[triton.Config({"BLOCK": 128})],
                            key=["n"])(add_kernel)
    with pytest.raises(TritonError, match="Autotuner is not supported: pass "
                                          "the @triton.jit function itself"):
        _Call(tuned, ARGS, (1,), ["out_ptr"], Space(), 4, 3, None,
              {"BLOCK": 128})
