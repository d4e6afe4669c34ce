#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "modules/common/gtkwave_save_file.h"
#include "modules/common/vcd_scope_tree.h"

using ohmvp::GtkwaveView;
using ohmvp::VcdDeclaration;

namespace {

// The traces part of a save file: what follows the header's last "[...]" line.
std::string traces_of(const std::string& text) {
  const std::size_t last_header = text.rfind("\n[");
  return text.substr(text.find('\n', last_header + 1) + 1);
}

const GtkwaveView k_view{
    "/runs/a/t.vcd", "/runs/a/t.gtkw", "OhmVP: platform p, workload w", 18'593'978, {}, {}};

}  // namespace

TEST_CASE("gtkwave save file: names the VCD, titles the run and zooms to show it all") {
  const std::string text = ohmvp::gtkwave_save_text({{"memory.mc0", "write_drain", 1}}, k_view);
  CHECK(text.rfind("[*]\n[*] OhmVP: platform p, workload w\n[*]\n", 0) == 0);
  CHECK(text.find("\n[dumpfile] \"/runs/a/t.vcd\"\n") != std::string::npos);
  CHECK(text.find("\n[savefile] \"/runs/a/t.gtkw\"\n") != std::string::npos);
  // 2^22.34 / 200 ps a pixel: 18.6 us over the waves pane's 700 pixels.
  CHECK(text.find("\n*-22.340977 -1 -1 -1") != std::string::npos);
  CHECK(text.find("\n[treeopen] memory.\n") != std::string::npos);
}

TEST_CASE("gtkwave save file: groups by scope, the first instance of a kind open") {
  const std::vector<VcdDeclaration> signals{
      {"memory.mc0", "read_queue_depth", 16}, {"memory.mc0", "write_drain", 1},
      {"memory.channel0", "vc_busy", 1},      {"memory.channel0", "xpoint_mrr", 2},
      {"memory.mc1", "read_queue_depth", 16}, {"memory.mc1", "write_drain", 1}};
  CHECK(traces_of(ohmvp::gtkwave_save_text(signals, k_view)) ==
        "@800200\n-memory\n"
        "@800200\n-memory.mc0\n"
        "@24\nmemory.mc0.read_queue_depth[15:0]\n@28\nmemory.mc0.write_drain\n"
        "@1000200\n-memory.mc0\n"
        "@800200\n-memory.channel0\n"
        "@28\nmemory.channel0.vc_busy\n@24\nmemory.channel0.xpoint_mrr[1:0]\n"
        "@1000200\n-memory.channel0\n"
        "@c00200\n-memory.mc1\n"
        "@24\nmemory.mc1.read_queue_depth[15:0]\n@28\nmemory.mc1.write_drain\n"
        "@1401200\n-memory.mc1\n"
        "@1000200\n-memory\n");
}

TEST_CASE("gtkwave save file: a closed group within a closed one stays closed") {
  const std::vector<VcdDeclaration> signals{
      {"gpu.sm0.sub0", "issued_warp", 8}, {"gpu.sm0.sub0", "active_warps", 8},
      {"gpu.sm0.sub1", "issued_warp", 8}, {"gpu.sm0.sub1", "active_warps", 8},
      {"gpu.sm1.sub0", "issued_warp", 8}, {"gpu.sm1.sub0", "active_warps", 8}};
  const std::string traces = traces_of(ohmvp::gtkwave_save_text(signals, k_view));
  CHECK(traces.find("@800200\n-gpu.sm0\n@800200\n-gpu.sm0.sub0\n") != std::string::npos);
  CHECK(traces.find("@c00200\n-gpu.sm0.sub1\n") != std::string::npos);
  // sm1 is closed, and so its first sub-core too.
  CHECK(traces.find("@c00200\n-gpu.sm1\n@c00200\n-gpu.sm1.sub0\n") != std::string::npos);
}

TEST_CASE("gtkwave save file: signals numbered alike share a closed group, others stay apart") {
  std::vector<VcdDeclaration> signals;
  for (int bank = 0; bank < 4; ++bank)
    signals.push_back({"memory.mc0", "bank" + std::to_string(bank) + "_state", 2});
  signals.push_back({"memory.mc0", "write_drain", 1});
  for (int rank = 0; rank < 3; ++rank)
    signals.push_back({"memory.mc0", "rank" + std::to_string(rank) + "_busy", 1});
  CHECK(traces_of(ohmvp::gtkwave_save_text(signals, k_view)) ==
        "@800200\n-memory\n@800200\n-memory.mc0\n"
        "@c00200\n-memory.mc0.bank*_state\n"
        "@24\nmemory.mc0.bank0_state[1:0]\nmemory.mc0.bank1_state[1:0]\n"
        "memory.mc0.bank2_state[1:0]\nmemory.mc0.bank3_state[1:0]\n"
        "@1401200\n-memory.mc0.bank*_state\n"
        "@28\nmemory.mc0.write_drain\nmemory.mc0.rank0_busy\nmemory.mc0.rank1_busy\n"
        "memory.mc0.rank2_busy\n"
        "@1000200\n-memory.mc0\n@1000200\n-memory\n");
}

