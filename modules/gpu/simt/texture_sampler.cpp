#include "modules/gpu/simt/texture_sampler.h"

#include <algorithm>
#include <cmath>

namespace ohmvp::gpu {

namespace {

constexpr double k_coordinate_limit = 1099511627776.0;  // 2^40 texels

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

AxisTexels sample_axis(float coordinate, uint32_t size, const TextureBinding& binding) {
  double x = std::isnan(coordinate) ? 0.0 : static_cast<double>(coordinate);
  if (binding.normalized_coordinates) x = static_cast<double>(static_cast<float>(x * size));
  x = std::clamp(x, -k_coordinate_limit, k_coordinate_limit);
  AxisTexels texels;
  if (binding.filter == TextureFilter::point) {
    texels.first = address_texel(static_cast<int64_t>(std::floor(x)), size, binding.address);
    texels.second = texels.first;
    return texels;
  }
  const double shifted = static_cast<double>(static_cast<float>(x - 0.5));
  const double below = std::floor(shifted);
  texels.first = address_texel(static_cast<int64_t>(below), size, binding.address);
  texels.second = address_texel(static_cast<int64_t>(below) + 1, size, binding.address);
  texels.weight = static_cast<float>(std::nearbyint((shifted - below) * 256.0) / 256.0);
  return texels;
}

}  // namespace ohmvp::gpu
