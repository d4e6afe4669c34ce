#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <string>

#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/gpu/gpu_config.h"

using namespace ohmvp;
using namespace ohmvp::gpu;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

const std::filesystem::path k_configs = std::filesystem::path(OHMVP_SOURCE_DIR) / "configs";

GpuConfig load_preset(const std::string& name) {
  const ConfigDocument document =
      ConfigDocument::load(k_configs / "gpu" / (name + ".json"), {k_configs});
  const ConfigReader root(document.json(), "", &document);
  GpuConfig config = parse_gpu_config(root.child("gpu"));
  root.finish();
  return config;
}

GpuConfig parse_inline(const json& gpu) {
  return parse_gpu_config(ConfigReader(gpu, "gpu"));
}

std::string error_of(const json& gpu) {
  try {
    parse_inline(gpu);
  } catch (const ConfigError& e) {
    return e.what();
  }
  FAIL("expected a ConfigError");
  return "";
}

void check_same(const GpuConfig& a, const GpuConfig& b) {
  CHECK(a.sm_count == b.sm_count);
  CHECK(a.core_clock_mhz == b.core_clock_mhz);
  CHECK(a.warp_size == b.warp_size);
  CHECK(a.sub_cores_per_sm == b.sub_cores_per_sm);
  CHECK(a.issue_width == b.issue_width);
  CHECK(a.sm.max_threads == b.sm.max_threads);
  CHECK(a.sm.max_warps == b.sm.max_warps);
  CHECK(a.sm.max_ctas == b.sm.max_ctas);
  CHECK(a.sm.max_threads_per_cta == b.sm.max_threads_per_cta);
  CHECK(a.sm.registers == b.sm.registers);
  CHECK(a.sm.register_allocation_unit == b.sm.register_allocation_unit);
  CHECK(a.sm.max_registers_per_thread == b.sm.max_registers_per_thread);
  CHECK(a.sm.shared_memory_bytes == b.sm.shared_memory_bytes);
  CHECK(a.sm.shared_memory_allocation_unit == b.sm.shared_memory_allocation_unit);
  CHECK(a.sm.max_shared_memory_per_cta == b.sm.max_shared_memory_per_cta);
  CHECK(a.scheduler.policy == b.scheduler.policy);
  CHECK(a.scheduler.active_set_size == b.scheduler.active_set_size);
  CHECK(a.load_order == b.load_order);
  for (size_t i = 0; i < k_unit_class_count; ++i) {
    INFO("unit " << unit_class_name(static_cast<UnitClass>(i)));
    CHECK(a.units[i].latency == b.units[i].latency);
    CHECK(a.units[i].initiation_interval == b.units[i].initiation_interval);
    CHECK(a.units[i].units_per_sub_core == b.units[i].units_per_sub_core);
  }
  CHECK(a.l1d.size_bytes == b.l1d.size_bytes);
  CHECK(a.l1d.ways == b.l1d.ways);
  CHECK(a.l1d.line_bytes == b.l1d.line_bytes);
  CHECK(a.l1d.sector_bytes == b.l1d.sector_bytes);
  CHECK(a.l1d.hit_latency == b.l1d.hit_latency);
  CHECK(a.l1d.mshr_entries == b.l1d.mshr_entries);
  CHECK(a.l1d.mshr_max_merges == b.l1d.mshr_max_merges);
  CHECK(a.shared_memory.banks == b.shared_memory.banks);
  CHECK(a.shared_memory.bank_width_bytes == b.shared_memory.bank_width_bytes);
  CHECK(a.shared_memory.latency == b.shared_memory.latency);
  CHECK(a.l2.size_bytes == b.l2.size_bytes);
  CHECK(a.l2.ways == b.l2.ways);
  CHECK(a.l2.line_bytes == b.l2.line_bytes);
  CHECK(a.l2.sector_bytes == b.l2.sector_bytes);
  CHECK(a.l2.hit_latency == b.l2.hit_latency);
  CHECK(a.l2.mshrs_per_slice == b.l2.mshrs_per_slice);
  CHECK(a.l2.slices_per_channel == b.l2.slices_per_channel);
  CHECK(a.crossbar.latency == b.crossbar.latency);
  CHECK(a.crossbar.bytes_per_cycle_per_port == b.crossbar.bytes_per_cycle_per_port);
  CHECK(a.tlb.entries == b.tlb.entries);
  CHECK(a.tlb.page_walk_cycles == b.tlb.page_walk_cycles);
  CHECK(a.constant_cache_latency == b.constant_cache_latency);
}

}  // namespace

