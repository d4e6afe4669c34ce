#include <algorithm>
#include <cstdint>

#include "modules/gpu/simt/interpreter_internal.h"

namespace ohmvp::gpu::detail {
namespace {

uint64_t reverse_bits(uint64_t value, unsigned bits) {
  uint64_t result = 0;
  for (unsigned i = 0; i < bits; ++i) result |= ((value >> i) & 1) << (bits - 1 - i);
  return result;
}

uint64_t bit_field_extract(uint64_t a, uint32_t position, uint32_t length, unsigned bits,
                           bool is_signed) {
  position &= 0xff;
  length &= 0xff;
  const unsigned msb = bits - 1;
  uint64_t sign_bit = 0;
  if (is_signed && length != 0)
    sign_bit = (a >> std::min<unsigned>(position + length - 1, msb)) & 1;
  uint64_t result = 0;
  for (unsigned i = 0; i < bits; ++i) {
    const uint64_t bit = (i < length && position + i <= msb) ? (a >> (position + i)) & 1 : sign_bit;
    result |= bit << i;
  }
  return result;
}

uint64_t bit_field_insert(uint64_t a, uint64_t b, uint32_t position, uint32_t length,
                          unsigned bits) {
  position &= 0xff;
  length &= 0xff;
  uint64_t result = b;
  for (unsigned i = 0; i < length && position + i < bits; ++i) {
    const uint64_t bit = uint64_t{1} << (position + i);
    result = ((a >> i) & 1) ? result | bit : result & ~bit;
  }
  return result;
}

// lop3: bit i of the result is the truth table's entry at (a_i b_i c_i), a the most significant;
// the table is what 0xF0 op 0xCC op 0xAA gives (PTX ISA, lop3); bits above its 8 do not count
// (ptxas takes any 32-bit value).
uint32_t logic3(uint32_t a, uint32_t b, uint32_t c, uint32_t table) {
  uint32_t result = 0;
  for (uint32_t entry = 0; entry < 8; ++entry) {
    if (((table >> entry) & 1) == 0) continue;
    const uint32_t with_a = (entry & 4) ? a : ~a;
    const uint32_t with_b = (entry & 2) ? b : ~b;
    const uint32_t with_c = (entry & 1) ? c : ~c;
    result |= with_a & with_b & with_c;
  }
  return result;
}

int64_t packed_element(uint32_t value, uint32_t index, uint32_t bits, bool is_signed) {
  const uint32_t field = (value >> (index * bits)) & ((1u << bits) - 1);
  if (!is_signed || (field >> (bits - 1)) == 0) return field;
  return static_cast<int64_t>(field) - (int64_t{1} << bits);
}

// dp4a: c + the sum of a's and b's four byte products; dp2a: c + a's two halfwords times b's
// bytes 0-1 (.lo) or 2-3 (.hi). Each element is signed or not as its operand's type says; the
// sum wraps to 32 bits.
uint32_t dot_product(const Instruction& in, uint32_t a, uint32_t b, uint32_t c) {
  const bool a_signed = in.type == DataType::s32, b_signed = in.source_type == DataType::s32;
  int64_t sum = static_cast<int32_t>(c);
  if (in.op == Opcode::dp4a) {
    for (uint32_t i = 0; i < 4; ++i)
      sum += packed_element(a, i, 8, a_signed) * packed_element(b, i, 8, b_signed);
  } else {
    const uint32_t first = in.mod.mul == MulMode::hi ? 2 : 0;
    for (uint32_t i = 0; i < 2; ++i)
      sum += packed_element(a, i, 16, a_signed) * packed_element(b, first + i, 8, b_signed);
  }
  return static_cast<uint32_t>(sum);
}

// vabsdiff4 / vabsdiff2 (PTX ISA, SIMD video instructions) without operand selectors or a
// destination mask: each byte (halfword) of a and b, signed or not as its type says, gives
// |a_i - b_i|. `.add`: d = c + their sum (32 bits, saturated with .sat); otherwise d packs them,
// each saturated to the element's range of d's type with .sat, else cut to the element.
uint32_t absolute_differences(const Instruction& in, uint32_t a, uint32_t b, uint32_t c) {
  const uint32_t bits = in.op == Opcode::vabsdiff4 ? 8 : 16;
  const bool d_signed = in.type == DataType::s32;
  const bool a_signed = in.source_type == DataType::s32, b_signed = in.mod.b_type == DataType::s32;
  int64_t sum = d_signed ? int64_t(int32_t(c)) : int64_t(c);
  uint32_t packed = 0;
  for (uint32_t i = 0; i < 32 / bits; ++i) {
    int64_t r = packed_element(a, i, bits, a_signed) - packed_element(b, i, bits, b_signed);
    r = r < 0 ? -r : r;
    sum += r;
    if (in.mod.sat)
      r = d_signed ? std::clamp(r, -(int64_t{1} << (bits - 1)), (int64_t{1} << (bits - 1)) - 1)
                   : std::clamp(r, int64_t{0}, (int64_t{1} << bits) - 1);
    packed |= (uint32_t(r) & ((1u << bits) - 1)) << (i * bits);
  }
  if (!in.mod.accumulate) return packed;
  if (in.mod.sat)
    sum = d_signed ? std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX)
                   : std::clamp<int64_t>(sum, 0, UINT32_MAX);
  return uint32_t(sum);
}

uint32_t permute(uint32_t a, uint32_t b, uint32_t c, PermuteMode mode) {
  const uint64_t source = (uint64_t{b} << 32) | a;
  const uint32_t selector = c & 3;
  uint32_t result = 0;
  for (uint32_t i = 0; i < 4; ++i) {
    uint32_t index;
    bool replicate_sign = false;
    switch (mode) {
      case PermuteMode::f4e:
        index = (selector + i) & 7;
        break;
      case PermuteMode::b4e:
        index = (selector - i) & 7;
        break;
      case PermuteMode::rc8:
        index = selector;
        break;
      case PermuteMode::ecl:
        index = std::max(i, selector);
        break;
      case PermuteMode::ecr:
        index = std::min(i, selector);
        break;
      case PermuteMode::rc16:
        index = (selector & 1) * 2 + (i & 1);
        break;
      default: {
        const uint32_t control = (c >> (4 * i)) & 0xf;
        index = control & 7;
        replicate_sign = control & 8;
      }
    }
    uint32_t byte = static_cast<uint32_t>(source >> (8 * index)) & 0xff;
    if (replicate_sign) byte = (byte & 0x80) ? 0xff : 0;
    result |= byte << (8 * i);
  }
  return result;
}

// bfind: position of the most significant bit that differs from the sign (signed) or is set
// (unsigned); all ones if none.
uint32_t find_msb(uint64_t value, unsigned bits, bool is_signed, bool shift_amount) {
  value &= width_mask(bits);
  if (is_signed && ((value >> (bits - 1)) & 1)) value = ~value & width_mask(bits);
  if (value == 0) return 0xffffffffu;
  const uint32_t position = 63 - static_cast<uint32_t>(__builtin_clzll(value));
  return shift_amount ? (bits - 1) - position : position;
}

// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: shifts the 64-bit pair b:a (b the high word) by c,
// .wrap taking c modulo 32 and .clamp limiting it to 32; .l keeps the high word, .r the low one.
uint32_t funnel_shift(uint32_t a, uint32_t b, uint32_t c, bool left, bool clamp) {
  const uint32_t amount = clamp ? std::min<uint32_t>(c, 32) : c & 31;
  const uint64_t pair = (uint64_t{b} << 32) | a;
  return left ? static_cast<uint32_t>((pair << amount) >> 32)
              : static_cast<uint32_t>(pair >> amount);
}

// fns.b32 d, mask, base, offset: the position of the |offset|-th set bit of mask counting from
// bit base upward (offset > 0) or downward (offset < 0), base included; offset 0 asks whether
// bit base is set. 0xffffffff when there is no such bit. A base above 31 is undefined in PTX:
// here it finds nothing.
uint32_t find_nth_set(uint32_t mask, uint32_t base, int32_t offset) {
  constexpr uint32_t none = 0xffffffffu;
  if (base > 31) return none;
  if (offset == 0) return (mask >> base) & 1 ? base : none;
  int64_t remaining = offset > 0 ? offset : -static_cast<int64_t>(offset);
  const int step = offset > 0 ? 1 : -1;
  for (int position = static_cast<int>(base); position >= 0 && position < 32; position += step)
    if ((mask >> position) & 1 && --remaining == 0) return static_cast<uint32_t>(position);
  return none;
}

// bmsk.{clamp,wrap}.b32 d, a, b: b bits set from bit a upward (bits past 31 dropped). .wrap takes
// a and b modulo 32; .clamp makes the mask empty for a >= 32 and runs it to bit 31 for b >= 32.
uint32_t bit_mask(uint32_t a, uint32_t b, bool clamp) {
  if (clamp && a >= 32) return 0;
  const uint32_t position = a & 31, width = b & 31;
  const uint32_t from_position = ~0u << position;
  if ((clamp && b >= 32) || position + width >= 32) return from_position;
  return from_position & ~(~0u << (position + width));
}

// szext.{clamp,wrap}.{u32,s32} d, a, b: the low b bits of a, zero- or sign-extended. .wrap takes
// b modulo 32; .clamp keeps a whole for b >= 32. No bits (b = 0 after the mode) give 0.
uint32_t extend_low_bits(uint32_t a, uint32_t b, bool clamp, bool is_signed) {
  if (clamp && b >= 32) return a;
  const uint32_t width = b & 31;
  if (width == 0) return 0;
  const uint32_t high = ~0u << width;
  const bool negative = is_signed && ((a >> (width - 1)) & 1);
  return negative ? a | high : a & ~high;
}

}  // namespace

