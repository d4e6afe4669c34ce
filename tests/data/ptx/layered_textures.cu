// Layered textures and surfaces, and cubemaps: tex1DLayered, tex2DLayered, texCubemap and
// texCubemapLayered (tex.a1d, .a2d, .cube, .acube), surf1DLayered, surf2DLayered and
// surfCubemap reads and writes (suld.b / sust.b .a1d, .a2d).
#include <cuda_runtime.h>

// out[i] = layer i / width of a layered 1-D float texture at x = i % width + dx.
extern "C" __global__ void sample_a1d(cudaTextureObject_t t, float* out, int width, int count,
                                      float dx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  out[i] = tex1DLayered<float>(t, float(i % width) + dx, i / width);
}

// out[i] = layer layers[i] of a layered 2-D float texture at (xs[i], ys[i]).
extern "C" __global__ void sample_a2d(cudaTextureObject_t t, const float* xs, const float* ys,
                                      const int* layers, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float>(t, xs[i], ys[i], layers[i]);
}

// out[i] = a float cubemap in direction (xs[i], ys[i], zs[i]).
extern "C" __global__ void sample_cube(cudaTextureObject_t t, const float* xs, const float* ys,
                                       const float* zs, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(t, xs[i], ys[i], zs[i]);
}

// The direction through the centre of texel (x, y) of a cubemap face `width` texels wide: the
// cubemap table of the CUDA C++ Programming Guide run backwards.
__device__ float3 face_direction(int face, int x, int y, int width) {
  float s = 2.0f * (float(x) + 0.5f) / float(width) - 1.0f;
  float t = 2.0f * (float(y) + 0.5f) / float(width) - 1.0f;
  switch (face) {
    case 0:
      return make_float3(1.0f, -t, -s);
    case 1:
      return make_float3(-1.0f, -t, s);
    case 2:
      return make_float3(s, 1.0f, t);
    case 3:
      return make_float3(s, -1.0f, -t);
    case 4:
      return make_float3(s, -t, 1.0f);
    default:
      return make_float3(-s, -t, -1.0f);
  }
}

// Thread i fetches texel i of a (layered, when layers > 0) float cubemap through the direction
// of its centre: out equals the cubemap's buffer when each face and layer is where it belongs.
extern "C" __global__ void cube_texels(cudaTextureObject_t t, float* out, int width, int layers) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i % width, y = i / width % width, face = i / (width * width) % 6,
      layer = i / (width * width * 6);
  if (layer >= (layers > 0 ? layers : 1)) return;
  float3 d = face_direction(face, x, y, width);
  out[i] = layers > 0 ? texCubemapLayered<float>(t, d.x, d.y, d.z, layer)
                      : texCubemap<float>(t, d.x, d.y, d.z);
}

// Every int of a layered 1-D surface plus one, in place.
extern "C" __global__ void bump_a1d(cudaSurfaceObject_t s, int width, int layers) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, x = i % width, layer = i / width;
  if (layer >= layers) return;
  surf1DLayeredwrite(surf1DLayeredread<int>(s, x * 4, layer) + 1, s, x * 4, layer);
}

// The two floats of every float2 of a layered 2-D surface swapped, in place.
extern "C" __global__ void swap_a2d(cudaSurfaceObject_t s, int width, int height, int layers) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i % width, y = i / width % height, layer = i / (width * height);
  if (layer >= layers) return;
  float2 v = surf2DLayeredread<float2>(s, x * 8, y, layer);
  surf2DLayeredwrite(make_float2(v.y, v.x), s, x * 8, y, layer);
}

// Every float of a cubemap surface doubled, in place, face by face.
extern "C" __global__ void double_cube(cudaSurfaceObject_t s, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i % width, y = i / width % width, face = i / (width * width);
  if (face >= 6) return;
  surfCubemapwrite(2.0f * surfCubemapread<float>(s, x * 4, y, face), s, x * 4, y, face);
}

// Element 0 of layer `layer` of a layered 1-D int surface, clamped and zeroed outside it.
extern "C" __global__ void layer_bounds(cudaSurfaceObject_t s, int* out, int layer) {
  out[0] = surf1DLayeredread<int>(s, 0, layer, cudaBoundaryModeClamp);
  out[1] = surf1DLayeredread<int>(s, 0, layer, cudaBoundaryModeZero);
}

// The same with the default trap mode.
extern "C" __global__ void layer_trap(cudaSurfaceObject_t s, int* out, int layer) {
  out[0] = surf1DLayeredread<int>(s, 0, layer);
}
