// y[i] = x[idx[i]]: idx is an input of indices into x.
extern "C" __global__ void gather(const int *idx, const float *x, float *y,
                                  int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[idx[i]];
}
