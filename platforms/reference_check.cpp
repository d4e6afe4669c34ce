#include "platforms/reference_check.h"

#include "modules/common/errors.h"
#include "platforms/interruption.h"

namespace ohmvp {

namespace {

const reference::Reference& reference_of(const GpuWorkload& workload) {
  if (const reference::Reference* found = reference::find_reference(workload.name)) return *found;
  std::string known;
  for (const reference::Reference& r : reference::all_references())
    known += (known.empty() ? "" : ", ") + r.workload;
  throw ConfigError("--verify: workload '" + workload.name +
                    "' has no C++ reference (testbenches/references has: " + known + ")");
}

}  // namespace

nlohmann::json Verification::json() const {
  return {{"reference", reference},
          {"matches", matches},
          {"mismatched_elements", mismatches},
          {"message", message}};
}

ReferenceCheck::ReferenceCheck(const GpuWorkload& workload)
    : m_workload(workload), m_reference(reference_of(workload)) {}

Verification ReferenceCheck::check(
    const std::map<std::string, std::vector<uint8_t>>& outputs) const {
  reference::BufferBytes expected;
  try {
    // A signal ends a long reference computation between two of its kernels.
    expected = reference::compute_expected(m_reference, m_workload, initial_buffers(m_workload),
                                           end_if_interrupted);
  } catch (const Interrupted&) {
    throw;
  } catch (const SimulationError& error) {
    throw ConfigError("--verify: " + m_workload.file.string() + ": the C++ reference of '" +
                      m_workload.name + "' cannot run this workload: " + error.what());
  }
  const reference::Comparison c =
      reference::compare_outputs(m_reference, m_workload, expected, outputs);
  return Verification{m_reference.workload, c.matches, c.mismatches, c.message};
}

}  // namespace ohmvp
