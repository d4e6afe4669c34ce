#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_runner.h"

namespace {

// The VCD's changes of a one-bit signal named `name`: "<time>:<value>" in order.
std::string changes_of(const std::string& vcd, const std::string& name) {
  std::istringstream lines(vcd);
  std::string code, time, changes;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string keyword, kind, width, id, var;
    words >> keyword >> kind >> width >> id >> var;
    if (keyword == "$var" && var == name) code = id;
    if (line.rfind('#', 0) == 0) time = line.substr(1);
    if (!code.empty() && line.size() == code.size() + 1 && line.substr(1) == code)
      changes += time + ":" + line[0] + " ";
  }
  return changes;
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
  CHECK(changes_of(vcd, "data_bus_busy") == "0:0 23324:1 26656:0 ");
}
