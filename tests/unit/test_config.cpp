#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "modules/common/closest_match.h"
#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/common/json_file.h"
#include "temp_dir.h"

namespace fs = std::filesystem;
using nlohmann::json;
using ohmvp::ConfigDocument;
using ohmvp::ConfigError;
using ohmvp::ConfigReader;

namespace {

enum class Policy { fcfs, frfcfs };

}  // namespace

TEST_CASE("config: closest_match suggests only near words") {
  const std::vector<std::string> keys{"tRCD_ns", "tRP_ns", "tRAS_ns"};
  CHECK(ohmvp::closest_match("tRDC_ns", keys) == "tRCD_ns");
  CHECK(ohmvp::closest_match("tRP_ns", keys) == "tRP_ns");
  CHECK(ohmvp::closest_match("refresh_interval", keys).empty());
  CHECK(ohmvp::closest_match("x", {}).empty());
  // Another letter case is no distance at all, however many letters it changes.
  CHECK(ohmvp::closest_match("TRAS_NS", keys) == "tRAS_ns");
  // A short form of a key is near it, nearer than a key as many edits away.
  const std::vector<std::string> buffer_keys{"type", "init", "count", "symbol"};
  CHECK(ohmvp::closest_match("cnt", buffer_keys) == "count");
  CHECK(ohmvp::closest_match("sym", buffer_keys) == "symbol");
  CHECK(ohmvp::closest_match("int", buffer_keys) == "init");
  CHECK(ohmvp::closest_match("bufs", {"buffers", "outputs"}) == "buffers");
  CHECK(ohmvp::closest_match("b", {"buffers"}).empty());
  CHECK(ohmvp::closest_match("cnt", {"concurrent"}).empty());  // too short a form
  CHECK(ohmvp::edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("config: parse_json_text refuses deep nesting and numbers beyond a double") {
  const std::string deep_enough = std::string(100, '[') + std::string(100, ']');
  CHECK(ohmvp::parse_json_text(deep_enough, "x").is_array());
  CHECK_THROWS_WITH(ohmvp::parse_json_text("\n [" + deep_enough + "]", "x"),
                    "x:2:102: malformed JSON: arrays and objects nested more than 100 deep");
  // Brackets and escaped quotes inside strings are text.
  const std::string text = R"({"a\"[": ")" + std::string(200, '[') + R"(\"", "n": -1e308})";
  CHECK(ohmvp::parse_json_text(text, "x")["n"] == -1e308);
  CHECK_THROWS_WITH(ohmvp::parse_json_text(R"({"s": "1e999", "n": [1, -1e999]})", "x"),
                    "x:1:25: number '-1e999' is beyond the range of a double");
  CHECK_THROWS_WITH(ohmvp::parse_json_text("[1,", "x"),
                    Catch::Contains("x:1:4: malformed JSON: syntax error"));
  CHECK_THROWS_WITH(ohmvp::parse_json_text(std::string("{}\n\0junk", 8), "x"),
                    "x:2:1: malformed JSON: a NUL byte (not text)");
  // A key twice in one object is refused (the parser would keep the last), named by its path.
  CHECK_THROWS_WITH(ohmvp::parse_json_text(R"({"a": [1, {"b": [{"c": 1, "c": 2}]}]})", "x"),
                    "x: a[1].b[0]: key 'c' appears twice");
  CHECK_THROWS_WITH(ohmvp::parse_json_text(R"({"n": 1, "n": 1})", "x"),
                    "x: top level: key 'n' appears twice");
  // Text that goes somewhere in a larger document names paths from there.
  CHECK_THROWS_WITH(ohmvp::parse_json_text(R"({"n": 1, "n": 1})", "x", "a.b"),
                    "x: a.b: key 'n' appears twice");
  CHECK_THROWS_WITH(ohmvp::parse_json_text(R"({"l": [{"n": 1, "n": 1}]})", "x", "a"),
                    "x: a.l[0]: key 'n' appears twice");
  CHECK(ohmvp::parse_json_text(R"([{"k": 1}, {"k": 2}])", "x")[1]["k"] == 2);
}

TEST_CASE("config: line_column_of counts 1-based lines and columns") {
  const std::string text = "ab\ncde\n";
  CHECK(ohmvp::line_column_of(text, 0) == "1:1");
  CHECK(ohmvp::line_column_of(text, 1) == "1:2");
  CHECK(ohmvp::line_column_of(text, 3) == "2:1");
  CHECK(ohmvp::line_column_of(text, 5) == "2:3");
  CHECK(ohmvp::line_column_of(text, 100) == "3:1");
}

