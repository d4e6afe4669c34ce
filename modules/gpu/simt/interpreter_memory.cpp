#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string>

#include "modules/gpu/ptx/atomic_alu.h"
#include "modules/gpu/ptx/ptx_names.h"
#include "modules/gpu/simt/half.h"
#include "modules/gpu/simt/interpreter.h"
#include "modules/gpu/simt/interpreter_internal.h"
#include "modules/gpu/simt/texture_sampler.h"

namespace ohmvp::gpu::detail {
namespace {

// Little-endian host. The fixed sizes compile to one load each (a copy of `count` bytes does
// not), and the per-lane loops of every ld call this.
inline uint64_t load_bytes(const uint8_t* bytes, uint32_t count) {
  switch (count) {
    case 1:
      return bytes[0];
    case 2: {
      uint16_t value;
      std::memcpy(&value, bytes, 2);
      return value;
    }
    case 4: {
      uint32_t value;
      std::memcpy(&value, bytes, 4);
      return value;
    }
    case 8: {
      uint64_t value;
      std::memcpy(&value, bytes, 8);
      return value;
    }
    default: {
      uint64_t value = 0;
      std::memcpy(&value, bytes, count);
      return value;
    }
  }
}

void store_bytes(uint8_t* bytes, uint64_t value, uint32_t count) {
  std::memcpy(bytes, &value, count);
}

uint64_t element_image(DataType type, uint64_t raw) {
  return is_float(type) ? raw : int_image(type, raw);
}

// Writes a lane's loaded elements (vector or scalar destination). Inline: called per lane.
inline __attribute__((always_inline)) void write_loaded(WarpState& warp, const Operand& destination,
                                                        uint32_t lane, const uint8_t* bytes,
                                                        DataType type, uint32_t vector_width) {
  const uint32_t element = static_cast<uint32_t>(type_bytes(type));
  if (destination.kind == Operand::Kind::vector) {
    for (uint32_t i = 0; i < destination.vector_count && i < vector_width; ++i)
      if (destination.vector_regs[i] != no_register)
        warp.reg(destination.vector_regs[i], lane) =
            element_image(type, load_bytes(bytes + i * element, element));
  } else if (destination.kind == Operand::Kind::reg) {
    warp.reg(destination.reg, lane) = element_image(type, load_bytes(bytes, element));
  }
}

// A store's data: operands[operand] (1 for st, 2 for sust).
void gather_store_data(const Exec& x, uint32_t lane, uint8_t* bytes, uint32_t element,
                       uint32_t vector_width, uint32_t operand = 1) {
  const Operand& source = x.instruction.operands[operand];
  if (source.kind == Operand::Kind::vector) {
    for (uint32_t i = 0; i < vector_width; ++i) {
      const uint32_t reg = i < source.vector_count ? source.vector_regs[i] : no_register;
      store_bytes(bytes + i * element, reg == no_register ? 0 : x.warp.reg(reg, lane), element);
    }
  } else {
    store_bytes(bytes, read(x, operand, lane), element);
  }
}

// ld/ldu/st.shared of one register per lane with a register or constant address, the loads and
// stores of tiled kernels, in two loops of their own: every lane's address is checked first, so
// that an access some lane cannot make is left to the general loop, which reports it (the
// order of the lanes' register writes and memory accesses does not matter: each lane reads and
// writes only its own registers). False when the access is not of this kind or a lane fails.
template <class T>
bool shared_scalar_access(Exec& x, const AddressSource& address, bool is_load) {
  SharedAccess& shared = x.warp.shared_access();
  uint64_t* const addresses = shared.address.data();
  uint8_t* const memory = x.context.shared;
  const uint64_t bytes = x.context.shared_bytes;
  // Every lane is aligned and inside when the OR of the addresses is aligned and the highest
  // address is inside.
  uint64_t any_bits = 0, highest = 0, lowest = UINT64_MAX;
  const uint64_t* const row = address.row;
  const uint64_t constant = address.constant;
  const auto note = [&](uint32_t lane, uint64_t at) __attribute__((always_inline)) {
    any_bits |= at;
    highest = std::max(highest, at);
    lowest = std::min(lowest, at);
    addresses[lane] = at;
  };
  if (row)
    for_each_lane(
        x.lanes, [&](uint32_t lane)
                     __attribute__((always_inline)) { note(lane, row[lane] + constant); });
  else
    for_each_lane(
        x.lanes, [&](uint32_t lane) __attribute__((always_inline)) { note(lane, constant); });
  const bool valid =
      (any_bits & (sizeof(T) - 1)) == 0 && highest <= bytes && bytes - highest >= sizeof(T);
  if (!valid) return false;
  shared.lanes = x.lanes;
  // The SM's bank check (see SharedAccess::one_pass) for lanes that each touch one word: words
  // that lie within as many consecutive words as there are banks fall in different banks unless
  // they are the same word (a broadcast), so no bank is asked for two different words.
  const uint32_t bank_shift = x.context.bank_width_shift;
  shared.one_pass = bank_shift != 0 && sizeof(T) <= (uint64_t{1} << bank_shift) && x.lanes != 0 &&
                    (highest >> bank_shift) - (lowest >> bank_shift) <= x.context.bank_mask;
  if (is_load) {
    const DataType type = x.instruction.type;
    const IntImage image(is_float(type) ? DataType::b64 : type);  // element_image()
    uint64_t* const destination = x.destination;
    // Only a signed type's image differs from the zero-extended element.
    const auto load = [=](auto extend) {
      for_each_lane(
          x.lanes, [=](uint32_t lane) __attribute__((always_inline)) {
            T value;
            std::memcpy(&value, memory + addresses[lane], sizeof(T));
            destination[lane] = extend(value);
          });
    };
    if (is_signed_int(type))
      load([=](uint64_t value) { return image(value); });
    else
      load([](uint64_t value) { return value; });
  } else if (!x.sources[1].per_lane) {  // a register or constant to store
    const LaneSource data = x.sources[1];
    for_each_lane(
        x.lanes, [=](uint32_t lane) __attribute__((always_inline)) {
          const T value = static_cast<T>(plain_value(data, lane));
          std::memcpy(memory + addresses[lane], &value, sizeof(T));
        });
  } else {
    for_each_lane(
        x.lanes, [&](uint32_t lane) __attribute__((always_inline)) {
          const T value = static_cast<T>(read(x, 1, lane));
          std::memcpy(memory + addresses[lane], &value, sizeof(T));
        });
  }
  return true;
}

bool shared_scalar_access(Exec& x, const AddressSource& address) {
  const Instruction& in = x.instruction;
  const bool is_load = in.op == Opcode::ld || in.op == Opcode::ldu;
  if (in.space != StateSpace::shared || address.value || in.mod.vector_width > 1) return false;
  if (is_load ? !x.destination
              : in.op != Opcode::st || in.operands[1].kind == Operand::Kind::vector)
    return false;
  switch (type_bytes(in.type)) {
    case 1:
      return shared_scalar_access<uint8_t>(x, address, is_load);
    case 2:
      return shared_scalar_access<uint16_t>(x, address, is_load);
    case 4:
      return shared_scalar_access<uint32_t>(x, address, is_load);
    case 8:
      return shared_scalar_access<uint64_t>(x, address, is_load);
    default:
      return false;
  }
}

// A load that must see what other SMs wrote to the L2, so the SM's L1 does not serve it.
bool reads_past_l1(const Modifiers& mod) {
  if (mod.l2_only || mod.order == MemoryOrder::volatile_) return true;
  const bool ordered = mod.order == MemoryOrder::relaxed || mod.order == MemoryOrder::acquire;
  return ordered && reaches_other_sms(mod.scope);
}

bool acquires_beyond_cta(const Modifiers& mod) {
  const bool acquire = mod.order == MemoryOrder::acquire || mod.order == MemoryOrder::acq_rel ||
                       mod.order == MemoryOrder::sc;
  return acquire && reaches_other_sms(mod.scope);
}

}  // namespace

void execute_memory(Exec& x, bool& pending) {
  const Instruction& in = x.instruction;
  const bool is_load = in.op == Opcode::ld || in.op == Opcode::ldu;
  const bool is_store = in.op == Opcode::st;
  const bool is_atomic = in.op == Opcode::atom || in.op == Opcode::red;
  const bool has_destination = is_load || in.op == Opcode::atom;
  const Operand& address_operand = in.operands[has_destination ? 1 : 0];
  const Operand& destination = in.operands[0];
  const uint32_t element = static_cast<uint32_t>(type_bytes(in.type));
  const uint32_t vector_width = is_atomic ? 1 : std::max<uint32_t>(in.mod.vector_width, 1);
  const uint32_t bytes = element * vector_width;
  if (bytes == 0 || bytes > MemoryRequest::max_lane_bytes || (bytes & (bytes - 1)) != 0) {
    x.fail(FaultKind::unsupported, 0, "access size");
    return;
  }
  if (is_atomic && !atomic_supported(in.mod.atomic, in.type)) {
    x.fail(FaultKind::unsupported, 0, "atomic operation for this type");
    return;
  }
  if (is_store && (in.space == StateSpace::const_)) {
    x.fail(FaultKind::unsupported, 0, "store to the constant space");
    return;
  }

  MemoryRequest& request = x.warp.memory_request();
  request.lanes = 0;
  SharedAccess& shared = x.warp.shared_access();
  shared.lanes = 0;
  shared.one_pass = false;
  const AddressSource address_of = address_source(x, address_operand, in.space);
  if (shared_scalar_access(x, address_of)) return;
  const uint64_t thread_base = cta_first_thread(x);

  for_each_lane(
      x.lanes, [&](uint32_t lane) __attribute__((always_inline)) {
        if (x.failed()) return;
        const uint64_t raw = lane_address(x, address_of, lane);
        Place place = in.space == StateSpace::generic ? resolve_generic(raw) : Place{in.space, raw};
        if ((place.address & (bytes - 1)) != 0) {  // bytes is a power of two
          // Named in the space a generic address falls in (0x2 in shared, not the window's).
          x.fail(FaultKind::misaligned_address, lane, "", place.address, place.space);
          return;
        }
        if (place.space == StateSpace::shared) {
          shared.lanes |= uint64_t{1} << lane;
          shared.address[lane] = place.address;
        }
        if (place.space == StateSpace::global || place.space == StateSpace::local) {
          uint64_t device_address = place.address;
          if (place.space == StateSpace::local) {
            if (place.address > x.context.layout->local_bytes_per_thread() ||
                x.context.layout->local_bytes_per_thread() - place.address < bytes) {
              x.fail(FaultKind::out_of_window, lane, "beyond the thread's .local storage", raw,
                     in.space);
              return;
            }
            if (is_atomic) {
              x.fail(FaultKind::unsupported, lane, "atomic on .local");
              return;
            }
            device_address = local_device_address(x, thread_base, lane, place.address);
          }
          request.lanes |= uint64_t{1} << lane;
          request.space[lane] = place.space;
          request.address[lane] = device_address;
          if (is_store)
            gather_store_data(x, lane, request.data[lane].data(), element, vector_width);
          if (is_atomic) {
            const unsigned b_index = has_destination ? 2 : 1;
            request.operand_b[lane] = read(x, b_index, lane);
            request.operand_c[lane] =
                in.mod.atomic == AtomicOp::cas ? read(x, b_index + 1, lane) : 0;
          }
          return;
        }
        uint8_t* pointer = immediate_pointer(x, place.space, place.address, bytes, lane);
        if (!pointer) {
          x.fail(FaultKind::out_of_window, lane, "", raw, place.space);
          return;
        }
        if (is_load) {
          write_loaded(x.warp, destination, lane, pointer, in.type, vector_width);
        } else if (is_store) {
          if (place.space == StateSpace::const_ ||
              (place.space == StateSpace::param && !(place.address & param_arena_tag))) {
            x.fail(FaultKind::unsupported, lane, "store to read-only storage", raw, place.space);
            return;
          }
          gather_store_data(x, lane, pointer, element, vector_width);
        } else {
          if (place.space != StateSpace::shared) {
            x.fail(FaultKind::unsupported, lane, "atomic outside global and shared memory", raw,
                   place.space);
            return;
          }
          const unsigned b_index = has_destination ? 2 : 1;
          const uint64_t b = read(x, b_index, lane);
          const uint64_t c = in.mod.atomic == AtomicOp::cas ? read(x, b_index + 1, lane) : 0;
          const uint64_t old_value = load_bytes(pointer, element);
          store_bytes(pointer,
                      atomic_result(in.mod.atomic, in.type, old_value, b, c, AtomicMemory::shared),
                      element);
          if (has_destination) write(x, destination, lane, element_image(in.type, old_value));
        }
      });
  if (x.failed() || request.lanes == 0) return;
  request.kind = is_load                 ? MemoryKind::load
                 : is_store              ? MemoryKind::store
                 : in.op == Opcode::atom ? MemoryKind::atomic
                                         : MemoryKind::reduction;
  request.function = x.function;
  request.pc = x.pc;
  request.bytes = bytes;
  request.type = in.type;
  request.vector_width = static_cast<uint8_t>(vector_width);
  request.atomic_op = in.mod.atomic;
  request.l2_only = is_load && reads_past_l1(in.mod);
  request.acquires = (is_load || in.op == Opcode::atom) && acquires_beyond_cta(in.mod);
  request.destination = has_destination ? destination : Operand{};
  request.run_count = 1;
  request.fragment = false;
  request.filtered = false;
  pending = true;
}

// "tex.2d fetches from a layered 2-D texture", "sust.a1d on a 2-D surface", ...: the fault's
// detail when an instruction's geometry is not its object's shape, kept for the process (a fault
// holds a pointer to static text; a run meets few of them).
const char* geometry_mismatch_text(Opcode op, const Modifiers& mod, const TextureBinding& binding) {
  static std::set<std::string> texts;
  const bool surface = op == Opcode::suld || op == Opcode::sust;
  return texts
      .insert(std::string(opcode_name(op)) + "." +
              geometry_name(mod.geometry, mod.layered, mod.cube) +
              (surface ? " on " : " fetches from ") + texture_shape_text(binding))
      .first->c_str();
}

// The texture (or surface) a lane's handle names; null after a fault: a handle bound to neither
// or to the other kind, or an object of another shape than the instruction's geometry (CUDA
// leaves that undefined: tex1Dfetch reads linear memory only). A cubemap surface is accessed as a
// layered 2-D one whose layers are its faces (surfCubemapread is suld.a2d).
const TextureBinding* bound_object(Exec& x, uint64_t handle, uint32_t lane, bool surface) {
  const TextureBinding* binding = x.context.textures ? x.context.textures->find(handle) : nullptr;
  if (!binding || binding->surface != surface || binding->width == 0 || binding->height == 0 ||
      binding->depth == 0) {
    x.fail(surface ? FaultKind::invalid_surface : FaultKind::invalid_texture, lane);
    return nullptr;
  }
  const Modifiers& mod = x.instruction.mod;
  const bool layered = binding->layers != 0 || (surface && binding->cubemap);
  const bool cube = binding->cubemap && !surface;
  if (mod.geometry == binding->dimensions && mod.layered == layered && mod.cube == cube)
    return binding;
  x.fail(FaultKind::texture_geometry, lane,
         geometry_mismatch_text(x.instruction.op, mod, *binding));
  return nullptr;
}

// bound_object for one lane after another, looked up again only where a lane's handle is not the
// previous lane's (a warp's lanes mostly name one texture).
class LaneObjects {
 public:
  LaneObjects(Exec& x, bool surface) : m_x(x), m_surface(surface) {}
  const TextureBinding* operator()(uint64_t handle, uint32_t lane) {
    if (!m_binding || handle != m_handle) {
      m_binding = bound_object(m_x, handle, lane, m_surface);
      m_handle = handle;
    }
    return m_binding;
  }

