#include "modules/gpu/simt/texture.h"

#include <cmath>

namespace ohmvp::gpu {

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
