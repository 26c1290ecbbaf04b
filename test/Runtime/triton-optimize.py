"""autoprof.triton.optimize end to end on a GPU: a vector add, a row softmax
and a matmul, each optimized over its block sizes, warps and stages; the
chosen configuration's outputs match the original call's and it is not
slower; the caller's tensors are left as they were. Prints one line per
kernel.
Usage: triton-optimize.py AUTOPROF_OPT CACHE_DIR"""

import sys

import torch
import triton

from autoprof.triton import Space, optimize
from example_kernels import add_kernel, matmul_kernel, softmax_kernel

opt, cache = sys.argv[1], sys.argv[2]


def check(name, kernel, args, grid_of, outputs, space, reference, **meta):
    log = []
    before = [a.clone() if hasattr(a, "clone") else a for a in args]
    config = optimize(kernel, *args, grid=grid_of, outputs=outputs,
                      space=space, budget=4, cache_dir=cache, tool=opt,
                      log=log, **meta)
    chosen = {**meta, **config.kwargs}
    out = [a.clone() if hasattr(a, "clone") else a for a in args]
    kernel[grid_of(chosen)](*out, **config.kwargs, num_warps=config.num_warps,
                            num_stages=config.num_stages)
    torch.cuda.synchronize()
    index = [i for i, n in enumerate(kernel.arg_names) if n in outputs][0]
    ok = torch.allclose(out[index].float(), reference.float(), rtol=1e-2,
                        atol=1e-2) and all(
        torch.equal(a, b) for a, b in zip(args, before) if hasattr(a, "clone"))
    base = log[0]["us"]
    tried = [e for e in log[1:]]
    best = min([base] + [e["us"] for e in tried
                         if e.get("status") == "verified"])
    print(f"{name}: {'correct' if ok else 'WRONG'}; baseline {base:.1f} us, "
          f"chosen {config.kwargs} warps={config.num_warps} "
          f"stages={config.num_stages} at {best:.1f} us "
          f"({'not slower' if best <= base else 'SLOWER'}); facts "
          f"{sorted(k for k, v in log[0]['facts'].items() if v == 'true')}; "
          f"tried {[(e['configuration'], e['status']) for e in tried]}")


torch.manual_seed(0)
n = 1 << 24
x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
check("add", add_kernel, [x, y, torch.empty_like(x), n],
      lambda m: (triton.cdiv(n, m["BLOCK"]),), ["out_ptr"],
      Space(meta={"BLOCK": [256, 512, 1024, 2048, 4096]}), x + y, BLOCK=1024)

rows, cols = 4096, 1024
s = torch.randn(rows, cols, device="cuda")
check("softmax", softmax_kernel, [torch.empty_like(s), s, cols],
      lambda m: (rows,), ["out_ptr"], Space(num_warps=[1, 2, 4, 8, 16],
                                            num_stages=[1, 2]),
      torch.softmax(s, 1), BLOCK=1024)

M = N = K = 2048
a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(K, N, device="cuda", dtype=torch.float16)
check("matmul", matmul_kernel,
      [a, b, torch.empty(M, N, device="cuda"), M, N, K],
      lambda m: (M // m["BM"], N // m["BN"]), ["c_ptr"],
      Space(meta={"BM": [64, 128], "BN": [64, 128], "BK": [32, 64]},
            num_warps=[4, 8], num_stages=[2, 3, 4]),
      (a.float() @ b.float()), BM=64, BN=64, BK=32)
