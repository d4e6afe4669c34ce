// Texture objects fetched with tex1Dfetch and tex2D, as Rodinia kernels use them.
extern "C" __global__ void fetch1d(cudaTextureObject_t tex, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(tex, i) + (float)tex1Dfetch<int>(tex, i + 1);
}

extern "C" __global__ void fetch2d(cudaTextureObject_t tex, float* out, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * w + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}