TEST_CASE("gpu config: the struct's defaults are the small preset", "[sm]") {
  check_same(GpuConfig{}, load_preset("small"));
  check_same(GpuConfig{}, parse_inline(json::object()));
}

TEST_CASE("gpu config: Titan V preset", "[sm]") {
  const GpuConfig c = load_preset("titanv");
  CHECK(c.sm_count == 80);
  CHECK(c.core_clock_mhz == 1455.0);
  CHECK(c.core_period_ps() == 687);
  CHECK(c.sub_cores_per_sm == 4);
  CHECK(c.max_warps_per_sub_core() == 16);
  CHECK(c.sm.max_threads == 2048);
  CHECK(c.sm.shared_memory_bytes == 98304);
  CHECK(c.scheduler.policy == WarpSchedulerPolicy::gto);
  CHECK(c.load_order == LoadOrder::hoisted);
  CHECK(c.unit(UnitClass::fp64).latency == 8);
  CHECK(c.unit(UnitClass::fp64).initiation_interval == 4);
  CHECK(c.unit(UnitClass::tensor).latency == 54);
  // Jia et al. 2018 load-to-use latencies, split as docs/gpu_sm.md describes.
  const uint32_t ldst = c.unit(UnitClass::ldst).latency;
  CHECK(ldst + c.l1d.hit_latency == 28);
  CHECK(ldst + c.shared_memory.latency == 19);
  CHECK(ldst + c.l1d.hit_latency + 2 * c.crossbar.latency + c.l2.hit_latency == 193);
  CHECK(c.l2.size_bytes == 4718592);
  CHECK(c.l2.slice_bytes(24) == 98304);
}

TEST_CASE("gpu config: Ohm-GPU preset follows PARAMETERS.md", "[sm]") {
  const GpuConfig c = load_preset("ohm_gpu");
  CHECK(c.sm_count == 16);
  CHECK(c.core_clock_mhz == 1200.0);
  CHECK(c.core_period_ps() == 833);
  CHECK(c.l1d.size_bytes == 48 * 1024);
  CHECK(c.l1d.ways == 6);
  CHECK(c.l1d.sets() == 64);
  CHECK(c.l2.size_bytes == 6 * 1024 * 1024);
  CHECK(c.l2.ways == 8);
  // Six memory channels of two slices: 512 KB per slice.
  CHECK(c.l2.slice_bytes(6) == 512 * 1024);
  // The rest is the Titan V SM.
  CHECK(c.sm.max_warps == 64);
  CHECK(c.unit(UnitClass::fp32).latency == 4);
}

TEST_CASE("gpu config: Turing preset", "[sm]") {
  const GpuConfig c = load_preset("turing");
  CHECK(c.sm_count == 46);
  CHECK(c.sm.max_threads == 1024);
  CHECK(c.sm.max_warps == 32);
  CHECK(c.sm.max_ctas == 16);
  CHECK(c.sm.shared_memory_bytes == 65536);
  CHECK(c.unit(UnitClass::tensor).latency == 99);
  const uint32_t ldst = c.unit(UnitClass::ldst).latency;
  CHECK(ldst + c.l1d.hit_latency == 32);
  CHECK(ldst + c.shared_memory.latency == 19);
  CHECK(ldst + c.l1d.hit_latency + 2 * c.crossbar.latency + c.l2.hit_latency == 188);
  CHECK(c.l2.slice_bytes(8) == 262144);
}

