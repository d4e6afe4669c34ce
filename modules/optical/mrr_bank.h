#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "modules/optical/mrr_layout.h"
#include "modules/optical/mrr_state.h"

namespace ohmvp {

// An endpoint on a virtual channel's waveguide path.
struct OpticalEndpoint {
  EndpointKind kind = EndpointKind::memory_controller;
  uint32_t index = 0;  // among the endpoints of its kind in the whole channel

  bool operator==(const OpticalEndpoint& o) const { return kind == o.kind && index == o.index; }
  bool operator<(const OpticalEndpoint& o) const {
    return std::tie(kind, index) < std::tie(o.kind, o.index);
  }
};

// Which MRR array of an endpoint: transmitter or receiver, on which path, and whether it is the
// array built for full or for half coupling (an endpoint may have one of each, mrr_layout.h).
struct MrrArrayId {
  OpticalEndpoint endpoint;
  bool transmitter = false;
  OpticalPath path = OpticalPath::forward;
  MrrCoupling built_for = MrrCoupling::full;  // full or half

  bool operator==(const MrrArrayId& o) const {
    return endpoint == o.endpoint && transmitter == o.transmitter && path == o.path &&
           built_for == o.built_for;
  }
  bool operator<(const MrrArrayId& o) const {
    return std::tie(endpoint, transmitter, path, built_for) <
           std::tie(o.endpoint, o.transmitter, o.path, o.built_for);
  }
  std::string describe() const;
};

// The state one array must be in for a transfer.
struct MrrSetting {
  MrrArrayId array;
  MrrCoupling state = MrrCoupling::full;

  bool operator==(const MrrSetting& o) const { return array == o.array && state == o.state; }
};

// Every MRR array of a channel's layout, each with its rings' states: what the channel module
// owns to charge a transfer's tuning. Arrays start off resonance.
class MrrBank {
 public:
  // The arrays of a layout supporting `functions` on `shape` (endpoint indices count from 0 per
  // kind over the whole channel: controllers 0..5, DRAMs 0..11, ...).
  MrrBank(const MrrLayoutShape& shape, const std::vector<OhmFunction>& functions);

  bool has(const MrrArrayId& id) const { return m_arrays.count(id) != 0; }
  const MrrArray& array(const MrrArrayId& id) const;
  size_t array_count() const { return m_arrays.size(); }

  // Puts every listed array in its state; the time that takes (arrays retune in parallel: the
  // slowest). Throws std::invalid_argument naming an array the layout does not have, or a
  // state the array is not built for (a full array cannot half-couple, nor a half one fully).
  uint32_t apply(const MrrTuningConfig& tuning, const std::vector<MrrSetting>& settings);

  // Ring state changes so far, over every array.
  uint64_t retunings() const;

 private:
  std::map<MrrArrayId, MrrArray> m_arrays;
};

}  // namespace ohmvp