TEST_CASE("config: deep merge of extends and the including file") {
  TempDir dir("config_test");
  const fs::path base = dir.write("base.json", R"({
    "a": {"x": 1, "y": [1, 2], "inner": {"p": 1, "q": 2}},
    "s": "base", "keep": true,
    "obj_to_scalar": {"k": 1}, "scalar_to_obj": 3, "untouched": {}, "list": [[5, 6]],
    "fragments": {"from_base": 1}
  })");
  const fs::path other =
      dir.write("other.json", R"({"s": "other", "from_other": 1, "fragments": {"from_other": 2}})");
  const fs::path top = dir.write("top.json", R"({
    "extends": ["base", "other"],
    "a": {"y": [3], "z": 2, "inner": {"q": 20}},
    "obj_to_scalar": 5, "scalar_to_obj": {"k": 2}
  })");

  const ConfigDocument doc = ConfigDocument::load(top, {});
  const json& root = doc.json();
  CHECK(root == json::parse(R"({
    "a": {"x": 1, "y": [3], "z": 2, "inner": {"p": 1, "q": 20}},
    "s": "other", "keep": true, "from_other": 1,
    "obj_to_scalar": 5, "scalar_to_obj": {"k": 2}, "untouched": {}, "list": [[5, 6]],
    "fragments": {"from_base": 1, "from_other": 2}
  })"));
  CHECK_FALSE(root.contains("extends"));
  CHECK(doc.file() == top);

  CHECK(doc.origin_of("a.x") == base.string());
  CHECK(doc.origin_of("a.y") == top.string());
  CHECK(doc.origin_of("a.y.0") == top.string());
  // An element as readers' messages spell it is in its array's file.
  CHECK(doc.origin_of("list[0]") == base.string());
  CHECK(doc.origin_of("list[0][1]") == base.string());
  CHECK(doc.origin_of("a.inner.p") == base.string());
  CHECK(doc.origin_of("a.inner.q") == top.string());
  CHECK(doc.origin_of("s") == other.string());
  CHECK(doc.origin_of("obj_to_scalar") == top.string());
  CHECK(doc.origin_of("scalar_to_obj.k") == top.string());
  CHECK(doc.origin_of("untouched") == base.string());
  // An object whose values all come from one file is that file's; a mixed one is the most
  // direct of its files': the one merged last, over the others.
  CHECK(doc.origin_of("scalar_to_obj") == top.string());
  CHECK(doc.origin_of("a") == top.string());
  CHECK(doc.origin_of("fragments") == other.string());
  CHECK(doc.origin_of("no.such.path") == top.string());
  CHECK(doc.origin_of("") == top.string());
  CHECK(doc.directness("a.z") > doc.directness("s"));
  CHECK(doc.directness("s") > doc.directness("a.x"));
  CHECK(doc.directness("fragments") == doc.directness("s"));
  CHECK(doc.directness("no.such.path") == -1);
}

