"""autoprof.triton_rewrite end to end on a GPU, with a scripted model: the
kernel computes exp(x) as a 40-term series; the first answer computes
2 exp(x) (its outputs differ: rejected), the second imports os (refused,
repaired in the same round with tl.exp: verified and faster). The returned
kernel computes exp(x). Prints one line per answer and one for the rewrite.
Usage: triton-rewrite.py AUTOPROF_OPT AUTOPROF_CHAT ENDPOINT CACHE_DIR"""

import sys

import torch
import triton
import triton.language as tl

from autoprof.triton_rewrite import rewrite

opt, chat, endpoint, cache = sys.argv[1:5]


@triton.jit
def exp_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    term = tl.full((BLOCK,), 1.0, tl.float32)
    total = term
    for i in range(1, 40):
        term = term * x / i
        total += term
    tl.store(y_ptr + offs, total, mask=mask)


n = 1 << 24
x = torch.rand(n, device="cuda")
y = torch.empty_like(x)
before = x.clone()
grid = (triton.cdiv(n, 1024),)
log = []
result = rewrite(exp_kernel, x, y, n, grid=grid, outputs=["y_ptr"],
                 model="m", endpoint=endpoint, budget=2, cache_dir=cache,
                 tool=opt, chat_tool=chat, rtol=1e-4, log=log, BLOCK=1024)
for number, entry in enumerate(log, 1):
    print(f"answer {number}: {entry['status']}"
          + (f" ({entry['reason']})" if "reason" in entry else "")
          + (" after a repair" if entry["repaired"] else ""))
assert torch.equal(x, before), "the caller's input changed"
if result is None:
    print("rewrite: none")
    sys.exit(1)
out = torch.empty_like(x)
result.kernel[grid](x, out, n, BLOCK=1024)
correct = torch.allclose(out, torch.exp(x), rtol=1e-4, atol=1e-4)
print(f"rewrite: {'correct' if correct else 'WRONG'}, {result.us:.1f} us "
      f"against {result.baseline_us:.1f} us, source in {result.path.name}")
sys.exit(0 if correct else 1)
