#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "modules/gpu/gpu_config.h"
#include "modules/gpu/ptx/instruction.h"

namespace ohmvp::gpu {

enum class TensorMode : uint8_t { f16, f32, s32, s4 };
constexpr size_t k_tensor_modes = 4;

// The precision mode of a wmma.mma / mma.sync: s4 for s4/u4 A and B, s32 for s8/u8 ones, f32 when
// C or D is f32 (mixed precision), f16 otherwise.
TensorMode tensor_mode_of(const Instruction& instruction);
// Its key in gpu.tensor_core: "f16", "f32", "s32", "s4".
const char* tensor_mode_name(TensorMode mode);

// When the HMMA steps of one matrix multiply end and what it costs the tensor cores.
struct HmmaSchedule {
  bool supported = false;
  uint32_t hmma = 0;                 // HMMA steps
  std::vector<uint32_t> step_end;    // cycle after issue at which step i ends (cumulative)
  uint32_t latency = 0;              // issue to D written: the last step's end
  uint32_t initiation_interval = 0;  // cycles the sub-core's tensor cores are busy with it
  uint64_t multiply_adds = 0;        // m x n x k x tiles_per_warp
};

// The set/step model of docs/gpu_tensor.md. A warp instruction of fewer than 4096 multiply-adds
// (mma.sync m16n8k8, or m8n8k4's four quad-pair tiles: 1024) takes that fraction of the sets, at
// least one.
class TensorCoreTiming {
 public:
  explicit TensorCoreTiming(const TensorCoreConfig& config);

  const HmmaSchedule& schedule(TensorMode mode, MatrixShape shape) const;
  const HmmaSchedule& schedule(const Instruction& instruction) const {
    return schedule(tensor_mode_of(instruction), instruction.mod.shape);
  }

 private:
  static constexpr size_t k_shapes = 8;  // MatrixShape values
  std::array<std::array<HmmaSchedule, k_shapes>, k_tensor_modes> m_schedules{};
};

// Builds one schedule (the tensor unit's figures in gpu_config and the unit tests use it).
HmmaSchedule hmma_schedule(const TensorCoreConfig& config, const HmmaModeConfig& mode,
                           uint64_t multiply_adds);

}  // namespace ohmvp::gpu
