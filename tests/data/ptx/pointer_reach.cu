// What an indirect call might reach but a kernel never calls: a recursive function in a table,
// and a virtual destructor's deleting variant (which calls free) in every vtable.
struct Base {
  __device__ virtual ~Base() {}
  __device__ virtual int value() const { return 1; }
};
struct Derived : Base {
  __device__ int value() const override { return 2; }
};

__device__ int fibonacci(int n) {
  return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
}
__device__ int twice(int n) {
  return 2 * n;
}
typedef int (*IntFunction)(int);
__device__ IntFunction functions[2] = {twice, fibonacci};

// out[t] = the value of a Base (even t) or Derived (odd t), plus functions[which](t).
extern "C" __global__ void reach(int* out, int which) {
  const int t = threadIdx.x;
  const Base base;
  const Derived derived;
  const Base* object = t % 2 == 0 ? &base : static_cast<const Base*>(&derived);
  out[t] = object->value() + functions[which](t);
}

// destroy: deletes an object the kernel made with new (malloc): the deleting destructor frees it.
extern "C" __global__ void destroy() {
  Base* object = new Derived();
  delete object;
}
