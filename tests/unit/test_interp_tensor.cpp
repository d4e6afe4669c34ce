// wmma.load / wmma.mma / wmma.store and mma.sync from PTX text through the functional executor,
// on every shape, layout and precision, against sums computed here.
#include <catch2/catch.hpp>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "modules/common/errors.h"
#include "modules/gpu/ptx/ptx_matrix.h"
#include "modules/gpu/ptx/ptx_names.h"
#include "modules/gpu/ptx/ptx_parser.h"
#include "modules/gpu/simt/fragment_layout.h"
#include "modules/gpu/simt/functional_executor.h"
#include "modules/gpu/simt/half.h"

using namespace ohmvp;
using namespace ohmvp::gpu;

namespace {

std::string fragment(const char* prefix, uint32_t first, uint32_t count) {
  std::string text = "{";
  for (uint32_t i = 0; i < count; ++i)
    text += (i ? ", %" : "%") + std::string(prefix) + std::to_string(first + i);
  return text + "}";
}

std::string name(DataType type) {
  return std::string(type_name(type));
}

std::string layout(MatrixLayout l) {
  return std::string(layout_name(l));
}

struct Case {
  MatrixShape shape;
  MatrixLayout la, lb, lc, ld;
  DataType ab, c, d;
  bool satfinite = false;
};

// Element (row, col) of a rows x cols matrix stored with `stride`: its byte offset.
uint64_t offset(MatrixLayout l, uint32_t row, uint32_t col, uint32_t stride, uint32_t bytes) {
  return (l == MatrixLayout::row ? uint64_t{row} * stride + col : uint64_t{col} * stride + row) *
         bytes;
}

uint32_t stride_of(MatrixLayout l, uint32_t rows, uint32_t cols) {
  const uint32_t tile = l == MatrixLayout::row ? cols : rows;
  return (tile + 15) / 16 * 16 + 16;  // padded; 16 elements is 16 bytes or more
}

int32_t a_value(uint32_t i, uint32_t k) {
  return int32_t(i * 3 + k) % 5 - 2;
}
int32_t b_value(uint32_t k, uint32_t j) {
  return int32_t(k + j * 2) % 7 - 3;
}
int32_t c_value(uint32_t i, uint32_t j) {
  return int32_t(i * 5 + j) % 11 - 5;
}

void put_element(std::vector<uint8_t>& bytes, uint64_t at, DataType type, int32_t v) {
  uint32_t raw = 0;
  if (type == DataType::f16)
    raw = f32_to_f16(float(v));
  else if (type == DataType::f32) {
    const float f = float(v);
    std::memcpy(&raw, &f, 4);
  } else {
    raw = uint32_t(v);
  }
  std::memcpy(bytes.data() + at, &raw, type_bytes(type));
}

double get_element(const std::vector<uint8_t>& bytes, uint64_t at, DataType type) {
  uint32_t raw = 0;
  std::memcpy(&raw, bytes.data() + at, type_bytes(type));
  if (type == DataType::f16) return f16_to_f32(uint16_t(raw));
  if (type == DataType::f32) {
    float f;
    std::memcpy(&f, &raw, 4);
    return f;
  }
  return int32_t(raw);
}

std::string kernel_ptx(const Case& c) {
  const std::string shape(shape_name(c.shape));
  const uint32_t a_regs = fragment_registers(c.shape, MatrixRole::a, c.ab);
  const uint32_t b_regs = fragment_registers(c.shape, MatrixRole::b, c.ab);
  const uint32_t c_regs = fragment_registers(c.shape, MatrixRole::c, c.c);
  const uint32_t d_regs = fragment_registers(c.shape, MatrixRole::c, c.d);
  const MatrixGeometry g = matrix_geometry(c.shape);
  const std::string a = fragment("r", 1, a_regs), b = fragment("r", 11, b_regs);
  const std::string cf =
      c.c == DataType::f32 ? fragment("f", 1, c_regs) : fragment("r", 21, c_regs);
  const std::string df =
      c.d == DataType::f32 ? fragment("f", 11, d_regs) : fragment("r", 31, d_regs);
  const bool integer = c.ab != DataType::f16;
  std::string types = integer ? ".s32." + name(c.ab) + "." + name(c.ab) + ".s32"
                              : "." + name(c.d) + "." + name(c.c);
  if (c.satfinite) types += ".satfinite";
  return ".version 7.0\n.target sm_75\n.address_size 64\n"
         ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
         "  .reg .b32 %r<40>;\n  .reg .f32 %f<20>;\n  .reg .b64 %rd<5>;\n"
         "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n"
         "  ld.param.u64 %rd3, [pc];\n  ld.param.u64 %rd4, [pd];\n"
         "  wmma.load.a.sync.aligned." +
         layout(c.la) + "." + shape + ".global." + name(c.ab) + " " + a + ", [%rd1], " +
         std::to_string(stride_of(c.la, g.m, g.k)) + ";\n" + "  wmma.load.b.sync.aligned." +
         layout(c.lb) + "." + shape + ".global." + name(c.ab) + " " + b + ", [%rd2], " +
         std::to_string(stride_of(c.lb, g.k, g.n)) + ";\n" + "  wmma.load.c.sync.aligned." +
         layout(c.lc) + "." + shape + ".global." + name(c.c) + " " + cf + ", [%rd3], " +
         std::to_string(stride_of(c.lc, g.m, g.n)) + ";\n" + "  wmma.mma.sync.aligned." +
         layout(c.la) + "." + layout(c.lb) + "." + shape + types + " " + df + ", " + a + ", " + b +
         ", " + cf + ";\n" + "  wmma.store.d.sync.aligned." + layout(c.ld) + "." + shape +
         ".global." + name(c.d) + " [%rd4], " + df + ", " +
         std::to_string(stride_of(c.ld, g.m, g.n)) + ";\n" + "  exit;\n}\n";
}

std::vector<uint8_t> pointers(std::initializer_list<uint64_t> list) {
  std::vector<uint8_t> bytes;
  for (uint64_t p : list)
    for (int i = 0; i < 8; ++i) bytes.push_back(uint8_t(p >> (8 * i)));
  return bytes;
}

// Runs kernel k(pin, pout) of `ptx` on one warp of the functional executor with `in` at pin;
// returns the `out_bytes` at pout.
std::vector<uint8_t> run_one_warp(const std::string& ptx, const std::vector<uint8_t>& in,
                                  size_t out_bytes) {
  const Module module = parse_ptx(ptx, "mma.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory);
  const uint64_t pin = memory.allocate(in.size()), pout = memory.allocate(out_bytes);
  memory.write(pin, in.data(), in.size());
  executor.launch({"k", {1, 1, 1}, {32, 1, 1}, 0, pointers({pin, pout})});
  std::vector<uint8_t> out(out_bytes);
  memory.read(pout, out.data(), out.size());
  return out;
}

// Kernel `k(in, out)`: lane l loads 16 bytes at in + 16 l (one A register, one B register, two
// C registers), runs mma.sync.aligned.<shape>.row.col{.satfinite}.s32.<types>.s32 and stores its
// two D registers at out + 16 l.
std::string integer_mma_ptx(const std::string& shape, bool saturate, const std::string& types) {
  return ".version 7.0\n.target sm_75\n.address_size 64\n"
         ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
         "  .reg .b32 %r<20>;\n  .reg .b64 %rd<6>;\n"
         "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
         "  mov.u32 %r1, %laneid;\n  mul.wide.u32 %rd3, %r1, 16;\n"
         "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n"
         "  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];\n"
         "  mma.sync.aligned." +
         shape + ".row.col" + (saturate ? ".satfinite" : "") + ".s32." + types +
         ".s32 {%r6, %r7}, {%r2}, {%r3}, {%r4, %r5};\n"
         "  st.global.v2.u32 [%rd5], {%r6, %r7};\n  exit;\n}\n";
}

// Runs kernel `k(a, b, c, d)` of `ptx` on one warp with the bytes of A, B and C; D's bytes after.
std::vector<uint8_t> run_abcd(const std::string& ptx, FragmentMapping mapping,
                              const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                              const std::vector<uint8_t>& c, size_t d_bytes) {
  const Module module = parse_ptx(ptx, "tile.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32, mapping);
  const uint64_t pa = memory.allocate(a.size()), pb = memory.allocate(b.size());
  const uint64_t pc = memory.allocate(c.size()), pd = memory.allocate(d_bytes);
  memory.write(pa, a.data(), a.size());
  memory.write(pb, b.data(), b.size());
  memory.write(pc, c.data(), c.size());
  executor.launch({"k", {1, 1, 1}, {32, 1, 1}, 0, pointers({pa, pb, pc, pd})});
  std::vector<uint8_t> d(d_bytes);
  memory.read(pd, d.data(), d.size());
  return d;
}

void run_case(const Case& c, FragmentMapping mapping) {
  const MatrixGeometry g = matrix_geometry(c.shape);
  const uint32_t ab = uint32_t(type_bytes(c.ab));
  const uint32_t lda = stride_of(c.la, g.m, g.k), ldb = stride_of(c.lb, g.k, g.n);
  const uint32_t ldc = stride_of(c.lc, g.m, g.n), ldd = stride_of(c.ld, g.m, g.n);
  std::vector<uint8_t> a(size_t{lda} * 32 * ab), b(size_t{ldb} * 32 * ab);
  std::vector<uint8_t> cm(size_t{ldc} * 32 * 4);
  for (uint32_t i = 0; i < g.m; ++i)
    for (uint32_t k = 0; k < g.k; ++k)
      put_element(a, offset(c.la, i, k, lda, ab), c.ab, a_value(i, k));
  for (uint32_t k = 0; k < g.k; ++k)
    for (uint32_t j = 0; j < g.n; ++j)
      put_element(b, offset(c.lb, k, j, ldb, ab), c.ab, b_value(k, j));
  const uint32_t cb = uint32_t(type_bytes(c.c)), db = uint32_t(type_bytes(c.d));
  for (uint32_t i = 0; i < g.m; ++i)
    for (uint32_t j = 0; j < g.n; ++j)
      put_element(cm, offset(c.lc, i, j, ldc, cb), c.c, c_value(i, j));
  const std::vector<uint8_t> dm = run_abcd(kernel_ptx(c), mapping, a, b, cm, size_t{ldd} * 32 * 4);
  for (uint32_t i = 0; i < g.m; ++i)
    for (uint32_t j = 0; j < g.n; ++j) {
      int32_t sum = c_value(i, j);
      for (uint32_t k = 0; k < g.k; ++k) sum += a_value(i, k) * b_value(k, j);
      INFO("D[" << i << "][" << j << "]");
      CHECK(get_element(dm, offset(c.ld, i, j, ldd, db), c.d) == double(sum));
    }
}

constexpr FragmentMapping k_mappings[] = {FragmentMapping::volta, FragmentMapping::turing};

// Kernel `k(tile, out)`: wmma.load of a 16 x 16 f16 A (m16n16k16, `layout`) from global memory,
// or through a shared copy of it, then each lane stores its 8 fragment registers at out + 32 x
// lane.
std::string fragment_dump_ptx(MatrixLayout layout, bool shared) {
  const std::string load = "wmma.load.a.sync.aligned." + std::string(layout_name(layout)) +
                           ".m16n16k16" + (shared ? ".shared" : ".global") + ".f16 " +
                           fragment("r", 1, 8);
  std::string ptx =
      ".version 7.0\n.target sm_75\n.address_size 64\n"
      ".visible .entry k(.param .u64 ptile, .param .u64 pout)\n{\n"
      "  .reg .b32 %r<20>;\n  .reg .b64 %rd<8>;\n  .shared .align 16 .b8 tile[512];\n"
      "  ld.param.u64 %rd1, [ptile];\n  ld.param.u64 %rd2, [pout];\n"
      "  mov.u32 %r10, %laneid;\n  mul.wide.u32 %rd3, %r10, 16;\n"
      "  add.s64 %rd4, %rd1, %rd3;\n  ld.global.v4.u32 {%r11, %r12, %r13, %r14}, [%rd4];\n"
      "  mov.u32 %r15, tile;\n  mul.lo.u32 %r16, %r10, 16;\n  add.u32 %r17, %r15, %r16;\n"
      "  st.shared.v4.u32 [%r17], {%r11, %r12, %r13, %r14};\n  bar.sync 0;\n";
  ptx += shared ? "  " + load + ", [%r15];\n" : "  " + load + ", [%rd1];\n";
  ptx += "  mul.wide.u32 %rd5, %r10, 32;\n  add.s64 %rd6, %rd2, %rd5;\n";
  for (int i = 0; i < 8; ++i)
    ptx +=
        "  st.global.u32 [%rd6+" + std::to_string(4 * i) + "], %r" + std::to_string(1 + i) + ";\n";
  return ptx + "  exit;\n}\n";
}

}  // namespace

TEST_CASE("wmma.load fills each lane's f16 A fragment as the mapping says, repeats included",
          "[tensor][interp]") {
  for (FragmentMapping mapping : k_mappings)
    for (MatrixLayout layout : {MatrixLayout::row, MatrixLayout::col})
      for (bool shared : {false, true}) {
        INFO("mapping " << int(mapping) << " " << layout_name(layout) << " shared " << shared);
        const Module module = parse_ptx(fragment_dump_ptx(layout, shared), "dump.ptx");
        DeviceMemory memory;
        FunctionalExecutor executor(module, memory, 32, mapping);
        std::vector<uint8_t> tile(512), out(32 * 32);
        for (uint32_t row = 0; row < 16; ++row)
          for (uint32_t col = 0; col < 16; ++col)
            put_element(tile, offset(layout, row, col, 16, 2), DataType::f16,
                        int32_t(row * 16 + col));
        const uint64_t ptile = memory.allocate(tile.size()), pout = memory.allocate(out.size());
        memory.write(ptile, tile.data(), tile.size());
        executor.launch({"k", {1, 1, 1}, {32, 1, 1}, 0, pointers({ptile, pout})});
        memory.read(pout, out.data(), out.size());
        const FragmentSpec spec{MatrixShape::m16n16k16, MatrixRole::a, DataType::f16, layout,
                                mapping};
        for (uint32_t lane = 0; lane < 32; ++lane)
          for (uint32_t i = 0; i < 16; ++i) {
            const MatrixPosition p = fragment_position(spec, lane, i);
            INFO("lane " << lane << " x[" << i << "]");
            CHECK(get_element(out, lane * 32 + i * 2, DataType::f16) == double(p.row * 16 + p.col));
          }
      }
}

TEST_CASE("wmma f16: every shape, layout and accumulator precision, both mappings",
          "[tensor][interp]") {
  const MatrixLayout row = MatrixLayout::row, col = MatrixLayout::col;
  for (FragmentMapping mapping : k_mappings)
    for (MatrixShape shape : {MatrixShape::m16n16k16, MatrixShape::m32n8k16, MatrixShape::m8n32k16})
      for (MatrixLayout la : {row, col})
        for (MatrixLayout lb : {row, col})
          for (auto [ct, dt] :
               {std::pair{DataType::f32, DataType::f32}, std::pair{DataType::f16, DataType::f16},
                std::pair{DataType::f16, DataType::f32}, std::pair{DataType::f32, DataType::f16}}) {
            const Case c{shape, la, lb, la == lb ? row : col, lb, DataType::f16, ct, dt};
            INFO(kernel_ptx(c) << "mapping " << int(mapping));
            run_case(c, mapping);
          }
}

TEST_CASE("wmma s8/u8 (Turing integer mode): every shape and layout, both mappings",
          "[tensor][interp]") {
  const MatrixLayout row = MatrixLayout::row, col = MatrixLayout::col;
  for (FragmentMapping mapping : k_mappings)
    for (MatrixShape shape : {MatrixShape::m16n16k16, MatrixShape::m32n8k16, MatrixShape::m8n32k16})
      for (MatrixLayout la : {row, col})
        for (MatrixLayout lb : {row, col}) {
          const Case c{shape, la, lb, col, row, DataType::s8, DataType::s32, DataType::s32};
          INFO(kernel_ptx(c) << "mapping " << int(mapping));
          run_case(c, mapping);
        }
  // .satfinite changes nothing while the sums fit in s32.
  const Case u{MatrixShape::m16n16k16, row,           col,           row, row,
               DataType::s8,           DataType::s32, DataType::s32, true};
  run_case(u, FragmentMapping::turing);
}

TEST_CASE("mma.sync.m16n8k8 uses the PTX ISA's fragment layout", "[tensor][interp]") {
  for (DataType dt : {DataType::f32, DataType::f16}) {
    const bool f32 = dt == DataType::f32;
    const std::string d = f32 ? "{%f1, %f2, %f3, %f4}" : "{%r10, %r11}";
    const std::string c = f32 ? "{%f5, %f6, %f7, %f8}" : "{%r12, %r13}";
    std::string ptx =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
        "  .reg .b32 %r<20>;\n  .reg .f32 %f<10>;\n  .reg .b64 %rd<6>;\n"
        "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
        "  mov.u32 %r1, %laneid;\n  mul.wide.u32 %rd3, %r1, 32;\n"
        "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n"
        "  ld.global.u32 %r2, [%rd4];\n  ld.global.u32 %r3, [%rd4+4];\n"
        "  ld.global.u32 %r4, [%rd4+8];\n";
    if (f32)
      ptx +=
          "  ld.global.f32 %f5, [%rd4+12];\n  ld.global.f32 %f6, [%rd4+16];\n"
          "  ld.global.f32 %f7, [%rd4+20];\n  ld.global.f32 %f8, [%rd4+24];\n";
    else
      ptx += "  ld.global.u32 %r12, [%rd4+12];\n  ld.global.u32 %r13, [%rd4+16];\n";
    ptx += "  mma.sync.aligned.m16n8k8.row.col." + name(dt) + ".f16.f16." + name(dt) + " " + d +
           ", {%r2, %r3}, {%r4}, " + c + ";\n";
    if (f32)
      ptx +=
          "  st.global.f32 [%rd5], %f1;\n  st.global.f32 [%rd5+4], %f2;\n"
          "  st.global.f32 [%rd5+8], %f3;\n  st.global.f32 [%rd5+12], %f4;\n";
    else
      ptx += "  st.global.u32 [%rd5], %r10;\n  st.global.u32 [%rd5+4], %r11;\n";
    ptx += "  exit;\n}\n";
    // Per lane: a0a1, a2a3, b0b1 (f16 pairs), then C. PTX ISA: groupID = lane / 4, t = lane % 4;
    // a_i at (groupID + 8 (i >= 2), 2t + i % 2); b_i at (2t + i, groupID); c_i like a_i.
    std::vector<uint8_t> in(32 * 32);
    for (uint32_t lane = 0; lane < 32; ++lane) {
      const uint32_t group = lane / 4, t = lane % 4;
      uint8_t* at = in.data() + lane * 32;
      for (uint32_t i = 0; i < 4; ++i) {
        const uint16_t v = f32_to_f16(float(a_value(group + i / 2 * 8, 2 * t + i % 2)));
        std::memcpy(at + i * 2, &v, 2);
      }
      for (uint32_t i = 0; i < 2; ++i) {
        const uint16_t v = f32_to_f16(float(b_value(2 * t + i, group)));
        std::memcpy(at + 8 + i * 2, &v, 2);
      }
      for (uint32_t i = 0; i < 4; ++i) {
        const float cv = float(c_value(group + i / 2 * 8, 2 * t + i % 2));
        if (f32) {
          std::memcpy(at + 12 + i * 4, &cv, 4);
        } else {
          const uint16_t hv = f32_to_f16(cv);
          std::memcpy(at + 12 + i * 2, &hv, 2);
        }
      }
    }
    const std::vector<uint8_t> out = run_one_warp(ptx, in, 32 * 32);
    for (uint32_t lane = 0; lane < 32; ++lane)
      for (uint32_t i = 0; i < 4; ++i) {
        const uint32_t row = lane / 4 + i / 2 * 8, col = 2 * (lane % 4) + i % 2;
        int32_t sum = c_value(row, col);
        for (uint32_t k = 0; k < 8; ++k) sum += a_value(row, k) * b_value(k, col);
        INFO("lane " << lane << " d" << i);
        CHECK(get_element(out, lane * 32 + i * (f32 ? 4 : 2), dt) == double(sum));
      }
  }
}

TEST_CASE("mma.sync.m8n8k4: four quad pairs multiply their own tiles in every layout",
          "[tensor][interp]") {
  // PTX ISA, lane l of quad pair q = l % 16 / 4, r = l % 4 + 4 (l >= 16): row-major A a_i at
  // (r, i), column-major at (i + 4 (l >= 16), l % 4); column-major B b_i at (i, r), row-major at
  // (l % 4, i + 4 (l >= 16)); f16 C c_i at (r, i); f32 C c_i at (l % 2 + (i & 2) + 4 (l >= 16),
  // (i & 4) + (l & 2) + (i & 1)). Quad pair q's tile is rows 8q.. of a_value and c_value, k 4q..
  // of b_value.
  const auto a_position = [](MatrixLayout l, uint32_t lane, uint32_t i) {
    const uint32_t upper = lane >= 16 ? 4 : 0;
    return l == MatrixLayout::row ? std::pair{lane % 4 + upper, i} : std::pair{i + upper, lane % 4};
  };
  const auto b_position = [](MatrixLayout l, uint32_t lane, uint32_t i) {
    const uint32_t upper = lane >= 16 ? 4 : 0;
    return l == MatrixLayout::col ? std::pair{i, lane % 4 + upper} : std::pair{lane % 4, i + upper};
  };
  const auto c_position = [](DataType t, uint32_t lane, uint32_t i) {
    const uint32_t upper = lane >= 16 ? 4 : 0;
    if (t == DataType::f16) return std::pair{lane % 4 + upper, i};
    return std::pair{lane % 2 + (i & 2) + upper, (i & 4) + (lane & 2) + (i & 1)};
  };
  const MatrixLayout row = MatrixLayout::row, col = MatrixLayout::col;
  for (MatrixLayout la : {row, col})
    for (MatrixLayout lb : {row, col})
      for (DataType dt : {DataType::f32, DataType::f16})
        for (DataType ct : {DataType::f32, DataType::f16}) {
          const std::string d = dt == DataType::f32 ? fragment("f", 13, 8) : fragment("r", 16, 4);
          const std::string c = ct == DataType::f32 ? fragment("f", 5, 8) : fragment("r", 12, 4);
          std::string ptx =
              ".version 7.0\n.target sm_70\n.address_size 64\n"
              ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
              "  .reg .b32 %r<20>;\n  .reg .f32 %f<24>;\n  .reg .b64 %rd<6>;\n"
              "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
              "  mov.u32 %r1, %laneid;\n  mul.wide.u32 %rd3, %r1, 48;\n"
              "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n"
              "  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];\n";
          if (ct == DataType::f32)
            ptx +=
                "  ld.global.v4.f32 {%f5, %f6, %f7, %f8}, [%rd4+16];\n"
                "  ld.global.v4.f32 {%f9, %f10, %f11, %f12}, [%rd4+32];\n";
          else
            ptx += "  ld.global.v4.u32 {%r12, %r13, %r14, %r15}, [%rd4+16];\n";
          ptx += "  mma.sync.aligned.m8n8k4." + layout(la) + "." + layout(lb) + "." + name(dt) +
                 ".f16.f16." + name(ct) + " " + d + ", {%r2, %r3}, {%r4, %r5}, " + c + ";\n";
          if (dt == DataType::f32)
            ptx +=
                "  st.global.v4.f32 [%rd5], {%f13, %f14, %f15, %f16};\n"
                "  st.global.v4.f32 [%rd5+16], {%f17, %f18, %f19, %f20};\n";
          else
            ptx += "  st.global.v4.u32 [%rd5], {%r16, %r17, %r18, %r19};\n";
          ptx += "  exit;\n}\n";
          INFO(ptx);
          std::vector<uint8_t> in(32 * 48);
          for (uint32_t lane = 0; lane < 32; ++lane) {
            const uint32_t q = lane % 16 / 4;
            for (uint32_t i = 0; i < 4; ++i) {
              const auto [ar, ak] = a_position(la, lane, i);
              put_element(in, lane * 48 + i * 2, DataType::f16, a_value(8 * q + ar, ak));
              const auto [bk, bn] = b_position(lb, lane, i);
              put_element(in, lane * 48 + 8 + i * 2, DataType::f16, b_value(4 * q + bk, bn));
            }
            for (uint32_t i = 0; i < 8; ++i) {
              const auto [cr, cn] = c_position(ct, lane, i);
              put_element(in, lane * 48 + 16 + i * type_bytes(ct), ct, c_value(8 * q + cr, cn));
            }
          }
          const std::vector<uint8_t> out = run_one_warp(ptx, in, 32 * 48);
          for (uint32_t lane = 0; lane < 32; ++lane) {
            const uint32_t q = lane % 16 / 4;
            for (uint32_t i = 0; i < 8; ++i) {
              const auto [r, n] = c_position(dt, lane, i);
              int32_t sum = c_value(8 * q + r, n);
              for (uint32_t k = 0; k < 4; ++k) sum += a_value(8 * q + r, k) * b_value(4 * q + k, n);
              INFO("lane " << lane << " d" << i);
              CHECK(get_element(out, lane * 48 + i * type_bytes(dt), dt) == double(sum));
            }
          }
        }
}

TEST_CASE("mma.sync.m8n8k16 multiplies s8 and u8 fragments in the PTX ISA's layout",
          "[tensor][interp]") {
  // Per lane: a0..a3 (one .b32), b0..b3 (one .b32), c0, c1. PTX ISA: groupID = lane / 4,
  // t = lane % 4; a_i at (groupID, 4t + i), b_i at (4t + i, groupID), c_i at (groupID, 2t + i).
  const auto a_at = [](uint32_t row, uint32_t k) {
    return int32_t((row * 16 + k) * 7 % 256) - 128;
  };
  const auto b_at = [](uint32_t k, uint32_t col) { return int32_t((k * 8 + col) * 13 % 256); };
  const auto c_at = [](uint32_t row, uint32_t col) {
    return row == 1 && col == 2 ? int32_t(0x7fffff00) : int32_t(row * 100) - int32_t(col * 37);
  };
  for (const bool saturate : {false, true}) {
    INFO((saturate ? ".satfinite" : "wrapping"));
    const std::string ptx = integer_mma_ptx("m8n8k16", saturate, "s8.u8");
    std::vector<uint8_t> in(32 * 16);
    for (uint32_t lane = 0; lane < 32; ++lane) {
      const uint32_t group = lane / 4, t = lane % 4;
      uint8_t* at = in.data() + lane * 16;
      for (uint32_t i = 0; i < 4; ++i) {
        at[i] = uint8_t(a_at(group, 4 * t + i));
        at[4 + i] = uint8_t(b_at(4 * t + i, group));
      }
      for (uint32_t i = 0; i < 2; ++i) {
        const int32_t c = c_at(group, 2 * t + i);
        std::memcpy(at + 8 + 4 * i, &c, 4);
      }
    }
    const std::vector<uint8_t> out = run_one_warp(ptx, in, 32 * 16);
    for (uint32_t lane = 0; lane < 32; ++lane)
      for (uint32_t i = 0; i < 2; ++i) {
        const uint32_t row = lane / 4, col = 2 * (lane % 4) + i;
        int64_t sum = c_at(row, col);
        for (uint32_t k = 0; k < 16; ++k) sum += int64_t{a_at(row, k)} * b_at(k, col);
        if (row == 1 && col == 2) CHECK(sum > INT32_MAX);  // (1, 2) overflows
        if (saturate) sum = std::min<int64_t>(sum, INT32_MAX);
        int32_t d;
        std::memcpy(&d, out.data() + lane * 16 + 4 * i, 4);
        INFO("lane " << lane << " d" << i);
        CHECK(d == int32_t(uint32_t(sum)));
      }
  }
}

namespace {

// The 4-bit mode's elements: nibble `k` of a row (A) or column (B) packed two to a byte, the
// even k in the low nibble.
void put_nibble(std::vector<uint8_t>& bytes, uint64_t first_byte, uint32_t k, int32_t value) {
  uint8_t& byte = bytes[first_byte + k / 2];
  const uint32_t shift = k % 2 * 4;
  byte = uint8_t((byte & ~(0xfu << shift)) | ((uint32_t(value) & 0xfu) << shift));
}

int32_t s4_a(uint32_t i, uint32_t k) {
  return int32_t(i * 5 + k * 3) % 16 - 8;
}
int32_t s4_b(uint32_t k, uint32_t j, bool is_unsigned) {
  const int32_t v = int32_t(k * 7 + j * 11) % 16;
  return is_unsigned ? v : v - 8;
}

}  // namespace

TEST_CASE("wmma 4-bit mode (m8n8k32 s4/u4): A from global and B from shared memory",
          "[tensor][interp]") {
  for (const char* type : {"s4", "u4"}) {
    const bool is_unsigned = type[0] == 'u';
    INFO(type);
    // A 8 x 32 row-major and B 32 x 8 column-major, rows (columns) 64 elements (32 bytes) apart;
    // B goes through a shared copy; C 8 x 8 s32 row-major, D column-major.
    const std::string t(type);
    const std::string ptx =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
        "  .reg .b32 %r<20>;\n  .reg .b64 %rd<12>;\n  .shared .align 16 .b8 tile[256];\n"
        "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n"
        "  ld.param.u64 %rd3, [pc];\n  ld.param.u64 %rd4, [pd];\n"
        "  mov.u32 %r1, %laneid;\n  mul.wide.u32 %rd5, %r1, 8;\n  add.s64 %rd6, %rd2, %rd5;\n"
        "  ld.global.u64 %rd7, [%rd6];\n  mov.u32 %r8, tile;\n  mul.lo.u32 %r9, %r1, 8;\n"
        "  add.u32 %r10, %r8, %r9;\n  st.shared.u64 [%r10], %rd7;\n  bar.sync 0;\n"
        "  wmma.load.a.sync.aligned.row.m8n8k32.global." +
        t +
        " {%r2}, [%rd1], 64;\n"
        "  wmma.load.b.sync.aligned.col.m8n8k32.shared." +
        t +
        " {%r3}, [%r8], 64;\n"
        "  wmma.load.c.sync.aligned.row.m8n8k32.global.s32 {%r4, %r5}, [%rd3], 8;\n"
        "  wmma.mma.sync.aligned.row.col.m8n8k32.s32." +
        t + "." + t +
        ".s32 {%r6, %r7}, {%r2}, {%r3}, {%r4, %r5};\n"
        "  wmma.store.d.sync.aligned.col.m8n8k32.global.s32 [%rd4], {%r6, %r7}, 8;\n"
        "  exit;\n}\n";
    std::vector<uint8_t> a(256), b(256), cm(256);
    for (uint32_t i = 0; i < 8; ++i)
      for (uint32_t k = 0; k < 32; ++k) {
        put_nibble(a, i * 32, k, s4_a(i, k) & (is_unsigned ? 0x7 : 0xf));
        put_nibble(b, i * 32, k, s4_b(k, i, is_unsigned));  // column i of B
      }
    for (uint32_t i = 0; i < 8; ++i)
      for (uint32_t j = 0; j < 8; ++j)
        put_element(cm, (i * 8 + j) * 4, DataType::s32, c_value(i, j));
    const std::vector<uint8_t> dm = run_abcd(ptx, FragmentMapping::turing, a, b, cm, 256);
    for (uint32_t i = 0; i < 8; ++i)
      for (uint32_t j = 0; j < 8; ++j) {
        int32_t sum = c_value(i, j);
        for (uint32_t k = 0; k < 32; ++k)
          sum += (is_unsigned ? s4_a(i, k) & 0x7 : s4_a(i, k)) * s4_b(k, j, is_unsigned);
        INFO("D[" << i << "][" << j << "]");
        CHECK(get_element(dm, (j * 8 + i) * 4, DataType::s32) == double(sum));
      }
  }
}

TEST_CASE("mma.sync.m8n8k32 multiplies s4 and u4 fragments in the PTX ISA's layout",
          "[tensor][interp]") {
  // Per lane: a0..a7 (one .b32, a0 in the low nibble), b0..b7, c0, c1. PTX ISA: groupID =
  // lane / 4, t = lane % 4; a_i at (groupID, 8t + i), b_i at (8t + i, groupID), c_i at
  // (groupID, 2t + i). A s4 with B u4, and C at (2, 5) near the end of s32 that its sum of
  // products (negative) moves away from.
  const auto c_at = [](uint32_t row, uint32_t col) {
    return row == 2 && col == 5 ? std::numeric_limits<int32_t>::min() + 8 : c_value(row, col);
  };
  for (const bool saturate : {false, true}) {
    INFO((saturate ? ".satfinite" : "wrapping"));
    const std::string ptx = integer_mma_ptx("m8n8k32", saturate, "s4.u4");
    std::vector<uint8_t> in(32 * 16);
    for (uint32_t lane = 0; lane < 32; ++lane) {
      const uint32_t group = lane / 4, t = lane % 4;
      for (uint32_t i = 0; i < 8; ++i) {
        put_nibble(in, lane * 16, i, s4_a(group, 8 * t + i));
        put_nibble(in, lane * 16 + 4, i, s4_b(8 * t + i, group, true));
      }
      for (uint32_t i = 0; i < 2; ++i)
        put_element(in, lane * 16 + 8 + 4 * i, DataType::s32, c_at(group, 2 * t + i));
    }
    const std::vector<uint8_t> out = run_one_warp(ptx, in, 32 * 16);
    for (uint32_t lane = 0; lane < 32; ++lane)
      for (uint32_t i = 0; i < 2; ++i) {
        const uint32_t row = lane / 4, col = 2 * (lane % 4) + i;
        int64_t sum = c_at(row, col);
        for (uint32_t k = 0; k < 32; ++k) sum += int64_t{s4_a(row, k)} * s4_b(k, col, true);
        if (row == 2 && col == 5) CHECK(sum < INT32_MIN);  // (2, 5) overflows
        if (saturate) sum = std::max<int64_t>(sum, INT32_MIN);
        int32_t d;
        std::memcpy(&d, out.data() + lane * 16 + 4 * i, 4);
        INFO("lane " << lane << " d" << i);
        CHECK(d == int32_t(uint32_t(sum)));
      }
  }
}

TEST_CASE("wmma.load from shared memory", "[tensor][interp]") {
  const std::string ptx = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pd)
{
  .reg .b32 %r<40>;
  .reg .f32 %f<20>;
  .reg .b64 %rd<8>;
  .shared .align 32 .b8 tile[512];
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pd];
  mov.u32 %r30, %tid.x;
  mul.wide.u32 %rd3, %r30, 16;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.v4.u32 {%r31, %r32, %r33, %r34}, [%rd4];
  mov.u32 %r35, tile;
  shl.b32 %r36, %r30, 4;
  add.s32 %r37, %r35, %r36;
  st.shared.v4.u32 [%r37], {%r31, %r32, %r33, %r34};
  bar.sync 0;
  wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%r35], 16;
  wmma.load.b.sync.aligned.row.m16n16k16.shared.f16 {%r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18}, [%r35];
  mov.f32 %f1, 0f00000000;
  wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32 {%f11, %f12, %f13, %f14, %f15, %f16, %f17, %f18}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18}, {%f1, %f1, %f1, %f1, %f1, %f1, %f1, %f1};
  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd2], {%f11, %f12, %f13, %f14, %f15, %f16, %f17, %f18}, 16;
  exit;
}
)";
  const Module module = parse_ptx(ptx, "shared.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory);
  std::vector<uint8_t> a(512), d(1024);
  for (uint32_t i = 0; i < 16; ++i)
    for (uint32_t k = 0; k < 16; ++k)
      put_element(a, (i * 16 + k) * 2, DataType::f16, a_value(i, k));
  const uint64_t pa = memory.allocate(a.size()), pd = memory.allocate(d.size());
  memory.write(pa, a.data(), a.size());
  executor.launch({"k", {1, 1, 1}, {32, 1, 1}, 0, pointers({pa, pd})});
  memory.read(pd, d.data(), d.size());
  for (uint32_t i = 0; i < 16; ++i)
    for (uint32_t j = 0; j < 16; ++j) {
      int32_t sum = 0;
      for (uint32_t k = 0; k < 16; ++k) sum += a_value(i, k) * a_value(k, j);
      CHECK(get_element(d, (i * 16 + j) * 4, DataType::f32) == double(sum));
    }
}

