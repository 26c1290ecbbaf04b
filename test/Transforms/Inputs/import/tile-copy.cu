// Copies 4 floats per thread through a shared tile (float4 global loads and
// stores) and through a small private array indexed at run time, which the
// compiler keeps in local memory.
__shared__ float4 tile[256];

extern "C" __global__ void tile_copy(const float4 *in, float4 *out, int pick) {
  float scratch[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  for (int k = 0; k < 8; ++k)
    scratch[k] = v.x * k;
  tile[threadIdx.x] = v;
  __syncthreads();
  float4 w = tile[blockDim.x - 1 - threadIdx.x];
  w.y += scratch[pick & 7];
  out[i] = w;
}
