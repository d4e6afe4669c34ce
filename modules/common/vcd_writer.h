#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "modules/common/vcd_scope_tree.h"

namespace ohmvp {

// Writes a Value Change Dump (timescale 1 ps) from changes recorded by the modules, without
// SystemC's per-delta-cycle sampling.
//
// Changes may arrive out of time order (a module records the end of a burst it has already
// computed). They are buffered and written sorted by time; equal times keep arrival order and
// the last value recorded for a signal at a time wins. The caller bounds the reordering with
// set_horizon(): no change will come earlier than the horizon, so everything before it may be
// written. Without a horizon nothing is written before close().
//
// A size limit (set_size_limit) bounds the file: the time step that would take it past the limit
// is not written, nor is any later change, and close() ends the file just before that step, so
// the file stays well formed and exact up to where it ends.
//
// Usage errors (signals added after recording began, a change before the horizon, a value wider
// than its signal) throw std::logic_error.
class VcdWriter {
 public:
  using SignalId = uint32_t;

  // Throws ConfigError when the file cannot be opened for writing.
  explicit VcdWriter(const std::filesystem::path& file);
  VcdWriter(const VcdWriter&) = delete;
  VcdWriter& operator=(const VcdWriter&) = delete;
  // Closes at the latest recorded time (a full file: as late as it is exact) if close() was not
  // called; errors are swallowed.
  ~VcdWriter();

  // scope is a dotted module path ("platform.mc0.bank3"); width is 1 to 64 bits.
  SignalId add_signal(const std::string& scope, const std::string& name, unsigned width);

  // The signals added so far, in the order they were added.
  std::vector<VcdDeclaration> declarations() const;
  // Where the file ends: once closed, its last time line; before, where the destructor would
  // close it (the latest time recorded or written).
  uint64_t end_time() const;

  void change(SignalId id, uint64_t value, uint64_t time_ps) {
    if (m_state != State::recording) {
      if (m_state == State::full) return;
      begin_recording();
    }
    if (id >= m_signals.size() || time_ps < m_horizon || (value & ~m_signals[id].mask) != 0) {
      reject_change(id, value, time_ps);
    }
    m_buffer.push_back(Change{time_ps, value, id});
    if (m_buffer.size() >= m_flush_at) flush();
  }

  // Promise: no later change() has time_ps < horizon. The horizon never moves back. With a size
  // limit, the changes before the horizon are written at once, so full() is up to date.
  void set_horizon(uint64_t time_ps);

  // Writes every buffered change up to end_time_ps, then "#end_time_ps". Changes recorded after
  // end_time_ps (beyond the end of the simulation) are dropped. A full file ends before the step
  // it could not hold instead, when that comes first. Throws ConfigError when the file cannot be
  // written. Later calls do nothing.
  void close(uint64_t end_time_ps);

  // The file grows to at most `bytes` (0: no limit) and its closing time line; its header and
  // initial values, which it needs, are written whatever the limit. Set before the first change.
  void set_size_limit(uint64_t bytes);
  // A time step did not fit under the size limit: changes from then on are dropped.
  bool full() const { return m_full_before != no_time; }
  // When full: the time of the first step that did not fit, where the waveform stops.
  uint64_t full_at() const { return m_full_before; }
  uint64_t size_limit() const { return m_size_limit; }

 private:
  enum class State { defining, recording, full, closed };
  struct Signal {
    std::string scope;
    std::string name;
    unsigned width;
    uint64_t mask;
    std::string code;
    uint64_t current = 0;
  };
  struct Change {
    uint64_t time;
    uint64_t value;
    SignalId id;
  };
  static constexpr std::size_t flush_threshold = std::size_t{1} << 16;
  static constexpr uint64_t no_time = ~uint64_t{0};

  void begin_recording();
  [[noreturn]] void reject_change(SignalId id, uint64_t value, uint64_t time_ps) const;
  void flush();
  // Writes the buffered changes with time <= last, in time order, and drops them.
  void write_through(uint64_t last);
  void write_header();
  void write_time(uint64_t time_ps);
  void write_value(const Signal& signal, uint64_t value);
  void write_text(const char* text, std::size_t size);
  void write_text(const std::string& text) { write_text(text.data(), text.size()); }
  void drain_output();

  std::filesystem::path m_path;
  std::FILE* m_file = nullptr;
  State m_state = State::defining;
  std::vector<Signal> m_signals;
  std::vector<Change> m_buffer;
  std::size_t m_flush_at = flush_threshold;
  uint64_t m_horizon = 0;
  uint64_t m_time_written = 0;              // the last "#time" line
  uint64_t m_size_limit = 0;                // 0: none
  uint64_t m_bytes_drained = 0;             // written to m_file so far
  uint64_t m_full_before = no_time;         // the first time step that did not fit
  std::vector<std::size_t> m_last_in_step;  // per signal, scratch for write_through()
  std::string m_output;                     // written to m_file in large blocks
};

}  // namespace ohmvp
