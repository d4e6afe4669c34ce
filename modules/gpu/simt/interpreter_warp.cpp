// The warp-collective instructions: each lane's result depends on other lanes' operands.

#include <array>

#include "modules/gpu/simt/interpreter_internal.h"

namespace ohmvp::gpu::detail {

namespace {

// shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask (PTX ISA semantics: c holds the
// clamp value in bits 0-4 and the segment mask in bits 8-12). Lanes beyond 32 form their own
// 32-lane half; a source lane outside the warp reads the lane's own value with p false.
void shuffle(Exec& x) {
  const Instruction& in = x.instruction;
  std::array<uint64_t, 64> source{};
  for (uint32_t lane = 0; lane < x.warp.warp_size(); ++lane) source[lane] = read(x, 1, lane);
  const uint32_t warp_size = x.warp.warp_size();
  for_each_lane(x.lanes, [&](uint32_t lane) {
    const uint32_t half = half_shift(x, lane);
    const int32_t self = static_cast<int32_t>(lane - half);
    const int32_t b = static_cast<int32_t>(read(x, 2, lane) & 0x1f);
    const uint32_t c = static_cast<uint32_t>(read(x, 3, lane));
    const int32_t segment_mask = static_cast<int32_t>((c >> 8) & 0x1f);
    const int32_t clamp = static_cast<int32_t>(c & 0x1f);
    const int32_t max_lane = (self & segment_mask) | (clamp & ~segment_mask);
    const int32_t min_lane = self & segment_mask;
    int32_t j = self;
    bool valid = false;
    switch (in.mod.shuffle) {
      case ShuffleMode::up:
        j = self - b;
        valid = j >= max_lane;
        break;
      case ShuffleMode::down:
        j = self + b;
        valid = j <= max_lane;
        break;
      case ShuffleMode::bfly:
        j = self ^ b;
        valid = j <= max_lane;
        break;
      case ShuffleMode::idx:
        j = min_lane | (b & ~segment_mask);
        valid = j <= max_lane;
        break;
      case ShuffleMode::none:
        break;
    }
    if (j < 0 || static_cast<uint32_t>(j) + half >= warp_size) valid = false;
    if (!valid) j = self;
    write(x, lane, source[static_cast<uint32_t>(j) + half] & 0xffffffff);
    if (in.dest_pred != no_register) x.warp.reg(in.dest_pred, lane) = valid ? 1 : 0;
  });
}

// The executing lanes of `lane`'s 32-lane half that the member mask in source `mask_operand`
// names: the lanes a warp-synchronous instruction combines for `lane`.
uint64_t member_lanes(const Exec& x, unsigned mask_operand, uint32_t lane) {
  const uint32_t shift = half_shift(x, lane);
  return (x.lanes | x.partners) & expand_member_mask(x, read(x, mask_operand, lane)) &
         (uint64_t{0xffffffff} << shift);
}

// vote.sync.{all,any,uni}.pred d, a, membermask and vote.sync.ballot.b32 d, a, membermask.
void vote(Exec& x) {
  const Instruction& in = x.instruction;
  uint64_t ballot = 0;
  for_each_lane(x.lanes | x.partners, [&](uint32_t lane) {
    if (read(x, 1, lane) & 1) ballot |= uint64_t{1} << lane;
  });
  for_each_lane(x.lanes, [&](uint32_t lane) {
    const uint32_t shift = half_shift(x, lane);
    const uint64_t participants = member_lanes(x, 2, lane) >> shift;
    const uint64_t votes = (ballot >> shift) & participants;
    uint64_t result;
    switch (in.mod.vote) {
      case VoteMode::all:
        result = votes == participants;
        break;
      case VoteMode::any:
        result = votes != 0;
        break;
      case VoteMode::uni:
        result = votes == 0 || votes == participants;
        break;
      default:
        result = votes;  // lanes outside the member mask contribute 0
        break;
    }
    write(x, lane, result);
  });
}

// redux.sync's operator applied to a running total and the next member's value.
uint32_t combine(AtomicOp op, bool is_signed, uint32_t total, uint32_t value) {
  switch (op) {
    case AtomicOp::add:
      return total + value;
    case AtomicOp::min:
      return is_signed ? static_cast<uint32_t>(
                             std::min(static_cast<int32_t>(total), static_cast<int32_t>(value)))
                       : std::min(total, value);
    case AtomicOp::max:
      return is_signed ? static_cast<uint32_t>(
                             std::max(static_cast<int32_t>(total), static_cast<int32_t>(value)))
                       : std::max(total, value);
    case AtomicOp::and_:
      return total & value;
    case AtomicOp::or_:
      return total | value;
    default:  // xor: the decoder admits no other operator
      return total ^ value;
  }
}

// redux.sync.{add,min,max,and,or,xor}.{u32,s32,b32} d, a, membermask over each lane's member
// lanes (a tile of a cooperative-groups partition reduces on its own).
void reduce(Exec& x) {
  const Instruction& in = x.instruction;
  const bool is_signed = is_signed_int(in.type);
  std::array<uint32_t, 64> value{};
  for_each_lane(x.lanes | x.partners,
                [&](uint32_t lane) { value[lane] = static_cast<uint32_t>(read(x, 1, lane)); });
  uint64_t reduced = 0;  // the member set `total` belongs to: lanes mostly share one
  uint32_t total = 0;
  for_each_lane(x.lanes, [&](uint32_t lane) {
    const uint64_t members = member_lanes(x, 2, lane);
    if (members != reduced) {  // `reduced` starts as no lanes, whose total is 0
      reduced = members;
      total = 0;
      bool first = true;
      for_each_lane(members, [&](uint32_t member) {
        total = first ? value[member] : combine(in.mod.atomic, is_signed, total, value[member]);
        first = false;
      });
    }
    write(x, lane, int_image(in.type, total));
  });
}

// match.any.sync.type d, a, membermask: the lanes of the member mask whose a equals this lane's;
// match.all.sync.type d|p, a, membermask: the member lanes if all their a are equal (p true),
// else 0 (p false). "Member lanes" are the executing lanes of the mask, in the lane's half.
void match(Exec& x) {
  const Instruction& in = x.instruction;
  const uint64_t value_mask = width_mask(type_bits(in.type));
  std::array<uint64_t, 64> value{};
  for_each_lane(x.lanes | x.partners,
                [&](uint32_t lane) { value[lane] = read(x, 1, lane) & value_mask; });
  for_each_lane(x.lanes, [&](uint32_t lane) {
    const uint32_t shift = half_shift(x, lane);
    const uint64_t participants = member_lanes(x, 2, lane);
    uint64_t equal = 0;
    for_each_lane(participants, [&](uint32_t other) {
      if (value[other] == value[lane]) equal |= uint64_t{1} << other;
    });
    const bool all = equal == participants;
    const uint64_t result = in.mod.vote == VoteMode::any ? equal : all ? participants : 0;
    write(x, lane, (result >> shift) & 0xffffffff);
    if (in.dest_pred != no_register) x.warp.reg(in.dest_pred, lane) = all ? 1 : 0;
  });
}

// The same instruction and qualifiers, as PTX requires of the threads a warp-synchronous
// instruction brings together.
bool same_exchange(const Instruction& a, const Instruction& b) {
  return a.op == b.op && a.type == b.type && a.operand_count == b.operand_count &&
         a.mod.barrier == b.mod.barrier && a.mod.shuffle == b.mod.shuffle &&
         a.mod.vote == b.mod.vote && a.mod.atomic == b.mod.atomic &&
         (a.dest_pred == no_register) == (b.dest_pred == no_register);
}

}  // namespace

bool meet_parked_paths(Exec& x, uint64_t members) {
  WarpState& warp = x.warp;
  const Instruction& in = x.instruction;
  const Function& function = x.context.layout->module().functions[x.function];
  bool same = true;
  uint64_t taking_part = x.lanes;
  warp.for_each_parked_path(members, [&](size_t, uint64_t lanes, uint32_t pc) {
    const Instruction& parked = function.instructions[pc];
    same = same && same_exchange(parked, in);
    taking_part |= guarded_lanes(warp, parked, lanes);
  });
  if (!same) return false;
  x.partners = taking_part & ~x.lanes;
  if (in.op == Opcode::bar) return true;  // bar.warp.sync: the paths only wait for each other
  // Every lane's sources as its own instruction reads them; lanes outside the exchange as the
  // executing instruction reads them (what a member mask naming them would get on its own).
  for (unsigned k = 1; k < in.operand_count; ++k) {
    uint64_t* row = warp.exchange_row(k);
    for (uint32_t lane = 0; lane < warp.warp_size(); ++lane) row[lane] = read(x, k, lane);
  }
  warp.for_each_parked_path(members, [&](size_t, uint64_t lanes, uint32_t pc) {
    const Exec path_x = path_exec(x, lanes, pc);
    for (unsigned k = 1; k < in.operand_count; ++k) {
      uint64_t* row = warp.exchange_row(k);
      for_each_lane(path_x.lanes, [&](uint32_t lane) { row[lane] = read(path_x, k, lane); });
    }
  });
  auto use_merged_sources = [&](Exec& each) {
    for (unsigned k = 1; k < in.operand_count; ++k)
      each.sources[k] = {warp.exchange_row(k), 0, nullptr};
    each.partners = taking_part & ~each.lanes;
  };
  warp.for_each_parked_path(members, [&](size_t, uint64_t lanes, uint32_t pc) {
    Exec path_x = path_exec(x, lanes, pc);
    use_merged_sources(path_x);
    execute_warp_collective(path_x);
    if (path_x.failed() && !x.failed()) x.fault = path_x.fault;
  });
  use_merged_sources(x);
  return true;
}

void execute_warp_collective(Exec& x) {
  switch (x.instruction.op) {
    case Opcode::shfl:
      shuffle(x);
      return;
    case Opcode::vote:
      vote(x);
      return;
    case Opcode::redux:
      reduce(x);
      return;
    case Opcode::match:
      match(x);
      return;
    default:
      x.fail(FaultKind::unsupported, 0, "warp-collective operation");
      return;
  }
}

}  // namespace ohmvp::gpu::detail
