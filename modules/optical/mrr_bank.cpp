#include "modules/optical/mrr_bank.h"

#include <algorithm>
#include <stdexcept>

namespace ohmvp {

std::string MrrArrayId::describe() const {
  return std::string(to_string(endpoint.kind)) + " " + std::to_string(endpoint.index) + " " +
         (transmitter ? "transmitter" : "receiver") + " (" +
         (path == OpticalPath::forward ? "forward" : "backward") + " path, " +
         to_string(built_for) + "-coupling array)";
}

MrrBank::MrrBank(const MrrLayoutShape& shape, const std::vector<OhmFunction>& functions) {
  for (const MrrArraySpec& spec : mrr_array_specs()) {
    if (!carries(spec, functions)) continue;
    for (uint32_t i = 0; i < endpoint_count(shape, spec.endpoint); ++i) {
      const MrrArrayId id{{spec.endpoint, i}, spec.transmitter, spec.path, spec.coupling};
      m_arrays.emplace(id, MrrArray(shape.rings_per_array));
    }
  }
}

const MrrArray& MrrBank::array(const MrrArrayId& id) const {
  const auto found = m_arrays.find(id);
  if (found == m_arrays.end())
    throw std::invalid_argument("MRR bank: the layout has no " + id.describe());
  return found->second;
}

uint32_t MrrBank::apply(const MrrTuningConfig& tuning, const std::vector<MrrSetting>& settings) {
  for (const MrrSetting& s : settings) {
    array(s.array);  // throws when absent
    if (s.state != MrrCoupling::off_resonance && s.state != s.array.built_for)
      throw std::invalid_argument(std::string("MRR bank: ") + s.array.describe() +
                                  " cannot be set " + to_string(s.state));
  }
  uint32_t slowest = 0;
  for (const MrrSetting& s : settings)
    slowest = std::max(slowest, m_arrays.at(s.array).retune_all(tuning, s.state));
  return slowest;
}

uint64_t MrrBank::retunings() const {
  uint64_t total = 0;
  for (const auto& entry : m_arrays) total += entry.second.retunings();
  return total;
}

}  // namespace ohmvp
