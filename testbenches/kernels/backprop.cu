// Forward pass of one layer in the style of Rodinia backprop's layerforward: a 16x16 block
// multiplies 16 inputs by their 16x16 weights, reduces each column over the 16 inputs with a
// shared-memory tree, and writes one partial sum per (block, hidden unit). The weight matrix has
// (hidden + 1) columns per row and a bias row 0, as in Rodinia; the products overwrite it.
#define BLOCK 16

extern "C" __global__ void layer_forward(const float* input, float* weights, float* partial_sums,
                                         int hidden) {
  __shared__ float input_node[BLOCK];
  __shared__ float products[BLOCK][BLOCK];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int row = BLOCK * blockIdx.y + ty + 1;
  int weight_index = (hidden + 1) * row + tx + 1;
  if (tx == 0) input_node[ty] = input[row];
  __syncthreads();
  products[ty][tx] = weights[weight_index] * input_node[ty];
  __syncthreads();
  for (int stride = 1; stride < BLOCK; stride *= 2) {
    if (ty % (2 * stride) == 0) products[ty][tx] += products[ty + stride][tx];
    __syncthreads();
  }
  weights[weight_index] = products[ty][tx];
  if (ty == 0) partial_sums[blockIdx.y * hidden + tx] = products[0][tx];
}
