#pragma once

#include <cstdint>

#include "modules/gpu/simt/texture.h"

namespace ohmvp::gpu {

// Texture fetching with float coordinates along one axis of a texture, as the CUDA C++
// Programming Guide's "Texture Fetching" appendix defines it. A normalised coordinate is first
// scaled by the axis's size. Point filtering reads texel floor(x); linear filtering blends texels
// i = floor(x - 0.5) and i + 1 with weight alpha = frac(x - 0.5) on the second, alpha held in
// 9-bit fixed point with 8 fractional bits (rounded to the nearest 1/256: a modelling choice, the
// guide gives the format, not the rounding). Each texel index is then addressed:
// - clamp: to [0, size - 1];
// - border: outside the texture, no texel (it reads 0);
// - wrap: modulo size;
// - mirror: modulo 2 size, the second half mirrored (texel size + k reads size - 1 - k), as
//   OpenGL's mirrored repeat; the guide's coordinate-level frac / 1 - frac differs from it only
//   where a coordinate lands exactly on a texel edge.
// A NaN coordinate reads as 0; coordinates beyond +-2^40 texels are held there.
struct AxisTexels {
  static constexpr int64_t border = -1;  // no texel: the fetch reads 0 for it
  int64_t first = 0;                     // point: the texel; linear: texel i
  int64_t second = 0;                    // linear: texel i + 1 (point: as first)
  float weight = 0.0f;                   // linear: alpha, the weight of `second`
};

AxisTexels sample_axis(float coordinate, uint32_t size, const TextureBinding& binding);

// The two texels and the weight linear filtering blends along the axis, whatever the binding's
// filter (tld4 gathers this footprint from any texture).
AxisTexels linear_footprint(float coordinate, uint32_t size, const TextureBinding& binding);

// Texel `index` (any integer) of an axis of `size` texels under `mode`, or AxisTexels::border.
int64_t address_texel(int64_t index, uint32_t size, TextureAddress mode);

}  // namespace ohmvp::gpu
