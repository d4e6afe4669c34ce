// Tensor-core timing on the Titan V preset: wmma.mma latencies and throughput from the HMMA
// set/step model, measured by a kernel with %clock reads, cycle-exact.
#include <catch2/catch.hpp>

#include "modules/common/errors.h"
#include "tests/bench/tensor_bench.h"

using namespace ohmvp;
using namespace ohmvp::gpu;
using bench::TensorOp;

namespace {

bench::GpuBench& the_bench() {
  static bench::GpuBench instance(bench::one_sm_preset("titanv"));
  return instance;
}

uint32_t measure(TensorOp op, int chain, bool independent = false) {
  return bench::measure_latency(the_bench(), op, chain, independent);
}

uint64_t hmma_count() {
  return the_bench().stats.find_counter("gpu.sm0", "hmma")->value();
}

// gpu.<name>'s samples and their sum so far.
std::pair<uint64_t, uint64_t> latency_samples(const char* name) {
  const Histogram& h = *the_bench().stats.find_histogram("gpu", name);
  return {h.count(), h.sum()};
}

}  // namespace

TEST_CASE("titanv: wmma.mma latency is the set/step model's (Raihan et al.: 54 and 64)",
          "[tensor]") {
  const uint64_t before = hmma_count();
  CHECK(measure(TensorOp::wmma_f32, 1) == 54 + 2);
  CHECK(measure(TensorOp::wmma_f32, 4) == 4 * 54 + 2);
  CHECK(hmma_count() - before == 5 * 16);  // 4 sets x 4 steps each
  CHECK(measure(TensorOp::wmma_f16, 1) == 64 + 2);
  CHECK(measure(TensorOp::wmma_f16, 3) == 3 * 64 + 2);
  CHECK(hmma_count() - before == 5 * 16 + 4 * 8);  // 4 sets x 2 steps each
  std::cout << "titanv wmma.mma f32 latency " << (measure(TensorOp::wmma_f32, 9) - 2) / 9
            << ", f16 " << (measure(TensorOp::wmma_f16, 9) - 2) / 9 << " cycles\n";
}

TEST_CASE("titanv: the tensor cores take the next wmma.mma 32 cycles later", "[tensor]") {
  // Two independent multiplies: the second waits for the sub-core's tensor cores.
  const Counter& busy = *the_bench().stats.find_counter("gpu.sm0", "tensor_busy_cycles");
  const uint64_t before = busy.value();
  CHECK(measure(TensorOp::wmma_f32, 2, true) == 32 + 2);
  CHECK(measure(TensorOp::wmma_f16, 2, true) == 32 + 2);
  CHECK(busy.value() - before == 4 * 32);  // each multiply holds its tensor cores 32 cycles
}

TEST_CASE("titanv: mma.sync.m8n8k4 is one set of the wmma.mma schedule", "[tensor]") {
  // Its four quad-pair tiles are 1024 multiply-adds, a quarter of wmma's 16x16x16: one set of
  // four HMMA steps (mixed precision: ending at 10, 12, 14, 18, then the drain of 6) or two
  // (FP16: 12, 21, then the drain of 4).
  const uint64_t before = hmma_count();
  CHECK(measure(TensorOp::volta_mma_f32, 1) == 24 + 2);
  CHECK(measure(TensorOp::volta_mma_f32, 3) == 3 * 24 + 2);
  CHECK(hmma_count() - before == 4 * 4);
  CHECK(measure(TensorOp::volta_mma_f16, 2) == 2 * 25 + 2);
  CHECK(hmma_count() - before == 4 * 4 + 2 * 2);
  // The sub-core's two tensor cores do 128 multiply-adds a cycle: the next one 8 cycles later.
  CHECK(measure(TensorOp::volta_mma_f32, 2, true) == 8 + 2);
  std::cout << "titanv mma.sync.m8n8k4 latency f32 "
            << (measure(TensorOp::volta_mma_f32, 9) - 2) / 9 << ", f16 "
            << (measure(TensorOp::volta_mma_f16, 9) - 2) / 9 << " cycles\n";
}

