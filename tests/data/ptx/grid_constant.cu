// __grid_constant__: a kernel parameter read in place through a generic pointer (cvta.param),
// here passed to a function that cannot know where it points; __isGridConstant asks isspacep.param.

struct Coefficients {
  float values[16];
  int count;
};

__device__ __noinline__ float pick(const float* values, int k) {
  return values[k];
}

extern "C" __global__ void grid_constant(const __grid_constant__ Coefficients coefficients,
                                         float* out, const float* global) {
  const int i = threadIdx.x;
  if (i >= coefficients.count) return;
  const bool in_parameters = __isGridConstant(coefficients.values);
  const bool global_in_parameters = __isGridConstant(global);
  out[i] = pick(coefficients.values, i % 16) + (in_parameters ? 100.0f : 0.0f) +
           (global_in_parameters ? 1000.0f : 0.0f);
}
