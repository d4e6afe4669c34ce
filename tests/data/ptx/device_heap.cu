// malloc/free and new/delete in kernels, on the device heap.
struct Shape {
  __device__ virtual ~Shape() {}
  __device__ virtual int corners() const = 0;
};
struct Triangle : Shape {
  __device__ int corners() const override { return 3; }
};
struct Square : Shape {
  __device__ int corners() const override { return 4; }
};

// out[3 t ..] = {the sum 0 + 1 + ... + t from an array of t + 1 ints the thread mallocs, fills
// and frees, the corners of a shape it makes with new and deletes, and 1 if a malloc of
// `too_much` bytes gave NULL}.
extern "C" __global__ void heap_users(int* out, unsigned long long too_much) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int* values = static_cast<int*>(malloc((t + 1) * sizeof(int)));
  for (int i = 0; i <= t; ++i) values[i] = i;
  int sum = 0;
  for (int i = 0; i <= t; ++i) sum += values[i];
  free(values);
  Shape* shape = t % 2 == 0 ? static_cast<Shape*>(new Triangle()) : new Square();
  const int corners = shape->corners();
  delete shape;
  out[3 * t] = sum;
  out[3 * t + 1] = corners;
  out[3 * t + 2] = malloc(too_much) == nullptr ? 1 : 0;
}

// free_twice: frees one block twice.
extern "C" __global__ void free_twice() {
  void* block = malloc(64);
  free(block);
  free(block);
}
