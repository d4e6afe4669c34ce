#include <catch2/catch.hpp>
#include <vector>

#include "modules/gpu/tensor_core_timing.h"

using namespace ohmvp::gpu;

TEST_CASE("HMMA set/step model reproduces the Titan V's cumulative HMMA cycles", "[tensor]") {
  const TensorCoreConfig volta;  // the defaults are titanv.json's
  // Raihan et al. 2019: mixed precision, 4 sets x 4 steps.
  const HmmaSchedule mixed = hmma_schedule(volta, volta.f32, 4096);
  CHECK(mixed.hmma == 16);
  CHECK(mixed.step_end ==
        std::vector<uint32_t>{10, 12, 14, 18, 20, 22, 24, 28, 30, 32, 34, 38, 40, 42, 44, 54});
  CHECK(mixed.latency == 54);
  CHECK(mixed.initiation_interval == 32);  // 4096 multiply-adds / (2 x 16 x 4) per cycle
  // FP16: 4 sets x 2 steps.
  const HmmaSchedule half = hmma_schedule(volta, volta.f16, 4096);
  CHECK(half.hmma == 8);
  CHECK(half.step_end == std::vector<uint32_t>{12, 21, 25, 34, 38, 47, 51, 64});
  CHECK(half.latency == 64);
  CHECK(half.initiation_interval == 32);
  // mma.sync m16n8k8 is a quarter of the work: one set.
  const HmmaSchedule quarter = hmma_schedule(volta, volta.f32, 16 * 8 * 8);
  CHECK(quarter.hmma == 4);
  CHECK(quarter.latency == 10 + 2 + 2 + 2 + 2 + 6);
  CHECK(quarter.initiation_interval == 8);
  // Volta has no integer mode.
  CHECK_FALSE(hmma_schedule(volta, volta.s32, 4096).supported);
}

TEST_CASE("Turing's four HMMA per wmma.mma give the paper's latencies", "[tensor]") {
  TensorCoreConfig turing;
  turing.f16 = {4, 1, 50, 0, 0, 8, 0, 4};
  turing.f32 = {4, 1, 51, 0, 0, 16, 0, 2};
  turing.s32 = {4, 1, 47, 0, 0, 4, 0, 8};
  const TensorCoreTiming timing(turing);
  const HmmaSchedule& f32 = timing.schedule(TensorMode::f32, MatrixShape::m16n16k16);
  CHECK(f32.hmma == 4);
  CHECK(f32.latency == 99);
  CHECK(f32.initiation_interval == 64);
  CHECK(timing.schedule(TensorMode::f16, MatrixShape::m32n8k16).latency == 74);
  CHECK(timing.schedule(TensorMode::s32, MatrixShape::m8n32k16).latency == 59);
  CHECK(timing.schedule(TensorMode::s32, MatrixShape::m16n16k16).initiation_interval == 16);
  // Turing's 4-bit mode is not configured here (sets 0): no schedule.
  CHECK_FALSE(timing.schedule(TensorMode::s4, MatrixShape::m8n8k32).supported);
}

TEST_CASE("Turing's 4-bit mode: one HMMA of the paper's 230 cycles per 8x8x32", "[tensor]") {
  TensorCoreConfig turing;
  turing.s4 = {1, 1, 230, 0, 0, 0, 0, 16};
  const TensorCoreTiming timing(turing);
  const HmmaSchedule& s4 = timing.schedule(TensorMode::s4, MatrixShape::m8n8k32);
  CHECK(s4.supported);
  CHECK(s4.hmma == 1);
  CHECK(s4.latency == 230);
  CHECK(s4.multiply_adds == 8 * 8 * 32);
  // 2048 multiply-adds at 2 tensor cores x 16 FEDP x 16 a cycle.
  CHECK(s4.initiation_interval == 4);
}

TEST_CASE("precision mode of a matrix multiply", "[tensor]") {
  Instruction in;
  in.op = Opcode::wmma_mma;
  in.type = DataType::f16;
  in.source_type = DataType::f16;
  in.mod.accumulator_type = DataType::f16;
  CHECK(tensor_mode_of(in) == TensorMode::f16);
  in.mod.accumulator_type = DataType::f32;
  CHECK(tensor_mode_of(in) == TensorMode::f32);
  in.source_type = DataType::s8;
  CHECK(tensor_mode_of(in) == TensorMode::s32);
  in.source_type = DataType::u4;
  CHECK(tensor_mode_of(in) == TensorMode::s4);
}
