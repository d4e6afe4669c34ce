#include "testbenches/references/reference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "testbenches/references/reference_kernels.h"

namespace ohmvp::reference {

namespace {

class ReferenceExecutor : public WorkloadExecutor {
 public:
  ReferenceExecutor(const Reference& reference, BufferBytes& memory,
                    const std::function<void()>& before_launch)
      : m_reference(reference), m_memory(memory), m_before_launch(before_launch) {}

  void launch(const KernelLaunch& launch, const std::vector<ResolvedArg>& args, uint32_t) override {
    if (m_before_launch) m_before_launch();
    const auto found = m_reference.kernels.find(launch.kernel);
    if (found == m_reference.kernels.end())
      throw SimulationError("reference for workload '" + m_reference.workload +
                            "' has no kernel '" + launch.kernel + "'");
    found->second(KernelCall(launch, args, m_memory));
  }

  void copy(const std::string& from, const std::string& to, std::optional<uint32_t>) override {
    m_memory.at(to) = m_memory.at(from);
  }

  void fill(const std::string& buffer, uint64_t element_bits, std::optional<uint32_t>) override {
    std::vector<uint8_t>& bytes = m_memory.at(buffer);
    bytes = repeated_element(element_bits, bytes.size() / m_counts.at(buffer), bytes.size());
  }

  void to_device(const std::string& buffer, uint64_t byte_offset, const uint8_t* bytes,
                 uint64_t size, uint32_t) override {
    std::copy_n(bytes, size, m_memory.at(buffer).begin() + byte_offset);
  }

  uint64_t read_element(const std::string& buffer, uint64_t index) override {
    const std::vector<uint8_t>& bytes = m_memory.at(buffer);
    const size_t size = bytes.size() / m_counts.at(buffer);
    uint64_t bits = 0;
    for (size_t b = 0; b < size; ++b) bits |= uint64_t{bytes.at(index * size + b)} << (8 * b);
    return bits;
  }

  void set_counts(const GpuWorkload& workload) {
    for (const BufferSpec& buffer : workload.buffers) m_counts[buffer.name] = buffer.count;
  }

 private:
  const Reference& m_reference;
  BufferBytes& m_memory;
  const std::function<void()>& m_before_launch;
  std::map<std::string, uint64_t> m_counts;
};

uint64_t element_bits(const std::vector<uint8_t>& bytes, size_t index, size_t size) {
  uint64_t bits = 0;
  for (size_t b = 0; b < size; ++b) bits |= uint64_t{bytes[index * size + b]} << (8 * b);
  return bits;
}

std::string show(ElementType type, uint64_t bits) {
  char text[64];
  if (is_float_type(type)) {
    std::snprintf(text, sizeof text, "%.9g (0x%llx)", element_bits_to_double(type, bits),
                  static_cast<unsigned long long>(bits));
  } else if (is_signed_type(type)) {
    std::snprintf(text, sizeof text, "%.0f", element_bits_to_double(type, bits));
  } else {
    std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(bits));
  }
  return text;
}

}  // namespace

const Tolerance* Reference::tolerance_for(const std::string& buffer) const {
  for (const Tolerance& tolerance : tolerances)
    if (tolerance.buffer == buffer) return &tolerance;
  return nullptr;
}

const Reference* find_reference(const std::string& workload_name) {
  for (const Reference& reference : all_references())
    if (reference.workload == workload_name) return &reference;
  return nullptr;
}

const std::vector<Reference>& all_references() {
  static const std::vector<Reference> references = make_all_references();
  return references;
}

BufferBytes compute_expected(const Reference& reference, const GpuWorkload& workload,
                             BufferBytes initial, const std::function<void()>& before_launch) {
  ReferenceExecutor executor(reference, initial, before_launch);
  executor.set_counts(workload);
  run_workload_steps(workload, executor);
  return initial;
}

namespace {

// The sum of |elements| of the input buffer `tolerance` scales by, as the workload initialises it;
// 0 without one.
double input_magnitude(const Tolerance* tolerance, const GpuWorkload& workload) {
  if (tolerance == nullptr || tolerance->absolute_per_sum_of.empty()) return 0;
  const BufferSpec* spec = workload.find_buffer(tolerance->absolute_per_sum_of);
  if (spec == nullptr || !is_float_type(spec->type)) return 0;
  const std::vector<uint8_t> bytes = initial_bytes(workload, *spec);
  const size_t size = element_size(spec->type);
  double sum = 0;
  for (size_t i = 0; i < bytes.size() / size; ++i)
    sum += std::fabs(element_bits_to_double(spec->type, element_bits(bytes, i, size)));
  return sum;
}

}  // namespace

Comparison compare_buffer(const Reference& reference, const std::string& buffer, ElementType type,
                          const std::vector<uint8_t>& expected, const std::vector<uint8_t>& got,
                          double input_magnitude) {
  Comparison result;
  if (expected.size() != got.size()) {
    result.matches = false;
    result.message = "output '" + buffer + "': expected " + std::to_string(expected.size()) +
                     " bytes, got " + std::to_string(got.size());
    return result;
  }
  const Tolerance* tolerance = reference.tolerance_for(buffer);
  const double absolute = tolerance == nullptr ? 0
                          : tolerance->absolute_per_sum_of.empty()
                              ? tolerance->absolute
                              : tolerance->absolute * input_magnitude;
  const size_t size = element_size(type);
  const size_t count = expected.size() / size;
  size_t first = 0;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t e = element_bits(expected, i, size);
    const uint64_t g = element_bits(got, i, size);
    if (e == g) continue;
    if (is_float_type(type)) {
      const double ev = element_bits_to_double(type, e);
      const double gv = element_bits_to_double(type, g);
      // The GPU's arithmetic makes its canonical NaN (docs/gpu_simt.md), the host's another.
      if (std::isnan(ev) && std::isnan(gv)) continue;
      // A tolerance bounds finite values: an infinity matches only itself (inf - x <= r * inf
      // would pass any x).
      if (tolerance && std::isfinite(ev) && std::isfinite(gv) &&
          std::fabs(ev - gv) <= absolute + tolerance->relative * std::fabs(ev))
        continue;
    }
    if (result.mismatches++ == 0) first = i;
  }
  if (result.mismatches == 0) return result;
  result.matches = false;
  result.message = "output '" + buffer + "': " + std::to_string(result.mismatches) + " of " +
                   std::to_string(count) + " elements differ" +
                   (tolerance ? " beyond the tolerance" : "") + "; first at index " +
                   std::to_string(first) + ": expected " +
                   show(type, element_bits(expected, first, size)) + ", got " +
                   show(type, element_bits(got, first, size));
  return result;
}

void Comparison::add(const Comparison& other) {
  if (other.matches) return;
  matches = false;
  mismatches += other.mismatches;
  message += (message.empty() ? "" : "\n") + other.message;
}

Comparison compare_outputs(const Reference& reference, const GpuWorkload& workload,
                           const BufferBytes& expected, const BufferBytes& got) {
  Comparison all;
  for (const std::string& name : workload.outputs) {
    const auto e = expected.find(name);
    const auto g = got.find(name);
    Comparison one;
    if (e == expected.end() || g == got.end()) {
      one.matches = false;
      one.mismatches = 1;
      one.message = "output '" + name + "': missing from the " +
                    (e == expected.end() ? std::string("expected") : std::string("actual")) +
                    " buffers";
    } else {
      one = compare_buffer(reference, name, workload.find_buffer(name)->type, e->second, g->second,
                           input_magnitude(reference.tolerance_for(name), workload));
    }
    all.add(one);
  }
  return all;
}

}  // namespace ohmvp::reference
