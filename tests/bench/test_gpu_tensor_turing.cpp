// Tensor-core timing on the Turing (RTX 2080) preset, cycle-exact: Raihan et al. 2019's 99
// (FP32 accumulate), 74 (FP16) and 59 (int8) cycles per wmma.mma 16x16x16.
#include <catch2/catch.hpp>

#include "tests/bench/tensor_bench.h"

using namespace ohmvp;
using namespace ohmvp::gpu;
using bench::TensorOp;

namespace {

bench::GpuBench& the_bench() {
  static bench::GpuBench instance(bench::one_sm_preset("turing"));
  return instance;
}

uint32_t measure(TensorOp op, int chain, bool independent = false) {
  return bench::measure_latency(the_bench(), op, chain, independent);
}

}  // namespace

TEST_CASE("turing: wmma.mma latencies of the four modes", "[tensor]") {
  const uint64_t before = the_bench().stats.find_counter("gpu.sm0", "hmma")->value();
  CHECK(measure(TensorOp::wmma_f32, 1) == 99 + 2);
  CHECK(measure(TensorOp::wmma_f32, 3) == 3 * 99 + 2);
  CHECK(measure(TensorOp::wmma_f16, 2) == 2 * 74 + 2);
  CHECK(measure(TensorOp::wmma_s8, 2) == 2 * 59 + 2);
  CHECK(the_bench().stats.find_counter("gpu.sm0", "hmma")->value() - before == 8 * 4);
  // mma.sync m16n8k8: a quarter of the multiply-adds, one of the four HMMA (FP32 accumulation).
  CHECK(measure(TensorOp::mma_f32, 2) == 2 * 51 + 2);
  // The 4-bit mode's 8x8x32: one HMMA of 230 cycles (Raihan et al.).
  const uint64_t four_bit_before = the_bench().stats.find_counter("gpu.sm0", "hmma")->value();
  CHECK(measure(TensorOp::wmma_s4, 2) == 2 * 230 + 2);
  CHECK(the_bench().stats.find_counter("gpu.sm0", "hmma")->value() - four_bit_before == 2);
  std::cout << "turing wmma.mma f32 latency " << (measure(TensorOp::wmma_f32, 9) - 2) / 9
            << ", f16 " << (measure(TensorOp::wmma_f16, 9) - 2) / 9 << ", s8 "
            << (measure(TensorOp::wmma_s8, 9) - 2) / 9 << ", s4 (8x8x32) "
            << (measure(TensorOp::wmma_s4, 3) - 2) / 3 << " cycles\n";
}

TEST_CASE("turing: FP32 accumulation takes the tensor cores twice as long as FP16", "[tensor]") {
  CHECK(measure(TensorOp::wmma_f32, 2, true) == 64 + 2);
  CHECK(measure(TensorOp::wmma_f16, 2, true) == 32 + 2);
  CHECK(measure(TensorOp::wmma_s8, 2, true) == 16 + 2);
  CHECK(measure(TensorOp::wmma_s4, 2, true) == 4 + 2);
}

TEST_CASE("turing: wmma.load from shared memory reads each element once, in half the passes",
          "[tensor]") {
  // Row-major A, four 4-byte runs per lane (rows l / 4 and l / 4 + 8, k at 2 (l % 4) and 8 more),
  // a whole warp per pass when the 8 rows a run touches meet in different banks. Rows 32 bytes
  // apart: rows r and r + 4 share banks, 2 passes per run, 8 for the load (Volta: 16); rows 48
  // bytes apart: 1 pass per run, 4 (Volta: 8).
  const uint32_t ldst = the_bench().config.unit(UnitClass::ldst).latency;
  const uint32_t shared = the_bench().config.shared_memory.latency;
  CHECK(bench::run_interval(the_bench(), bench::shared_load_ptx(16)) == ldst + 8 - 1 + shared + 2);
  CHECK(bench::run_interval(the_bench(), bench::shared_load_ptx(24)) == ldst + 4 - 1 + shared + 2);
  // The 4-bit mode's A (s4, m8n8k32): one 4-byte run per lane (row l / 4, k 8 (l % 4) to + 7).
  // A stride of 64 elements is 32 bytes: rows r and r + 4 share banks, 2 passes; 96 elements,
  // 48 bytes: 1 pass.
  CHECK(bench::run_interval(the_bench(), bench::shared_load_ptx(64, true)) ==
        ldst + 2 - 1 + shared + 2);
  CHECK(bench::run_interval(the_bench(), bench::shared_load_ptx(96, true)) ==
        ldst + 1 - 1 + shared + 2);
}
