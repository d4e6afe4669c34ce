// Arguments real code passes: a struct by value holding device pointers (a struct of arrays, a
// parameter block), textures of two- and four-element texels, and a 3-D texture.

struct Arrays {
  const float* x;
  float* y;
  int count;
  float scale;
};

extern "C" __global__ void scale_arrays(Arrays arrays) {
  const int i = threadIdx.x;
  if (i < arrays.count) arrays.y[i] = arrays.scale * arrays.x[i];
}

extern "C" __global__ void fetch_float4(cudaTextureObject_t texture, float4* out, int count) {
  const int i = threadIdx.x;
  if (i < count) out[i] = tex1Dfetch<float4>(texture, i);
}

extern "C" __global__ void fetch_int2(cudaTextureObject_t texture, int2* out, int count) {
  const int i = threadIdx.x;
  if (i < count) out[i] = tex1Dfetch<int2>(texture, i);
}

// out[i] = the texel at (i, i + 1, i + 2) of a 3-D texture, coordinates at texel centres.
extern "C" __global__ void fetch_volume(cudaTextureObject_t texture, float* out, int count) {
  const int i = threadIdx.x;
  if (i < count) out[i] = tex3D<float>(texture, i + 0.5f, i + 1.5f, i + 2.5f);
}

// A functor passed by value: an empty struct, one byte in the parameter block.
struct Negate {
  __device__ float operator()(float v) const { return -v; }
};

template <class Op>
__global__ void transform(const float* in, float* out, Op op) {
  out[threadIdx.x] = op(in[threadIdx.x]);
}

template __global__ void transform<Negate>(const float*, float*, Negate);

// uchar4 texels read as float4: cudaReadModeNormalizedFloat gives each byte / 255.
extern "C" __global__ void fetch_normalized(cudaTextureObject_t texture, float4* out, int count) {
  const int i = threadIdx.x;
  if (i < count) out[i] = tex1Dfetch<float4>(texture, i);
}

// A parameter block with nested structs and an __align__(16) member: in at 0, range at 8,
// affine at 16 (padded to 16 bytes), out at 32, tag at 40, the whole padded to 48 bytes.
struct Range {
  int begin;
  int end;
};

struct __align__(16) Affine {
  float scale;
  float shift;
};

struct Job {
  const float* in;
  Range range;
  Affine affine;
  float* out;
  signed char tag;
};

extern "C" __global__ void run_job(Job job) {
  const int i = job.range.begin + threadIdx.x;
  if (i < job.range.end) job.out[i] = job.affine.scale * job.in[i] + job.affine.shift + job.tag;
}
