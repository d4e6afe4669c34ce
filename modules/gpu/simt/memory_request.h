#pragma once

#include <array>
#include <cstdint>

#include "modules/gpu/ptx/instruction.h"
#include "modules/gpu/ptx/ptx_types.h"

namespace ohmvp::gpu {

enum class MemoryKind : uint8_t { load, store, atomic, reduction, texture };

// Loads, atomics (the old value) and texture fetches bring data back to registers; stores and
// reductions only wait for their acknowledgement.
constexpr bool returns_data(MemoryKind kind) {
  return kind != MemoryKind::store && kind != MemoryKind::reduction;
}

// A warp's access to global, local or generic memory (and texture fetches), produced by a step
// and completed by the caller. For each lane in `lanes`: `space[lane]` (global or local after
// generic resolution), `address[lane]` (a device address; local already mapped into the local
// region), `bytes` per lane starting there, contiguous. Stores carry their bytes in `data`;
// atomics their operands in `operand_b`/`operand_c` with `atomic_op` and `type`. For loads,
// atomics (old value) and textures (one texel per lane, `bytes` = texel size) the caller writes
// what memory returned into `data[lane]` and calls Interpreter::complete_memory. The descriptor
// belongs to the warp and is reused by its next access.
struct MemoryRequest {
  static constexpr uint32_t max_lane_bytes = 32;  // .v4 of 64-bit elements

  MemoryKind kind = MemoryKind::load;
  uint32_t function = 0;
  uint32_t pc = 0;
  uint64_t lanes = 0;
  uint32_t bytes = 0;
  DataType type = DataType::none;  // element type
  uint8_t vector_width = 1;
  AtomicOp atomic_op = AtomicOp::none;
  // A load the SM's L1 may not serve: .cg/.cv, or ordered (volatile, or relaxed/acquire at GPU
  // or system scope), which must see what other SMs wrote; it reads the L2 and leaves the L1 be.
  bool l2_only = false;
  // An ld or atom with acquire semantics (.acquire, .acq_rel, .sc) at GPU or system scope: once
  // it completes the SM's L1 drops what it holds, as after fence.acq_rel.gpu, so the plain loads
  // after it see what other SMs released (cooperative groups' grid sync, flag handoffs).
  bool acquires = false;
  std::array<StateSpace, 64> space{};
  std::array<uint64_t, 64> address{};
  std::array<uint64_t, 64> operand_b{};
  std::array<uint64_t, 64> operand_c{};
  std::array<std::array<uint8_t, max_lane_bytes>, 64> data{};

  // wmma.load/wmma.store: each lane's bytes are `run_count` accesses of `bytes` each, at
  // address[lane] + run_offset[i], one after another in data[lane]; `fragment` says the loaded
  // bytes are a fragment of `type` elements for `destination`. 1 run for every other access.
  static constexpr uint32_t max_runs = 16;
  uint8_t run_count = 1;
  bool fragment = false;
  std::array<int64_t, max_runs> run_offset{};

  // Where the results go (copied from the instruction).
  Operand destination{};
  DataType texture_element = DataType::none;  // tex: the bound buffer's element type
  uint32_t texture_channels = 0;
  bool texture_normalized = false;  // TextureBinding::normalized_read
  // tex with linear filtering, or tld4: the texels each lane blends (or gathers) are the warp's
  // TextureTaps, not address[lane] (which holds the lane's first texel, for fault reports).
  bool filtered = false;
  int8_t gather_component = -1;  // tld4: the channel gathered from each of the four texels
};

// The texels of a linearly filtered texture fetch (MemoryRequest::filtered), per lane: tap k is
// texel (i + (k & 1), j + (k >> 1 & 1), l + (k >> 2)) after addressing (texture_sampler.h), at
// `address`; a tap outside a border-addressed texture is not `present` and reads 0. `weight` holds
// alpha, beta and gamma, the weights of the second texel along each axis. Whoever performs the
// fetch reads each present tap's texel into `texels`; complete_memory blends them.
struct TextureTaps {
  static constexpr uint32_t max_taps = 8;
  static constexpr uint32_t max_texel_bytes = 16;
  uint32_t count = 0;  // 2, 4 or 8 for a 1-, 2- or 3-D fetch
  uint32_t texel_bytes = 0;
  std::array<uint8_t, 64> present{};  // bit k: tap k reads a texel
  std::array<std::array<uint64_t, max_taps>, 64> address{};
  std::array<std::array<float, 3>, 64> weight{};
  std::array<std::array<uint8_t, max_taps * max_texel_bytes>, 64> texels{};

  // `from`'s plan for `lanes` (how many taps, their presence, addresses and weights), without
  // the texel space its accesses fill (128 of the 205 bytes a lane has here).
  void copy_plan(const TextureTaps& from, uint64_t lanes) {
    count = from.count;
    texel_bytes = from.texel_bytes;
    for (; lanes != 0; lanes &= lanes - 1) {
      const uint32_t lane = uint32_t(__builtin_ctzll(lanes));
      present[lane] = from.present[lane];
      address[lane] = from.address[lane];
      weight[lane] = from.weight[lane];
    }
  }
};

// The shared-memory addresses (inside the CTA's shared memory) of the lanes of a warp's last
// ld/st/atom/red that went to shared memory, recorded by the interpreter for the SM's
// bank-conflict model. `one_pass`: the interpreter found that the access takes one pass of the
// banks (an ld/st.shared of one register per lane, at most a bank wide, on a geometry that serves
// a whole warp in one phase, whose words lie within as many consecutive words as there are
// banks; see ExecutionContext::bank_width_shift); false when it could not tell.
struct SharedAccess {
  uint64_t lanes = 0;
  bool one_pass = false;
  std::array<uint64_t, 64> address{};
};

}  // namespace ohmvp::gpu
