#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/common/random.h"
#include "modules/memory/counter_decay.h"
#include "modules/memory/dram_cache_metadata.h"
#include "modules/memory/hetero_config.h"
#include "modules/memory/hot_page_policy.h"
#include "modules/memory/page_access_counters.h"
#include "modules/memory/page_mapping_table.h"

using namespace ohmvp;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

const std::filesystem::path k_configs = std::filesystem::path(OHMVP_SOURCE_DIR) / "configs";

HeteroConfig parse_hetero(const json& node) {
  HeteroConfig config;
  parse(ConfigReader(node, "memory.hetero"), config);
  return config;
}

std::string error_of(const json& node) {
  try {
    parse_hetero(node);
  } catch (const ConfigError& e) {
    return e.what();
  }
  FAIL("expected a ConfigError");
  return "";
}

HeteroConfig load_fragment(const std::string& name) {
  const ConfigDocument document =
      ConfigDocument::load(k_configs / "memory" / (name + ".json"), {k_configs});
  HeteroConfig config;
  parse(ConfigReader(document.json().at("memory").at("hetero"), "memory.hetero", &document),
        config);
  return config;
}

}  // namespace

TEST_CASE("Hot-page policies: threshold and lead over the DRAM resident", "[hetero]") {
  ThresholdHotPolicy threshold(4);
  CHECK_FALSE(threshold.is_hot(3, 0));
  CHECK(threshold.is_hot(4, 100));
  BeatsResidentHotPolicy beats(4, 2);
  CHECK_FALSE(beats.is_hot(3, 0));
  CHECK(beats.is_hot(4, 2));
  CHECK_FALSE(beats.is_hot(4, 3));
  CHECK(beats.is_hot(60000, 59998));
  HotPageConfig config;
  config.kind = HotPageKind::beats_resident;
  config.threshold = 4;
  config.margin = 2;
  CHECK_FALSE(make_hot_page_policy(config)->is_hot(4, 3));
  config.kind = HotPageKind::threshold;
  CHECK(make_hot_page_policy(config)->is_hot(4, 3));
}

TEST_CASE("Counter decay policies", "[hetero]") {
  CHECK_FALSE(NoDecay().due(1u << 30));
  CHECK(NoDecay().decayed(77) == 77);
  HalvingDecay halve(8);
  CHECK_FALSE(halve.due(7));
  CHECK(halve.due(8));
  CHECK(halve.decayed(77) == 38);
  ResetDecay reset(8);
  CHECK_FALSE(reset.due(7));
  CHECK(reset.due(8));
  CHECK(reset.decayed(77) == 0);
  CounterDecayConfig config;
  config.kind = CounterDecayKind::reset;
  config.interval = 3;
  CHECK_FALSE(make_counter_decay(config)->due(2));
  CHECK(make_counter_decay(config)->due(3));
  CHECK(make_counter_decay(config)->decayed(5) == 0);
  config.kind = CounterDecayKind::halve;
  CHECK_FALSE(make_counter_decay(config)->due(2));
  CHECK(make_counter_decay(config)->due(3));
  CHECK(make_counter_decay(config)->decayed(5) == 2);
  config.kind = CounterDecayKind::none;
  CHECK_FALSE(make_counter_decay(config)->due(1000));
}

TEST_CASE("Page access counters: count, decay per group, saturate, clear", "[hetero]") {
  HalvingDecay decay(4);
  const PageMappingTable groups(
      2, 2, PageGrouping::contiguous);  // pages 0..2 in group 0, 3..5 in group 1
  PageAccessCounters counters(groups, decay);
  for (int i = 0; i < 4; ++i) counters.record(1);
  CHECK(counters.count(1) == 4);
  CHECK(counters.decays() == 0);
  counters.record(4);  // another group: no decay of group 0
  CHECK(counters.count(1) == 4);
  CHECK(counters.record(2) == 1);  // group 0's fifth access: its counters halve first
  CHECK(counters.decays() == 1);
  CHECK(counters.count(1) == 2);
  CHECK(counters.count(4) == 1);
  counters.clear(1);
  CHECK(counters.count(1) == 0);

  NoDecay none;
  const PageMappingTable one_group(1, 1, PageGrouping::contiguous);
  PageAccessCounters saturating(one_group, none);
  for (int i = 0; i < 70000; ++i) saturating.record(0);
  CHECK(saturating.count(0) == UINT16_MAX);

  // Interleaved: pages 0, 2, 4 in group 0 and 1, 3, 5 in group 1; a decay ages its own members.
  const PageMappingTable interleaved(2, 2, PageGrouping::interleaved);
  PageAccessCounters by_congruence(interleaved, decay);
  for (int i = 0; i < 4; ++i) by_congruence.record(2);
  by_congruence.record(1);
  by_congruence.record(3);              // group 1's second access
  CHECK(by_congruence.record(4) == 1);  // group 0's fifth access: page 2 halves, page 1 does not
  CHECK(by_congruence.count(2) == 2);
  CHECK(by_congruence.count(1) == 1);
}

