#include "modules/gpu/tensor_core_timing.h"

#include <algorithm>

#include "modules/gpu/ptx/ptx_matrix.h"

namespace ohmvp::gpu {
namespace {

constexpr uint64_t k_full_tile_macs = 16 * 16 * 16;

const HmmaModeConfig& mode_config(const TensorCoreConfig& config, TensorMode mode) {
  switch (mode) {
    case TensorMode::f16:
      return config.f16;
    case TensorMode::f32:
      return config.f32;
    case TensorMode::s32:
      return config.s32;
    case TensorMode::s4:
      break;
  }
  return config.s4;
}

}  // namespace

TensorMode tensor_mode_of(const Instruction& instruction) {
  if (is_sub_byte(instruction.source_type)) return TensorMode::s4;
  if (instruction.source_type != DataType::f16) return TensorMode::s32;
  if (instruction.type == DataType::f32 || instruction.mod.accumulator_type == DataType::f32)
    return TensorMode::f32;
  return TensorMode::f16;
}

const char* tensor_mode_name(TensorMode mode) {
  switch (mode) {
    case TensorMode::f16:
      return "f16";
    case TensorMode::f32:
      return "f32";
    case TensorMode::s32:
      return "s32";
    case TensorMode::s4:
      break;
  }
  return "s4";
}

HmmaSchedule hmma_schedule(const TensorCoreConfig& config, const HmmaModeConfig& mode,
                           uint64_t multiply_adds) {
  HmmaSchedule s;
  s.multiply_adds = multiply_adds;
  if (mode.sets == 0 || mode.steps_per_set == 0 || multiply_adds == 0) return s;
  s.supported = true;
  const uint64_t sets = std::max<uint64_t>(1, mode.sets * multiply_adds / k_full_tile_macs);
  s.hmma = static_cast<uint32_t>(sets * mode.steps_per_set);
  uint32_t end = 0;
  for (uint32_t i = 0; i < s.hmma; ++i) {
    const uint32_t position = i % mode.steps_per_set;
    end += i == 0          ? mode.first_step_cycles
           : position == 0 ? mode.set_switch_cycles
                           : mode.step_cycles;
    if (position == mode.steps_per_set - 1) end += mode.set_end_cycles;
    if (i == s.hmma - 1) end += mode.drain_cycles;
    s.step_end.push_back(end);
  }
  s.latency = end;
  const uint64_t macs_per_cycle = uint64_t{config.tensor_cores_per_sub_core} *
                                  config.fedp_per_tensor_core * mode.fedp_macs_per_cycle;
  s.initiation_interval = static_cast<uint32_t>(
      std::max<uint64_t>(1, (multiply_adds + macs_per_cycle - 1) / macs_per_cycle));
  return s;
}

TensorCoreTiming::TensorCoreTiming(const TensorCoreConfig& config) {
  for (size_t m = 0; m < k_tensor_modes; ++m)
    for (size_t shape = 1; shape < k_shapes; ++shape) {
      const MatrixGeometry g = matrix_geometry(static_cast<MatrixShape>(shape));
      const uint64_t multiply_adds = uint64_t{g.m} * g.n * g.k * tiles_per_warp(MatrixShape(shape));
      m_schedules[m][shape] =
          hmma_schedule(config, mode_config(config, TensorMode(m)), multiply_adds);
    }
}

const HmmaSchedule& TensorCoreTiming::schedule(TensorMode mode, MatrixShape shape) const {
  return m_schedules[static_cast<size_t>(mode)][static_cast<size_t>(shape)];
}

}  // namespace ohmvp::gpu
