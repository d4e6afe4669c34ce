#include "modules/gpu/gpu_config.h"

#include <cmath>
#include <string>

#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/common/power_of_two.h"
#include "modules/gpu/tensor_core_timing.h"

namespace ohmvp::gpu {

namespace {

constexpr UnitClass k_unit_classes[k_unit_class_count] = {
    UnitClass::int_alu, UnitClass::fp32,   UnitClass::fp64,    UnitClass::sfu,
    UnitClass::ldst,    UnitClass::branch, UnitClass::barrier, UnitClass::tensor};

void require_power_of_two(const ConfigReader& reader, const char* key, uint64_t value) {
  if (!is_power_of_two(value))
    reader.fail(key, "expected a power of two, got " + std::to_string(value));
}

// `warp_size_path`: where the warp size is set, for messages.
void parse_limits(const ConfigReader& reader, SmLimits& s, uint32_t warp_size,
                  const std::string& warp_size_path) {
  reader.get("max_threads", s.max_threads, 1u, 65536u);
  reader.get("max_warps", s.max_warps, 1u, 1024u);
  reader.get("max_ctas", s.max_ctas, 1u, 1024u);
  reader.get("max_threads_per_cta", s.max_threads_per_cta, 1u, 65536u);
  reader.get("registers", s.registers, 1u, 1u << 24);
  reader.get("register_allocation_unit", s.register_allocation_unit, 1u, 1u << 16);
  reader.get("max_registers_per_thread", s.max_registers_per_thread, 1u, 65536u);
  reader.get("shared_memory_bytes", s.shared_memory_bytes, 0u, 1u << 30);
  reader.get("shared_memory_allocation_unit", s.shared_memory_allocation_unit, 1u, 1u << 20);
  reader.get("max_shared_memory_per_cta", s.max_shared_memory_per_cta, 0u, 1u << 30);
  reader.finish();
  if (s.max_threads_per_cta > s.max_threads)
    reader.fail_against("max_threads_per_cta", reader.path() + ".max_threads",
                        "expected at most max_threads (" + std::to_string(s.max_threads) + ")");
  if (s.max_shared_memory_per_cta > s.shared_memory_bytes)
    reader.fail_against(
        "max_shared_memory_per_cta", reader.path() + ".shared_memory_bytes",
        "expected at most shared_memory_bytes (" + std::to_string(s.shared_memory_bytes) + ")");
  // One CTA of the largest size must fit: its warps, and its registers at one per thread.
  const uint32_t warps_per_max_cta = (s.max_threads_per_cta + warp_size - 1) / warp_size;
  if (warps_per_max_cta > s.max_warps)
    reader.fail_against("max_warps", warp_size_path,
                        "expected at least max_threads_per_cta / warp_size (" +
                            std::to_string(warps_per_max_cta) + ")");
  if (s.register_allocation_unit > s.registers)
    reader.fail_against("register_allocation_unit", reader.path() + ".registers",
                        "expected at most registers (" + std::to_string(s.registers) + ")");
}

void parse_scheduler(const ConfigReader& reader, WarpSchedulerConfig& s) {
  reader.get_enum("policy", s.policy,
                  {{"lrr", WarpSchedulerPolicy::lrr},
                   {"gto", WarpSchedulerPolicy::gto},
                   {"two_level", WarpSchedulerPolicy::two_level}});
  reader.get("active_set_size", s.active_set_size, 1u, 1024u);
  reader.finish();
}

void parse_unit(const ConfigReader& reader, UnitTiming& u) {
  reader.get("latency", u.latency, 1u, 100000u);
  reader.get("initiation_interval", u.initiation_interval, 1u, 100000u);
  reader.get("units_per_sub_core", u.units_per_sub_core, 1u, 64u);
  reader.finish();
}

void parse_units(const ConfigReader& reader, std::array<UnitTiming, k_unit_class_count>& units) {
  if (reader.has("tensor"))
    reader.fail("tensor",
                "the tensor cores' timing is gpu.tensor_core (sets and steps of HMMA, "
                "docs/gpu_tensor.md), not a unit latency");
  for (UnitClass unit : k_unit_classes)
    if (unit != UnitClass::tensor)
      parse_unit(reader.child(unit_class_name(unit)), units[unit_index(unit)]);
  reader.finish();
}

void parse_hmma_mode(const ConfigReader& reader, HmmaModeConfig& m, bool optional) {
  reader.get("sets", m.sets, optional ? 0u : 1u, 1024u);
  reader.get("steps_per_set", m.steps_per_set, 1u, 1024u);
  reader.get("first_step_cycles", m.first_step_cycles, 1u, 100000u);
  reader.get("step_cycles", m.step_cycles, 0u, 100000u);
  reader.get("set_end_cycles", m.set_end_cycles, 0u, 100000u);
  reader.get("set_switch_cycles", m.set_switch_cycles, 0u, 100000u);
  reader.get("drain_cycles", m.drain_cycles, 0u, 100000u);
  reader.get("fedp_macs_per_cycle", m.fedp_macs_per_cycle, 1u, 1024u);
  reader.finish();
}

void parse_tensor_core(const ConfigReader& reader, TensorCoreConfig& t) {
  reader.get_enum("fragment_mapping", t.fragment_mapping,
                  {{"volta", FragmentMapping::volta}, {"turing", FragmentMapping::turing}});
  reader.get("tensor_cores_per_sub_core", t.tensor_cores_per_sub_core, 1u, 64u);
  reader.get("fedp_per_tensor_core", t.fedp_per_tensor_core, 1u, 1024u);
  parse_hmma_mode(reader.child("f16"), t.f16, false);
  parse_hmma_mode(reader.child("f32"), t.f32, false);
  parse_hmma_mode(reader.child("s32"), t.s32, true);
  parse_hmma_mode(reader.child("s4"), t.s4, true);
  reader.finish();
}

// The tensor unit's issue port: the mixed-precision 16x16x16 figures of the set/step model
// (each wmma.mma charges its own mode's and shape's, see TensorCoreTiming).
UnitTiming tensor_unit(const TensorCoreConfig& tensor) {
  const HmmaSchedule s = hmma_schedule(tensor, tensor.f32, 16 * 16 * 16);
  return UnitTiming{s.latency, s.initiation_interval, 1};
}

// Line and sector sizes shared by L1 and L2: sectors of at least 4 bytes, at most 32 per line
// (the coalescer's sector mask) and lines of at most 128 bytes (its byte mask).
void check_line_and_sector(const ConfigReader& reader, uint32_t line_bytes, uint32_t sector_bytes) {
  require_power_of_two(reader, "line_bytes", line_bytes);
  require_power_of_two(reader, "sector_bytes", sector_bytes);
  if (sector_bytes > line_bytes) reader.fail("sector_bytes", "expected at most line_bytes");
}

void check_cache_geometry(const ConfigReader& reader, uint64_t size_bytes, uint32_t ways,
                          uint32_t line_bytes) {
  const uint64_t set_bytes = uint64_t{ways} * line_bytes;
  if (size_bytes % set_bytes != 0)
    reader.fail("size_bytes", "expected a multiple of ways x line_bytes (" +
                                  std::to_string(set_bytes) + "), got " +
                                  std::to_string(size_bytes));
}

void parse_l1d(const ConfigReader& reader, L1DataCacheConfig& c) {
  reader.get("size_bytes", c.size_bytes, 128u, 1u << 24);
  reader.get("ways", c.ways, 1u, 256u);
  reader.get("line_bytes", c.line_bytes, 32u, 128u);
  reader.get("sector_bytes", c.sector_bytes, 4u, 128u);
  reader.get("hit_latency", c.hit_latency, 1u, 10000u);
  reader.get("mshr_entries", c.mshr_entries, 1u, 65536u);
  reader.get("mshr_max_merges", c.mshr_max_merges, 1u, 1024u);
  reader.finish();
  check_line_and_sector(reader, c.line_bytes, c.sector_bytes);
  check_cache_geometry(reader, c.size_bytes, c.ways, c.line_bytes);
}

void parse_shared_memory(const ConfigReader& reader, SharedMemoryConfig& c) {
  reader.get("banks", c.banks, 1u, 64u);
  reader.get("bank_width_bytes", c.bank_width_bytes, 4u, 8u);
  reader.get("latency", c.latency, 1u, 10000u);
  require_power_of_two(reader, "banks", c.banks);
  require_power_of_two(reader, "bank_width_bytes", c.bank_width_bytes);
  reader.finish();
}

void parse_l2(const ConfigReader& reader, L2CacheConfig& c) {
  reader.get("size_bytes", c.size_bytes, uint64_t{1024}, uint64_t{1} << 34);
  reader.get("ways", c.ways, 1u, 256u);
  reader.get("line_bytes", c.line_bytes, 32u, 128u);
  reader.get("sector_bytes", c.sector_bytes, 4u, 128u);
  reader.get("hit_latency", c.hit_latency, 1u, 100000u);
  reader.get("mshrs_per_slice", c.mshrs_per_slice, 1u, 65536u);
  reader.get("slices_per_channel", c.slices_per_channel, 1u, 64u);
  reader.finish();
  check_line_and_sector(reader, c.line_bytes, c.sector_bytes);
  check_cache_geometry(reader, c.size_bytes, c.ways, c.line_bytes);
}

void parse_crossbar(const ConfigReader& reader, CrossbarConfig& c) {
  reader.get("latency", c.latency, 0u, 100000u);
  reader.get("bytes_per_cycle_per_port", c.bytes_per_cycle_per_port, 1u, 4096u);
  reader.finish();
}

void parse_tlb(const ConfigReader& reader, TlbConfig& c) {
  reader.get("entries", c.entries, 0u, 1u << 24);
  reader.get("page_walk_cycles", c.page_walk_cycles, 0u, 1000000u);
  reader.finish();
}

}  // namespace

const char* unit_class_name(UnitClass unit) {
  switch (unit) {
    case UnitClass::int_alu:
      return "int_alu";
    case UnitClass::fp32:
      return "fp32";
    case UnitClass::fp64:
      return "fp64";
    case UnitClass::sfu:
      return "sfu";
    case UnitClass::ldst:
      return "ldst";
    case UnitClass::branch:
      return "branch";
    case UnitClass::barrier:
      return "barrier";
    case UnitClass::tensor:
      return "tensor";
  }
  return "?";
}

std::array<UnitTiming, k_unit_class_count> GpuConfig::default_units() {
  std::array<UnitTiming, k_unit_class_count> u{};
  u[unit_index(UnitClass::int_alu)] = {4, 2, 1};
  u[unit_index(UnitClass::fp32)] = {4, 2, 1};
  u[unit_index(UnitClass::fp64)] = {8, 4, 1};
  u[unit_index(UnitClass::sfu)] = {18, 8, 1};
  u[unit_index(UnitClass::ldst)] = {4, 4, 1};
  u[unit_index(UnitClass::branch)] = {4, 2, 1};
  u[unit_index(UnitClass::barrier)] = {4, 2, 1};
  u[unit_index(UnitClass::tensor)] = tensor_unit(TensorCoreConfig{});
  return u;
}

uint64_t GpuConfig::core_period_ps() const {
  return static_cast<uint64_t>(std::llround(1e6 / core_clock_mhz));
}

std::optional<std::string> L2CacheConfig::slicing_problem(uint32_t memory_channels) const {
  const uint64_t slices = uint64_t{memory_channels} * slices_per_channel;
  const uint64_t set_bytes = uint64_t{ways} * line_bytes;
  if (slices != 0 && size_bytes % (slices * set_bytes) == 0) return std::nullopt;
  return std::to_string(size_bytes) + " bytes do not divide into " + std::to_string(slices) +
         " slices (memory channels x slices_per_channel) of whole " + std::to_string(ways) +
         "-way sets of " + std::to_string(line_bytes) + "-byte lines";
}

uint64_t L2CacheConfig::slice_bytes(uint32_t memory_channels, const char* path) const {
  if (const auto problem = slicing_problem(memory_channels))
    throw ConfigError(std::string(path) + ".size_bytes: " + *problem);
  return size_bytes / (uint64_t{memory_channels} * slices_per_channel);
}

GpuConfig parse_gpu_config(const ConfigReader& reader) {
  // A misspelt key is named before the checks between the sections (sm_limits against
  // warp_size, l1d against l2), which would blame the value it meant to set.
  reader.finish({"compute_capability", "sm_count", "max_resident_grids", "greatest_stream_priority",
                 "core_clock_mhz", "warp_size", "sub_cores_per_sm", "issue_width", "sm_limits",
                 "warp_scheduler", "load_order", "units", "l1d", "shared_memory", "l2", "crossbar",
                 "tlb", "tensor_core", "constant_cache"});
  GpuConfig c;
  reader.get_enum("compute_capability", c.compute_capability,
                  {{"7.0", ComputeCapability::sm_70}, {"7.5", ComputeCapability::sm_75}});
  reader.get("sm_count", c.sm_count, 1u, 1024u);
  reader.get("max_resident_grids", c.max_resident_grids, 1u, 1024u);
  reader.get("greatest_stream_priority", c.greatest_stream_priority, -255, 0);
  reader.get("core_clock_mhz", c.core_clock_mhz, 1.0, 10000.0);
  reader.get("warp_size", c.warp_size, 4u, 64u);
  require_power_of_two(reader, "warp_size", c.warp_size);
  reader.get("sub_cores_per_sm", c.sub_cores_per_sm, 1u, 16u);
  reader.get("issue_width", c.issue_width, 1u, 8u);
  // Each sub-core's scheduler issues one warp instruction a cycle (so a tensor-core instruction
  // never co-issues with an INT or FP32 one); wider issue is not modelled.
  if (c.issue_width != 1) {
    reader.fail("issue_width",
                "1: one warp instruction per sub-core per cycle is what is "
                "modelled, got " +
                    std::to_string(c.issue_width));
  }
  parse_limits(reader.child("sm_limits"), c.sm, c.warp_size, reader.path() + ".warp_size");
  parse_scheduler(reader.child("warp_scheduler"), c.scheduler);
  reader.get_enum("load_order", c.load_order,
                  {{"as_written", LoadOrder::as_written}, {"hoisted", LoadOrder::hoisted}});
  parse_units(reader.child("units"), c.units);
  parse_l1d(reader.child("l1d"), c.l1d);
  parse_shared_memory(reader.child("shared_memory"), c.shared_memory);
  parse_l2(reader.child("l2"), c.l2);
  parse_crossbar(reader.child("crossbar"), c.crossbar);
  parse_tlb(reader.child("tlb"), c.tlb);
  parse_tensor_core(reader.child("tensor_core"), c.tensor);
  c.units[unit_index(UnitClass::tensor)] = tensor_unit(c.tensor);
  const ConfigReader constant = reader.child("constant_cache");
  constant.get("hit_latency", c.constant_cache_latency, 1u, 10000u);
  constant.finish();
  if (c.sm.max_warps < c.sub_cores_per_sm)
    reader.fail("sub_cores_per_sm",
                "expected at most sm_limits.max_warps (" + std::to_string(c.sm.max_warps) + ")");
  // An L1 miss is one L2 request for the same line and sectors.
  if (c.l1d.line_bytes != c.l2.line_bytes)
    reader.child("l1d").fail_against("line_bytes", reader.path() + ".l2.line_bytes",
                                     "is " + std::to_string(c.l1d.line_bytes) +
                                         "; expected the L2's, " + std::to_string(c.l2.line_bytes));
  if (c.l1d.sector_bytes != c.l2.sector_bytes)
    reader.child("l1d").fail_against("sector_bytes", reader.path() + ".l2.sector_bytes",
                                     "is " + std::to_string(c.l1d.sector_bytes) +
                                         "; expected the L2's, " +
                                         std::to_string(c.l2.sector_bytes));
  return c;
}

}  // namespace ohmvp::gpu
