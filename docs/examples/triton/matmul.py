"""A Triton matmul of halves optimized by autoprof.triton on a GPU: the
kernel as a user writes it, its blocks, warps and stages searched, ranked by
AutoProf's diagnosis of the profiled launch, each verified against the
caller's configuration. Writes OUT_DIR/matmul.log.json (what each
configuration did) and OUT_DIR/matmul.png (their times).
Usage: python docs/examples/triton/matmul.py OUT_DIR [AUTOPROF_OPT]"""

import json
import pathlib
import sys

import torch
import triton

from autoprof import plots
from autoprof.triton import Space, optimize

# The kernels are the GPU tests' own (test/Runtime/triton-optimize.test).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "test"
                       / "Runtime" / "Inputs" / "triton"))
from example_kernels import matmul_kernel  # noqa: E402


out = pathlib.Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
tool = sys.argv[2] if len(sys.argv) > 2 else None
M = N = K = 4096
torch.manual_seed(0)
a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(K, N, device="cuda", dtype=torch.float16)
c = torch.empty(M, N, device="cuda")
log = []
config = optimize(
    matmul_kernel, a, b, c, M, N, K,
    grid=lambda meta: (M // meta["BM"], N // meta["BN"]), outputs=["c_ptr"],
    space=Space(meta={"BM": [64, 128], "BN": [64, 128], "BK": [32, 64]},
                num_warps=[4, 8], num_stages=[2, 3, 4]),
    budget=6, cache_dir=out / "cache", tool=tool, log=log, BM=64, BN=64, BK=32)
print(f"chosen: {config.kwargs}, num_warps={config.num_warps}, "
      f"num_stages={config.num_stages}")
for entry in log:
    print(f"  {entry['configuration']}: {entry['status']}"
          + (f", {entry['us']:.1f} us" if "us" in entry else
             f" ({entry.get('reason', '')})"))
torch.cuda.synchronize()
cublas = triton.testing.do_bench(
    lambda: torch.mm(a, b, out_dtype=torch.float32)) * 1000
print(f"torch.mm (cuBLAS), f16 -> f32: {cublas:.1f} us")
(out / "matmul.log.json").write_text(json.dumps(
    {"log": log, "torch_mm_us": cublas, "shape": [M, N, K]}, indent=1) + "\n")
(out / "matmul.png").write_bytes(plots.to_png(plots.configurations(
    log, f"Triton matmul {M}x{N}x{K}, f16 -> f32, on "
         f"{torch.cuda.get_device_name()}")))
