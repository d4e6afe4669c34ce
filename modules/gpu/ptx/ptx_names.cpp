#include "modules/gpu/ptx/ptx_names.h"

#include <array>
#include <utility>

namespace ohmvp::gpu {
namespace {

template <typename Enum, size_t N>
std::string_view name_of(const std::array<std::pair<Enum, std::string_view>, N>& table,
                         Enum value) {
  for (const auto& [entry, name] : table)
    if (entry == value) return name;
  return "?";
}

template <typename Enum, size_t N>
std::optional<Enum> value_of(const std::array<std::pair<Enum, std::string_view>, N>& table,
                             std::string_view name) {
  for (const auto& [entry, entry_name] : table)
    if (entry_name == name) return entry;
  return std::nullopt;
}

using T = DataType;
constexpr std::array<std::pair<DataType, std::string_view>, 20> k_types{{
    {T::pred, "pred"},   {T::b8, "b8"},     {T::b16, "b16"},       {T::b32, "b32"}, {T::b64, "b64"},
    {T::b128, "b128"},   {T::u8, "u8"},     {T::u16, "u16"},       {T::u32, "u32"}, {T::u64, "u64"},
    {T::s8, "s8"},       {T::s16, "s16"},   {T::s32, "s32"},       {T::s64, "s64"}, {T::f16, "f16"},
    {T::f16x2, "f16x2"}, {T::bf16, "bf16"}, {T::bf16x2, "bf16x2"}, {T::f32, "f32"}, {T::f64, "f64"},
}};
// Named only by the tensor-core instructions' decoder (sub_byte_type_from_name): no register,
// variable or other instruction takes them.
constexpr std::array<std::pair<DataType, std::string_view>, 2> k_sub_byte_types{{
    {T::s4, "s4"},
    {T::u4, "u4"},
}};

using S = StateSpace;
constexpr std::array<std::pair<StateSpace, std::string_view>, 7> k_spaces{{
    {S::reg, "reg"},
    {S::param, "param"},
    {S::global, "global"},
    {S::shared, "shared"},
    {S::local, "local"},
    {S::const_, "const"},
    {S::tex, "tex"},
}};

using O = Opcode;
constexpr std::array<std::pair<Opcode, std::string_view>, 86> k_opcodes{{
    {O::ld, "ld"},
    {O::ldu, "ldu"},
    {O::st, "st"},
    {O::mov, "mov"},
    {O::cvta, "cvta"},
    {O::cvt, "cvt"},
    {O::prefetch, "prefetch"},
    {O::add, "add"},
    {O::sub, "sub"},
    {O::mul, "mul"},
    {O::mad, "mad"},
    {O::mul24, "mul24"},
    {O::mad24, "mad24"},
    {O::div, "div"},
    {O::rem, "rem"},
    {O::min, "min"},
    {O::max, "max"},
    {O::abs, "abs"},
    {O::neg, "neg"},
    {O::copysign, "copysign"},
    {O::sad, "sad"},
    {O::fma, "fma"},
    {O::rcp, "rcp"},
    {O::sqrt, "sqrt"},
    {O::rsqrt, "rsqrt"},
    {O::ex2, "ex2"},
    {O::lg2, "lg2"},
    {O::sin, "sin"},
    {O::cos, "cos"},
    {O::tanh, "tanh"},
    {O::testp, "testp"},
    {O::and_, "and"},
    {O::or_, "or"},
    {O::xor_, "xor"},
    {O::not_, "not"},
    {O::cnot, "cnot"},
    {O::shl, "shl"},
    {O::shr, "shr"},
    {O::popc, "popc"},
    {O::clz, "clz"},
    {O::brev, "brev"},
    {O::bfe, "bfe"},
    {O::bfi, "bfi"},
    {O::prmt, "prmt"},
    {O::bfind, "bfind"},
    {O::fns, "fns"},
    {O::bmsk, "bmsk"},
    {O::szext, "szext"},
    {O::setp, "setp"},
    {O::set, "set"},
    {O::selp, "selp"},
    {O::slct, "slct"},
    {O::bra, "bra"},
    {O::call, "call"},
    {O::ret, "ret"},
    {O::exit, "exit"},
    {O::trap, "trap"},
    {O::brkpt, "brkpt"},
    {O::nanosleep, "nanosleep"},
    {O::bar, "bar"},
    {O::membar, "membar"},
    {O::fence, "fence"},
    {O::atom, "atom"},
    {O::red, "red"},
    {O::shfl, "shfl"},
    {O::vote, "vote"},
    {O::activemask, "activemask"},
    {O::match, "match"},
    {O::redux, "redux"},
    {O::tex, "tex"},
    {O::suld, "suld"},
    {O::sust, "sust"},
    {O::tld4, "tld4"},
    {O::mma, "mma"},
    {O::wmma_mma, "wmma"},
    {O::shf, "shf"},
    {O::ldmatrix, "ldmatrix"},
    {O::lop3, "lop3"},
    {O::dp4a, "dp4a"},
    {O::dp2a, "dp2a"},
    {O::isspacep, "isspacep"},
    {O::vabsdiff4, "vabsdiff4"},
    {O::vabsdiff2, "vabsdiff2"},
    {O::alloca_, "alloca"},
    {O::stacksave, "stacksave"},
    {O::stackrestore, "stackrestore"},
}};

using C = CompareOp;
constexpr std::array<std::pair<CompareOp, std::string_view>, 18> k_compares{{
    {C::eq, "eq"},
    {C::ne, "ne"},
    {C::lt, "lt"},
    {C::le, "le"},
    {C::gt, "gt"},
    {C::ge, "ge"},
    {C::lo, "lo"},
    {C::ls, "ls"},
    {C::hi, "hi"},
    {C::hs, "hs"},
    {C::equ, "equ"},
    {C::neu, "neu"},
    {C::ltu, "ltu"},
    {C::leu, "leu"},
    {C::gtu, "gtu"},
    {C::geu, "geu"},
    {C::num, "num"},
    {C::nan, "nan"},
}};

using R = RoundingMode;
constexpr std::array<std::pair<RoundingMode, std::string_view>, 8> k_roundings{{
    {R::rn, "rn"},
    {R::rz, "rz"},
    {R::rm, "rm"},
    {R::rp, "rp"},
    {R::rni, "rni"},
    {R::rzi, "rzi"},
    {R::rmi, "rmi"},
    {R::rpi, "rpi"},
}};

using A = AtomicOp;
constexpr std::array<std::pair<AtomicOp, std::string_view>, 10> k_atomics{{
    {A::add, "add"},
    {A::min, "min"},
    {A::max, "max"},
    {A::inc, "inc"},
    {A::dec, "dec"},
    {A::and_, "and"},
    {A::or_, "or"},
    {A::xor_, "xor"},
    {A::exch, "exch"},
    {A::cas, "cas"},
}};

using SR = SpecialRegister;
constexpr std::array<std::pair<SpecialRegister, std::string_view>, 25> k_specials{{
    {SR::tid, "%tid"},
    {SR::ntid, "%ntid"},
    {SR::ctaid, "%ctaid"},
    {SR::nctaid, "%nctaid"},
    {SR::laneid, "%laneid"},
    {SR::warpid, "%warpid"},
    {SR::nwarpid, "%nwarpid"},
    {SR::smid, "%smid"},
    {SR::nsmid, "%nsmid"},
    {SR::gridid, "%gridid"},
    {SR::clock, "%clock"},
    {SR::clock64, "%clock64"},
    {SR::globaltimer, "%globaltimer"},
    {SR::lanemask_eq, "%lanemask_eq"},
    {SR::lanemask_lt, "%lanemask_lt"},
    {SR::lanemask_le, "%lanemask_le"},
    {SR::lanemask_gt, "%lanemask_gt"},
    {SR::lanemask_ge, "%lanemask_ge"},
    {SR::dynamic_smem_size, "%dynamic_smem_size"},
    {SR::total_smem_size, "%total_smem_size"},
    {SR::globaltimer_lo, "%globaltimer_lo"},
    {SR::globaltimer_hi, "%globaltimer_hi"},
    {SR::clock_hi, "%clock_hi"},
    {SR::warp_sz, "WARP_SZ"},  // a predefined constant, not a % register
    {SR::envreg, "%envreg"},
}};

constexpr std::array<std::pair<PermuteMode, std::string_view>, 6> k_permute_modes{{
    {PermuteMode::f4e, "f4e"},
    {PermuteMode::b4e, "b4e"},
    {PermuteMode::rc8, "rc8"},
    {PermuteMode::ecl, "ecl"},
    {PermuteMode::ecr, "ecr"},
    {PermuteMode::rc16, "rc16"},
}};

constexpr std::array<std::pair<TestProperty, std::string_view>, 6> k_test_properties{{
    {TestProperty::finite, "finite"},
    {TestProperty::infinite, "infinite"},
    {TestProperty::number, "number"},
    {TestProperty::notanumber, "notanumber"},
    {TestProperty::normal, "normal"},
    {TestProperty::subnormal, "subnormal"},
}};

}  // namespace

std::string_view type_name(DataType type) {
  if (is_sub_byte(type)) return name_of(k_sub_byte_types, type);
  return type == T::none ? "" : name_of(k_types, type);
}
std::string type_text(DataType type) {
  return "." + std::string(type_name(type));
}

std::optional<DataType> type_from_name(std::string_view name) {
  return value_of(k_types, name);
}

std::optional<DataType> sub_byte_type_from_name(std::string_view name) {
  return value_of(k_sub_byte_types, name);
}

std::string_view space_name(StateSpace space) {
  return space == S::generic ? "" : name_of(k_spaces, space);
}
std::optional<StateSpace> space_from_name(std::string_view name) {
  return value_of(k_spaces, name);
}

std::string geometry_name(uint32_t dimensions, bool layered, bool cube) {
  if (cube) return layered ? "acube" : "cube";
  return (layered ? "a" : "") + std::to_string(dimensions) + "d";
}

std::string_view opcode_name(Opcode op) {
  switch (op) {
    case O::wmma_load_a:
      return "wmma.load.a";
    case O::wmma_load_b:
      return "wmma.load.b";
    case O::wmma_load_c:
      return "wmma.load.c";
    case O::wmma_store_d:
      return "wmma.store.d";
    case O::wmma_mma:
      return "wmma.mma";
    case O::unsupported:
      return "(unsupported)";
    default:
      return name_of(k_opcodes, op);
  }
}
std::optional<Opcode> opcode_from_name(std::string_view name) {
  return value_of(k_opcodes, name);
}

std::string_view compare_name(CompareOp op) {
  return name_of(k_compares, op);
}
std::optional<CompareOp> compare_from_name(std::string_view name) {
  return value_of(k_compares, name);
}

std::string_view rounding_name(RoundingMode mode) {
  return name_of(k_roundings, mode);
}
std::optional<RoundingMode> rounding_from_name(std::string_view name) {
  return value_of(k_roundings, name);
}

std::string_view atomic_name(AtomicOp op) {
  return name_of(k_atomics, op);
}
std::optional<AtomicOp> atomic_from_name(std::string_view name) {
  return value_of(k_atomics, name);
}

std::string_view bool_op_name(BoolOp op) {
  switch (op) {
    case BoolOp::and_:
      return "and";
    case BoolOp::or_:
      return "or";
    case BoolOp::xor_:
      return "xor";
    case BoolOp::none:
      break;
  }
  return "";
}

std::string_view shuffle_name(ShuffleMode mode) {
  switch (mode) {
    case ShuffleMode::up:
      return "up";
    case ShuffleMode::down:
      return "down";
    case ShuffleMode::bfly:
      return "bfly";
    case ShuffleMode::idx:
      return "idx";
    case ShuffleMode::none:
      break;
  }
  return "";
}

std::string_view vote_name(VoteMode mode) {
  switch (mode) {
    case VoteMode::all:
      return "all";
    case VoteMode::any:
      return "any";
    case VoteMode::uni:
      return "uni";
    case VoteMode::ballot:
      return "ballot";
    case VoteMode::none:
      break;
  }
  return "";
}

std::string_view mul_mode_name(MulMode mode) {
  switch (mode) {
    case MulMode::lo:
      return "lo";
    case MulMode::hi:
      return "hi";
    case MulMode::wide:
      return "wide";
    case MulMode::none:
      break;
  }
  return "";
}

std::string_view special_register_name(SpecialRegister reg) {
  return name_of(k_specials, reg);
}
std::optional<SpecialRegister> special_register_from_name(std::string_view name) {
  if (name == "%envreg") return std::nullopt;  // only with its number
  return value_of(k_specials, name);
}

std::optional<uint8_t> environment_register_number(std::string_view name) {
  constexpr std::string_view prefix = "%envreg";
  if (name.substr(0, prefix.size()) != prefix) return std::nullopt;
  const std::string_view digits = name.substr(prefix.size());
  if (digits.empty() || digits.size() > 2 || (digits.size() == 2 && digits[0] == '0'))
    return std::nullopt;
  unsigned number = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    number = number * 10 + static_cast<unsigned>(c - '0');
  }
  if (number >= 32) return std::nullopt;
  return static_cast<uint8_t>(number);
}

bool special_register_has_components(SpecialRegister reg) {
  return reg == SR::tid || reg == SR::ntid || reg == SR::ctaid || reg == SR::nctaid;
}

std::string_view permute_mode_name(PermuteMode mode) {
  return mode == PermuteMode::none ? "" : name_of(k_permute_modes, mode);
}

std::optional<PermuteMode> permute_mode_from_name(std::string_view name) {
  return value_of(k_permute_modes, name);
}

std::string_view test_property_name(TestProperty property) {
  return name_of(k_test_properties, property);
}

std::optional<TestProperty> test_property_from_name(std::string_view name) {
  return value_of(k_test_properties, name);
}

}  // namespace ohmvp::gpu
