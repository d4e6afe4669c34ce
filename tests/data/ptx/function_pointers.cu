// Function pointers and virtual functions: a __constant__ table of device functions, objects
// whose virtual call depends on the thread, and a pointer the host passes in.
typedef float (*Unary)(float);
__device__ float square(float x) {
  return x * x;
}
__device__ float negate(float x) {
  return -x;
}
__device__ float halve(float x) {
  return 0.5f * x;
}
__constant__ Unary table[3] = {square, negate, halve};

struct Shape {
  __device__ virtual float area(float size) const = 0;
};
struct Square : Shape {
  __device__ float area(float size) const override { return size * size; }
};
struct Circle : Shape {
  __device__ float area(float size) const override { return 3.0f * size * size; }
};

// out[3 t ..] = {table[t % 3](in[t]), the area of a Square (even t) or Circle (odd t) of size
// in[t], square(in[t]) through a pointer taken in the kernel}.
extern "C" __global__ void dispatch(const float* in, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[3 * t] = table[t % 3](in[t]);
  const Square square_shape;
  const Circle circle_shape;
  const Shape* shape = t % 2 == 0 ? static_cast<const Shape*>(&square_shape) : &circle_shape;
  out[3 * t + 1] = shape->area(in[t]);
  Unary chosen = t >= 0 ? square : negate;
  out[3 * t + 2] = chosen(in[t]);
}

// call_through: out[t] = the function at the address the host passed, applied to t.
extern "C" __global__ void call_through(unsigned long long address, float* out) {
  const int t = threadIdx.x;
  out[t] = reinterpret_cast<Unary>(address)(float(t));
}
