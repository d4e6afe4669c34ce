#include "modules/gpu/warp_positions.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "modules/gpu/gpu.h"
#include "modules/gpu/ptx/ptx_disassembler.h"

namespace ohmvp::gpu {

namespace {

// Launches of one module at one instruction are one place.
struct Position {
  const Module* module;
  uint32_t function;
  uint32_t pc;
  bool at_barrier;
  bool operator<(const Position& other) const {
    return std::tie(module, function, pc, at_barrier) <
           std::tie(other.module, other.function, other.pc, other.at_barrier);
  }
};

std::string place_text(const Position& position) {
  const Module& module = *position.module;
  const Function& function = module.functions[position.function];
  // A warp waiting at a barrier has gone past it: the barrier is the instruction before.
  const uint32_t pc = position.at_barrier && position.pc > 0 ? position.pc - 1 : position.pc;
  if (pc >= function.instructions.size()) return module.file + ", past its last instruction";
  const Instruction& instruction = function.instructions[pc];
  return module.file + ":" + std::to_string(instruction.source_line) + " '" +
         format_instruction(module, function, instruction) + "'" +
         (position.at_barrier ? ", waiting" : "");
}

}  // namespace

std::string warp_positions_text(const Gpu& gpu, size_t most_places) {
  std::map<Position, uint64_t> warps;
  uint64_t total = 0;
  for (uint32_t s = 0; s < gpu.config().sm_count; ++s)
    gpu.sm(s).for_each_warp_position(
        [&](const LaunchState& launch, uint32_t function, uint32_t pc, bool at_barrier) {
          ++warps[Position{&launch.layout->module(), function, pc, at_barrier}];
          ++total;
        });
  if (total == 0) return "";
  // The fullest places first; among equals, by where they are (file, line), so the text does
  // not depend on where the modules lie in memory.
  std::vector<std::pair<std::string, uint64_t>> places;
  for (const auto& [position, count] : warps) places.emplace_back(place_text(position), count);
  std::sort(places.begin(), places.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  const char* whose = gpu.running_kernels().size() > 1 ? "; their " : "; its ";
  std::string text =
      whose + std::to_string(total) + (total == 1 ? " warp is" : " warps are") + " at ";
  const size_t shown = std::min(places.size(), most_places);
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) text += i + 1 == shown && places.size() == shown ? " and " : ", ";
    text += places[i].first + " (" + std::to_string(places[i].second) +
            (i == 0 ? (places[i].second == 1 ? " warp)" : " warps)") : ")");
  }
  if (places.size() > shown)
    text += " and " + std::to_string(places.size() - shown) +
            (places.size() - shown == 1 ? " other place" : " other places");
  return text;
}

}  // namespace ohmvp::gpu