namespace {

// 5,000 random swaps, then every group still holds each of its slots once, one page in DRAM.
void swap_at_random_and_check_groups(PageMappingTable& table) {
  Rng rng(7);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t page = rng.below(table.pages());
    if (!table.in_dram(page)) table.swap_with_dram(page);
  }
  for (uint64_t g = 0; g < table.groups(); ++g) {
    std::set<uint32_t> slots;
    for (uint32_t i = 0; i < table.pages_per_group(); ++i) {
      CHECK(table.group_of(table.member(g, i)) == g);
      slots.insert(table.slot_of(table.member(g, i)));
    }
    CHECK(slots.size() == table.pages_per_group());
    CHECK(*slots.rbegin() == table.pages_per_group() - 1);
    CHECK(table.in_dram(table.dram_resident(g)));
  }
}

}  // namespace

TEST_CASE("Mapping table: swaps keep every group a permutation of its slots", "[hetero]") {
  PageMappingTable table(16, 8, PageGrouping::contiguous);
  CHECK(table.pages() == 16 * 9);
  CHECK(table.storage_bytes() == 16 * 9);
  CHECK(table.in_dram(9));
  CHECK(table.slot_of(10) == 1);
  CHECK(table.xpoint_page_of_slot(1, 1) == 8);
  CHECK(table.dram_resident(1) == 9);
  table.swap_with_dram(13);
  CHECK(table.in_dram(13));
  CHECK(table.slot_of(9) == 4);
  CHECK(table.dram_resident(1) == 13);

  CHECK(table.member(1, 4) == 13);
  swap_at_random_and_check_groups(table);
  const char* bad_group = "PageMappingTable: XPoint pages per group must be 1..255";
  CHECK_THROWS_WITH(PageMappingTable(4, 0, PageGrouping::contiguous), bad_group);
  CHECK_THROWS_WITH(PageMappingTable(4, 256, PageGrouping::interleaved), bad_group);
}

TEST_CASE("Mapping table: interleaved groups are congruence classes of the page number",
          "[hetero]") {
  PageMappingTable table(16, 8, PageGrouping::interleaved);
  // Group g holds pages g, g + 16, ..., g + 128; the first 16 pages start in DRAM.
  for (uint64_t p = 0; p < 16; ++p) CHECK(table.in_dram(p));
  CHECK(table.group_of(17) == 1);
  CHECK(table.member(1, 1) == 17);
  CHECK(table.slot_of(17) == 1);
  CHECK(table.slot_of(1 + 16 * 8) == 8);
  table.swap_with_dram(33);  // group 1's member 2
  CHECK(table.in_dram(33));
  CHECK(table.slot_of(1) == 2);
  CHECK(table.dram_resident(1) == 33);
  CHECK(table.in_dram(2));  // other groups untouched

  swap_at_random_and_check_groups(table);
}

TEST_CASE("DRAM cache metadata: encoding and direct mapping", "[hetero]") {
  for (int valid = 0; valid < 2; ++valid) {
    for (int dirty = 0; dirty < 2; ++dirty) {
      for (uint8_t tag = 0; tag < 64; ++tag) {
        const DramCacheMetadata md{valid != 0, dirty != 0, tag};
        CHECK(DramCacheMetadata::decode(md.encode()) == md);
      }
    }
  }
  // valid bit 7, dirty bit 6, tag bits 0-5 (docs/hetero_memory.md)
  CHECK(DramCacheMetadata{true, false, 5}.encode() == 0x85);
  CHECK(DramCacheMetadata{true, true, 5}.encode() == 0xc5);
  CHECK(DramCacheMetadata{false, true, 63}.encode() == 0x7f);
  DramMetadataStore store(4);
  CHECK_FALSE(store.read(3).valid);
  store.write(3, DramCacheMetadata{true, true, 63});
  CHECK(store.read(3) == (DramCacheMetadata{true, true, 63}));
  CHECK_FALSE(store.read(2).valid);

  const DirectMapping map{1024};
  CHECK(map.set_of(5000) == 5000 % 1024);
  CHECK(map.tag_of(5000) == 4);
  CHECK(map.xpoint_line(map.set_of(5000), map.tag_of(5000)) == 5000);
}

