// Module-scope variables initialised with other variables' addresses: nvcc writes them as
// `generic(x)+8` elements, and as byte masks `0xFF00(generic(x))` inside packed structs.
__device__ int data[8] = {10, 11, 12, 13, 14, 15, 16, 17};
__device__ const char* names[3] = {"alpha", "beta", "gamma"};
__device__ int* middle = data + 4;
__constant__ int scales[4] = {2, 3, 5, 7};
__constant__ const int* scale_at = scales + 1;  // a generic pointer into the constant bank
__device__ const int* last_scale = scales + 3;

struct Entry {  // nvcc packs each 8 bytes of it into one .u64 element
  int id;
  const char* name;
  float weight;
  int* value;
};
__device__ Entry entries[2] = {{1, "one", 1.5f, data + 1}, {2, "two", 2.5f, data}};

__device__ __noinline__ int twice(int x) {
  return 2 * x;
}
__device__ __noinline__ int negate(int x) {
  return -x;
}
struct __attribute__((packed)) Packed {  // pointers at odd offsets: byte masks
  char tag;
  int* value;
  int (*apply)(int);
};
__device__ Packed packed[2] = {{'p', data + 2, twice}, {'q', data + 7, negate}};

// out[8 t ..] for thread t: first letter of names[t % 3], *middle + t, *scale_at, *last_scale,
// entries[t % 2]'s name letter + id, its weight * 2 + *value, packed[t % 2]'s tag, and
// apply(*value) through the packed function pointer.
extern "C" __global__ void address_initialisers(int* out) {
  const int t = threadIdx.x;
  const Entry& entry = entries[t % 2];
  const Packed& p = packed[t % 2];
  int* row = out + 8 * t;
  row[0] = names[t % 3][0];
  row[1] = *middle + t;
  row[2] = *scale_at;
  row[3] = *last_scale;
  row[4] = entry.name[1] + entry.id;
  row[5] = static_cast<int>(entry.weight * 2) + *entry.value;
  row[6] = p.tag;
  row[7] = p.apply(*p.value);
}
