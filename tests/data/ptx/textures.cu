// Texture objects fetched with tex1Dfetch and tex2D, as Rodinia kernels use them.
extern "C" __global__ void fetch1d(cudaTextureObject_t tex, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(tex, i) + (float)tex1Dfetch<int>(tex, i + 1);
}

extern "C" __global__ void fetch2d(cudaTextureObject_t tex, float* out, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * w + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}

// tex2D at the coordinates given, as the texture object's filter, addressing and normalisation
// say.
extern "C" __global__ void sample2d(cudaTextureObject_t tex, const float* xs, const float* ys,
                                    float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(tex, xs[i], ys[i]);
}

// tex1D and tex3D at the coordinates given.
extern "C" __global__ void sample1d(cudaTextureObject_t tex, const float* xs, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(tex, xs[i]);
}

extern "C" __global__ void sample3d(cudaTextureObject_t tex, const float* xs, const float* ys,
                                    const float* zs, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(tex, xs[i], ys[i], zs[i]);
}

// tex2Dgather of channel 0 at the coordinates given: the four texels of the bilinear footprint.
extern "C" __global__ void gather2d(cudaTextureObject_t tex, const float* xs, const float* ys,
                                    float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2Dgather<float4>(tex, xs[i], ys[i], 0);
}
