#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "modules/gpu/issue_traits.h"
#include "modules/gpu/kernel_launch.h"
#include "modules/gpu/occupancy.h"
#include "modules/gpu/scoreboard.h"
#include "modules/gpu/simt/kernel_layout.h"

namespace ohmvp::gpu {

// What every SM needs to know about a running launch, computed once when it starts.
struct LaunchState {
  KernelLaunch launch;
  std::unique_ptr<KernelLayout> layout;
  Occupancy occupancy;
  uint32_t threads_per_cta = 0;
  uint32_t warps_per_cta = 0;
  uint64_t shared_bytes_per_cta = 0;  // static + dynamic
  uint64_t cta_count = 0;
  uint32_t grid_id = 0;
  // registers[function][pc]: what each instruction reads and writes, for the scoreboard.
  std::vector<std::vector<InstructionRegisters>> registers;
  // traits[function][pc]: what issue and the readiness checks need of each instruction.
  std::vector<std::vector<IssueTraits>> traits;
  // The register-file rows a starting warp zeroes (registers_to_zero).
  std::vector<uint32_t> zeroed_registers;
  PrintfBuffer* printf_buffer = nullptr;  // the launch's printf calls go here

  // Counted by the SMs as the launch's warps issue.
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;

  const Instruction& instruction(uint32_t function, uint32_t pc) const {
    return layout->module().functions[function].instructions[pc];
  }
};

}  // namespace ohmvp::gpu
