#include "modules/gpu/simt/interpreter_internal.h"

namespace ohmvp::gpu::detail {
namespace {

using u128 = unsigned __int128;
using s128 = __int128;

int64_t clamp_s32(int64_t value) {
  return value > INT32_MAX ? INT32_MAX : value < INT32_MIN ? INT32_MIN : value;
}

// The full product of two `bits`-wide operands, as a 128-bit two's complement value.
s128 full_product(uint64_t a, uint64_t b, unsigned bits, bool is_signed) {
  if (is_signed) return static_cast<s128>(sign_extend(a, bits)) * sign_extend(b, bits);
  return static_cast<s128>(static_cast<u128>(a & width_mask(bits)) * (b & width_mask(bits)));
}

// mul/mad's .lo/.hi/.wide selection of the product, still a two's complement value.
s128 select_product(s128 product, MulMode mode, unsigned bits) {
  if (mode == MulMode::hi) return product >> bits;
  if (mode == MulMode::wide) return product;
  return product;  // lo: the caller masks to `bits`
}

void add_sub(Exec& x) {
  const Instruction& in = x.instruction;
  const unsigned bits = type_bits(in.type);
  const uint64_t mask = width_mask(bits);
  const bool subtract = in.op == Opcode::sub;
  const IntImage image(in.type);
  if (!in.mod.carry_in && !in.mod.carry_out && !in.mod.sat && plain_sources(x, 2)) {
    if (subtract)
      map_plain<2>(x, [=](uint64_t a, uint64_t b) { return image((a & mask) - (b & mask)); });
    else
      map_plain<2>(x, [=](uint64_t a, uint64_t b) { return image((a & mask) + (b & mask)); });
    return;
  }
  if (!in.mod.carry_in && !in.mod.carry_out && !in.mod.sat) {  // the usual add and sub
    const LaneSource first = x.sources[1], second = x.sources[2];
    for_each_lane(
        x.lanes, [&](uint32_t lane) __attribute__((always_inline)) {
          const uint64_t a = read(x, first, lane) & mask, b = read(x, second, lane) & mask;
          write(x, lane, image(subtract ? a - b : a + b));
        });
    return;
  }
  for_each_lane(x.lanes, [&](uint32_t lane) {
    const uint64_t a = read(x, 1, lane) & mask, b = read(x, 2, lane) & mask;
    const uint64_t carry_in = in.mod.carry_in && x.warp.carry(lane) ? 1 : 0;
    uint64_t result;
    if (in.mod.sat && is_signed_int(in.type)) {
      const int64_t sa = sign_extend(a, bits), sb = sign_extend(b, bits);
      result = static_cast<uint64_t>(clamp_s32(subtract ? sa - sb : sa + sb));
    } else if (subtract) {
      // a + ~b + 1 (sub) or a + ~b + CF (subc), and the carry out of that sum: the flag is set
      // when nothing was borrowed. The hardware computes it so, and CUDA's own 128-bit division
      // reads it with addc after sub.cc; chains of sub.cc and subc come out the same either way.
      const uint64_t carry = in.mod.carry_in ? carry_in : 1;
      const u128 sum = static_cast<u128>(a) + (~b & mask) + carry;
      result = static_cast<uint64_t>(sum);
      if (in.mod.carry_out) x.warp.set_carry(lane, ((sum >> bits) & 1) != 0);
    } else {
      const u128 sum = static_cast<u128>(a) + b + carry_in;
      result = static_cast<uint64_t>(sum);
      if (in.mod.carry_out) x.warp.set_carry(lane, ((sum >> bits) & 1) != 0);
    }
    write(x, lane, image(result));
  });
}

void multiply(Exec& x) {
  const Instruction& in = x.instruction;
  const unsigned bits = type_bits(in.type);
  const bool is_signed = is_signed_int(in.type);
  const bool has_addend = in.op == Opcode::mad;
  const MulMode mode = in.mod.mul;
  const DataType result_type = mode == MulMode::wide ? wide_type(in.type) : in.type;
  const unsigned result_bits = type_bits(result_type);
  const uint64_t result_mask = width_mask(result_bits);
  const IntImage image(result_type);
  const LaneSource first = x.sources[1], second = x.sources[2], addend = x.sources[3];
  if (mode != MulMode::hi && (mode != MulMode::wide || bits <= 32) && !in.mod.sat &&
      !in.mod.carry_in && !in.mod.carry_out && plain_sources(x, has_addend ? 3 : 2)) {
    // .lo (the low bits of any product) and .wide of up to 32-bit operands (an exact 64-bit
    // product of the sign- or zero-extended operands), without 128-bit arithmetic.
    const IntImage operand(in.type);
    if (has_addend)
      map_plain<3>(x, [=](uint64_t a, uint64_t b, uint64_t c) {
        return image((((operand(a) * operand(b)) & result_mask) + (c & result_mask)) & result_mask);
      });
    else
      map_plain<2>(x, [=](uint64_t a, uint64_t b) {
        return image((operand(a) * operand(b)) & result_mask);
      });
    return;
  }
  for_each_lane(x.lanes, [&](uint32_t lane) {
    const s128 product = select_product(
        full_product(read(x, first, lane), read(x, second, lane), bits, is_signed), mode, bits);
    uint64_t result = static_cast<uint64_t>(product) & result_mask;
    if (has_addend) {
      const uint64_t c = read(x, addend, lane) & result_mask;
      if (in.mod.sat && is_signed) {  // mad.hi.sat.s32
        result =
            static_cast<uint64_t>(clamp_s32(static_cast<int64_t>(product) + sign_extend(c, 32)));
      } else {
        const uint64_t carry_in = in.mod.carry_in && x.warp.carry(lane) ? 1 : 0;
        const u128 sum = static_cast<u128>(result) + c + carry_in;
        result = static_cast<uint64_t>(sum) & result_mask;
        if (in.mod.carry_out) x.warp.set_carry(lane, ((sum >> result_bits) & 1) != 0);
      }
    }
    write(x, lane, image(result));
  });
}

void multiply24(Exec& x) {
  const Instruction& in = x.instruction;
  const bool is_signed = is_signed_int(in.type);
  const bool has_addend = in.op == Opcode::mad24;
  for_each_lane(x.lanes, [&](uint32_t lane) {
    const uint64_t a = read(x, 1, lane), b = read(x, 2, lane);
    const int64_t product = is_signed ? sign_extend(a, 24) * sign_extend(b, 24)
                                      : static_cast<int64_t>((a & 0xffffff) * (b & 0xffffff));
    int64_t result = in.mod.mul == MulMode::hi ? (product >> 16) : product;
    if (has_addend) {
      const uint64_t c = read(x, 3, lane);
      if (in.mod.sat && is_signed)
        result = clamp_s32(sign_extend(static_cast<uint64_t>(result), 32) + sign_extend(c, 32));
      else
        result += static_cast<int64_t>(c & 0xffffffff);
    }
    write(x, lane, int_image(in.type, static_cast<uint64_t>(result)));
  });
}

// Integer division by zero does not fault on NVIDIA GPUs; here div gives all ones (-1 signed)
// and rem gives the dividend. MIN / -1 wraps to MIN with remainder 0.
void divide(Exec& x) {
  const Instruction& in = x.instruction;
  const unsigned bits = type_bits(in.type);
  const uint64_t mask = width_mask(bits);
  const bool remainder = in.op == Opcode::rem;
  for_each_lane(x.lanes, [&](uint32_t lane) {
    const uint64_t a = read(x, 1, lane) & mask, b = read(x, 2, lane) & mask;
    uint64_t result;
    if (b == 0) {
      result = remainder ? a : mask;
    } else if (is_signed_int(in.type)) {
      const int64_t sa = sign_extend(a, bits), sb = sign_extend(b, bits);
      if (sb == -1)
        result = remainder ? 0 : static_cast<uint64_t>(0) - static_cast<uint64_t>(sa);
      else
        result = static_cast<uint64_t>(remainder ? sa % sb : sa / sb);
    } else {
      result = remainder ? a % b : a / b;
    }
    write(x, lane, int_image(in.type, result));
  });
}

template <class F>
void unary(Exec& x, F&& f) {
  const IntImage image(x.instruction.type);
  if (plain_sources(x, 1)) {
    map_plain<1>(x, [=](uint64_t a) { return image(f(a)); });
    return;
  }
  const LaneSource source = x.sources[1];
  for_each_lane(
      x.lanes, [&](uint32_t lane) __attribute__((always_inline)) {
        write(x, lane, image(f(read(x, source, lane))));
      });
}

template <class F>
void binary(Exec& x, F&& f) {
  const IntImage image(x.instruction.type);
  if (plain_sources(x, 2)) {
    map_plain<2>(x, [=](uint64_t a, uint64_t b) { return image(f(a, b)); });
    return;
  }
  const LaneSource first = x.sources[1], second = x.sources[2];
  for_each_lane(
      x.lanes, [&](uint32_t lane) __attribute__((always_inline)) {
        write(x, lane, image(f(read(x, first, lane), read(x, second, lane))));
      });
}

}  // namespace

void execute_integer(Exec& x) {
  const Instruction& in = x.instruction;
  const DataType type = in.type;
  const unsigned bits = type == DataType::pred ? 1 : type_bits(type);
  const uint64_t mask = width_mask(bits);
  const bool is_signed = is_signed_int(type);
  switch (in.op) {
    case Opcode::add:
    case Opcode::sub:
      add_sub(x);
      return;
    case Opcode::mul:
    case Opcode::mad:
      multiply(x);
      return;
    case Opcode::mul24:
    case Opcode::mad24:
      multiply24(x);
      return;
    case Opcode::div:
    case Opcode::rem:
      divide(x);
      return;
    case Opcode::min:
    case Opcode::max: {
      const bool take_min = in.op == Opcode::min;
      binary(x, [&](uint64_t a, uint64_t b) {
        const bool less =
            is_signed ? sign_extend(a, bits) < sign_extend(b, bits) : (a & mask) < (b & mask);
        return (less == take_min) ? a : b;
      });
      return;
    }
    case Opcode::abs:
      unary(x, [&](uint64_t a) { return sign_extend(a, bits) < 0 ? 0 - a : a; });
      return;
    case Opcode::neg:
      unary(x, [](uint64_t a) { return 0 - a; });
      return;
    case Opcode::sad:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        const uint64_t a = read(x, 1, lane), b = read(x, 2, lane), c = read(x, 3, lane);
        uint64_t difference;
        if (is_signed) {
          const int64_t sa = sign_extend(a, bits), sb = sign_extend(b, bits);
          difference = static_cast<uint64_t>(sa > sb ? sa - sb : sb - sa);
        } else {
          difference = (a & mask) > (b & mask) ? (a & mask) - (b & mask) : (b & mask) - (a & mask);
        }
        write(x, lane, int_image(type, c + difference));
      });
      return;
    case Opcode::and_:
      binary(x, [](uint64_t a, uint64_t b) { return a & b; });
      return;
    case Opcode::or_:
      binary(x, [](uint64_t a, uint64_t b) { return a | b; });
      return;
    case Opcode::xor_:
      binary(x, [](uint64_t a, uint64_t b) { return a ^ b; });
      return;
    case Opcode::not_:
      unary(x, [](uint64_t a) { return ~a; });
      return;
    case Opcode::cnot:
      unary(x, [&](uint64_t a) { return uint64_t{(a & mask) == 0}; });
      return;
    case Opcode::shl:
      binary(x, [&](uint64_t a, uint64_t b) {
        const uint32_t amount = static_cast<uint32_t>(b);
        return amount >= bits ? 0 : a << amount;
      });
      return;
    case Opcode::shr:
      binary(x, [&](uint64_t a, uint64_t b) {
        const uint32_t amount = static_cast<uint32_t>(b);
        if (is_signed) {
          const int64_t value = sign_extend(a, bits);
          return static_cast<uint64_t>(value >> (amount >= bits ? bits - 1 : amount));
        }
        return amount >= bits ? 0 : (a & mask) >> amount;
      });
      return;
    default:
      x.fail(FaultKind::unsupported,
             static_cast<uint32_t>(__builtin_ctzll(x.lanes | (uint64_t{1} << 63))),
             "integer operation");
      return;
  }
}

}  // namespace ohmvp::gpu::detail
