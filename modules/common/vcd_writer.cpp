#include "modules/common/vcd_writer.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

#include "modules/common/errors.h"
#include "modules/common/vcd_scope_tree.h"

namespace ohmvp {

namespace {

constexpr std::size_t output_block = std::size_t{1} << 16;

// Printable identifier codes, base 94 from '!': 0 -> "!", 93 -> "~", 94 -> "!\"".
std::string identifier_code(std::size_t index) {
  std::string code;
  do {
    code += static_cast<char>('!' + index % 94);
    index /= 94;
  } while (index != 0);
  return code;
}

bool is_vcd_word(const std::string& text) {
  if (text.empty()) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isgraph(static_cast<unsigned char>(c)) != 0 && c != '.';
  });
}

}  // namespace

VcdWriter::VcdWriter(const std::filesystem::path& file) : m_path(file) {
  m_file = std::fopen(file.c_str(), "w");
  if (m_file == nullptr) {
    throw ConfigError("cannot write VCD file " + file.string() + ": " + std::strerror(errno));
  }
}

VcdWriter::~VcdWriter() {
  if (m_state != State::closed) {
    try {
      close(end_time());
    } catch (...) {
      // A destructor must not throw; call close() to see write errors.
    }
  }
  if (m_file != nullptr) std::fclose(m_file);
}

VcdWriter::SignalId VcdWriter::add_signal(const std::string& scope, const std::string& name,
                                          unsigned width) {
  if (m_state != State::defining) {
    throw std::logic_error("VCD signal " + scope + "." + name + " added after recording began");
  }
  const std::vector<std::string> parts = split_vcd_scope(scope);
  if (!is_vcd_word(name) || !std::all_of(parts.begin(), parts.end(), is_vcd_word)) {
    throw std::logic_error("invalid VCD signal name '" + scope + "' / '" + name + "'");
  }
  if (width < 1 || width > 64) {
    throw std::logic_error("VCD signal " + scope + "." + name + " has width " +
                           std::to_string(width) + ", not 1 to 64");
  }
  for (const Signal& signal : m_signals) {
    if (signal.scope == scope && signal.name == name) {
      throw std::logic_error("VCD signal " + scope + "." + name + " is added twice");
    }
  }
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  m_signals.push_back(Signal{scope, name, width, mask, identifier_code(m_signals.size()), 0});
  return static_cast<SignalId>(m_signals.size() - 1);
}

std::vector<VcdDeclaration> VcdWriter::declarations() const {
  std::vector<VcdDeclaration> declared;
  declared.reserve(m_signals.size());
  for (const Signal& signal : m_signals)
    declared.push_back(VcdDeclaration{signal.scope, signal.name, signal.width});
  return declared;
}

uint64_t VcdWriter::end_time() const {
  if (m_state == State::closed) return m_time_written;
  uint64_t end = full() ? m_full_before : m_time_written;  // close() ends a full one before
  for (const Change& change : m_buffer) end = std::max(end, change.time);
  return end;
}

void VcdWriter::set_horizon(uint64_t time_ps) {
  if (time_ps < m_horizon) {
    throw std::logic_error("VCD horizon moved back from " + std::to_string(m_horizon) + " to " +
                           std::to_string(time_ps) + " ps");
  }
  m_horizon = time_ps;
  // With a size limit, whether the file is full must be known at each horizon, not only once the
  // buffer fills up: write what lies before it.
  if (m_size_limit != 0 && m_state == State::recording) flush();
}

void VcdWriter::close(uint64_t end_time_ps) {
  if (m_state == State::closed) return;
  if (end_time_ps < m_time_written) {
    throw std::logic_error("VCD closed at " + std::to_string(end_time_ps) +
                           " ps, before the written time " + std::to_string(m_time_written));
  }
  if (m_state == State::defining) write_header();
  if (m_state == State::recording) write_through(end_time_ps);
  m_buffer.clear();
  // A full file ends just before the step it could not hold: it is exact up to there.
  if (full() && m_full_before <= end_time_ps)
    end_time_ps = m_full_before > m_time_written ? m_full_before - 1 : m_time_written;
  write_time(end_time_ps);
  m_state = State::closed;

  drain_output();
  bool failed = std::fflush(m_file) != 0 || std::ferror(m_file) != 0;
  int error = errno;
  if (std::fclose(m_file) != 0 && !failed) {
    failed = true;
    error = errno;
  }
  m_file = nullptr;
  if (failed) {
    throw ConfigError("cannot write VCD file " + m_path.string() + ": " + std::strerror(error));
  }
}

void VcdWriter::set_size_limit(uint64_t bytes) {
  if (m_state != State::defining)
    throw std::logic_error("VCD size limit set after recording began");
  m_size_limit = bytes;
}

void VcdWriter::begin_recording() {
  if (m_state == State::closed) throw std::logic_error("VCD change recorded after close");
  write_header();
}