TEST_CASE("config: extends chain over two levels and search dirs") {
  TempDir dir("config_test");
  const fs::path ddr = dir.write("lib/ddr.json", R"({
    "memory": {"dram": {"timing": {"tRCD_ns": 13.75, "tRP_ns": 13.75}, "banks": 16}}
  })");
  // "ddr" is found next to ddr_fast.json, which itself lives in a search dir.
  const fs::path fast = dir.write("lib/ddr_fast.json", R"({
    "extends": "ddr", "memory": {"dram": {"timing": {"tRCD_ns": 12}}}
  })");
  const fs::path local_common = dir.write("configs/common.json", R"({"name": "local"})");
  dir.write("lib/common.json", R"({"name": "library", "library_only": 1})");
  const fs::path main = dir.write("configs/main.json", R"({
    "extends": ["ddr_fast", "common", "../lib/ddr.json"],
    "memory": {"dram": {"banks": 8}}
  })");

  const ConfigDocument doc =
      ConfigDocument::load(main, {dir.root() / "unused", dir.root() / "lib"});
  const json& dram = doc.json()["memory"]["dram"];
  // ddr.json comes last in the list, so its tRCD_ns beats ddr_fast's.
  CHECK(dram["timing"]["tRCD_ns"] == 13.75);
  CHECK(dram["timing"]["tRP_ns"] == 13.75);
  CHECK(dram["banks"] == 8);
  CHECK(doc.json()["name"] == "local");
  CHECK_FALSE(doc.json().contains("library_only"));
  CHECK(doc.origin_of("memory.dram.timing.tRCD_ns") == ddr.string());
  CHECK(doc.origin_of("memory.dram.banks") == main.string());
  CHECK(doc.origin_of("name") == local_common.string());

  const fs::path only_fast = dir.write("configs/fast_only.json", R"({"extends": "ddr_fast"})");
  const ConfigDocument fast_doc = ConfigDocument::load(only_fast, {dir.root() / "lib"});
  CHECK(fast_doc.json()["memory"]["dram"]["timing"]["tRCD_ns"] == 12);
  CHECK(fast_doc.origin_of("memory.dram.timing.tRCD_ns") == fast.string());
  CHECK(fast_doc.origin_of("memory.dram.timing.tRP_ns") == ddr.string());

  const fs::path missing = dir.write("configs/missing.json", R"({"extends": ["nope"]})");
  CHECK_THROWS_WITH(ConfigDocument::load(missing, {dir.root() / "lib"}),
                    Catch::Contains(missing.string() + ": extends: cannot find 'nope' (looked in " +
                                    (dir.root() / "configs/nope.json").string() + ", " +
                                    (dir.root() / "lib/nope.json").string() + ")"));
  // A name close to a document of the search dirs, or one of its subfolders', is suggested.
  dir.write("lib/platforms/fast_gpu.json", R"({"name": "fast"})");
  const fs::path near = dir.write("configs/near.json", R"({"extends": "ddr_fsat"})");
  CHECK_THROWS_WITH(ConfigDocument::load(near, {dir.root() / "lib"}),
                    Catch::EndsWith("; did you mean 'ddr_fast'?"));
  const fs::path bare = dir.write("configs/bare.json", R"({"extends": "fast_gpu"})");
  CHECK_THROWS_WITH(ConfigDocument::load(bare, {dir.root() / "lib"}),
                    Catch::EndsWith("; did you mean 'platforms/fast_gpu'?"));
  // A long name is quoted in part: the message stays a line, not the name three times over.
  const fs::path long_name =
      dir.write("configs/long.json", R"({"extends": ")" + std::string(200, 'n') + R"("})");
  try {
    ConfigDocument::load(long_name, {dir.root() / "lib"});
    FAIL("a missing file was found");
  } catch (const ConfigError& e) {
    CHECK_THAT(e.what(),
               Catch::Contains(": extends: cannot find '" + std::string(60, 'n') + "...'"));
    CHECK_THAT(e.what(), !Catch::Contains(std::string(200, 'n')));
  }
  const fs::path bad = dir.write("configs/bad.json", R"({"extends": 3})");
  CHECK_THROWS_WITH(ConfigDocument::load(bad, {}),
                    Catch::Contains("extends: expected a string or an array of strings"));

  // There, but not a file to read: said so, not "cannot find".
  const fs::path loop = dir.root() / "configs/loop.json";
  fs::create_symlink(loop, loop);
  const fs::path looped = dir.write("configs/looped.json", R"({"extends": "loop"})");
  CHECK_THROWS_WITH(ConfigDocument::load(looped, {}),
                    Catch::StartsWith(looped.string() + ": extends: 'loop' is " + loop.string() +
                                      ", not readable as a file: "));
  fs::create_directories(dir.root() / "configs/folder.json");
  const fs::path foldered = dir.write("configs/foldered.json", R"({"extends": "folder"})");
  CHECK_THROWS_WITH(ConfigDocument::load(foldered, {}),
                    foldered.string() + ": extends: 'folder' is " +
                        (dir.root() / "configs/folder.json").string() + ", a folder, not a file");
}

TEST_CASE("config: extends cycle is an error naming the chain") {
  TempDir dir("config_test");
  const fs::path a = dir.write("a.json", R"({"extends": "b", "x": 1})");
  const fs::path b = dir.write("b.json", R"({"extends": "c"})");
  const fs::path c = dir.write("c.json", R"({"extends": "b"})");
  CHECK_THROWS_WITH(
      ConfigDocument::load(a, {}),
      Catch::Contains("extends cycle: " + b.string() + " -> " + c.string() + " -> " + b.string()));

  const fs::path self = dir.write("self.json", R"({"extends": "self.json"})");
  CHECK_THROWS_WITH(ConfigDocument::load(self, {}),
                    Catch::Contains("extends cycle: " + self.string() + " -> " + self.string()));
}

