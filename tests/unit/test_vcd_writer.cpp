#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "modules/common/errors.h"
#include "modules/common/trace_signal.h"
#include "modules/common/vcd_writer.h"

using ohmvp::TraceSignal;
using ohmvp::VcdWriter;

namespace {

class TempPath {
 public:
  explicit TempPath(const std::string& tag)
      : m_path(std::filesystem::temp_directory_path() /
               ("ohmvp_vcd_" + std::to_string(::getpid()) + "_" + tag)) {}
  ~TempPath() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool have_vcd2fst() {
  return std::system("command -v vcd2fst >/dev/null 2>&1") == 0;
}

void check_vcd2fst_accepts(const std::filesystem::path& vcd) {
  if (!have_vcd2fst()) {
    WARN("vcd2fst is not on PATH: VCD not checked by GTKWave's converter");
    return;
  }
  TempPath fst(vcd.filename().string() + ".fst");
  const std::string command =
      "vcd2fst '" + vcd.string() + "' '" + fst.path().string() + "' >/dev/null 2>&1";
  CHECK(std::system(command.c_str()) == 0);
  CHECK(std::filesystem::file_size(fst.path()) > 0);
}

}  // namespace

TEST_CASE("vcd: writes nested scopes and sorted changes exactly") {
  TempPath file("exact.vcd");
  {
    VcdWriter writer(file.path());
    const auto valid = writer.add_signal("platform.mc0", "valid", 1);
    const auto state = writer.add_signal("platform.mc0.bank3", "state", 8);
    const auto ready = writer.add_signal("platform.host", "ready", 1);
    writer.change(valid, 1, 100);
    writer.change(state, 5, 300);  // recorded ahead of time
    writer.change(valid, 0, 200);
    writer.change(ready, 1, 100);
    writer.change(state, 0, 150);  // equal to the current value: not written
    writer.set_horizon(250);
    writer.change(state, 7, 300);  // the last value at a time wins
    writer.change(valid, 1, 300);
    writer.close(400);
  }
  const std::string expected =
      "$version OhmVP $end\n"
      "$timescale 1ps $end\n"
      "$scope module platform $end\n"
      "$scope module mc0 $end\n"
      "$var wire 1 ! valid $end\n"
      "$scope module bank3 $end\n"
      "$var wire 8 \" state $end\n"
      "$upscope $end\n"
      "$upscope $end\n"
      "$scope module host $end\n"
      "$var wire 1 # ready $end\n"
      "$upscope $end\n"
      "$upscope $end\n"
      "$enddefinitions $end\n"
      "#0\n"
      "$dumpvars\n"
      "0!\n"
      "b0 \"\n"
      "0#\n"
      "$end\n"
      "#100\n"
      "1!\n"
      "1#\n"
      "#200\n"
      "0!\n"
      "#300\n"
      "b111 \"\n"
      "1!\n"
      "#400\n";
  CHECK(read_file(file.path()) == expected);
  check_vcd2fst_accepts(file.path());
}

TEST_CASE("vcd: header only when nothing changes") {
  TempPath file("empty.vcd");
  VcdWriter writer(file.path());
  writer.add_signal("top", "idle", 1);
  writer.close(0);
  CHECK(read_file(file.path()) ==
        "$version OhmVP $end\n$timescale 1ps $end\n$scope module top $end\n"
        "$var wire 1 ! idle $end\n$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n0!\n"
        "$end\n");
}

TEST_CASE("vcd: 64-bit values, changes at time 0 and many identifier codes") {
  TempPath file("wide.vcd");
  {
    VcdWriter writer(file.path());
    std::vector<VcdWriter::SignalId> ids;
    for (int i = 0; i < 100; ++i)
      ids.push_back(writer.add_signal("top", "s" + std::to_string(i), 64));
    writer.change(ids[0], ~uint64_t{0}, 0);
    writer.change(ids[93], 2, 10);
    writer.change(ids[94], 1, 10);
    writer.close(20);
  }
  const std::string text = read_file(file.path());
  CHECK(text.find("$var wire 64 ~ s93 $end\n") != std::string::npos);
  CHECK(text.find("$var wire 64 !\" s94 $end\n") != std::string::npos);
  CHECK(text.find("$end\nb" + std::string(64, '1') + " !\n#10\nb10 ~\nb1 !\"\n#20\n") !=
        std::string::npos);
  check_vcd2fst_accepts(file.path());
}

TEST_CASE("vcd: flushes before close once the horizon allows") {
  TempPath file("long.vcd");
  constexpr uint64_t steps = 100000;
  std::vector<std::tuple<uint64_t, std::string, uint64_t>> expected;
  {
    VcdWriter writer(file.path());
    const auto toggle = writer.add_signal("top.unit", "toggle", 1);
    const auto count = writer.add_signal("top.unit", "count", 8);
    for (uint64_t i = 0; i < steps; ++i) {
      writer.set_horizon(i * 10);
      writer.change(count, i & 0xff, i * 10);
      writer.change(toggle, i % 2, i * 10 + 25);  // two steps ahead
    }
    // Most of the changes went out in the automatic flushes, while recording.
    CHECK(std::filesystem::file_size(file.path()) > 100000);
    writer.close(steps * 10 + 100);
  }
  for (uint64_t i = 1; i < steps; ++i) {
    expected.emplace_back(i * 10, "\"", i & 0xff);
    expected.emplace_back(i * 10 + 25, "!", i % 2);
  }
  std::sort(expected.begin(), expected.end(),
            [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });

  std::istringstream text(read_file(file.path()));
  std::string line;
  while (std::getline(text, line) && line != "$end") {
  }
  std::vector<std::tuple<uint64_t, std::string, uint64_t>> written;
  uint64_t time = 0;
  uint64_t last_marker = 0;
  bool ordered = true;
  while (std::getline(text, line)) {
    if (line[0] == '#') {
      time = std::stoull(line.substr(1));
      ordered = ordered && time > last_marker;
      last_marker = time;
    } else if (line[0] == 'b') {
      const auto space = line.find(' ');
      written.emplace_back(time, line.substr(space + 1),
                           std::stoull(line.substr(1, space), nullptr, 2));
    } else {
      written.emplace_back(time, line.substr(1), static_cast<uint64_t>(line[0] - '0'));
    }
  }
  CHECK(ordered);
  CHECK(last_marker == steps * 10 + 100);
  CHECK(written == expected);
  check_vcd2fst_accepts(file.path());
}

TEST_CASE("vcd: closing drops changes after the end time") {
  TempPath file("late.vcd");
  {
    VcdWriter writer(file.path());
    const auto busy = writer.add_signal("top", "busy", 1);
    writer.change(busy, 1, 10);
    writer.change(busy, 0, 500);  // a burst that ends after the simulation
    writer.close(100);
  }
  const std::string text = read_file(file.path());
  CHECK(text.substr(text.find("$end\n#10")) == "$end\n#10\n1!\n#100\n");
}

TEST_CASE("vcd: the destructor closes at the latest recorded time") {
  TempPath file("unclosed.vcd");
  {
    VcdWriter writer(file.path());
    const auto busy = writer.add_signal("top", "busy", 1);
    writer.change(busy, 1, 10);
    writer.change(busy, 0, 70);
  }
  const std::string text = read_file(file.path());
  CHECK(text.substr(text.find("#10")) == "#10\n1!\n#70\n0!\n");
}

TEST_CASE("vcd: a size limit ends the file before the step that would pass it") {
  TempPath file("limited.vcd");
  const std::string header =
      "$version OhmVP $end\n$timescale 1ps $end\n$scope module top $end\n"
      "$var wire 8 ! count $end\n$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\nb0 !\n"
      "$end\n";
  {
    VcdWriter writer(file.path());
    const auto count = writer.add_signal("top", "count", 8);
    // Room for the header and two steps of "#N0\nbN !\n" (9 and 10 bytes).
    writer.set_size_limit(header.size() + 9 + 10);
    for (uint64_t i = 1; i <= 5; ++i) writer.change(count, i, i * 10);
    writer.close(100);
    CHECK(writer.full());
  }
  // Exact up to the step at 30 ps that did not fit: it ends at 29 ps.
  CHECK(read_file(file.path()) == header + "#10\nb1 !\n#20\nb10 !\n#29\n");
  check_vcd2fst_accepts(file.path());
}

TEST_CASE("vcd: a file found full while recording drops the changes that follow") {
  TempPath file("full.vcd");
  VcdWriter writer(file.path());
  const auto count = writer.add_signal("top", "count", 16);
  writer.set_size_limit(4096);
  uint64_t i = 0;
  for (; !writer.full(); ++i) {  // the buffer is flushed every 65,536 changes or so
    writer.set_horizon(i * 10);
    writer.change(count, i & 0xffff, i * 10);
  }
  CHECK(std::filesystem::file_size(file.path()) <= 4096);
  writer.change(count, 1, i * 10);  // dropped, whatever the time
  writer.close(i * 10);
  CHECK(std::filesystem::file_size(file.path()) <= 4096 + 24);
  check_vcd2fst_accepts(file.path());
}

TEST_CASE("vcd: with a size limit, a horizon writes what lies before it and finds the file full") {
  TempPath file("horizon_full.vcd");
  VcdWriter writer(file.path());
  const auto count = writer.add_signal("top", "count", 8);
  writer.set_size_limit(200);
  for (uint64_t i = 1; i <= 20; ++i) writer.change(count, i, i * 10);  // about 200 bytes of steps
  CHECK_FALSE(writer.full());  // buffered: nothing written yet
  writer.set_horizon(100);
  CHECK(writer.full());  // the steps before 100 ps did not all fit
  writer.close(200);
  CHECK(std::filesystem::file_size(file.path()) <= 200 + 24);
  check_vcd2fst_accepts(file.path());
}

TEST_CASE("vcd: without a size limit, or under it, nothing is dropped") {
  TempPath file("unlimited.vcd");
  VcdWriter writer(file.path());
  const auto busy = writer.add_signal("top", "busy", 1);
  writer.set_size_limit(1000);
  writer.change(busy, 1, 10);
  writer.close(20);
  CHECK_FALSE(writer.full());
  CHECK(read_file(file.path()).substr(read_file(file.path()).find("$end\n#10")) ==
        "$end\n#10\n1!\n#20\n");
  CHECK_THROWS_AS(writer.set_size_limit(10), std::logic_error);
}

TEST_CASE("vcd: an unwritable file is a configuration error") {
  TempPath dir("missing_dir");
  CHECK_THROWS_AS(VcdWriter(dir.path() / "trace.vcd"), ohmvp::ConfigError);
  CHECK_THROWS_WITH(
      VcdWriter(dir.path() / "trace.vcd"),
      Catch::Contains("cannot write VCD file") && Catch::Contains("No such file or directory"));
}

TEST_CASE("vcd: misuse is a logic error") {
  TempPath file("misuse.vcd");
  VcdWriter writer(file.path());
  CHECK_THROWS_AS(writer.add_signal("top", "w", 0), std::logic_error);
  CHECK_THROWS_AS(writer.add_signal("top", "w", 65), std::logic_error);
  CHECK_THROWS_AS(writer.add_signal("top", "bad name", 1), std::logic_error);
  CHECK_THROWS_AS(writer.add_signal("top", "a.b", 1), std::logic_error);
  CHECK_THROWS_AS(writer.add_signal("top..x", "w", 1), std::logic_error);
  CHECK_THROWS_AS(writer.add_signal("", "w", 1), std::logic_error);
  const auto narrow = writer.add_signal("top", "narrow", 4);
  CHECK_THROWS_AS(writer.add_signal("top", "narrow", 4), std::logic_error);

  writer.set_horizon(100);
  CHECK_THROWS_AS(writer.set_horizon(99), std::logic_error);
  CHECK_THROWS_AS(writer.change(narrow, 1, 99), std::logic_error);
  CHECK_THROWS_AS(writer.change(narrow, 16, 100), std::logic_error);
  CHECK_THROWS_AS(writer.change(narrow + 1, 1, 100), std::logic_error);
  writer.change(narrow, 15, 100);
  CHECK_THROWS_AS(writer.add_signal("top", "late", 1), std::logic_error);
  writer.close(200);
  CHECK_THROWS_AS(writer.change(narrow, 1, 300), std::logic_error);
  CHECK_NOTHROW(writer.close(300));
}

TEST_CASE("vcd: trace signal records only changes, and nothing when detached") {
  TempPath file("trace_signal.vcd");
  TraceSignal detached;
  detached.attach(nullptr, "top", "off", 1);
  CHECK_FALSE(detached.enabled());
  detached.set(1, 10);  // no writer: nothing happens

  {
    VcdWriter writer(file.path());
    TraceSignal depth;
    depth.attach(&writer, "top.queue", "depth", 4);
    CHECK(depth.enabled());
    depth.set(0, 5);
    depth.set(3, 10);
    depth.set(3, 20);
    depth.set(2, 30);
    writer.close(40);
  }
  const std::string text = read_file(file.path());
  CHECK(text.find("$scope module queue $end\n$var wire 4 ! depth $end\n") != std::string::npos);
  CHECK(text.substr(text.find("#10")) == "#10\nb11 !\n#30\nb10 !\n#40\n");
}
