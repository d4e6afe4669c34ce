#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "testbenches/references/kernel_call.h"

namespace ohmvp::reference {

using KernelFunction = std::function<void(const KernelCall&)>;

// How closely one output must match. An output with no tolerance must match bit for bit; one
// whose value depends on the order in which atomics or a parallel float reduction combine gets
// |expected - got| <= absolute + relative * |expected| per element, with the reason written down.
struct Tolerance {
  std::string buffer;
  double absolute = 0;
  double relative = 0;
  std::string why;
  // With a name: `absolute` is per unit of the sum of |elements| of that input buffer, as the
  // workload initialises it (a bound on roundings that grows with the values added).
  std::string absolute_per_sum_of;
};

// The C++ model of one shipped workload: a function per kernel it launches, run through the same
// host steps (loops, copies, fills) as the simulated GPU runs them.
struct Reference {
  std::string workload;
  std::map<std::string, KernelFunction> kernels;
  std::vector<Tolerance> tolerances;

  const Tolerance* tolerance_for(const std::string& buffer) const;
};

// nullptr when there is none.
const Reference* find_reference(const std::string& workload_name);
const std::vector<Reference>& all_references();

// Every buffer after running the workload's steps on `initial` (name -> bytes) with the reference
// kernels. Throws SimulationError for a kernel the reference does not know. `before_launch`, if
// given, runs before each kernel (a long computation can be interrupted there).
BufferBytes compute_expected(const Reference& reference, const GpuWorkload& workload,
                             BufferBytes initial,
                             const std::function<void()>& before_launch = nullptr);

struct Comparison {
  bool matches = true;
  uint64_t mismatches = 0;
  std::string message;  // empty when it matches
  // Takes in another output's comparison (messages one per line).
  void add(const Comparison& other);
};

// Element-wise comparison of one output buffer of `type`: the message names the buffer, how many
// elements differ, and the first one with expected and got values. `input_magnitude`: the sum of
// |elements| of the buffer its tolerance's `absolute_per_sum_of` names, if any.
Comparison compare_buffer(const Reference& reference, const std::string& buffer, ElementType type,
                          const std::vector<uint8_t>& expected, const std::vector<uint8_t>& got,
                          double input_magnitude = 0);

// All of the workload's outputs; messages joined one per line.
Comparison compare_outputs(const Reference& reference, const GpuWorkload& workload,
                           const BufferBytes& expected, const BufferBytes& got);

}  // namespace ohmvp::reference
