// y[i] = the sum of x over i's warp, through a cooperative-groups tile, at
// most 1e30 (cuda::std::fmin from libcu++): both need the headers CUDA 13
// keeps under include/cccl.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/std/cmath>
namespace cg = cooperative_groups;
extern "C" __global__ void tile_sum(const float *x, float *y, int n) {
  cg::thread_block_tile<32> tile =
      cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  float s = cg::reduce(tile, v, cg::plus<float>());
  if (i < n)
    y[i] = cuda::std::fmin(s, 1.0e30f);
}
