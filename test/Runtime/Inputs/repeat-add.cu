// y[i] = x[i] added 256 times, one element per thread: 256 dependent
// additions where one multiplication would do.
extern "C" __global__ void repeat_add(const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < 256; ++k)
    sum += x[i];
  y[i] = sum;
}
