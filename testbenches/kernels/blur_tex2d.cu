// 2-D five-point blur read through a 2-D texture object (point sampling, clamped addressing, so
// the border replicates edge texels) and stored as half precision.
#include <cuda_fp16.h>

__device__ float texel(cudaTextureObject_t image, int x, int y) {
  return tex2D<float>(image, x + 0.5f, y + 0.5f);
}

extern "C" __global__ void blur_tex2d(cudaTextureObject_t image, __half* out, int width,
                                      int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = texel(image, x - 1, y) + texel(image, x + 1, y);
  sum += texel(image, x, y - 1);
  sum += texel(image, x, y + 1);
  sum = fmaf(4.0f, texel(image, x, y), sum);
  out[y * width + x] = __float2half_rn(sum * 0.125f);
}