TEST_CASE("config: malformed JSON reports file, line and column") {
  TempDir dir("config_test");
  const fs::path file = dir.write("broken.json", "{\n  \"a\": 1,\n  \"b\": [1, 2,]\n}\n");
  CHECK_THROWS_WITH(ohmvp::load_json_file(file),
                    Catch::StartsWith(file.string() + ":3:14: malformed JSON: ") &&
                        Catch::Contains("unexpected ']'"));

  const fs::path truncated = dir.write("truncated.json", "{\"a\": [1,\n");
  CHECK_THROWS_WITH(ohmvp::load_json_file(truncated),
                    Catch::StartsWith(truncated.string() + ":2:1: malformed JSON: "));

  // Through an extends chain the message names the broken file, not the including one.
  const fs::path top = dir.write("top.json", R"({"extends": "broken"})");
  CHECK_THROWS_WITH(ConfigDocument::load(top, {}), Catch::StartsWith(file.string() + ":3:14: "));

  const fs::path array = dir.write("array.json", "[1, 2]");
  CHECK_THROWS_WITH(ConfigDocument::load(array, {}),
                    Catch::Contains("expected a JSON object at the top level"));
}

TEST_CASE("config: missing or unreadable file") {
  TempDir dir("config_test");
  const fs::path missing = dir.root() / "absent.json";
  CHECK_THROWS_AS(ohmvp::load_json_file(missing), ConfigError);
  CHECK_THROWS_WITH(ohmvp::load_json_file(missing),
                    "cannot read " + missing.string() + ": No such file or directory");
  CHECK_THROWS_WITH(ConfigDocument::load(missing, {}), Catch::Contains("cannot read"));
  CHECK_THROWS_WITH(ohmvp::load_json_file(dir.root()), Catch::Contains("Is a directory"));
}

TEST_CASE("config: --set refuses a value that is not UTF-8") {
  ConfigDocument doc(nlohmann::json::parse(R"({"platform": {"description": "x"}})"), "p.json");
  CHECK_THROWS_WITH(doc.apply_override("platform.description=\xff\xfe"),
                    "--set platform.description: the value is not valid UTF-8 text");
}

