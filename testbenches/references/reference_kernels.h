#pragma once

#include <vector>

#include "testbenches/references/reference.h"

namespace ohmvp::reference {

// One function per kernel source file in testbenches/kernels, giving the C++ models of its
// kernels by name; make_all_references() pairs them with the shipped workloads.
std::map<std::string, KernelFunction> vecadd_kernels();
std::map<std::string, KernelFunction> saxpy_kernels();
std::map<std::string, KernelFunction> reduction_kernels();
std::map<std::string, KernelFunction> matmul_kernels();
std::map<std::string, KernelFunction> transpose_kernels();
std::map<std::string, KernelFunction> histogram_kernels();
std::map<std::string, KernelFunction> scan_kernels();
std::map<std::string, KernelFunction> spmv_kernels();
std::map<std::string, KernelFunction> bfs_kernels();
std::map<std::string, KernelFunction> pagerank_kernels();
std::map<std::string, KernelFunction> fdtd2d_kernels();
std::map<std::string, KernelFunction> backprop_kernels();
std::map<std::string, KernelFunction> lu_kernels();
std::map<std::string, KernelFunction> blur_tex2d_kernels();
std::map<std::string, KernelFunction> divergence_kernels();
std::map<std::string, KernelFunction> tensor_kernels();

std::vector<Reference> make_all_references();

// The global index along x of a thread, as blockIdx.x * blockDim.x + threadIdx.x computes it in
// 32-bit unsigned arithmetic.
inline uint32_t global_x(const KernelCall& call, const Dim3& block, const Dim3& thread) {
  return block[0] * call.block()[0] + thread[0];
}
inline uint32_t global_y(const KernelCall& call, const Dim3& block, const Dim3& thread) {
  return block[1] * call.block()[1] + thread[1];
}

}  // namespace ohmvp::reference