TEST_CASE("wmma faults: a partial warp, a misaligned tile", "[tensor][interp]") {
  const std::string ptx = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 off)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [off];
  add.s64 %rd3, %rd1, %rd2;
  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd3];
  exit;
}
)";
  const Module module = parse_ptx(ptx, "fault.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory);
  const uint64_t pa = memory.allocate(4096);
  const auto message = [&](uint32_t threads, uint64_t off) -> std::string {
    try {
      executor.launch({"k", {1, 1, 1}, {threads, 1, 1}, 0, pointers({pa, off})});
    } catch (const SimulationError& error) {
      return error.what();
    }
    return "no fault";
  };
  CHECK(message(32, 0) == "no fault");
  CHECK(message(16, 0).find("need all 32 lanes") != std::string::npos);
  CHECK(message(32, 8).find("misaligned") != std::string::npos);
  CHECK(message(32, 16) == "no fault");
  CHECK(message(32, 8192).find("unmapped") != std::string::npos);
}

TEST_CASE("ldmatrix feeds mma.sync.m16n8k8 from shared memory (.x2 for A, .x1.trans for B)",
          "[tensor][interp]") {
  // A (16x8) and B (8x8) row-major in shared memory: A at 0, B at 256. Lane l < 16 points at row
  // l of A; lane l < 8 at row l of B (.trans turns its rows into mma's B fragment).
  const std::string ptx = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout)
{
  .reg .pred %p<2>;
  .reg .b32 %r<30>;
  .reg .f32 %f<10>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 tiles[384];
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  mov.u32 %r2, tiles;
  shl.b32 %r3, %r1, 4;
  add.s32 %r4, %r2, %r3;
  setp.lt.u32 %p1, %r1, 24;
  @%p1 ld.global.v4.u32 {%r10, %r11, %r12, %r13}, [%rd4];
  @%p1 st.shared.v4.u32 [%r4], {%r10, %r11, %r12, %r13};
  bar.sync 0;
  and.b32 %r5, %r1, 15;
  shl.b32 %r6, %r5, 4;
  add.s32 %r7, %r2, %r6;
  ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r20, %r21}, [%r7];
  and.b32 %r8, %r1, 7;
  shl.b32 %r9, %r8, 4;
  add.s32 %r14, %r2, %r9;
  ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r22}, [%r14+256];
  mov.f32 %f1, 0f00000000;
  mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f2, %f3, %f4, %f5}, {%r20, %r21}, {%r22}, {%f1, %f1, %f1, %f1};
  mul.wide.u32 %rd5, %r1, 16;
  add.s64 %rd6, %rd2, %rd5;
  st.global.v4.f32 [%rd6], {%f2, %f3, %f4, %f5};
  exit;
}
)";
  const Module module = parse_ptx(ptx, "ldmatrix.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory);
  std::vector<uint8_t> in(384), out(512);
  for (uint32_t i = 0; i < 16; ++i)
    for (uint32_t k = 0; k < 8; ++k) put_element(in, (i * 8 + k) * 2, DataType::f16, a_value(i, k));
  for (uint32_t k = 0; k < 8; ++k)
    for (uint32_t j = 0; j < 8; ++j)
      put_element(in, 256 + (k * 8 + j) * 2, DataType::f16, b_value(k, j));
  const uint64_t pin = memory.allocate(in.size()), pout = memory.allocate(out.size());
  memory.write(pin, in.data(), in.size());
  executor.launch({"k", {1, 1, 1}, {32, 1, 1}, 0, pointers({pin, pout})});
  memory.read(pout, out.data(), out.size());
  for (uint32_t lane = 0; lane < 32; ++lane)
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t row = lane / 4 + i / 2 * 8, col = 2 * (lane % 4) + i % 2;
      int32_t sum = 0;
      for (uint32_t k = 0; k < 8; ++k) sum += a_value(row, k) * b_value(k, col);
      INFO("lane " << lane << " d" << i);
      CHECK(get_element(out, lane * 16 + i * 4, DataType::f32) == double(sum));
    }
}