TEST_CASE("config: --set overrides") {
  ConfigDocument doc(json::parse(R"({
    "memory": {"dram": {"timing": {"tRCD_ns": 13.75, "banks": 8}, "name": "ddr4"}},
    "trace": {"enabled": false, "file": null},
    "list": [1, 2],
    "tags": {"a": 1},
    "other": 1
  })"));

  SECTION("accepted values") {
    doc.apply_override("memory.dram.timing.tRCD_ns=12.5");
    doc.apply_override("memory.dram.timing.banks=16");
    doc.apply_override("memory.dram.name=lpddr5");
    doc.apply_override("trace.enabled=true");
    doc.apply_override("trace.file=\"out.trace\"");
    doc.apply_override("list=[3, 4, 5]");
    doc.apply_override("list.1=40");
    doc.apply_override("tags={\"b\": 2}");
    const json& root = doc.json();
    CHECK(root["memory"]["dram"]["timing"]["tRCD_ns"] == 12.5);
    CHECK(root["memory"]["dram"]["timing"]["banks"] == 16);
    CHECK(root["memory"]["dram"]["name"] == "lpddr5");
    CHECK(root["trace"]["enabled"] == true);
    CHECK(root["trace"]["file"] == "out.trace");
    CHECK(root["list"] == json::parse("[3, 40, 5]"));
    CHECK(root["tags"] == json::parse(R"({"b": 2})"));
    CHECK(doc.origin_of("memory.dram.timing.tRCD_ns") == "--set");
    CHECK(doc.origin_of("tags.b") == "--set");
    CHECK(doc.origin_of("memory.dram.timing") == "--set");
    CHECK(doc.origin_of("other") == "<inline>");
    CHECK(doc.origin_of("") == "<inline>");

    // A number leaf takes an integer; a string leaf takes any text as is.
    doc.apply_override("memory.dram.timing.tRCD_ns=12");
    CHECK(doc.json()["memory"]["dram"]["timing"]["tRCD_ns"] == 12);
    doc.apply_override("memory.dram.name=1234");
    CHECK(doc.json()["memory"]["dram"]["name"] == "1234");
    doc.apply_override("memory.dram.name=a=b");
    CHECK(doc.json()["memory"]["dram"]["name"] == "a=b");
    // Or a JSON string, the way to give it text that opens an array or object.
    doc.apply_override("memory.dram.name=\"[x] y\"");
    CHECK(doc.json()["memory"]["dram"]["name"] == "[x] y");
  }

  SECTION("unknown key with did-you-mean") {
    CHECK_THROWS_WITH(doc.apply_override("memory.dram.timng.tRCD_ns=1"),
                      "--set memory.dram.timng.tRCD_ns: unknown key 'timng' at memory.dram; did "
                      "you mean 'timing'?");
    CHECK_THROWS_WITH(doc.apply_override("memroy.dram=1"),
                      Catch::Contains("unknown key 'memroy' at top level; did you mean 'memory'?"));
    CHECK_THROWS_WITH(doc.apply_override("list.7=1"),
                      Catch::Contains("no element '7' in the array at list"));
    CHECK_THROWS_WITH(doc.apply_override("trace.enabled.x=1"),
                      Catch::Contains("trace.enabled is not an object"));
    // Nothing near: perhaps an object left at its default, which is set whole.
    CHECK_THROWS_WITH(doc.apply_override("memory.address_mapping.xor.0=[1,2]"),
                      "--set memory.address_mapping.xor.0: no 'address_mapping' at memory in the "
                      "resolved config (there: dram); an object the platform leaves at its "
                      "default is set whole: --set memory.address_mapping=<JSON object>");
  }

  SECTION("an element set in an array makes the array --set's: its checks name --set") {
    CHECK(doc.origin_of("list") == "<inline>");
    doc.apply_override("list.1=40");
    CHECK(doc.origin_of("list") == "--set");
    CHECK(doc.origin_of("list.1") == "--set");
    CHECK(doc.origin_of("other") == "<inline>");
  }

  SECTION("a leaf the document does not set is added, for its block's reader to check") {
    doc.apply_override("memory.dram.timing.tRP_ns=15");
    doc.apply_override("memory.policy=with_writes");
    CHECK(doc.json()["memory"]["dram"]["timing"]["tRP_ns"] == 15);
    CHECK(doc.json()["memory"]["policy"] == "with_writes");
    CHECK(doc.origin_of("memory.dram.timing.tRP_ns") == "--set");
    CHECK(doc.json()["memory"]["dram"]["timing"]["tRCD_ns"] == 13.75);
  }

  SECTION("wrong kind") {
    CHECK_THROWS_WITH(doc.apply_override("memory.dram.timing.tRCD_ns=fast"),
                      "--set memory.dram.timing.tRCD_ns=fast: expected number, got string");
    CHECK_THROWS_WITH(doc.apply_override("trace.enabled=1"),
                      "--set trace.enabled=1: expected boolean, got integer");
    CHECK_THROWS_WITH(doc.apply_override("list={}"), Catch::Contains("expected array, got object"));
    CHECK_THROWS_WITH(doc.apply_override("tags=[1]"),
                      Catch::Contains("expected object, got array"));
    // Text that opens an array or object is JSON on a string leaf too.
    CHECK_THROWS_WITH(doc.apply_override("memory.dram.name=[1"),
                      Catch::Contains("--set memory.dram.name=[1:1:3: malformed JSON") &&
                          Catch::Contains("memory.dram.name is a string: one that begins with '[' "
                                          "is given as a JSON string, --set "
                                          "'memory.dram.name=\"[1\"'"));
    CHECK_THROWS_WITH(doc.apply_override("memory.dram.name={\"a\": 1}"),
                      Catch::Contains("expected string, got object"));
    CHECK_THROWS_WITH(doc.apply_override("memory.dram.timing.banks=1.5"),
                      "--set memory.dram.timing.banks=1.5: expected integer, got number");
    CHECK(doc.json()["memory"]["dram"]["timing"]["banks"] == 8);
    // A long value is quoted cut short.
    const std::string long_value(100000, 'x');
    try {
      doc.apply_override("memory.dram.timing.banks=" + long_value);
      FAIL("accepted");
    } catch (const ConfigError& error) {
      CHECK(std::string(error.what()).size() < 300);
    }
  }

  SECTION("extends: resolved before --set applies") {
    CHECK_THROWS_WITH(doc.apply_override("extends=ddr4"),
                      Catch::StartsWith("--set extends: 'extends' is resolved as the platform "
                                        "file loads, before --set applies"));
    CHECK_THROWS_WITH(doc.apply_override("extends.0=ddr4"),
                      Catch::StartsWith("--set extends.0: 'extends' is resolved"));
  }

  SECTION("missing '='") {
    CHECK_THROWS_WITH(doc.apply_override("memory.dram.timing.banks"),
                      "--set 'memory.dram.timing.banks': expected json.path=value");
    CHECK_THROWS_WITH(doc.apply_override("=3"), "--set '=3': expected json.path=value");
    CHECK_THROWS_WITH(doc.apply_override("memory..banks=3"), Catch::Contains("json.path=value"));
  }
}

