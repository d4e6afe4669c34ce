// Surface objects read and written with surf1D/2D/3Dread and write (suld.b / sust.b): x in
// bytes, y and z in rows and slices.
#include <cuda_runtime.h>

// out = 2 in + 1 over a 2-D float surface, one thread per element.
extern "C" __global__ void scale2d(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int width,
                                   int height) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, x = i % width, y = i / width;
  if (y >= height) return;
  float v = surf2Dread<float>(in, x * 4, y);
  surf2Dwrite(2.0f * v + 1.0f, out, x * 4, y);
}

// Every byte of a 3-D uchar4 surface plus one, in place.
extern "C" __global__ void bump3d(cudaSurfaceObject_t s, int width, int height, int depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i % width, y = i / width % height, z = i / (width * height);
  if (z >= depth) return;
  uchar4 c = surf3Dread<uchar4>(s, x * 4, y, z);
  surf3Dwrite(make_uchar4(c.x + 1, c.y + 1, c.z + 1, c.w + 1), s, x * 4, y, z);
}

// Thread t reads int element t - 2 of a 1-D surface clamped and zeroed outside it, and writes
// t to element t - 2 of another with the zero mode (outside: dropped).
extern "C" __global__ void bounds1d(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int* clamped,
                                    int* zeroed) {
  int t = threadIdx.x, x = (t - 2) * 4;
  clamped[t] = surf1Dread<int>(in, x, cudaBoundaryModeClamp);
  zeroed[t] = surf1Dread<int>(in, x, cudaBoundaryModeZero);
  surf1Dwrite(t, out, x, cudaBoundaryModeZero);
}

// A read at byte x with the default trap mode.
extern "C" __global__ void trap1d(cudaSurfaceObject_t in, int* out, int x) {
  out[threadIdx.x] = surf1Dread<int>(in, x);
}
