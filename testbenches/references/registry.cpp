#include "testbenches/references/reference_kernels.h"

namespace ohmvp::reference {

std::vector<Reference> make_all_references() {
  std::vector<Reference> all = {
      {"vecadd", vecadd_kernels(), {}},
      {"vecadd_streams", vecadd_kernels(), {}},
      {"vecadd_concurrent", vecadd_kernels(), {}},
      {"vecadd_titanv", vecadd_kernels(), {}},
      {"saxpy", saxpy_kernels(), {}},
      {"reduction",
       reduction_kernels(),
       {{"total_atomic", 30 * 0x1p-24, 0.0,
         "reduce_atomic adds the 16 blocks' partial sums with atomicAdd in whatever order the "
         "blocks finish, and float addition is not associative. Any order makes at most 15 "
         "roundings, each at most half an ulp of a running total no larger than the sum of |in|, "
         "so at most 2^-24 of that sum: the reference's order and the GPU's each lie within "
         "15 * 2^-24 of it from the exact sum, and so within 30 * 2^-24 of it of each other "
         "(the shipped 16384 inputs in [-1, 1] sum to about 8192 in magnitude: about 0.015)",
         "in"}}},
      {"matmul", matmul_kernels(), {}},
      {"transpose", transpose_kernels(), {}},
      {"histogram", histogram_kernels(), {}},
      {"scan", scan_kernels(), {}},
      {"spmv", spmv_kernels(), {}},
      {"bfs", bfs_kernels(), {}},
      {"pagerank", pagerank_kernels(), {}},
      {"fdtd2d", fdtd2d_kernels(), {}},
      {"backprop", backprop_kernels(), {}},
      {"lu", lu_kernels(), {}},
      {"blur_tex2d", blur_tex2d_kernels(), {}},
      {"wmma_gemm", tensor_kernels(), {}},
      {"wmma_gemm_1024", tensor_kernels(), {}},
      {"wmma_gemm_s8", tensor_kernels(), {}},
      {"wmma_gemm_s4", tensor_kernels(), {}},
      {"wmma_peak", tensor_kernels(), {}},
      {"wmma_peak_titanv", tensor_kernels(), {}},
      {"volta_mma_gemm", tensor_kernels(), {}},
  };
  for (const char* pattern : {"uniform", "parity", "loop", "nested", "early_return"})
    all.push_back({std::string("divergence_") + pattern, divergence_kernels(), {}});
  return all;
}

}  // namespace ohmvp::reference
