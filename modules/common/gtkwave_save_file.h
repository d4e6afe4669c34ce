#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "modules/common/vcd_scope_tree.h"

namespace ohmvp {

// GTKWave's save file (.gtkw) for a VCD of these signals: opened with `gtkwave FILE.gtkw`, it
// loads the VCD and shows every signal, grouped as the scopes nest.
// - One group per scope (gpu, memory.mc0, gpu.sm3.sub1), open for the first instance of each
//   kind among its siblings (gpu, memory, mc0, channel0, sm0, sm0.sub0) and closed for the
//   others (gpu1, the second GPU's; mc1; sm0.sub1), which GTKWave's "Toggle Group Open|Close"
//   opens. An instance with one signal and no scopes below is shown without a group
//   (every L2 slice's MSHR occupancy at a glance).
// - Four or more signals of one scope whose names differ only in their numbers (bank0_state to
//   bank15_state) form a closed group of their own, named with `*` for the number.
// - One-bit signals are shown in binary, wider ones in decimal (queue depths, counts, states).
// The view starts zoomed to show the whole run. std::invalid_argument for a path with a double
// quote or a line break, which the file's quoted strings cannot hold.
// A point in time GTKWave marks with a lettered line and a name (a kernel's start, an event).
struct GtkwaveMarker {
  uint64_t time_ps;
  std::string label;
};

struct GtkwaveView {
  // Written as given: absolute paths let GTKWave find the VCD from any folder, and find it again
  // beside the save file when both move together.
  std::filesystem::path vcd;
  std::filesystem::path save_file;
  std::string title;         // the file's comment line
  uint64_t end_time_ps = 0;  // the VCD's last time
  // Named markers, the first 26 of these (GTKWave's A to Z), lettered in time order.
  std::vector<GtkwaveMarker> markers;
  // Top-level scopes in instance order (gpu, then gpu1, ...), and of one instance these kinds
  // first, in this order; the others as declared.
  std::vector<std::string> first_scopes;
};
std::string gtkwave_save_text(const std::vector<VcdDeclaration>& declarations,
                              const GtkwaveView& view);

// The name GTKWave gives a signal: its dotted path, and a vector's bits ("memory.mc0.
// read_queue_depth[15:0]").
std::string gtkwave_trace_name(const VcdDeclaration& declaration);

}  // namespace ohmvp
