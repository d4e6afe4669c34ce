#include "modules/gpu/simt/texture.h"

namespace ohmvp::gpu {

std::string texture_sampling_problem(const TextureBinding& binding) {
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

}  // namespace ohmvp::gpu