TEST_CASE("titanv: Volta (sm_70) refuses integer wmma and the sm_75 mma.sync shapes at launch",
          "[tensor]") {
  CHECK_THROWS_AS(measure(TensorOp::wmma_s8, 1), ConfigError);
  CHECK_THROWS_WITH(measure(TensorOp::wmma_s8, 1),
                    Catch::Contains("kernel 'lat' uses integer wmma") &&
                        Catch::Contains("needs compute capability 7.2 (sm_72) or later") &&
                        Catch::Contains("this GPU is 7.0 (sm_70, Volta)"));
  CHECK_THROWS_WITH(measure(TensorOp::wmma_s4, 1),
                    Catch::Contains("uses the 4-bit tensor-core mode (.m8n8k32 .s4/.u4)") &&
                        Catch::Contains("needs compute capability 7.5 (sm_75, Turing)"));
  CHECK_THROWS_WITH(measure(TensorOp::mma_f32, 1),
                    Catch::Contains("lat.ptx:") && Catch::Contains("uses mma.sync") &&
                        Catch::Contains("needs compute capability 7.5 (sm_75, Turing)"));
}

TEST_CASE("titanv: wmma.load from shared memory costs its bank passes", "[tensor]") {
  // Row-major A, two 16-byte runs per lane, served a quarter warp (8 lanes) per phase. Rows 32
  // bytes apart: a quarter warp's rows 0-3 and 4-7 meet in the same banks, 2 passes per phase,
  // 16 for the load. Rows 48 bytes apart: 8 distinct bank groups, 1 pass per phase, 8.
  const uint32_t ldst = the_bench().config.unit(UnitClass::ldst).latency;
  const uint32_t shared = the_bench().config.shared_memory.latency;
  CHECK(bench::run_interval(the_bench(), bench::shared_load_ptx(16)) == ldst + 16 - 1 + shared + 2);
  CHECK(bench::run_interval(the_bench(), bench::shared_load_ptx(24)) == ldst + 8 - 1 + shared + 2);
}

TEST_CASE("titanv: gpu.wmma_*_latency sample each instruction from issue to done", "[tensor]") {
  using Samples = std::pair<uint64_t, uint64_t>;
  const auto added = [](Samples before, Samples after) {
    return Samples{after.first - before.first, after.second - before.second};
  };
  // One multiply: its latency, 54 cycles (wmma.mma, mixed precision) or 24 (mma.sync.m8n8k4).
  Samples before = latency_samples("wmma_mma_latency");
  measure(TensorOp::wmma_f32, 1);
  CHECK(added(before, latency_samples("wmma_mma_latency")) == Samples{1, 54});
  before = latency_samples("wmma_mma_latency");
  measure(TensorOp::volta_mma_f32, 1);
  CHECK(added(before, latency_samples("wmma_mma_latency")) == Samples{1, 24});
  // One wmma.load from shared memory: ldst + bank passes - 1 + shared-memory latency (8 passes
  // with rows 48 bytes apart; the interval around it is that + 2).
  const uint32_t ldst = the_bench().config.unit(UnitClass::ldst).latency;
  const uint32_t shared = the_bench().config.shared_memory.latency;
  before = latency_samples("wmma_load_latency");
  CHECK(bench::run_interval(the_bench(), bench::shared_load_ptx(24)) == ldst + 8 - 1 + shared + 2);
  CHECK(added(before, latency_samples("wmma_load_latency")) == Samples{1, ldst + 8 - 1 + shared});
  // Two wmma.load from global memory (latency_ptx loads A and B): both sampled, stores none.
  before = latency_samples("wmma_load_latency");
  const Samples stores = latency_samples("wmma_store_latency");
  measure(TensorOp::wmma_f16, 1);
  CHECK(added(before, latency_samples("wmma_load_latency")).first == 2);
  CHECK(latency_samples("wmma_store_latency") == stores);
  // One wmma.store to global memory: sampled once it is done, no sooner than the LD/ST unit.
  const std::string store =
      ".version 7.0\n.target sm_75\n.address_size 64\n"
      ".visible .entry lat(.param .u64 in, .param .u64 out)\n{\n"
      "  .reg .f32 %f<9>;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n"
      "  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1], " +
      bench::registers("f", 1, 8) + ";\n  exit;\n}\n";
  bench::run_interval(the_bench(), store);
  const Samples stored = added(stores, latency_samples("wmma_store_latency"));
  CHECK(stored.first == 1);
  CHECK(stored.second >= ldst);
}
