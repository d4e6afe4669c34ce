#pragma once

#include <cstdint>
#include <string>

#include "modules/common/vcd_writer.h"

namespace ohmvp {

// The handle a module holds for one traced signal. Unattached (tracing off), set() costs one
// null check.
class TraceSignal {
 public:
  // No-op when writer is null, so modules can attach unconditionally.
  void attach(VcdWriter* writer, const std::string& scope, const std::string& name,
              unsigned width) {
    if (writer == nullptr) return;
    m_id = writer->add_signal(scope, name, width);
    m_writer = writer;
    m_last = 0;
  }

  void set(uint64_t value, uint64_t time_ps) {
    if (m_writer != nullptr && value != m_last) change(value, time_ps);
  }

  // For a signal whose changes are recorded out of time order: no filtering of repeats, which
  // only holds when changes come in time order.
  void record(uint64_t value, uint64_t time_ps) {
    if (m_writer != nullptr) m_writer->change(m_id, value, time_ps);
  }

  bool enabled() const { return m_writer != nullptr; }

 private:
  // Out of line, so that callers on hot paths pay only for the test while tracing is off.
  __attribute__((noinline)) void change(uint64_t value, uint64_t time_ps) {
    m_last = value;
    m_writer->change(m_id, value, time_ps);
  }

  VcdWriter* m_writer = nullptr;
  VcdWriter::SignalId m_id = 0;
  uint64_t m_last = 0;
};

}  // namespace ohmvp