TEST_CASE("gpu config: every key is read", "[sm]") {
  const json gpu = {
      {"sm_count", 2},
      {"core_clock_mhz", 1000.5},
      {"warp_size", 16},
      {"sub_cores_per_sm", 2},
      {"issue_width", 1},
      {"sm_limits",
       {{"max_threads", 1024},
        {"max_warps", 64},
        {"max_ctas", 8},
        {"max_threads_per_cta", 512},
        {"registers", 32768},
        {"register_allocation_unit", 128},
        {"max_registers_per_thread", 128},
        {"shared_memory_bytes", 65536},
        {"shared_memory_allocation_unit", 128},
        {"max_shared_memory_per_cta", 49152}}},
      {"warp_scheduler", {{"policy", "two_level"}, {"active_set_size", 6}}},
      {"load_order", "as_written"},
      {"units",
       {{"sfu", {{"latency", 20}, {"initiation_interval", 16}, {"units_per_sub_core", 2}}}}},
      {"l1d",
       {{"size_bytes", 65536},
        {"ways", 8},
        {"line_bytes", 64},
        {"sector_bytes", 16},
        {"hit_latency", 30},
        {"mshr_entries", 32},
        {"mshr_max_merges", 4}}},
      {"shared_memory", {{"banks", 16}, {"bank_width_bytes", 8}, {"latency", 25}}},
      {"l2",
       {{"size_bytes", 1048576},
        {"ways", 4},
        {"line_bytes", 64},  // the L1's: an L1 miss is one L2 request
        {"sector_bytes", 16},
        {"hit_latency", 100},
        {"mshrs_per_slice", 16},
        {"slices_per_channel", 1}}},
      {"crossbar", {{"latency", 7}, {"bytes_per_cycle_per_port", 64}}},
      {"tlb", {{"entries", 64}, {"page_walk_cycles", 250}}},
      {"constant_cache", {{"hit_latency", 9}}}};
  const GpuConfig c = parse_inline(gpu);
  CHECK(c.sm_count == 2);
  CHECK(c.core_clock_mhz == 1000.5);
  CHECK(c.warp_size == 16);
  CHECK(c.sub_cores_per_sm == 2);
  CHECK(c.issue_width == 1);
  CHECK(c.sm.max_threads == 1024);
  CHECK(c.sm.max_ctas == 8);
  CHECK(c.sm.max_threads_per_cta == 512);
  CHECK(c.sm.registers == 32768);
  CHECK(c.sm.register_allocation_unit == 128);
  CHECK(c.sm.max_registers_per_thread == 128);
  CHECK(c.sm.shared_memory_bytes == 65536);
  CHECK(c.sm.shared_memory_allocation_unit == 128);
  CHECK(c.sm.max_shared_memory_per_cta == 49152);
  CHECK(c.scheduler.policy == WarpSchedulerPolicy::two_level);
  CHECK(c.scheduler.active_set_size == 6);
  CHECK(c.load_order == LoadOrder::as_written);
  CHECK(c.unit(UnitClass::sfu).latency == 20);
  CHECK(c.unit(UnitClass::sfu).initiation_interval == 16);
  CHECK(c.unit(UnitClass::sfu).units_per_sub_core == 2);
  CHECK(c.unit(UnitClass::fp32).latency == 4);  // untouched classes keep their defaults
  CHECK(c.l1d.size_bytes == 65536);
  CHECK(c.l1d.ways == 8);
  CHECK(c.l1d.line_bytes == 64);
  CHECK(c.l1d.sector_bytes == 16);
  CHECK(c.l1d.hit_latency == 30);
  CHECK(c.l1d.mshr_entries == 32);
  CHECK(c.l1d.mshr_max_merges == 4);
  CHECK(c.shared_memory.banks == 16);
  CHECK(c.shared_memory.bank_width_bytes == 8);
  CHECK(c.shared_memory.latency == 25);
  CHECK(c.l2.size_bytes == 1048576);
  CHECK(c.l2.ways == 4);
  CHECK(c.l2.line_bytes == 64);
  CHECK(c.l2.sector_bytes == 16);
  CHECK(c.l2.hit_latency == 100);
  CHECK(c.l2.mshrs_per_slice == 16);
  CHECK(c.l2.slices_per_channel == 1);
  CHECK(c.crossbar.latency == 7);
  CHECK(c.crossbar.bytes_per_cycle_per_port == 64);
  CHECK(c.tlb.entries == 64);
  CHECK(c.tlb.page_walk_cycles == 250);
  CHECK(c.constant_cache_latency == 9);
}

