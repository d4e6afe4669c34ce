// Pull-style PageRank over the incoming-edge CSR of a graph: each node sums rank/out_degree of
// its in-neighbours. pagerank_out_degree counts out-degrees with atomicAdd first.

extern "C" __global__ void pagerank_out_degree(const int* column_indices, int* out_degree,
                                               int num_edges) {
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < num_edges; e += blockDim.x * gridDim.x)
    atomicAdd(&out_degree[column_indices[e]], 1);
}

extern "C" __global__ void pagerank_pull(const int* row_offsets, const int* column_indices,
                                         const int* out_degree, const float* rank,
                                         float* next_rank, int num_nodes, float damping,
                                         float teleport) {
  int node = blockIdx.x * blockDim.x + threadIdx.x;
  if (node >= num_nodes) return;
  float sum = 0.0f;
  for (int e = row_offsets[node]; e < row_offsets[node + 1]; ++e) {
    int source = column_indices[e];
    int degree = out_degree[source];
    if (degree > 0) sum += rank[source] / (float)degree;
  }
  next_rank[node] = fmaf(damping, sum, teleport);
}
