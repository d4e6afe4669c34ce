#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "modules/gpu/ptx/instruction.h"

namespace ohmvp::gpu {

// One level of a warp's reconvergence stack: the lanes in `mask` execute from `pc` until they
// reach `reconvergence_pc` (no_target: they never reconverge inside the function; they leave it
// by exit or ret).
struct SimtEntry {
  uint32_t pc = 0;
  uint32_t reconvergence_pc = no_target;
  uint64_t mask = 0;
};

// Stack-based reconvergence at the immediate post-dominator. The top entry is what the warp
// executes. A divergent branch turns the top entry into the reconvergence entry (its pc becomes
// the reconvergence pc), then pushes the fall-through lanes, then the taken lanes, so the taken
// path runs first. An entry pops when its pc reaches its reconvergence pc or when it has no lanes
// left (lanes that exit or return leave every entry they are in). Call frames stack their own
// entries above a base depth (see WarpState). After a yield the entries no longer nest: a lane
// is where the topmost entry holding it is.
class SimtStack {
 public:
  SimtStack() { m_entries.reserve(32); }

  void reset(uint32_t pc, uint64_t mask) {
    m_entries.clear();
    m_entries.push_back({pc, no_target, mask});
  }

  bool empty() const { return m_entries.empty(); }
  size_t depth() const { return m_entries.size(); }
  const SimtEntry& top() const { return m_entries.back(); }
  const SimtEntry& at(size_t index) const { return m_entries[index]; }
  uint32_t pc() const { return m_entries.back().pc; }
  uint64_t mask() const { return m_entries.back().mask; }

  // The top entry continues at `pc` (straight-line code or a uniform branch).
  void set_pc(uint32_t pc) { m_entries.back().pc = pc; }

  // A branch at which `taken` lanes (a subset of the top mask) jump to `target` and the rest go
  // to `fall_through`; `reconvergence_pc` is the branch's immediate post-dominator.
  void branch(uint64_t taken, uint32_t target, uint32_t fall_through, uint32_t reconvergence_pc);

  void push(const SimtEntry& entry) { m_entries.push_back(entry); }

  // Removes `lanes` from every entry at depth >= `from_depth`.
  void remove_lanes(uint64_t lanes, size_t from_depth = 0);

  // Pops entries above `floor_depth` that are empty or have reached their reconvergence pc.
  void reconverge(size_t floor_depth = 0);

  // Lets lanes that wait below the top run first (independent thread scheduling): the lanes of
  // the deepest entry at or above `floor_depth` that no entry above it holds move to a new top
  // entry above the current one, with that entry's pc and reconvergence pc; entries left empty
  // go. A lane's
  // place is the topmost entry that holds it, so every lane keeps its pc, and the moved lanes
  // still wait for their reconvergence point in the entry that held them below. Taking the
  // deepest waiting lanes first turns repeated yields into a round robin. False (nothing
  // changed) when no lane waits.
  bool yield(size_t floor_depth = 0);

  // Moves into the top entry the lanes (of entries at or above `floor_depth`) whose place is an
  // entry with the top's pc and reconvergence pc: paths that a yield separated and that have
  // reached the same point run on together.
  void gather(size_t floor_depth = 0);

  // Entry `index`, which holds no lanes an entry above it holds, moves to the top: that path
  // runs first. The lanes above keep their places, so the stack still reconverges as before.
  void raise(size_t index);

  // `lanes` of entry `index` (whose place it is: no entry above holds them) go on at the next
  // instruction: the entry itself when they are all its lanes, else a new entry just below the
  // top with the same reconvergence pc (as yield moves lanes). Leaves entries it empties for
  // drop_empty_below_top.
  void step_past(size_t index, uint64_t lanes);
  // Removes the empty entries between `floor_depth` and the top.
  void drop_empty_below_top(size_t floor_depth);

  // The lanes held by entries at or above `floor_depth`.
  uint64_t lanes_from(size_t floor_depth) const {
    uint64_t lanes = 0;
    for (size_t i = floor_depth; i < m_entries.size(); ++i) lanes |= m_entries[i].mask;
    return lanes;
  }

 private:
  // Lanes whose place is an entry below the top that has reached its reconvergence pc wait in
  // the entry below it (at that same pc), as reconverge would leave them: they leave it.
  void settle(size_t floor_depth);

  std::vector<SimtEntry> m_entries;
};

}  // namespace ohmvp::gpu