TEST_CASE("gpu config: bad values name the key and what was expected", "[sm]") {
  CHECK_THAT(error_of({{"warp_sise", 32}}),
             Contains("unknown key 'warp_sise' at gpu") && Contains("did you mean 'warp_size'"));
  CHECK_THAT(error_of({{"warp_size", 128}}), Contains("gpu.warp_size"));
  CHECK_THAT(error_of({{"issue_width", 2}}),
             Contains("gpu.issue_width") && Contains("one warp instruction per sub-core"));
  CHECK_THAT(error_of({{"warp_size", 2}}), Contains("gpu.warp_size"));
  CHECK_THAT(error_of({{"warp_size", 24}}),
             Contains("gpu.warp_size: expected a power of two, got 24"));
  CHECK_THAT(error_of({{"sm_count", 0}}), Contains("gpu.sm_count"));
  CHECK_THAT(error_of({{"warp_scheduler", {{"policy", "gtoo"}}}}),
             Contains("gpu.warp_scheduler.policy: unknown value 'gtoo'") &&
                 Contains("did you mean 'gto'"));
  CHECK_THAT(
      error_of({{"load_order", "hoist"}}),
      Contains("gpu.load_order: unknown value 'hoist'") && Contains("did you mean 'hoisted'"));
  CHECK_THAT(error_of({{"units", {{"fp33", json::object()}}}}),
             Contains("unknown key 'fp33' at gpu.units") && Contains("did you mean 'fp32'"));
  CHECK_THAT(error_of({{"units", {{"fp32", {{"latency", 0}}}}}}),
             Contains("gpu.units.fp32.latency"));
  CHECK_THAT(error_of({{"l1d", {{"size_bytes", 40000}}}}),
             Contains("gpu.l1d.size_bytes: expected a multiple of ways x line_bytes (512)"));
  CHECK_THAT(error_of({{"l1d", {{"line_bytes", 96}}}}),
             Contains("gpu.l1d.line_bytes: expected a power of two"));
  CHECK_THAT(error_of({{"l2", {{"sector_bytes", 256}}}}), Contains("gpu.l2.sector_bytes"));
  CHECK_THAT(error_of({{"l1d", {{"sector_bytes", 64}}}}),
             Contains("gpu.l1d.sector_bytes: is 64; expected the L2's, 32"));
  CHECK_THAT(error_of({{"l2", {{"line_bytes", 64}}}}),
             Contains("gpu.l1d.line_bytes: is 128; expected the L2's, 64"));
  CHECK_THAT(error_of({{"shared_memory", {{"banks", 24}}}}),
             Contains("gpu.shared_memory.banks: expected a power of two"));
  CHECK_THAT(error_of({{"sm_limits", {{"max_threads_per_cta", 4096}}}}),
             Contains("gpu.sm_limits.max_threads_per_cta: expected at most max_threads (2048)"));
  CHECK_THAT(error_of({{"sm_limits", {{"max_warps", 16}}}}),
             Contains("gpu.sm_limits.max_warps: expected at least max_threads_per_cta / "
                      "warp_size (32)"));
  CHECK_THAT(error_of({{"sm_limits", {{"max_shared_memory_per_cta", 200000}}}}),
             Contains("gpu.sm_limits.max_shared_memory_per_cta: expected at most "
                      "shared_memory_bytes (98304)"));
  CHECK_THAT(error_of({{"core_clock_mhz", "fast"}}),
             Contains("gpu.core_clock_mhz: expected number"));
  CHECK_THAT(error_of({{"tlb", {{"page_walk_cycle", 64}}}}),
             Contains("unknown key 'page_walk_cycle' at gpu.tlb") &&
                 Contains("did you mean 'page_walk_cycles'"));
  CHECK_THAT(error_of({{"tlb", {{"page_walk_cycles", -1}}}}), Contains("gpu.tlb.page_walk_cycles"));
  CHECK_THAT(error_of({{"constant_cache", {{"latency", 4}}}}),
             Contains("unknown key 'latency' at gpu.constant_cache"));
}

