#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"

namespace {

// The names GTKWave gives the VCD's signals: "scope.path.name", and "[w-1:0]" for a vector.
std::set<std::string> vcd_signal_names(const std::string& vcd) {
  std::set<std::string> names;
  std::vector<std::string> scopes;
  std::istringstream lines(vcd);
  for (std::string line; std::getline(lines, line) && line != "$enddefinitions $end";) {
    std::istringstream words(line);
    std::string keyword, kind;
    words >> keyword;
    if (keyword == "$scope") {
      std::string name;
      words >> kind >> name;
      scopes.push_back(name);
    } else if (keyword == "$upscope") {
      scopes.pop_back();
    } else if (keyword == "$var") {
      unsigned width = 0;
      std::string code, name, path;
      words >> kind >> width >> code >> name;
      for (const std::string& scope : scopes) path += scope + ".";
      path += name;
      if (width > 1) path += "[" + std::to_string(width - 1) + ":0]";
      names.insert(path);
    }
  }
  return names;
}

struct SaveFile {
  std::string dumpfile;
  std::vector<std::string> traces;  // the signals, aliases left out
  int open_groups = 0;              // groups begun and not yet ended at the end: 0
};

SaveFile read_save_file(const std::string& text) {
  SaveFile save;
  std::istringstream lines(text);
  std::string flags;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("[dumpfile] ", 0) == 0) {
      save.dumpfile = line.substr(12, line.size() - 13);
    } else if (line[0] == '@') {
      flags = line;
    } else if (line[0] == '-') {
      if (flags == "@800200" || flags == "@c00200") ++save.open_groups;
      if (flags == "@1000200" || flags == "@1401200") --save.open_groups;
    } else if (line[0] == '+') {
      save.traces.push_back(line.substr(line.find("} ") + 2));
    } else if (line[0] != '[' && line[0] != '*') {
      save.traces.push_back(line);
    }
  }
  return save;
}

}  // namespace

TEST_CASE("cli: --gtkw writes GTKWave's save file showing every signal of the VCD") {
  const std::string dir = scratch_dir("gtkw");
  for (const char* platform : {"gpu_small", "ohm_bw_planar", "multi_gpu_huvm"}) {
    const CliResult r = run_ohmvp(std::string("run -q --platform ") + platform + " --out " + dir +
                                  " --vcd " + dir + "/w/t.vcd --gtkw " + dir + "/v/t.gtkw");
    INFO(platform << "\n" << r.output);
    REQUIRE(r.exit_code == 0);
    const SaveFile save = read_save_file(read_text(dir + "/v/t.gtkw"));
    CHECK(save.dumpfile == std::filesystem::absolute(dir + "/w/t.vcd").lexically_normal());
    CHECK(save.open_groups == 0);
    const std::set<std::string> signals = vcd_signal_names(read_text(dir + "/w/t.vcd"));
    CHECK(std::set<std::string>(save.traces.begin(), save.traces.end()) == signals);
    CHECK(save.traces.size() == signals.size());
  }
}

TEST_CASE("cli: the save file marks the workload's events and each launch's start") {
  const std::string dir = scratch_dir("gtkw_markers");
  write_text(dir + "/timed.json", vecadd_streams_timed().dump());
  const CliResult r = run_ohmvp("run -q --workload " + dir + "/timed.json --out " + dir +
                                " --vcd " + dir + "/t.vcd --gtkw " + dir + "/t.gtkw");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto report = nlohmann::json::parse(read_text(dir + "/report.json"));
  const size_t launches = report["launches"].size();
  REQUIRE(launches == 4);
  std::vector<std::string> names;
  std::vector<std::string> times;
  std::istringstream lines(read_text(dir + "/t.gtkw"));
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("[markername] ", 0) == 0) names.push_back(line.substr(13));
    if (line[0] == '*') {
      std::istringstream words(line);
      std::string word;
      words >> word >> word;  // the zoom, the primary marker
      while (words >> word) times.push_back(word);
    }
  }
  // The four launches, lettered in time order, and the event "end" behind the last copy.
  REQUIRE(names.size() == 5);
  CHECK(names[0] == "A1 vecadd");
  CHECK(names[3] == "D4 vecadd");
  CHECK(names[4] == "Eend");
  REQUIRE(times.size() == 26);
  const double end_ns = report["events"]["end"]["ns"].get<double>();
  CHECK(std::stoull(times[4]) == static_cast<uint64_t>(std::llround(end_ns * 1000)));
  CHECK(std::stoull(times[0]) < std::stoull(times[1]));
  CHECK(times[5] == "-1");
}

TEST_CASE("cli: a run that fails keeps its VCD and writes the save file for it") {
  const std::string dir = scratch_dir("gtkw_failed");
  const CliResult r = run_ohmvp("run -q --workload spmv --time-limit 5us --out " + dir + " --vcd " +
                                dir + "/t.vcd --gtkw " + dir + "/t.gtkw");
  INFO(r.output);
  REQUIRE(r.exit_code == 1);
  CHECK(std::filesystem::exists(dir + "/t.vcd"));
  const SaveFile save = read_save_file(read_text(dir + "/t.gtkw"));
  CHECK(save.traces.size() == vcd_signal_names(read_text(dir + "/t.vcd")).size());
}

TEST_CASE("cli: --gtkw needs --vcd, and may be no other file of the run") {
  const std::string dir = scratch_dir("gtkw_bad");
  const auto refused = [&dir](const std::string& options, const std::string& message) {
    require_usage_error(run_ohmvp("run -q --out " + dir + " " + options), message);
  };
  refused("--gtkw " + dir + "/t.gtkw",
          "ohmvp run: --gtkw writes GTKWave's save file of the VCD; give --vcd FILE too");
  refused("--vcd " + dir + "/t.vcd --gtkw " + dir + "/t.vcd", "are the same file");
  // Spelt once relative, once absolute, in a folder not made yet.
  require_usage_error(run_shell("cd " + dir + " && " + OHMVP_EXECUTABLE + " run -q --out o --vcd " +
                                dir + "/new/t.vcd --gtkw new/t.vcd"),
                      "--gtkw new/t.vcd and --vcd " + dir + "/new/t.vcd are the same file");
  require_usage_error(run_shell("cd " + dir + " && " + OHMVP_EXECUTABLE + " run -q --out " + dir +
                                "/new --vcd new/report.json"),
                      "are the same file");
  refused("--vcd '" + dir + "/a\"b.vcd' --gtkw " + dir + "/t.gtkw",
          "--gtkw: GTKWave's save file cannot name the path");
  std::filesystem::create_directory(dir + "/folder");
  refused("--vcd " + dir + "/folder", "--vcd " + dir + "/folder: a folder; expected a file name");
  refused("--vcd " + dir + "/new/", "--vcd " + dir + "/new/: a folder; expected a file name");
  refused("--vcd " + dir + "/t.vcd --gtkw " + dir + "/folder",
          "--gtkw " + dir + "/folder: a folder; expected a file name");
  refused("--vcd " + dir + "/t.vcd --gtkw /dev/null", "--gtkw /dev/null: not a regular file");
  refused("--vcd /dev/null --gtkw " + dir + "/t.gtkw",
          "--gtkw: --vcd /dev/null is a device or a FIFO, which the save file cannot show again");
  std::filesystem::remove(dir + "/folder");
  CHECK(std::filesystem::is_empty(dir));
}