 private:
  Exec& m_x;
  bool m_surface;
  uint64_t m_handle = 0;
  const TextureBinding* m_binding = nullptr;
};

// The layer a texture fetch's index selects: the PTX ISA reads it as .u32; an index past the
// last layer reads the last (clamped as OpenGL and Direct3D clamp array layers: a modelling choice,
// the CUDA guide does not say).
uint64_t texture_layer(uint64_t index_bits, uint32_t layers) {
  return std::min<uint64_t>(index_bits & 0xffffffffu, layers - 1);
}

// tex.1d with an integer coordinate (tex1Dfetch on linear memory, 0 outside the width), and
// float coordinates sampled as the texture's binding says (texture_sampler.h; integer ones of
// tex.2d/3d are clamped). A lane whose texel lies outside a border-addressed texture reads 0.
// Layered geometries take the layer index first; a cubemap's three direction coordinates pick a
// face and the face's coordinates (cubemap_face), sampled in the face as a 2-D texture.
void execute_texture(Exec& x, bool& pending) {
  const Instruction& in = x.instruction;
  if (!x.context.textures || in.mod.geometry < 1 || in.mod.geometry > 3) {
    x.fail(FaultKind::unsupported, 0, "texture geometry");
    return;
  }
  MemoryRequest& request = x.warp.memory_request();
  request.lanes = 0;
  const bool gather = in.op == Opcode::tld4;
  const TextureBinding* first = nullptr;
  const Operand& coordinates = in.operands[2];
  const uint32_t first_axis = in.mod.layered ? 1 : 0;  // the coordinates' x
  const bool float_coordinates = in.mod.cube || in.source_type == DataType::f32 ||
                                 (in.source_type == DataType::none && in.mod.geometry >= 2);
  auto coordinate_bits = [&](uint32_t index, uint32_t lane) -> uint64_t {
    if (coordinates.kind == Operand::Kind::vector)
      return index < coordinates.vector_count && coordinates.vector_regs[index] != no_register
                 ? x.warp.reg(coordinates.vector_regs[index], lane)
                 : 0;
    return index == 0 ? read(x, coordinates, lane) : 0;
  };
  // The lane's float coordinates along the sampled axes, in the binding's convention (texels,
  // or normalised), and the layer or cubemap face it samples (the slice of slices()).
  float position[3] = {};
  uint64_t slice = 0;
  auto locate = [&](uint32_t lane, const TextureBinding& binding) {
    slice = in.mod.layered
                ? texture_layer(coordinate_bits(0, lane), binding.layers) * (in.mod.cube ? 6 : 1)
                : 0;
    if (in.mod.cube) {
      const CubemapFace face = cubemap_face(as_f32(coordinate_bits(first_axis, lane)),
                                            as_f32(coordinate_bits(first_axis + 1, lane)),
                                            as_f32(coordinate_bits(first_axis + 2, lane)));
      const float scale = binding.normalized_coordinates ? 1.0f : float(binding.width);
      slice += face.face;
      position[0] = face.s * scale;
      position[1] = face.t * scale;
      position[2] = 0.0f;
      return;
    }
    for (uint32_t axis = 0; axis < 3; ++axis)
      position[axis] = axis < in.mod.geometry && float_coordinates
                           ? as_f32(coordinate_bits(first_axis + axis, lane))
                           : 0.0f;
  };
  auto texel = [&](uint32_t axis, uint32_t lane, uint32_t size, const TextureBinding& binding) {
    if (float_coordinates) return sample_axis(position[axis], size, binding).first;
    return std::clamp<int64_t>(sign_extend(coordinate_bits(first_axis + axis, lane), 32), 0,
                               int64_t{size} - 1);
  };
  auto out_of_range = [&](uint32_t lane, uint32_t width) {
    const int64_t position = sign_extend(coordinate_bits(0, lane), 32);
    return position < 0 || position >= static_cast<int64_t>(width);
  };
  LaneObjects object_of(x, false);
  TextureTaps* taps = nullptr;
  // Linear filtering or tld4: the lane's 2, 4 or 8 texels and weights; false when every one of
  // them lies outside a border-addressed texture.
  auto add_taps = [&](uint32_t lane, const TextureBinding& binding) {
    if (!taps) {
      taps = &x.warp.texture_taps();
      taps->count = 1u << in.mod.geometry;
      taps->texel_bytes = binding.texel_bytes();
    }
    const uint32_t sizes[3] = {binding.width, binding.height, binding.depth};
    AxisTexels axes[3];
    for (uint32_t axis = 0; axis < 3; ++axis) {
      axes[axis] = axis < in.mod.geometry ? linear_footprint(position[axis], sizes[axis], binding)
                                          : AxisTexels{};
      taps->weight[lane][axis] = axes[axis].weight;
    }
    uint8_t present = 0;
    for (uint32_t k = 0; k < taps->count; ++k) {
      const int64_t u = k & 1 ? axes[0].second : axes[0].first;
      const int64_t v = k & 2 ? axes[1].second : axes[1].first;
      const int64_t w = k & 4 ? axes[2].second : axes[2].first;
      if (u == AxisTexels::border || v == AxisTexels::border || w == AxisTexels::border) continue;
      present |= uint8_t(1u << k);
      taps->address[lane][k] = binding.texel_address(uint64_t(u), uint64_t(v), uint64_t(w), slice);
    }
    taps->present[lane] = present;
    if (present == 0) return false;
    request.lanes |= uint64_t{1} << lane;
    request.space[lane] = StateSpace::global;
    request.address[lane] = taps->address[lane][__builtin_ctz(present)];
    return true;
  };
  auto read_zero = [&](uint32_t lane) {
    const Operand& destination = in.operands[0];
    for (uint32_t channel = 0; channel < destination.vector_count; ++channel)
      if (destination.vector_regs[channel] != no_register)
        x.warp.reg(destination.vector_regs[channel], lane) = 0;
    if (destination.kind == Operand::Kind::reg) write(x, lane, 0);
  };
  for_each_lane(x.lanes, [&](uint32_t lane) {
    if (x.failed()) return;
    const TextureBinding* binding = object_of(read(x, 1, lane), lane);
    if (!binding) return;
    if (!first) first = binding;
    if (binding != first &&
        (binding->element != first->element || binding->channels != first->channels ||
         binding->normalized_read != first->normalized_read || binding->filter != first->filter)) {
      x.fail(FaultKind::unsupported, lane, "lanes fetch from textures of different formats");
      return;
    }
    if (in.mod.geometry == 1 && !in.mod.layered && !float_coordinates &&
        out_of_range(lane, binding->width)) {
      read_zero(lane);  // tex1Dfetch outside linear memory reads 0 (CUDA's rule)
      return;
    }
    if (float_coordinates || in.mod.layered) locate(lane, *binding);
    if (gather || (float_coordinates && binding->filter == TextureFilter::linear)) {
      if (!add_taps(lane, *binding)) read_zero(lane);
      return;
    }
    const int64_t u = texel(0, lane, binding->width, *binding);
    const int64_t v = in.mod.geometry >= 2 ? texel(1, lane, binding->height, *binding) : 0;
    const int64_t w = in.mod.geometry == 3 ? texel(2, lane, binding->depth, *binding) : 0;
    if (u == AxisTexels::border || v == AxisTexels::border || w == AxisTexels::border) {
      read_zero(lane);
      return;
    }
    request.lanes |= uint64_t{1} << lane;
    request.space[lane] = StateSpace::global;
    request.address[lane] = binding->texel_address(uint64_t(u), uint64_t(v), uint64_t(w), slice);
  });
  if (x.failed() || request.lanes == 0) return;
  if (first->texel_bytes() > MemoryRequest::max_lane_bytes) {
    x.fail(FaultKind::unsupported, 0, "texel size");
    return;
  }
  request.kind = MemoryKind::texture;
  request.function = x.function;
  request.pc = x.pc;
  request.bytes = first->texel_bytes();
  request.type = in.type;
  request.vector_width = 4;
  request.atomic_op = AtomicOp::none;
  request.destination = in.operands[0];
  request.texture_element = first->element;
  request.texture_channels = first->channels;
  request.texture_normalized = first->normalized_read;
  request.filtered = taps != nullptr;
  request.gather_component = gather ? static_cast<int8_t>(in.mod.gather_component) : -1;
  request.run_count = 1;
  request.fragment = false;
  pending = true;
}

// suld.b / sust.b (PTX's surfaces of raw bits): x is a byte offset into the row, y and z are
// row and slice indices, and a layered geometry's index (.u32) comes first; an access moves
// vector_width elements of the data type and must be aligned to its size. Outside the surface (a
// layer index past the last included), .trap faults, .clamp takes the nearest access inside it,
// .zero loads 0 (no memory access) and drops the store.
void execute_surface(Exec& x, bool& pending) {
  const Instruction& in = x.instruction;
  const bool is_store = in.op == Opcode::sust;
  const Operand& handle = in.operands[is_store ? 0 : 1];
  const Operand& coordinates = in.operands[is_store ? 1 : 2];
  const Operand& data = in.operands[is_store ? 2 : 0];
  const uint32_t element = static_cast<uint32_t>(type_bytes(in.type));
  const uint32_t vector_width = std::max<uint32_t>(in.mod.vector_width, 1);
  const uint32_t bytes = element * vector_width;
  MemoryRequest& request = x.warp.memory_request();
  request.lanes = 0;
  const uint32_t first_axis = in.mod.layered ? 1 : 0;
  LaneObjects object_of(x, true);
  auto coordinate_bits = [&](uint32_t index, uint32_t lane) -> uint64_t {
    if (index >= coordinates.vector_count || coordinates.vector_regs[index] == no_register)
      return 0;
    return x.warp.reg(coordinates.vector_regs[index], lane);
  };
  for_each_lane(x.lanes, [&](uint32_t lane) {
    if (x.failed()) return;
    const TextureBinding* surface = object_of(read(x, handle, lane), lane);
    if (!surface) return;
    // x (bytes), y, z, then the layer
    int64_t position[4] = {};
    for (uint32_t axis = 0; axis < in.mod.geometry; ++axis)
      position[axis] = sign_extend(coordinate_bits(first_axis + axis, lane), 32);
    if (in.mod.layered) position[3] = int64_t(coordinate_bits(0, lane) & 0xffffffffu);
    if (position[0] % bytes != 0) {
      x.fail(FaultKind::misaligned_address, lane,
             "surface x coordinate (bytes) not a multiple of the access size");
      return;
    }
    const int64_t row_bytes = int64_t{surface->width} * surface->texel_bytes();
    const int64_t last[4] = {(row_bytes - bytes) / bytes * bytes, int64_t{surface->height} - 1,
                             int64_t{surface->depth} - 1, int64_t{surface->slices()} - 1};
    bool outside = row_bytes < bytes;
    for (uint32_t axis = 0; axis < 4; ++axis)
      outside = outside || position[axis] < 0 || position[axis] > last[axis];
    if (outside) {
      if (in.mod.boundary == SurfaceBoundary::zero) {
        static constexpr uint8_t zeros[MemoryRequest::max_lane_bytes] = {};
        if (!is_store) write_loaded(x.warp, data, lane, zeros, in.type, vector_width);
        return;
      }
      if (in.mod.boundary == SurfaceBoundary::trap || row_bytes < bytes) {
        x.fail(FaultKind::surface_bounds, lane);
        return;
      }
      for (uint32_t axis = 0; axis < 4; ++axis)
        position[axis] = std::clamp<int64_t>(position[axis], 0, last[axis]);
    }
    request.lanes |= uint64_t{1} << lane;
    request.space[lane] = StateSpace::global;
    request.address[lane] = surface->byte_address(uint64_t(position[0]), uint64_t(position[1]),
                                                  uint64_t(position[2]), uint64_t(position[3]));
    if (is_store) gather_store_data(x, lane, request.data[lane].data(), element, vector_width, 2);
  });
  if (x.failed() || request.lanes == 0) return;
  request.kind = is_store ? MemoryKind::store : MemoryKind::load;
  request.function = x.function;
  request.pc = x.pc;
  request.bytes = bytes;
  request.type = in.type;
  request.vector_width = static_cast<uint8_t>(vector_width);
  request.atomic_op = AtomicOp::none;
  request.l2_only = false;
  request.acquires = false;
  request.destination = is_store ? Operand{} : data;
  request.run_count = 1;
  request.fragment = false;
  request.filtered = false;
  pending = true;
}

}  // namespace ohmvp::gpu::detail

