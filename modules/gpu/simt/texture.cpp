#include "modules/gpu/simt/texture.h"

#include <cmath>

#include "modules/gpu/ptx/ptx_names.h"

namespace ohmvp::gpu {

std::string texture_shape_problem(const TextureBinding& binding) {
  const char* kind = binding.surface ? "surface" : "texture";
  switch (binding.element) {
    case DataType::u8:
    case DataType::s8:
    case DataType::u16:
    case DataType::s16:
    case DataType::u32:
    case DataType::s32:
    case DataType::f16:
    case DataType::f32:
      break;
    case DataType::u64:
    case DataType::s64:
    case DataType::f64:
      if (binding.surface) break;
      [[fallthrough]];
    default:
      return std::string("a ") + kind + "'s texels are u8 s8 u16 s16 u32 s32 f16 f32" +
             (binding.surface ? " u64 s64 f64" : "") + ", got ." +
             std::string(type_name(binding.element));
  }
  if (binding.channels != 1 && binding.channels != 2 && binding.channels != 4)
    return "channels must be 1, 2 or 4, got " + std::to_string(binding.channels);
  if (binding.dimensions < 1 || binding.dimensions > 3)
    return "dimensions must be 1, 2 or 3, got " + std::to_string(binding.dimensions);
  if (binding.width == 0 || binding.height == 0 || binding.depth == 0)
    return "width, height and depth must be at least 1";
  if (binding.pitch != 0 && binding.pitch < uint64_t{binding.width} * binding.texel_bytes())
    return "a pitch of " + std::to_string(binding.pitch) + " bytes is less than a row's " +
           std::to_string(binding.width) + " texels of " + std::to_string(binding.texel_bytes()) +
           " bytes";
  if (binding.filter != TextureFilter::point && binding.filter != TextureFilter::linear)
    return std::to_string(static_cast<int>(binding.filter)) + " is not a TextureFilter";
  if (binding.address != TextureAddress::clamp && binding.address != TextureAddress::wrap &&
      binding.address != TextureAddress::mirror && binding.address != TextureAddress::border)
    return std::to_string(static_cast<int>(binding.address)) + " is not a TextureAddress";
  return "";
}

std::string texture_sampling_problem(const TextureBinding& binding) {
  const char* kind = binding.surface ? "surface" : "texture";
  if (binding.layers && binding.dimensions == 3)
    return std::string("a layered ") + kind + " is 1-D or 2-D, as in CUDA";
  if (binding.cubemap && (binding.dimensions != 2 || binding.width != binding.height))
    return std::string("a cubemap ") + kind + "'s faces are square: width and height equal, " +
           "no depth";
  if (binding.surface) return "";  // a surface is not sampled
  const bool float_texels = binding.element == DataType::f32 || binding.element == DataType::f16 ||
                            (binding.normalized_read && type_bytes(binding.element) <= 2);
  if (binding.filter == TextureFilter::linear && !float_texels)
    return "linear filtering needs texels read as floats: f32 or f16, or 8- and 16-bit integers "
           "with read_mode \"normalized_float\", as in CUDA";
  if ((binding.address == TextureAddress::wrap || binding.address == TextureAddress::mirror) &&
      !binding.normalized_coordinates)
    return std::string("address \"") +
           (binding.address == TextureAddress::wrap ? "wrap" : "mirror") +
           "\" needs normalized coordinates (\"normalized\": true), as in CUDA";
  return "";
}

std::string texture_shape_text(const TextureBinding& binding) {
  std::string text = binding.layers ? "a layered " : "a ";
  text += binding.cubemap ? "cubemap" : std::to_string(binding.dimensions) + "-D";
  return text + (binding.surface ? " surface" : " texture");
}

CubemapFace cubemap_face(float x, float y, float z) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  float major, sc, tc;
  CubemapFace face;
  if (ax >= ay && ax >= az) {
    face.face = x >= 0 ? 0 : 1;
    major = ax, sc = x >= 0 ? -z : z, tc = -y;
  } else if (ay >= az) {
    face.face = y >= 0 ? 2 : 3;
    major = ay, sc = x, tc = y >= 0 ? z : -z;
  } else {
    face.face = z >= 0 ? 4 : 5;
    major = az, sc = z >= 0 ? x : -x, tc = -y;
  }
  face.s = 0.5f * (sc / major + 1.0f);
  face.t = 0.5f * (tc / major + 1.0f);
  return face;
}

}  // namespace ohmvp::gpu