void execute_bits(Exec& x) {
  const Instruction& in = x.instruction;
  const unsigned bits = type_bits(in.type);
  const uint64_t mask = width_mask(bits);
  const bool is_signed = is_signed_int(in.type);
  switch (in.op) {
    case Opcode::popc:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        write(x, lane, static_cast<uint64_t>(__builtin_popcountll(read(x, 1, lane) & mask)));
      });
      return;
    case Opcode::clz:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        const uint64_t value = read(x, 1, lane) & mask;
        write(x, lane,
              value == 0 ? bits : static_cast<uint64_t>(__builtin_clzll(value)) - (64 - bits));
      });
      return;
    case Opcode::brev:
      for_each_lane(x.lanes,
                    [&](uint32_t lane) { write(x, lane, reverse_bits(read(x, 1, lane), bits)); });
      return;
    case Opcode::bfe:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        const uint64_t result =
            bit_field_extract(read(x, 1, lane), static_cast<uint32_t>(read(x, 2, lane)),
                              static_cast<uint32_t>(read(x, 3, lane)), bits, is_signed);
        write(x, lane, int_image(in.type, result));
      });
      return;
    case Opcode::bfi:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        const uint64_t result = bit_field_insert(read(x, 1, lane), read(x, 2, lane),
                                                 static_cast<uint32_t>(read(x, 3, lane)),
                                                 static_cast<uint32_t>(read(x, 4, lane)), bits);
        write(x, lane, result & mask);
      });
      return;
    case Opcode::prmt:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        write(x, lane,
              permute(static_cast<uint32_t>(read(x, 1, lane)),
                      static_cast<uint32_t>(read(x, 2, lane)),
                      static_cast<uint32_t>(read(x, 3, lane)), in.mod.permute));
      });
      return;
    case Opcode::shf:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        write(x, lane,
              funnel_shift(
                  static_cast<uint32_t>(read(x, 1, lane)), static_cast<uint32_t>(read(x, 2, lane)),
                  static_cast<uint32_t>(read(x, 3, lane)), in.mod.shift_left, in.mod.clamp));
      });
      return;
    case Opcode::bmsk:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        write(x, lane,
              bit_mask(static_cast<uint32_t>(read(x, 1, lane)),
                       static_cast<uint32_t>(read(x, 2, lane)), in.mod.clamp));
      });
      return;
    case Opcode::szext:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        write(x, lane,
              extend_low_bits(static_cast<uint32_t>(read(x, 1, lane)),
                              static_cast<uint32_t>(read(x, 2, lane)), in.mod.clamp, is_signed));
      });
      return;
    case Opcode::bfind:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        write(x, lane, find_msb(read(x, 1, lane), bits, is_signed, in.mod.shift_right));
      });
      return;
    case Opcode::fns:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        write(x, lane,
              find_nth_set(static_cast<uint32_t>(read(x, 1, lane)),
                           static_cast<uint32_t>(read(x, 2, lane)),
                           static_cast<int32_t>(static_cast<uint32_t>(read(x, 3, lane)))));
      });
      return;
    case Opcode::lop3:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        write(
            x, lane,
            logic3(static_cast<uint32_t>(read(x, 1, lane)), static_cast<uint32_t>(read(x, 2, lane)),
                   static_cast<uint32_t>(read(x, 3, lane)),
                   static_cast<uint32_t>(read(x, 4, lane))));
      });
      return;
    case Opcode::vabsdiff4:
    case Opcode::vabsdiff2:
    case Opcode::dp4a:
    case Opcode::dp2a: {
      const bool dot = in.op == Opcode::dp4a || in.op == Opcode::dp2a;
      const auto packed_op = dot ? dot_product : absolute_differences;
      for_each_lane(x.lanes, [&](uint32_t lane) {
        write(x, lane,
              packed_op(in, static_cast<uint32_t>(read(x, 1, lane)),
                        static_cast<uint32_t>(read(x, 2, lane)),
                        static_cast<uint32_t>(read(x, 3, lane))));
      });
      return;
    }
    default:
      x.fail(FaultKind::unsupported, 0, "bit operation");
      return;
  }
}

}  // namespace ohmvp::gpu::detail
