// C++ kernels as nvcc mangles them: templates, a namespace, overloads. A workload or a host
// program may name each by its mangled name, its signature, or a shorter form that fits only it.

namespace blas {

template <int Width>
__global__ void scale(float* data, float factor) {
  data[threadIdx.x * Width] *= factor;
}

template __global__ void scale<1>(float*, float);
template __global__ void scale<2>(float*, float);

}  // namespace blas

__global__ void fill(int* data, int value) {
  data[threadIdx.x] = value;
}
__global__ void fill(float* data, float value) {
  data[threadIdx.x] = value;
}

// Sums data[0], data[stride], ...: with a large stride it reads past the end of `data`.
__device__ __noinline__ int strided_sum(const int* data, int count, int stride) {
  int sum = 0;
  for (int i = 0; i < count; ++i) sum += data[i * stride];
  return sum;
}

__global__ void reach(int* data, int count, int stride) {
  data[0] = strided_sum(data, count, stride);
}

// Spelt by the demangler as "void shift<3u>(int const*, int*)".
template <unsigned Amount>
__global__ void shift(const int* in, int* out) {
  out[threadIdx.x] = in[threadIdx.x] << Amount;
}

template __global__ void shift<3>(const int*, int*);
