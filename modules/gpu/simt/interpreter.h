#pragma once

#include <cstdint>

#include "modules/gpu/simt/barrier_reduction.h"
#include "modules/gpu/simt/execution_context.h"
#include "modules/gpu/simt/warp_state.h"

namespace ohmvp::gpu {

enum class StepStatus : uint8_t {
  executed,        // the instruction completed
  memory_pending,  // warp.memory_request() waits for the caller (then complete_memory)
  barrier,         // the warp arrived at barrier `barrier_id` (wait unless `barrier_arrive_only`)
  exited,          // no lanes left: the warp is done (also returned when stepping a finished warp)
  fault,           // warp.fault() says what; the kernel must stop
};

struct StepResult {
  StepStatus status = StepStatus::executed;
  uint32_t function = 0;
  uint32_t pc = 0;             // the instruction that executed
  uint64_t active_mask = 0;    // lanes active when it issued (before its guard)
  uint64_t executed_mask = 0;  // active lanes whose guard held
  uint32_t barrier_id = 0;
  uint32_t barrier_threads = 0;  // bar.sync's thread count operand; 0: every thread of the CTA
  bool barrier_arrive_only = false;
  bool yielded = false;  // the path yielded to lanes of its warp elsewhere (docs/gpu_simt.md)
  BarrierReductionShare barrier_reduction;  // bar.red: this warp's share of the reduction
};

// Executes warp instructions functionally (see docs/gpu_simt.md). Stateless: all state is in the
// WarpState and the ExecutionContext.
class Interpreter {
 public:
  // Executes the instruction at the warp's pc over its active lanes. Must not be called while
  // warp.memory_pending(); param, shared and const accesses complete inside the step.
  static StepResult step(WarpState& warp, const ExecutionContext& context);

  // Finishes the pending global/local/generic/texture access: writes loaded bytes, atomic old
  // values and texels from warp.memory_request().data into the destination registers.
  static void complete_memory(WarpState& warp) { complete_memory(warp, warp.memory_request()); }
  // The same from a copy of the request (the timing model's, kept while the access is in flight)
  // and, for a filtered texture fetch, of its taps (null: the warp's own).
  static void complete_memory(WarpState& warp, const MemoryRequest& request,
                              const TextureTaps* taps = nullptr);
};

}  // namespace ohmvp::gpu