void VcdWriter::reject_change(SignalId id, uint64_t value, uint64_t time_ps) const {
  if (id >= m_signals.size()) {
    throw std::logic_error("VCD change for unknown signal id " + std::to_string(id));
  }
  const Signal& signal = m_signals[id];
  const std::string what = "VCD change of " + signal.scope + "." + signal.name + " at " +
                           std::to_string(time_ps) + " ps";
  if (time_ps < m_horizon) {
    throw std::logic_error(what + " is before the horizon " + std::to_string(m_horizon) + " ps");
  }
  throw std::logic_error(what + ": value " + std::to_string(value) + " does not fit in " +
                         std::to_string(signal.width) + " bits");
}

void VcdWriter::flush() {
  if (m_horizon > 0) write_through(m_horizon - 1);
  // If little could be written, wait for the buffer to double rather than re-sorting each call.
  m_flush_at = std::max(flush_threshold, m_buffer.size() * 2);
}

void VcdWriter::write_through(uint64_t last) {
  const auto by_time = [](const Change& a, const Change& b) { return a.time < b.time; };
  if (!std::is_sorted(m_buffer.begin(), m_buffer.end(), by_time)) {
    std::stable_sort(m_buffer.begin(), m_buffer.end(), by_time);
  }
  const auto end = std::partition_point(m_buffer.begin(), m_buffer.end(),
                                        [last](const Change& c) { return c.time <= last; });
  for (auto step = m_buffer.begin(); step != end;) {
    const uint64_t time = step->time;
    auto step_end = step;
    for (; step_end != end && step_end->time == time; ++step_end) {
      m_last_in_step[step_end->id] = static_cast<std::size_t>(step_end - m_buffer.begin());
    }
    const std::size_t step_start = m_output.size();
    const uint64_t time_before = m_time_written;
    for (auto it = step; it != step_end; ++it) {
      const std::size_t position = static_cast<std::size_t>(it - m_buffer.begin());
      const Signal& signal = m_signals[it->id];
      if (m_last_in_step[it->id] != position || signal.current == it->value) continue;
      write_time(time);
      write_value(signal, it->value);
    }
    if (m_size_limit != 0 && m_bytes_drained + m_output.size() > m_size_limit) {
      m_output.resize(step_start);
      m_time_written = time_before;
      m_full_before = time;
      m_state = State::full;
      m_buffer.clear();
      return;
    }
    for (auto it = step; it != step_end; ++it)
      if (m_last_in_step[it->id] == static_cast<std::size_t>(it - m_buffer.begin()))
        m_signals[it->id].current = it->value;
    if (m_output.size() >= output_block) drain_output();
    step = step_end;
  }
  m_buffer.erase(m_buffer.begin(), end);
}

void VcdWriter::write_header() {
  const std::vector<VcdScopeNode> nodes = vcd_scope_tree(declarations());

  std::string header = "$version OhmVP $end\n$timescale 1ps $end\n";
  const auto write_scope = [&](const auto& self, std::size_t node) -> void {
    for (std::size_t id : nodes[node].signals) {
      const Signal& signal = m_signals[id];
      header += "$var wire " + std::to_string(signal.width) + " " + signal.code + " " +
                signal.name + " $end\n";
    }
    for (std::size_t child : nodes[node].children) {
      header += "$scope module " + nodes[child].name + " $end\n";
      self(self, child);
      header += "$upscope $end\n";
    }
  };
  write_scope(write_scope, 0);
  header += "$enddefinitions $end\n#0\n$dumpvars\n";
  write_text(header);
  for (const Signal& signal : m_signals) write_value(signal, 0);
  write_text("$end\n", 5);
  drain_output();

  m_time_written = 0;
  m_last_in_step.assign(m_signals.size(), 0);
  m_state = State::recording;
}

void VcdWriter::write_time(uint64_t time_ps) {
  if (time_ps == m_time_written) return;
  char line[24];
  line[0] = '#';
  char* end = std::to_chars(line + 1, line + sizeof(line) - 1, time_ps).ptr;
  *end++ = '\n';
  write_text(line, static_cast<std::size_t>(end - line));
  m_time_written = time_ps;
}

void VcdWriter::write_value(const Signal& signal, uint64_t value) {
  char line[96];
  char* out = line;
  if (signal.width == 1) {
    *out++ = value != 0 ? '1' : '0';
  } else {
    *out++ = 'b';
    out = std::to_chars(out, line + sizeof(line), value, 2).ptr;
    *out++ = ' ';
  }
  out = std::copy(signal.code.begin(), signal.code.end(), out);
  *out++ = '\n';
  write_text(line, static_cast<std::size_t>(out - line));
}

// Drained a whole time step at a time (write_through), so that a step that would pass the size
// limit can be taken back.
void VcdWriter::write_text(const char* text, std::size_t size) {
  m_output.append(text, size);
}

void VcdWriter::drain_output() {
  if (!m_output.empty()) std::fwrite(m_output.data(), 1, m_output.size(), m_file);
  m_bytes_drained += m_output.size();
  m_output.clear();
}

}  // namespace ohmvp
