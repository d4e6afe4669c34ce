#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"

namespace {

// The VCD's value changes of the signals named `name` (in any scope), each as "<time>:<value>"
// (a vector's value in binary) in order, one string per signal.
std::vector<std::string> changes_of(const std::string& vcd, const std::string& name) {
  std::istringstream lines(vcd);
  std::map<std::string, size_t> signal_of_code;
  std::vector<std::string> changes;
  std::string time;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string keyword, kind, width, id, var;
    words >> keyword >> kind >> width >> id >> var;
    if (keyword == "$var" && var == name) {
      signal_of_code[id] = changes.size();
      changes.emplace_back();
    }
    if (line.rfind('#', 0) == 0) time = line.substr(1);
    std::string value, code;
    if (line.rfind('b', 0) == 0) {
      std::istringstream vector_change(line.substr(1));
      vector_change >> value >> code;
    } else if (!line.empty() && (line[0] == '0' || line[0] == '1')) {
      value = line.substr(0, 1);
      code = line.substr(1);
    }
    const auto found = signal_of_code.find(code);
    if (found != signal_of_code.end()) changes[found->second] += time + ":" + value + " ";
  }
  return changes;
}

std::string last_value(const std::string& changes) {
  const size_t colon = changes.rfind(':');
  return changes.substr(colon + 1, changes.size() - colon - 2);
}

}  // namespace

TEST_CASE("cli: a memory run ends when its last posted write's burst is in the DRAM") {
  const std::string dir = scratch_dir("run_end");
  write_text(dir + "/one.trace", "W 0x0\n");
  write_text(dir + "/one.json",
             R"({"type": "trace", "trace": {"file": ")" + dir + R"(/one.trace"}})");
  const CliResult r = run_ohmvp("run -q -p ddr4_2400 -w " + dir + "/one.json -o " + dir +
                                " --vcd " + dir + "/t.vcd");
  REQUIRE(r.exit_code == 0);
  // ACT at 0, WR at tRCD (13.328 ns), its data from tCWL (9.996 ns) later for a burst (3.332 ns):
  // the write completed for the initiator at the WR, the run ends when the burst is across.
  const auto report = nlohmann::json::parse(read_text(dir + "/report.json"));
  CHECK(report["summary"]["simulated_ns"].get<double>() == Approx(26.656).margin(1e-9));
  CHECK(report["stats"]["memory.channel0"]["utilisation"]["value"].get<double>() ==
        Approx(3332.0 / 26656.0));
  const std::string vcd = read_text(dir + "/t.vcd");
  CHECK(changes_of(vcd, "data_bus_busy") == std::vector<std::string>{"0:0 23324:1 26656:0 "});
}

TEST_CASE("cli: an SM's issue and warp signals fall when its last warp leaves") {
  const std::string dir = scratch_dir("sm_signals_end");
  REQUIRE(
      run_ohmvp("run -q -p gpu_small -w vecadd -o " + dir + " --vcd " + dir + "/t.vcd").exit_code ==
      0);
  const std::string vcd = read_text(dir + "/t.vcd");
  for (const char* signal : {"issued_warp", "active_warps"}) {
    const std::vector<std::string> all = changes_of(vcd, signal);
    CHECK(all.size() == 16);  // four SMs of four sub-cores
    for (const std::string& changes : all) {
      INFO(signal << ": " << changes);
      CHECK(changes.size() > 4);  // each sub-core ran warps
      CHECK(std::stoul(last_value(changes), nullptr, 2) == 0);
    }
  }
}