TEST_CASE("Hetero config: fragments, ranges, unknown keys", "[hetero]") {
  const HeteroConfig planar = load_fragment("hetero_planar");
  CHECK(planar.mode == HeteroMode::planar);
  CHECK(planar.page_bytes == 4096);
  CHECK(planar.hot_page.kind == HotPageKind::beats_resident);
  CHECK(planar.decay.kind == CounterDecayKind::halve);
  const HeteroConfig two_level = load_fragment("hetero_two_level");
  CHECK(two_level.mode == HeteroMode::two_level);

  const HeteroConfig parsed =
      parse_hetero({{"mode", "planar"}, {"hot_page", {{"policy", "threshold"}, {"threshold", 9}}}});
  CHECK(parsed.mode == HeteroMode::planar);
  CHECK(parsed.hot_page.threshold == 9);
  CHECK_THAT(error_of({{"mode", "two_level"}, {"hot_page", {{"threshold", 9}}}}),
             Contains("memory.hetero.hot_page: used only in planar mode"));

  CHECK_THAT(error_of({{"mode", "flat"}}), Contains("memory.hetero.mode"));
  CHECK_THAT(error_of({{"page_bytes", 100}}), Contains("power of two"));
  CHECK_THAT(error_of({{"page_byte", 4096}}), Contains("page_bytes"));
  CHECK_THAT(error_of({{"max_requests", 0}}), Contains("memory.hetero.max_requests"));
  CHECK_THAT(error_of({{"decay", {{"policy", "halve"}, {"interval", 0}}}}),
             Contains("memory.hetero.decay.interval"));
  CHECK_THAT(error_of({{"hot_page", {{"treshold", 3}}}}), Contains("threshold"));

  const HeteroConfig functions =
      parse_hetero({{"auto_rw", true}, {"migration_issue", "with_writes"}, {"mode", "planar"}});
  CHECK(functions.auto_rw);
  CHECK(functions.migration_issue == MigrationIssueKind::with_writes);
  CHECK_THAT(error_of({{"mode", "paged"}, {"auto_rw", true}}),
             Contains("memory.hetero.auto_rw: used only in planar and two-level modes"));
  CHECK_FALSE(parse_hetero(json::object()).auto_rw);
  CHECK(parse_hetero(json::object()).migration_issue == MigrationIssueKind::immediate);
  CHECK_THAT(error_of({{"migration_issue", "later"}}), Contains("memory.hetero.migration_issue"));
  CHECK_THAT(error_of({{"auto_rw", 1}}), Contains("memory.hetero.auto_rw"));
}

TEST_CASE("Migration issue policies: at once, or with writes while reads are in flight",
          "[hetero]") {
  const auto immediate = make_migration_issue_policy(MigrationIssueKind::immediate);
  const MigrationIssueState busy{3, 0, false};
  CHECK(immediate->may_issue(busy));
  CHECK_FALSE(immediate->takes_write_token(busy));
  CHECK(immediate->tokens_per_write() == 0);

  const auto with_writes = make_migration_issue_policy(MigrationIssueKind::with_writes);
  CHECK(with_writes->tokens_per_write() == 2);
  // Reads in flight and nobody waiting: only on a write's room, which it takes.
  CHECK_FALSE(with_writes->may_issue(busy));
  const MigrationIssueState room{3, 1, false};
  CHECK(with_writes->may_issue(room));
  CHECK(with_writes->takes_write_token(room));
  // No read in flight: at once, no room taken.
  const MigrationIssueState quiet{0, 0, false};
  CHECK(with_writes->may_issue(quiet));
  CHECK_FALSE(with_writes->takes_write_token(quiet));
  // Requests wait for the swap: they are the latency-critical ones, so at once.
  const MigrationIssueState waited{3, 0, true};
  CHECK(with_writes->may_issue(waited));
  CHECK_FALSE(with_writes->takes_write_token(waited));
}

TEST_CASE("Hetero capacities: planar groups and two-level tag bits", "[hetero]") {
  HeteroConfig config;
  config.page_bytes = 4096;
  const HeteroLayout planar = check_capacities(config, 1 << 20, 8 << 20, "mc");
  CHECK(planar.xpoint_pages_per_group == 8);
  CHECK(planar.groups == 256);
  CHECK(planar.capacity_bytes == 9 << 20);
  CHECK_THROWS_AS(check_capacities(config, 3 << 20, 8 << 20, "mc"), ConfigError);
  CHECK_THROWS_WITH(check_capacities(config, 1 << 20, uint64_t{256} << 20, "mc"),
                    Contains("mc: planar mode needs XPoint:DRAM between 1 and 255"));
  config.mode = HeteroMode::two_level;
  const HeteroLayout two = check_capacities(config, 1 << 20, 64 << 20, "mc");
  CHECK(two.tag_bits == 6);
  CHECK(two.capacity_bytes == 64 << 20);
  CHECK_THROWS_WITH(check_capacities(config, 1 << 20, 128 << 20, "mc"),
                    Contains("6 metadata bits"));
  config.mode = HeteroMode::paged;
  config.page_bytes = 64;
  const uint64_t most_frames = 0xffffffffu;
  const HeteroLayout paged = check_capacities(config, 64 * most_frames, 128 * most_frames, "mc");
  CHECK(paged.frames == 0xffffffffu);
  CHECK_THROWS_WITH(check_capacities(config, uint64_t{64} << 32, uint64_t{64} << 33, "mc"),
                    Contains("mc: paged mode numbers a channel's DRAM frames in 32 bits"));
}