TEST_CASE("gtkwave save file: a scope of one signal is shown in its parent's group by an alias") {
  const std::vector<VcdDeclaration> signals{{"gpu", "grids_running", 16},
                                            {"gpu.l2_0", "mshr_occupancy", 16},
                                            {"gpu.l2_1", "mshr_occupancy", 16}};
  CHECK(traces_of(ohmvp::gtkwave_save_text(signals, k_view)) ==
        "@800200\n-gpu\n@24\ngpu.grids_running[15:0]\n"
        "+{l2_0 mshr_occupancy[15:0]} gpu.l2_0.mshr_occupancy[15:0]\n"
        "+{l2_1 mshr_occupancy[15:0]} gpu.l2_1.mshr_occupancy[15:0]\n"
        "@1000200\n-gpu\n");
}

TEST_CASE("gtkwave save file: top-level scopes named first come first, the rest as declared") {
  const std::vector<VcdDeclaration> signals{{"memory.mc0", "write_drain", 1},
                                            {"host", "copies_to_device", 8},
                                            {"gpu", "grids_running", 16}};
  GtkwaveView view = k_view;
  view.first_scopes = {"gpu"};
  const std::string text = ohmvp::gtkwave_save_text(signals, view);
  CHECK(text.find("[treeopen] gpu.\n[treeopen] memory.\n[treeopen] host.\n") != std::string::npos);
  const std::string traces = traces_of(text);
  CHECK(traces.find("-gpu\n") < traces.find("-memory\n"));
  CHECK(traces.find("-memory\n") < traces.find("-host\n"));
}

TEST_CASE("gtkwave save file: several GPUs' scopes come GPU by GPU, the first GPU's open") {
  const std::vector<VcdDeclaration> signals{{"memory1.mc0", "write_drain", 1},
                                            {"memory1.mc0", "read_queue_depth", 16},
                                            {"gpu1", "grids_running", 16},
                                            {"memory.mc0", "write_drain", 1},
                                            {"gpu", "grids_running", 16}};
  GtkwaveView view = k_view;
  view.first_scopes = {"gpu", "memory"};
  const std::string traces = traces_of(ohmvp::gtkwave_save_text(signals, view));
  const auto at = [&](const std::string& group) { return traces.find(group); };
  CHECK(at("@800200\n-gpu\n") < at("@800200\n-memory\n"));
  CHECK(at("@800200\n-memory\n") < at("@c00200\n-gpu1\n"));
  CHECK(at("@c00200\n-gpu1\n") < at("@c00200\n-memory1\n"));
  // The first controller of a closed GPU's memory is closed too.
  CHECK(at("@c00200\n-memory1\n@c00200\n-memory1.mc0\n") != std::string::npos);
}

TEST_CASE("gtkwave save file: a path its quoted strings cannot hold is refused") {
  GtkwaveView view = k_view;
  view.vcd = "/runs/\"a\"/t.vcd";
  CHECK_THROWS_AS(ohmvp::gtkwave_save_text({}, view), std::invalid_argument);
  view = k_view;
  view.save_file = "/runs/a\n/t.gtkw";
  CHECK_THROWS_WITH(ohmvp::gtkwave_save_text({}, view),
                    Catch::Contains("holds a double quote or a line break"));
}

TEST_CASE("gtkwave save file: markers lettered in time order, the first 26 given") {
  GtkwaveView view = k_view;
  view.markers = {{5000, "copied"}, {2000, "1 vecadd"}, {9000, "2\nvecadd"}};
  for (int i = 0; i < 30; ++i)
    view.markers.push_back({uint64_t(100 + i), "late " + std::to_string(i)});
  const std::string text = ohmvp::gtkwave_save_text({}, view);
  std::string times;
  for (int i = 0; i < 23; ++i) times += " " + std::to_string(100 + i);
  CHECK(text.find("\n*-22.340977 -1" + times + " 2000 5000 9000\n") != std::string::npos);
  CHECK(text.find("[markername] Alate 0\n") != std::string::npos);
  CHECK(text.find("[markername] Wlate 22\n[markername] X1 vecadd\n[markername] Ycopied\n"
                  "[markername] Z2 vecadd\n") != std::string::npos);
  CHECK(text.find("late 23") == std::string::npos);
  // None: 26 times of -1.
  std::string none;
  for (int i = 0; i < 26; ++i) none += " -1";
  CHECK(ohmvp::gtkwave_save_text({}, k_view).find("*-22.340977 -1" + none + "\n") !=
        std::string::npos);
}

TEST_CASE("gtkwave save file: a title on several lines is written on one") {
  GtkwaveView view = k_view;
  view.title = "platform p\nworkload w";
  CHECK(ohmvp::gtkwave_save_text({}, view).rfind("[*]\n[*] platform p workload w\n", 0) == 0);
}