TEST_CASE("gpu config: the L2 must divide into whole slices", "[sm]") {
  L2CacheConfig l2;
  l2.size_bytes = 6 * 1024 * 1024;
  l2.ways = 8;
  CHECK(l2.slice_bytes(6) == 512 * 1024);
  CHECK_THROWS_WITH(l2.slice_bytes(5), Contains("gpu.l2.size_bytes: 6291456 bytes do not divide "
                                                "into 10 slices"));
  l2.size_bytes = 786432;
  l2.ways = 16;
  for (uint32_t channels : {1u, 2u, 3u, 4u, 6u, 8u, 12u, 16u, 24u})
    CHECK(l2.slice_bytes(channels) * channels * 2 == 786432);
}

TEST_CASE("gpu config: tensor cores are a set/step model, not a unit latency", "[sm][tensor]") {
  CHECK_THAT(error_of({{"units", {{"tensor", {{"latency", 54}}}}}}),
             Contains("gpu.units.tensor") && Contains("gpu.tensor_core"));
  CHECK_THAT(error_of({{"tensor_core", {{"f32", {{"sets", 0}}}}}}),
             Contains("gpu.tensor_core.f32.sets"));
  CHECK_THAT(error_of({{"tensor_core", {{"f16", {{"stepz", 2}}}}}}),
             Contains("'stepz'") && Contains("gpu.tensor_core.f16"));
  const GpuConfig titanv = load_preset("titanv");
  CHECK(titanv.tensor.f16.steps_per_set == 2);
  CHECK(titanv.tensor.s32.sets == 0);
  CHECK(titanv.unit(UnitClass::tensor).initiation_interval == 32);
  const GpuConfig turing = load_preset("turing");
  CHECK(turing.tensor.s32.sets == 4);
  CHECK(turing.unit(UnitClass::tensor).initiation_interval == 64);
}

TEST_CASE("gpu config: compute capability and fragment mapping, per preset", "[sm][tensor]") {
  CHECK_THAT(error_of({{"compute_capability", "8.0"}}),
             Contains("gpu.compute_capability") && Contains("'8.0'") && Contains("'7.0', '7.5'"));
  CHECK_THAT(error_of({{"compute_capability", 7.5}}),
             Contains("gpu.compute_capability") && Contains("expected string"));
  CHECK_THAT(error_of({{"tensor_core", {{"fragment_mapping", "ampere"}}}}),
             Contains("gpu.tensor_core.fragment_mapping") && Contains("'ampere'") &&
                 Contains("'volta', 'turing'"));
  const GpuConfig defaults;
  CHECK(defaults.compute_capability == ComputeCapability::sm_70);
  CHECK(defaults.tensor.fragment_mapping == FragmentMapping::volta);
  for (const char* volta : {"titanv", "small", "ohm_gpu"}) {
    INFO(volta);
    const GpuConfig c = load_preset(volta);
    CHECK(c.compute_capability == ComputeCapability::sm_70);
    CHECK(c.tensor.fragment_mapping == FragmentMapping::volta);
  }
  const GpuConfig turing = load_preset("turing");
  CHECK(turing.compute_capability == ComputeCapability::sm_75);
  CHECK(turing.tensor.fragment_mapping == FragmentMapping::turing);
}