TEST_CASE("config: ConfigReader keeps defaults for absent keys") {
  const json node = json::parse(R"({"timing": {}})");
  ConfigReader reader(node, "");
  uint32_t banks = 8;
  double tRCD = 13.75;
  std::string name = "ddr4";
  bool enabled = true;
  Policy policy = Policy::frfcfs;
  std::vector<uint64_t> list{1, 2};
  reader.get("banks", banks);
  reader.get("banks_ranged", banks, 1, 64);
  reader.get("tRCD_ns", tRCD);
  reader.get("name", name);
  reader.get("enabled", enabled);
  reader.get_enum("policy", policy, {{"fcfs", Policy::fcfs}, {"frfcfs", Policy::frfcfs}});
  reader.get_u64_list("list", list);
  const ConfigReader absent = reader.child("absent");
  absent.get("banks", banks);
  absent.finish();
  CHECK(absent.path() == "absent");
  reader.child("timing").finish();
  reader.finish();
  CHECK(banks == 8);
  CHECK(tRCD == 13.75);
  CHECK(name == "ddr4");
  CHECK(enabled);
  CHECK(policy == Policy::frfcfs);
  CHECK(list == std::vector<uint64_t>{1, 2});
  CHECK_FALSE(reader.has("banks"));
  CHECK(reader.raw("banks") == nullptr);
}

TEST_CASE("config: ConfigReader reads present values") {
  const json node = json::parse(R"({
    "banks": 16, "tRCD_ns": 12, "name": "lpddr5", "enabled": false, "offset": -5,
    "big": 18446744073709551615, "policy": "fcfs", "list": [0, 7, 4096], "custom": [1, "x"]
  })");
  ConfigReader reader(node, "memory");
  uint32_t banks = 0;
  double tRCD = 0;
  std::string name;
  bool enabled = true;
  int32_t offset = 0;
  uint64_t big = 0;
  Policy policy = Policy::frfcfs;
  std::vector<uint64_t> list;
  reader.get("banks", banks, 1, 64);
  reader.get("tRCD_ns", tRCD);
  reader.get("name", name);
  reader.get("enabled", enabled);
  reader.get("offset", offset);
  reader.get("big", big);
  reader.get_enum("policy", policy, {{"fcfs", Policy::fcfs}, {"frfcfs", Policy::frfcfs}});
  reader.get_u64_list("list", list);
  REQUIRE(reader.raw("custom") != nullptr);
  CHECK(reader.raw("custom")->size() == 2);
  reader.finish();
  CHECK(banks == 16);
  CHECK(tRCD == 12.0);
  CHECK(name == "lpddr5");
  CHECK_FALSE(enabled);
  CHECK(offset == -5);
  CHECK(big == UINT64_MAX);
  CHECK(policy == Policy::fcfs);
  CHECK(list == std::vector<uint64_t>{0, 7, 4096});
}

