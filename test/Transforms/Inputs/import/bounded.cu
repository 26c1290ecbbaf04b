// Scales n floats in place; compiled for blocks of at most 128 threads, so
// that its machine code launches no larger ones.
extern "C" __global__ void __launch_bounds__(128) scale(float *x, float a,
                                                        unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}
