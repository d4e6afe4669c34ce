#include "modules/gpu/ptx/ptx_matrix.h"

#include <string>

#include "modules/gpu/ptx/ptx_immediate.h"
#include "modules/gpu/ptx/ptx_names.h"

namespace ohmvp::gpu {
namespace {

[[noreturn]] void fail(const std::string& message) {
  throw DecodeError{message};
}

std::optional<MatrixShape> shape_from_name(std::string_view name) {
  for (MatrixShape shape :
       {MatrixShape::m16n16k16, MatrixShape::m32n8k16, MatrixShape::m8n32k16, MatrixShape::m16n8k8,
        MatrixShape::m8n8k16, MatrixShape::m8n8k4, MatrixShape::m8n8k32})
    if (shape_name(shape) == name) return shape;
  return std::nullopt;
}

bool looks_like_shape(std::string_view piece) {
  return piece.size() > 1 && piece[0] == 'm' && piece[1] >= '0' && piece[1] <= '9';
}

bool is_wmma_shape(MatrixShape shape) {
  return shape == MatrixShape::m16n16k16 || shape == MatrixShape::m32n8k16 ||
         shape == MatrixShape::m8n32k16 || shape == MatrixShape::m8n8k32;
}

bool is_integer_element(DataType type) {
  return type == DataType::s8 || type == DataType::u8;
}

// The integer A and B elements a shape takes: s4/u4 on the 4-bit m8n8k32, s8/u8 elsewhere.
bool fits_integer_shape(MatrixShape shape, DataType type) {
  return shape == MatrixShape::m8n8k32 ? is_sub_byte(type) : is_integer_element(type);
}

// The qualifiers after the opcode words, in the order they came.
struct Qualifiers {
  bool sync = false;
  bool aligned = false;
  bool satfinite = false;
  std::vector<MatrixLayout> layouts;
  MatrixShape shape = MatrixShape::none;
  StateSpace space = StateSpace::generic;
  std::vector<DataType> types;
};

constexpr const char* k_wmma_shapes =
    "wmma takes .m16n16k16, .m32n8k16 or .m8n32k16, or .m8n8k32 (s4/u4)";
constexpr const char* k_mma_shapes =
    "mma.sync takes .m8n8k4 or .m16n8k8 (f16), .m8n8k16 (s8/u8) or .m8n8k32 (s4/u4)";

Qualifiers read_qualifiers(const std::vector<std::string_view>& pieces, size_t first,
                           const std::string& name, const char* accepted) {
  Qualifiers q;
  for (size_t i = first; i < pieces.size(); ++i) {
    const std::string_view piece = pieces[i];
    if (piece == "sync") {
      q.sync = true;
    } else if (piece == "aligned") {
      q.aligned = true;
    } else if (piece == "satfinite") {
      q.satfinite = true;
    } else if (piece == "row" || piece == "col") {
      q.layouts.push_back(piece == "row" ? MatrixLayout::row : MatrixLayout::col);
    } else if (looks_like_shape(piece)) {
      const auto shape = shape_from_name(piece);
      if (!shape)
        fail(name + " shape ." + std::string(piece) + " is not supported (" + accepted + ")");
      if (q.shape != MatrixShape::none) fail(name + " has two shapes");
      q.shape = *shape;
    } else if (piece == "global" || piece == "shared") {
      q.space = piece == "global" ? StateSpace::global : StateSpace::shared;
    } else if (auto type = type_from_name(piece)) {
      q.types.push_back(*type);
    } else if (auto sub_byte = sub_byte_type_from_name(piece)) {
      q.types.push_back(*sub_byte);
    } else {
      fail("unknown modifier '." + std::string(piece) + "' of " + name);
    }
  }
  if (!q.sync || !q.aligned) fail(name + " needs .sync.aligned");
  if (q.shape == MatrixShape::none) fail(name + " needs a shape (.m16n16k16, ...)");
  return q;
}

void check_fragment(const RawOperand& raw, size_t position, uint32_t registers,
                    const std::vector<DataType>& register_types, const std::string& what) {
  const Operand& operand = raw.operand;
  if (operand.kind != Operand::Kind::vector)
    fail("operand " + std::to_string(position + 1) + " must be the " + what + " fragment {...}");
  if (operand.vector_count != registers)
    fail("the " + what + " fragment has " + std::to_string(registers) + " registers, got " +
         std::to_string(operand.vector_count));
  for (uint8_t i = 0; i < operand.vector_count; ++i) {
    const uint32_t reg = operand.vector_regs[i];
    if (reg == no_register) fail("the " + what + " fragment cannot hold '_'");
    if (reg < register_types.size() &&
        (register_types[reg] == DataType::pred || type_bytes(register_types[reg]) != 4))
      fail("the " + what + " fragment needs 32-bit registers");
  }
}

void check_stride(RawOperand& raw, const std::vector<DataType>& register_types) {
  Operand& operand = raw.operand;
  if (operand.kind == Operand::Kind::imm) {
    const ImmediateResult result = immediate_bits(raw.literal, raw.literal_negative, DataType::u32);
    if (!result.error.empty()) fail(result.error);
    operand.imm = result.bits;
    return;
  }
  if (operand.kind != Operand::Kind::reg) fail("the stride must be a register or an immediate");
  if (operand.reg < register_types.size() &&
      (register_types[operand.reg] == DataType::pred || is_float(register_types[operand.reg])))
    fail("the stride must be an integer or bit-size register, got a " +
         type_text(register_types[operand.reg]) + " one");
}

void copy_operands(Instruction& inst, const std::vector<RawOperand>& operands) {
  inst.operand_count = static_cast<uint8_t>(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) inst.operands[i] = operands[i].operand;
}

void decode_load_store(const std::string& name, const Qualifiers& q, std::vector<RawOperand>& ops,
                       const std::vector<DataType>& register_types, Instruction& inst) {
  if (!is_wmma_shape(q.shape))
    fail(name + " shape ." + std::string(shape_name(q.shape)) + " is not supported (" +
         k_wmma_shapes + ")");
  if (q.layouts.size() != 1) fail(name + " needs one layout (.row or .col)");
  if (q.types.size() != 1) fail(name + " needs one type");
  if (q.satfinite) fail(name + " does not take .satfinite");
  const MatrixRole role = role_of(inst.op);
  const DataType type = q.types[0];
  const bool four_bit = q.shape == MatrixShape::m8n8k32;
  const bool ok =
      role == MatrixRole::c
          ? type == DataType::s32 || (!four_bit && (type == DataType::f16 || type == DataType::f32))
          : fits_integer_shape(q.shape, type) || (!four_bit && type == DataType::f16);
  if (!ok)
    fail(name + (four_bit ? ".m8n8k32" : "") + type_text(type) + " is not supported (" +
         (role == MatrixRole::c ? (four_bit ? ".s32" : ".f16, .f32 or .s32")
                                : (four_bit ? ".s4 or .u4" : ".f16, .s8 or .u8")) +
         ")");
  // The 4-bit mode's A is row-major and its B column-major (PTX ISA).
  const MatrixLayout needed = role == MatrixRole::a ? MatrixLayout::row : MatrixLayout::col;
  if (four_bit && role != MatrixRole::c && q.layouts[0] != needed)
    fail(name + ".m8n8k32 needs ." + std::string(layout_name(needed)));
  inst.type = type;
  inst.space = q.space;
  inst.mod.shape = q.shape;
  inst.mod.layout_a = q.layouts[0];
  const bool is_store = inst.op == Opcode::wmma_store_d;
  if (ops.size() != 2 && ops.size() != 3)
    fail("expected 2 or 3 operands for " + name + ", got " + std::to_string(ops.size()));
  const size_t address = is_store ? 0 : 1;
  if (ops[address].operand.kind != Operand::Kind::address)
    fail("operand " + std::to_string(address + 1) + " of " + name + " must be an address");
  check_fragment(ops[is_store ? 1 : 0], is_store ? 1 : 0, fragment_registers(q.shape, role, type),
                 register_types,
                 is_store                ? "D"
                 : role == MatrixRole::a ? "A"
                 : role == MatrixRole::b ? "B"
                                         : "C");
  if (ops.size() == 3) check_stride(ops[2], register_types);
  copy_operands(inst, ops);
}

void decode_multiply(const std::string& name, const Qualifiers& q, std::vector<RawOperand>& ops,
                     const std::vector<DataType>& register_types, Instruction& inst) {
  if (q.space != StateSpace::generic) fail(name + " takes no state space");
  if (q.layouts.size() != 2) fail(name + " needs two layouts (A's and B's: .row or .col)");
  const bool is_mma = inst.op == Opcode::mma;
  if (is_mma && !is_mma_shape(q.shape))
    fail(name + " shape ." + std::string(shape_name(q.shape)) + " is not supported (" +
         k_mma_shapes + ")");
  if (!is_mma && !is_wmma_shape(q.shape))
    fail(name + " shape ." + std::string(shape_name(q.shape)) + " is not supported (" +
         k_wmma_shapes + ")");
  // m8n8k4 takes either layout for A and for B; the sm_75 shapes and the 4-bit mode only row-major
  // A and column-major B.
  if ((is_mma || q.shape == MatrixShape::m8n8k32) && q.shape != MatrixShape::m8n8k4 &&
      (q.layouts[0] != MatrixLayout::row || q.layouts[1] != MatrixLayout::col))
    fail(name + "." + std::string(shape_name(q.shape)) + " needs .row.col");
  DataType d, a, b, c;
  if (q.types.size() == 2 && !is_mma) {  // wmma.mma .dtype.ctype, f16 A and B
    d = q.types[0], a = b = DataType::f16, c = q.types[1];
  } else if (q.types.size() == 4) {  // .dtype.atype.btype.ctype
    d = q.types[0], a = q.types[1], b = q.types[2], c = q.types[3];
    // mma.sync's integer shapes take s8 and u8 (s4 and u4) in either order; wmma the same type
    // twice.
    const bool mixed_integers =
        is_mma && fits_integer_shape(q.shape, a) && fits_integer_shape(q.shape, b);
    if (b != a && !mixed_integers)
      fail(name + ": A" + type_text(a) + " with B" + type_text(b) + " is not supported");
  } else {
    fail(name + " needs " +
         (is_mma ? "4 types (.dtype.atype.btype.ctype)"
                 : "2 types (.dtype.ctype) or 4 (.s32.atype.btype.s32)"));
  }
  const bool floating = (d == DataType::f16 || d == DataType::f32) &&
                        (c == DataType::f16 || c == DataType::f32) && a == DataType::f16;
  const bool integer = d == DataType::s32 && c == DataType::s32 && fits_integer_shape(q.shape, a);
  const bool four_bit = q.shape == MatrixShape::m8n8k32;
  const bool integer_shape = four_bit || (is_mma && q.shape == MatrixShape::m8n8k16);
  if (integer_shape ? !integer : is_mma ? !floating : !(floating || integer))
    fail(name + (is_mma || four_bit ? "." + std::string(shape_name(q.shape)) : std::string()) +
         type_text(d) + type_text(a) + type_text(b) + type_text(c) + " is not supported (" +
         (four_bit        ? "s4/u4 A and B with s32 C and D"
          : !is_mma       ? "f16 A and B with f16/f32 C and D, or s8/u8 A and B with "
                            "s32 C and D"
          : integer_shape ? "s8/u8 A and B with s32 C and D"
                          : "f16 A and B with f16/f32 C and D") +
         ")");
  if (q.satfinite && !integer) fail(name + ": .satfinite needs integer A and B");
  inst.type = d;
  inst.source_type = a;
  inst.mod.b_type = b;
  inst.mod.accumulator_type = c;
  inst.mod.shape = q.shape;
  inst.mod.layout_a = q.layouts[0];
  inst.mod.layout_b = q.layouts[1];
  inst.mod.satfinite = q.satfinite;
  if (ops.size() != 4)
    fail("expected 4 operands for " + name + ", got " + std::to_string(ops.size()));
  check_fragment(ops[0], 0, fragment_registers(q.shape, MatrixRole::c, d), register_types, "D");
  check_fragment(ops[1], 1, fragment_registers(q.shape, MatrixRole::a, a), register_types, "A");
  check_fragment(ops[2], 2, fragment_registers(q.shape, MatrixRole::b, b), register_types, "B");
  check_fragment(ops[3], 3, fragment_registers(q.shape, MatrixRole::c, c), register_types, "C");
  copy_operands(inst, ops);
}

// ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 d, [a].
void decode_ldmatrix(const std::vector<std::string_view>& pieces, std::vector<RawOperand>& ops,
                     const std::vector<DataType>& register_types, Instruction& inst) {
  bool sync = false, aligned = false, shape = false;
  std::vector<DataType> types;
  for (size_t i = 1; i < pieces.size(); ++i) {
    const std::string_view piece = pieces[i];
    if (piece == "sync") {
      sync = true;
    } else if (piece == "aligned") {
      aligned = true;
    } else if (piece == "m8n8") {
      shape = true;
    } else if (looks_like_shape(piece)) {
      fail("ldmatrix shape ." + std::string(piece) + " is not supported (ldmatrix takes .m8n8)");
    } else if (piece == "x1" || piece == "x2" || piece == "x4") {
      inst.mod.vector_width = static_cast<uint8_t>(piece[1] - '0');
    } else if (piece == "trans") {
      inst.mod.transpose = true;
    } else if (piece == "shared" || piece == "shared::cta") {
      inst.space = StateSpace::shared;
    } else if (auto type = type_from_name(piece)) {
      types.push_back(*type);
    } else {
      fail("unknown modifier '." + std::string(piece) + "' of ldmatrix");
    }
  }
  if (!sync || !aligned) fail("ldmatrix needs .sync.aligned");
  if (!shape) fail("ldmatrix needs a shape (.m8n8)");
  if (inst.mod.vector_width == 0) fail("ldmatrix needs .x1, .x2 or .x4");
  if (types.size() != 1 || types[0] != DataType::b16) fail("ldmatrix takes one type, .b16");
  inst.type = DataType::b16;
  if (ops.size() != 2) fail("expected 2 operands for ldmatrix, got " + std::to_string(ops.size()));
  if (ops[1].operand.kind != Operand::Kind::address)
    fail("operand 2 of ldmatrix must be an address");
  if (ops[0].operand.kind == Operand::Kind::reg && inst.mod.vector_width == 1) {
    Operand& d = ops[0].operand;  // .x1 into a plain register: a vector of one
    d.kind = Operand::Kind::vector;
    d.vector_count = 1;
    d.vector_regs[0] = d.reg;
    d.reg = no_register;
  }
  check_fragment(ops[0], 0, inst.mod.vector_width, register_types, "destination");
  copy_operands(inst, ops);
}

}  // namespace

bool is_mma_shape(MatrixShape shape) {
  return shape == MatrixShape::m16n8k8 || shape == MatrixShape::m8n8k16 ||
         shape == MatrixShape::m8n8k4 || shape == MatrixShape::m8n8k32;
}

uint32_t tiles_per_warp(MatrixShape shape) {
  return shape == MatrixShape::m8n8k4 ? 4 : 1;
}

MatrixGeometry matrix_geometry(MatrixShape shape) {
  switch (shape) {
    case MatrixShape::m16n16k16:
      return {16, 16, 16};
    case MatrixShape::m32n8k16:
      return {32, 8, 16};
    case MatrixShape::m8n32k16:
      return {8, 32, 16};
    case MatrixShape::m16n8k8:
      return {16, 8, 8};
    case MatrixShape::m8n8k16:
      return {8, 8, 16};
    case MatrixShape::m8n8k4:
      return {8, 8, 4};
    case MatrixShape::m8n8k32:
      return {8, 8, 32};
    case MatrixShape::none:
      break;
  }
  return {};
}

std::string_view shape_name(MatrixShape shape) {
  switch (shape) {
    case MatrixShape::m16n16k16:
      return "m16n16k16";
    case MatrixShape::m32n8k16:
      return "m32n8k16";
    case MatrixShape::m8n32k16:
      return "m8n32k16";
    case MatrixShape::m16n8k8:
      return "m16n8k8";
    case MatrixShape::m8n8k16:
      return "m8n8k16";
    case MatrixShape::m8n8k4:
      return "m8n8k4";
    case MatrixShape::m8n8k32:
      return "m8n8k32";
    case MatrixShape::none:
      break;
  }
  return "";
}

std::string_view layout_name(MatrixLayout layout) {
  return layout == MatrixLayout::row ? "row" : layout == MatrixLayout::col ? "col" : "";
}

uint32_t matrix_rows(MatrixShape shape, MatrixRole role) {
  const MatrixGeometry g = matrix_geometry(shape);
  return role == MatrixRole::b ? g.k : g.m;
}

uint32_t matrix_cols(MatrixShape shape, MatrixRole role) {
  const MatrixGeometry g = matrix_geometry(shape);
  return role == MatrixRole::a ? g.k : g.n;
}

uint32_t fragment_elements(MatrixShape shape, MatrixRole role, DataType element) {
  if (role != MatrixRole::c && element == DataType::f16 && is_wmma_shape(shape)) return 16;
  return matrix_rows(shape, role) * matrix_cols(shape, role) * tiles_per_warp(shape) / 32;
}

uint32_t fragment_registers(MatrixShape shape, MatrixRole role, DataType element) {
  return fragment_elements(shape, role, element) * type_bits(element) / 32;
}

MatrixRole role_of(Opcode op) {
  switch (op) {
    case Opcode::wmma_load_a:
      return MatrixRole::a;
    case Opcode::wmma_load_b:
      return MatrixRole::b;
    default:
      return MatrixRole::c;
  }
}

void decode_matrix_instruction(std::string_view word, const std::vector<std::string_view>& pieces,
                               std::vector<RawOperand>& operands, const Function& function,
                               Instruction& inst) {
  size_t first = 1;
  std::string name(pieces[0]);
  if (pieces[0] == "ldmatrix") {
    inst.op = Opcode::ldmatrix;
    inst.mod.vector_width = 0;
    decode_ldmatrix(pieces, operands, function.register_types, inst);
    inst.unit = unit_class_of(inst);
    return;
  }
  if (pieces[0] == "mma") {
    inst.op = Opcode::mma;
    name = "mma.sync";
  } else {
    const std::string_view verb = pieces.size() > 1 ? pieces[1] : "";
    const std::string_view matrix = pieces.size() > 2 ? pieces[2] : "";
    if (verb == "mma") {
      inst.op = Opcode::wmma_mma, first = 2;
    } else if (verb == "load" && (matrix == "a" || matrix == "b" || matrix == "c")) {
      inst.op = matrix == "a"   ? Opcode::wmma_load_a
                : matrix == "b" ? Opcode::wmma_load_b
                                : Opcode::wmma_load_c;
      first = 3;
    } else if (verb == "store" && matrix == "d") {
      inst.op = Opcode::wmma_store_d, first = 3;
    } else {
      fail("unknown instruction '" + std::string(word) +
           "' (wmma takes load.a, load.b, load.c, store.d or mma)");
    }
    name = std::string(opcode_name(inst.op));
  }
  const Qualifiers q =
      read_qualifiers(pieces, first, name, inst.op == Opcode::mma ? k_mma_shapes : k_wmma_shapes);
  if (inst.op == Opcode::wmma_mma || inst.op == Opcode::mma)
    decode_multiply(name, q, operands, function.register_types, inst);
  else
    decode_load_store(name, q, operands, function.register_types, inst);
  inst.unit = unit_class_of(inst);
}

}  // namespace ohmvp::gpu
