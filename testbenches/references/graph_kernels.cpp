// References for the sparse and graph kernels: spmv.cu, bfs.cu, pagerank.cu.
#include <cmath>

#include "testbenches/references/reference_kernels.h"

namespace ohmvp::reference {

std::map<std::string, KernelFunction> spmv_kernels() {
  return {{"spmv_csr_scalar", [](const KernelCall& call) {
             call.expect_args(6);
             const int32_t rows = call.scalar<int32_t>(0);
             auto offsets = call.buffer<int32_t>(1), columns = call.buffer<int32_t>(2);
             auto values = call.buffer<float>(3);
             const TextureView x = call.texture(4);
             auto y = call.buffer<float>(5);
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               const int32_t row = static_cast<int32_t>(global_x(call, block, thread));
               if (row >= rows) return;
               float sum = 0.0f;
               for (int32_t j = offsets[row]; j < offsets[row + 1]; ++j)
                 sum = std::fma(values[j], x.fetch(columns[j]), sum);
               y.set(row, sum);
             });
           }}};
}

std::map<std::string, KernelFunction> bfs_kernels() {
  // Within one launch the threads only ever write the same value to a shared location (a cost
  // one more than the frontier's, a true flag), so running them one after another gives the
  // result of any interleaving.
  return {{"bfs_init",
           [](const KernelCall& call) {
             call.expect_args(6);
             auto frontier = call.buffer<uint8_t>(0), updating = call.buffer<uint8_t>(1),
                  visited = call.buffer<uint8_t>(2);
             auto cost = call.buffer<int32_t>(3);
             const int32_t nodes = call.scalar<int32_t>(4), source = call.scalar<int32_t>(5);
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               const int32_t node = static_cast<int32_t>(global_x(call, block, thread));
               if (node >= nodes) return;
               frontier.set(node, node == source);
               updating.set(node, 0);
               visited.set(node, node == source);
               cost.set(node, node == source ? 0 : -1);
             });
           }},
          {"bfs_expand",
           [](const KernelCall& call) {
             call.expect_args(7);
             auto offsets = call.buffer<int32_t>(0), columns = call.buffer<int32_t>(1);
             auto frontier = call.buffer<uint8_t>(2), updating = call.buffer<uint8_t>(3),
                  visited = call.buffer<uint8_t>(4);
             auto cost = call.buffer<int32_t>(5);
             const int32_t nodes = call.scalar<int32_t>(6);
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               const int32_t node = static_cast<int32_t>(global_x(call, block, thread));
               if (node >= nodes || !frontier[node]) return;
               frontier.set(node, 0);
               for (int32_t e = offsets[node]; e < offsets[node + 1]; ++e) {
                 const int32_t neighbour = columns[e];
                 if (!visited[neighbour]) {
                   cost.set(neighbour, cost[node] + 1);
                   updating.set(neighbour, 1);
                 }
               }
             });
           }},
          {"bfs_advance", [](const KernelCall& call) {
             call.expect_args(5);
             auto frontier = call.buffer<uint8_t>(0), updating = call.buffer<uint8_t>(1),
                  visited = call.buffer<uint8_t>(2);
             auto changed = call.buffer<uint32_t>(3);
             const int32_t nodes = call.scalar<int32_t>(4);
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               const int32_t node = static_cast<int32_t>(global_x(call, block, thread));
               if (node >= nodes || !updating[node]) return;
               frontier.set(node, 1);
               visited.set(node, 1);
               updating.set(node, 0);
               changed.set(0, 1);
             });
           }}};
}

std::map<std::string, KernelFunction> pagerank_kernels() {
  return {{"pagerank_out_degree",
           [](const KernelCall& call) {
             call.expect_args(3);
             auto columns = call.buffer<int32_t>(0), degree = call.buffer<int32_t>(1);
             const int32_t edges = call.scalar<int32_t>(2);
             const int32_t stride = static_cast<int32_t>(call.block()[0] * call.grid()[0]);
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               for (int32_t e = static_cast<int32_t>(global_x(call, block, thread)); e < edges;
                    e += stride)
                 degree.set(columns[e], degree[columns[e]] + 1);
             });
           }},
          {"pagerank_pull", [](const KernelCall& call) {
             call.expect_args(8);
             auto offsets = call.buffer<int32_t>(0), columns = call.buffer<int32_t>(1),
                  degree = call.buffer<int32_t>(2);
             auto rank = call.buffer<float>(3), next = call.buffer<float>(4);
             const int32_t nodes = call.scalar<int32_t>(5);
             const float damping = call.scalar<float>(6), teleport = call.scalar<float>(7);
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               const int32_t node = static_cast<int32_t>(global_x(call, block, thread));
               if (node >= nodes) return;
               float sum = 0.0f;
               for (int32_t e = offsets[node]; e < offsets[node + 1]; ++e) {
                 const int32_t source = columns[e];
                 const int32_t d = degree[source];
                 if (d > 0) sum += rank[source] / static_cast<float>(d);
               }
               next.set(node, std::fma(damping, sum, teleport));
             });
           }}};
}

}  // namespace ohmvp::reference