TEST_CASE("config: ConfigReader type errors") {
  const json node = json::parse(R"({
    "text": "eight", "negative": -3, "fraction": 1.5, "one": 1, "huge": 300, "flag": true,
    "list": [1, -2], "not_list": 5, "signed_big": 3000000000
  })");
  ConfigReader reader(node, "memory.dram");
  uint32_t u32 = 0;
  uint8_t u8 = 0;
  int32_t i32 = 0;
  double number = 0;
  bool flag = false;
  std::string text;
  std::vector<uint64_t> list;
  CHECK_THROWS_WITH(reader.get("text", u32),
                    "memory.dram.text: expected unsigned integer, got \"eight\"");
  CHECK_THROWS_WITH(reader.get("negative", u32),
                    "memory.dram.negative: expected unsigned integer, got -3");
  CHECK_THROWS_WITH(reader.get("fraction", u32),
                    "memory.dram.fraction: expected unsigned integer, got 1.5");
  CHECK_THROWS_WITH(reader.get("huge", u8),
                    "memory.dram.huge: value 300 out of range; expected 0 to 255");
  CHECK_THROWS_WITH(reader.get("signed_big", i32),
                    Catch::Contains("value 3000000000 out of range; expected -2147483648 to"));
  CHECK_THROWS_WITH(reader.get("fraction", i32), Catch::Contains("expected integer, got 1.5"));
  CHECK_THROWS_WITH(reader.get("text", number), "memory.dram.text: expected number, got \"eight\"");
  CHECK_THROWS_WITH(reader.get("one", flag), "memory.dram.one: expected boolean, got 1");
  CHECK_THROWS_WITH(reader.get("flag", text), "memory.dram.flag: expected string, got true");
  CHECK_THROWS_WITH(reader.child("one"), "memory.dram.one: expected object, got 1");
  CHECK_THROWS_WITH(reader.get_u64_list("list", list),
                    "memory.dram.list: expected array of unsigned integers; element 1 is -2");
  CHECK_THROWS_WITH(reader.get_u64_list("not_list", list),
                    "memory.dram.not_list: expected array of unsigned integers, got 5");
  CHECK_THROWS_WITH(ConfigReader(node["one"], "memory.dram.one"),
                    "memory.dram.one: expected object, got 1");
  CHECK_THROWS_WITH(reader.fail("text", "custom problem"), "memory.dram.text: custom problem");
}

TEST_CASE("config: ConfigReader range and enum errors") {
  const json node = json::parse(
      R"({"channels": 70, "ratio": 3.5, "policy": "frfcsf", "mode": 2, "huge": 18446744073709551615,
          "low": -9223372036854775807})");
  ConfigReader reader(node, "memory");
  uint32_t channels = 1;
  double ratio = 1;
  Policy policy = Policy::fcfs;
  const std::vector<std::pair<std::string, Policy>> names{{"fcfs", Policy::fcfs},
                                                          {"frfcfs", Policy::frfcfs}};
  CHECK_THROWS_WITH(reader.get("channels", channels, 1, 64),
                    "memory.channels: value 70 out of range; expected 1 to 64");
  CHECK(channels == 1);
  // Beyond the type too: still this key's range.
  CHECK_THROWS_WITH(reader.get("huge", channels, 1, 64),
                    "memory.huge: value 18446744073709551615 out of range; expected 1 to 64");
  int16_t offset = 0;
  CHECK_THROWS_WITH(reader.get("low", offset, int16_t{-8}, int16_t{8}),
                    "memory.low: value -9223372036854775807 out of range; expected -8 to 8");
  CHECK_THROWS_WITH(reader.get("ratio", ratio, 0.5, 2.0),
                    "memory.ratio: value 3.5 out of range; expected 0.5 to 2.0");
  CHECK_THROWS_WITH(reader.get_enum("policy", policy, names),
                    "memory.policy: unknown value 'frfcsf'; expected one of 'fcfs', 'frfcfs'; did "
                    "you mean 'frfcfs'?");
  CHECK_THROWS_WITH(reader.get_enum("mode", policy, names), "memory.mode: expected string, got 2");
  CHECK(policy == Policy::fcfs);
}

TEST_CASE("config: ConfigReader rejects unknown keys and allows notes") {
  const json node = json::parse(R"({
    "memory": {"dram": {"timing": {"tRCD_ns": 13.75, "tRDC_ns": 14, "_source": "JESD79-4"}}},
    "_comment": "top-level note"
  })");
  ConfigReader root(node, "");
  const ConfigReader timing = root.child("memory").child("dram").child("timing");
  CHECK(timing.path() == "memory.dram.timing");
  double tRCD = 0;
  double tRP = 0;
  timing.get("tRCD_ns", tRCD);
  timing.get("tRP_ns", tRP);
  CHECK_THROWS_WITH(timing.finish(),
                    "unknown key 'tRDC_ns' at memory.dram.timing; did you mean 'tRCD_ns'?");
  root.finish();

  ConfigReader top(node, "");
  CHECK_THROWS_WITH(top.finish(), "unknown key 'memory' at top level");

  // A key or a value of a megabyte is quoted by its beginning only.
  const nlohmann::json long_key = {{std::string(1 << 20, 'k'), 1}};
  const std::string quoted_key = "unknown key '" + std::string(60, 'k') + "...' at top level";
  CHECK_THROWS_WITH(ConfigReader(long_key, "").finish(), quoted_key);
  const nlohmann::json long_value = {{"policy", std::string(1 << 20, 'v')}};
  enum class Policy { open };
  Policy policy = Policy::open;
  CHECK_THROWS_WITH(
      ConfigReader(long_value, "").get_enum("policy", policy, {{"open", Policy::open}}),
      "policy: unknown value '" + std::string(60, 'v') + "...'; expected one of 'open'");
}

