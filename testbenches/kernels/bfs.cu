// Level-synchronous breadth-first search over a CSR graph in the Rodinia style: bfs_expand visits
// the neighbours of every frontier node, bfs_advance turns the newly reached nodes into the next
// frontier and raises `changed`; the host repeats both until `changed` stays 0.

extern "C" __global__ void bfs_init(bool* frontier, bool* updating, bool* visited, int* cost,
                                    int num_nodes, int source) {
  int node = blockIdx.x * blockDim.x + threadIdx.x;
  if (node >= num_nodes) return;
  bool is_source = node == source;
  frontier[node] = is_source;
  updating[node] = false;
  visited[node] = is_source;
  cost[node] = is_source ? 0 : -1;
}

extern "C" __global__ void bfs_expand(const int* row_offsets, const int* column_indices,
                                      bool* frontier, bool* updating, const bool* visited,
                                      int* cost, int num_nodes) {
  int node = blockIdx.x * blockDim.x + threadIdx.x;
  if (node >= num_nodes || !frontier[node]) return;
  frontier[node] = false;
  for (int e = row_offsets[node]; e < row_offsets[node + 1]; ++e) {
    int neighbour = column_indices[e];
    if (!visited[neighbour]) {
      cost[neighbour] = cost[node] + 1;
      updating[neighbour] = true;
    }
  }
}

extern "C" __global__ void bfs_advance(bool* frontier, bool* updating, bool* visited,
                                       unsigned* changed, int num_nodes) {
  int node = blockIdx.x * blockDim.x + threadIdx.x;
  if (node >= num_nodes || !updating[node]) return;
  frontier[node] = true;
  visited[node] = true;
  updating[node] = false;
  *changed = 1;
}
