#include "modules/gpu/simt/texture_sampler.h"

#include <algorithm>
#include <cmath>

namespace ohmvp::gpu {

namespace {

constexpr double k_coordinate_limit = 1099511627776.0;  // 2^40 texels

// A coordinate in texels: NaN as 0, a normalised one scaled by the size (in single precision),
// held within +-2^40.
double texel_coordinate(float coordinate, uint32_t size, const TextureBinding& binding) {
  double x = std::isnan(coordinate) ? 0.0 : static_cast<double>(coordinate);
  if (binding.normalized_coordinates) x = static_cast<double>(static_cast<float>(x * size));
  return std::clamp(x, -k_coordinate_limit, k_coordinate_limit);
}

}  // namespace

int64_t address_texel(int64_t index, uint32_t size, TextureAddress mode) {
  const int64_t n = size;
  switch (mode) {
    case TextureAddress::clamp:
      return std::clamp<int64_t>(index, 0, n - 1);
    case TextureAddress::border:
      return index < 0 || index >= n ? AxisTexels::border : index;
    case TextureAddress::wrap:
      return ((index % n) + n) % n;
    case TextureAddress::mirror: {
      const int64_t place = ((index % (2 * n)) + 2 * n) % (2 * n);
      return place < n ? place : 2 * n - 1 - place;
    }
  }
  return AxisTexels::border;
}

AxisTexels linear_footprint(float coordinate, uint32_t size, const TextureBinding& binding) {
  const double shifted =
      static_cast<double>(static_cast<float>(texel_coordinate(coordinate, size, binding) - 0.5));
  const double below = std::floor(shifted);
  AxisTexels texels;
  texels.first = address_texel(static_cast<int64_t>(below), size, binding.address);
  texels.second = address_texel(static_cast<int64_t>(below) + 1, size, binding.address);
  texels.weight = static_cast<float>(std::nearbyint((shifted - below) * 256.0) / 256.0);
  return texels;
}

AxisTexels sample_axis(float coordinate, uint32_t size, const TextureBinding& binding) {
  if (binding.filter == TextureFilter::linear) return linear_footprint(coordinate, size, binding);
  AxisTexels texels;
  texels.first =
      address_texel(static_cast<int64_t>(std::floor(texel_coordinate(coordinate, size, binding))),
                    size, binding.address);
  texels.second = texels.first;
  return texels;
}

}  // namespace ohmvp::gpu