namespace ohmvp::gpu {

using namespace detail;

namespace {

double texel_channel(const uint8_t* bytes, DataType element, bool normalized) {
  const uint32_t size = static_cast<uint32_t>(type_bytes(element));
  const uint64_t raw = load_bytes(bytes, size);
  if (normalized && (is_signed_int(element) || is_unsigned_int(element))) {  // 8, 16 bits
    const double top =
        static_cast<double>((uint64_t{1} << (size * 8 - (is_signed_int(element) ? 1 : 0))) - 1);
    const double value = is_signed_int(element) ? static_cast<double>(sign_extend(raw, size * 8))
                                                : static_cast<double>(raw);
    return std::max(value / top, -1.0);
  }
  switch (element) {
    case DataType::f32:
      return as_f32(raw);
    case DataType::f64:
      return as_f64(raw);
    case DataType::f16:
      return f16_to_f64(static_cast<uint16_t>(raw));
    case DataType::bf16:
      return bf16_to_f64(static_cast<uint16_t>(raw));
    default:
      return is_signed_int(element) ? static_cast<double>(sign_extend(raw, size * 8))
                                    : static_cast<double>(raw);
  }
}

// Channel `channel` of a fetched texel into the lane's destination register, if it has one:
// element values convert to the destination type; missing channels read 0.
void write_texel_channel(WarpState& warp, const MemoryRequest& request, uint32_t lane,
                         uint32_t channel, double value) {
  const Operand& destination = request.destination;
  uint32_t reg = no_register;
  if (destination.kind == Operand::Kind::vector && channel < destination.vector_count)
    reg = destination.vector_regs[channel];
  else if (destination.kind == Operand::Kind::reg && channel == 0)
    reg = destination.reg;
  if (reg == no_register) return;
  warp.reg(reg, lane) =
      request.type == DataType::f32
          ? f32_bits(static_cast<float>(value))
          : int_image(request.type, static_cast<uint64_t>(static_cast<int64_t>(value)));
}

// Point sampling: one texel per lane in data[lane] (normalised first under
// cudaReadModeNormalizedFloat).
void write_texels(WarpState& warp, const MemoryRequest& request) {
  const uint32_t element = static_cast<uint32_t>(type_bytes(request.texture_element));
  for_each_lane(request.lanes, [&](uint32_t lane) {
    for (uint32_t channel = 0; channel < 4; ++channel)
      write_texel_channel(warp, request, lane, channel,
                          channel < request.texture_channels
                              ? texel_channel(request.data[lane].data() + channel * element,
                                              request.texture_element, request.texture_normalized)
                              : 0.0);
  });
}

// Linear filtering, in single precision as the CUDA guide writes it for two dimensions:
// (1 - a)(1 - b) T[i, j] + a (1 - b) T[i + 1, j] + (1 - a) b T[i, j + 1] + a b T[i + 1, j + 1],
// taps in that order; a texel outside a border-addressed texture is 0.
void write_filtered_texels(WarpState& warp, const MemoryRequest& request, const TextureTaps& taps) {
  const uint32_t element = static_cast<uint32_t>(type_bytes(request.texture_element));
  const uint32_t axes = static_cast<uint32_t>(__builtin_ctz(taps.count));
  for_each_lane(request.lanes, [&](uint32_t lane) {
    float tap_weight[TextureTaps::max_taps];
    for (uint32_t k = 0; k < taps.count; ++k) {
      tap_weight[k] = 1.0f;
      for (uint32_t axis = 0; axis < axes; ++axis) {
        const float second = taps.weight[lane][axis];
        tap_weight[k] *= (k >> axis) & 1 ? second : 1.0f - second;
      }
    }
    for (uint32_t channel = 0; channel < 4; ++channel) {
      float value = 0.0f;
      if (channel < request.texture_channels) {
        for (uint32_t k = 0; k < taps.count; ++k) {
          const float texel =
              (taps.present[lane] >> k) & 1
                  ? static_cast<float>(texel_channel(
                        taps.texels[lane].data() + k * taps.texel_bytes + channel * element,
                        request.texture_element, request.texture_normalized))
                  : 0.0f;
          value += tap_weight[k] * texel;
        }
      }
      write_texel_channel(warp, request, lane, channel, value);
    }
  });
}

// tld4: channel `gather_component` of the footprint's four texels, counter-clockwise from the
// lower left (PTX ISA): T[i, j + 1], T[i + 1, j + 1], T[i + 1, j], T[i, j]; a texel outside a
// border-addressed texture, or a channel the texture lacks, reads 0.
void write_gathered_texels(WarpState& warp, const MemoryRequest& request, const TextureTaps& taps) {
  static constexpr uint32_t k_tap_of_channel[4] = {2, 3, 1, 0};
  const uint32_t element = static_cast<uint32_t>(type_bytes(request.texture_element));
  const uint32_t component = static_cast<uint32_t>(request.gather_component);
  for_each_lane(request.lanes, [&](uint32_t lane) {
    for (uint32_t channel = 0; channel < 4; ++channel) {
      const uint32_t k = k_tap_of_channel[channel];
      const bool present = (taps.present[lane] >> k) & 1 && component < request.texture_channels;
      write_texel_channel(
          warp, request, lane, channel,
          present
              ? texel_channel(taps.texels[lane].data() + k * taps.texel_bytes + component * element,
                              request.texture_element, request.texture_normalized)
              : 0.0);
    }
  });
}

}  // namespace

void Interpreter::complete_memory(WarpState& warp, const MemoryRequest& request,
                                  const TextureTaps* taps) {
  switch (request.kind) {
    case MemoryKind::load:
      if (request.fragment) {
        write_loaded_fragment(warp, request);
        break;
      }
      for_each_lane(request.lanes, [&](uint32_t lane) {
        write_loaded(warp, request.destination, lane, request.data[lane].data(), request.type,
                     request.vector_width);
      });
      break;
    case MemoryKind::atomic:
      for_each_lane(request.lanes, [&](uint32_t lane) {
        if (request.destination.kind == Operand::Kind::reg)
          warp.reg(request.destination.reg, lane) =
              element_image(request.type, load_bytes(request.data[lane].data(), request.bytes));
      });
      break;
    case MemoryKind::texture: {
      if (!request.filtered) {
        write_texels(warp, request);
        break;
      }
      const TextureTaps& fetched = taps ? *taps : warp.texture_taps();
      if (request.gather_component >= 0)
        write_gathered_texels(warp, request, fetched);
      else
        write_filtered_texels(warp, request, fetched);
      break;
    }
    case MemoryKind::store:
    case MemoryKind::reduction:
      break;
  }
  warp.set_memory_pending(false);
}

}  // namespace ohmvp::gpu