TEST_CASE("config: ConfigReader messages name the origin file") {
  TempDir dir("config_test");
  const fs::path base = dir.write("base.json", R"({
    "memory": {"dram": {"timing": {"tRCD_ns": "slow", "tRP_ns": 13.75}, "banks": 8}}
  })");
  const fs::path top = dir.write("top.json", R"({
    "extends": "base", "memory": {"dram": {"timing": {"tRDC_ns": 14}, "banks": -1}}
  })");
  ConfigDocument doc = ConfigDocument::load(top, {});
  const ConfigReader dram = ConfigReader(doc.json(), "", &doc).child("memory").child("dram");
  const ConfigReader timing = dram.child("timing");
  double value = 0;
  uint32_t banks = 0;
  CHECK_THROWS_WITH(timing.get("tRCD_ns", value),
                    base.string() + ": memory.dram.timing.tRCD_ns: expected number, got \"slow\"");
  CHECK_THROWS_WITH(dram.get("banks", banks),
                    top.string() + ": memory.dram.banks: expected unsigned integer, got -1");
  timing.get("tRP_ns", value);
  CHECK_THROWS_WITH(timing.finish(), Catch::StartsWith(top.string() + ": unknown key 'tRDC_ns'"));
  // A key named "" at the top level of an extended file is that file's, not the document's.
  const fs::path blank = dir.write("blank.json", R"({"": 1})");
  const fs::path extending = dir.write("extending.json", R"({"extends": "blank"})");
  const ConfigDocument with_blank = ConfigDocument::load(extending, {});
  CHECK_THROWS_WITH(ConfigReader(with_blank.json(), "", &with_blank).finish(),
                    blank.string() + ": unknown key '' at top level");

  doc.apply_override("memory.dram.timing.tRP_ns=-2");
  double tRP = 0;
  CHECK_THROWS_WITH(
      timing.get("tRP_ns", tRP, 0.0, 100.0),
      "--set: memory.dram.timing.tRP_ns: value -2 out of range; expected 0.0 to 100.0");

  // Text with control characters (C0 or C1) is refused; bytes that are not UTF-8 are quoted.
  std::string name;
  for (const std::string& text : {std::string("a\x1b[31m"), std::string("a\xc2\x9b"
                                                                        "31m")}) {
    const ConfigDocument with_control(json{{"name", text}});
    CHECK_THROWS_WITH(ConfigReader(with_control.json(), "", &with_control).get("name", name),
                      Catch::Contains("name: expected text without control characters"));
  }
  // The message says where the character is and shows the text around it, cut in long text.
  const ConfigDocument escape(
      json{{"name", std::string(100, 'x') + "\x1b" + std::string(100, 'y')}});
  CHECK_THROWS_WITH(ConfigReader(escape.json(), "", &escape).get("name", name),
                    Catch::EndsWith("byte 100 is U+001B in \"..." + std::string(40, 'x') +
                                    "\\u001b" + std::string(39, 'y') + "...\""));
  const ConfigDocument c1(json{{"name", std::string("\xc3\xa9\xc2\x85")}});
  CHECK_THROWS_WITH(ConfigReader(c1.json(), "", &c1).get("name", name),
                    Catch::EndsWith("byte 2 is U+0085 in \"\xc3\xa9\\u0085\""));
  const ConfigDocument not_utf8(json{{"name", std::string("a\x1b\xff")}});
  CHECK_THROWS_AS(ConfigReader(not_utf8.json(), "", &not_utf8).get("name", name), ConfigError);
  const ConfigDocument plain(json{{"name", std::string("caf\xc3\xa9 \xc2\xa0x")}});
  ConfigReader(plain.json(), "", &plain).get("name", name);
  CHECK(name == "caf\xc3\xa9 \xc2\xa0x");

  const ConfigDocument inline_doc(json::parse(R"({"banks": "x"})"));
  CHECK_THROWS_WITH(ConfigReader(inline_doc.json(), "", &inline_doc).get("banks", banks),
                    "<inline>: banks: expected unsigned integer, got \"x\"");
}
