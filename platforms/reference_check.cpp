#include "platforms/reference_check.h"

#include "modules/common/errors.h"
#include "platforms/interruption.h"

namespace ohmvp {

namespace {

const reference::Reference* reference_of(const GpuWorkload& workload) {
  if (!workload.expected.empty()) return nullptr;
  if (const reference::Reference* found = reference::find_reference(workload.name)) return found;
  std::string known;
  for (const reference::Reference& r : reference::all_references())
    known += (known.empty() ? "" : ", ") + r.workload;
  throw ConfigError("--verify: workload '" + workload.name + "' (" + workload.file.string() +
                    ") has neither \"expected\" outputs nor a C++ reference "
                    "(testbenches/references has: " +
                    known + "; docs/workloads.md, \"Expected outputs\")");
}

}  // namespace

nlohmann::json Verification::json() const {
  return {{"reference", reference},
          {"against", against},
          {"checked", checked},
          {"matches", result.matches},
          {"mismatched_elements", result.mismatches},
          {"message", result.message}};
}

ReferenceCheck::ReferenceCheck(const GpuWorkload& workload)
    : m_workload(workload), m_reference(reference_of(workload)) {}

Verification ReferenceCheck::check(
    const std::map<std::string, std::vector<uint8_t>>& outputs) const {
  if (m_reference == nullptr) return check_expected(outputs);
  reference::BufferBytes expected;
  try {
    // A signal ends a long reference computation between two of its kernels.
    expected = reference::compute_expected(*m_reference, m_workload, initial_buffers(m_workload),
                                           end_if_interrupted);
  } catch (const Interrupted&) {
    throw;
  } catch (const SimulationError& error) {
    throw ConfigError("--verify: " + m_workload.file.string() + ": the C++ reference of '" +
                      m_workload.name + "' cannot run this workload: " + error.what());
  }
  Verification verification;
  verification.reference = m_reference->workload;
  verification.against = "the C++ reference of '" + m_reference->workload + "'";
  verification.checked = m_workload.outputs;
  verification.result = reference::compare_outputs(*m_reference, m_workload, expected, outputs);
  return verification;
}

Verification ReferenceCheck::check_expected(
    const std::map<std::string, std::vector<uint8_t>>& outputs) const {
  Verification verification;
  verification.against = "the expected values of " + m_workload.file.string();
  // The file's tolerances in the C++ references' terms, so that one comparison serves both.
  reference::Reference tolerances;
  for (const ExpectedOutput& e : m_workload.expected)
    if (e.absolute != 0 || e.relative != 0)
      tolerances.tolerances.push_back({e.buffer, e.absolute, e.relative, "the workload's", ""});
  for (const ExpectedOutput& e : m_workload.expected) {
    BufferSpec spec = *m_workload.find_buffer(e.buffer);
    spec.init = e.values;
    verification.checked.push_back(e.buffer);
    verification.result.add(reference::compare_buffer(
        tolerances, e.buffer, spec.type, initial_bytes(m_workload, spec), outputs.at(e.buffer)));
  }
  return verification;
}

}  // namespace ohmvp
