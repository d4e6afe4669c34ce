#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "modules/gpu/ptx/ptx_types.h"

namespace ohmvp::gpu {

// cudaTextureFilterMode and cudaTextureAddressMode.
enum class TextureFilter : uint8_t { point, linear };
enum class TextureAddress : uint8_t { clamp, wrap, mirror, border };

// A buffer bound as a texture. Texels are `channels` elements of `element` type, contiguous; row
// y of a 2-D texture starts at base + y * pitch (pitch in bytes; 0 means width * texel bytes),
// and slice z of a 3-D one at base + z * height * pitch. A layered texture is `layers` 1-D or 2-D
// textures one after another (layer l of a 1-D one is row l, of a 2-D one slice l); a cubemap is
// six square 2-D faces (+x, -x, +y, -y, +z, -z) one after another, and a layered cubemap
// `layers` such cubemaps, face f of layer l at slice 6 l + f.
struct TextureBinding {
  uint64_t handle = 0;               // the value a kernel receives as its texture object
  uint64_t base = 0;                 // device address
  DataType element = DataType::f32;  // f32, s32, u32, f16, s8/u8, s16/u16
  uint32_t channels = 1;             // 1, 2 or 4
  uint32_t width = 0;
  uint32_t height = 1;
  uint64_t pitch = 0;
  uint32_t dimensions = 1;  // fetched by tex.1d, tex.2d or tex.3d (another is a device fault)
  uint32_t depth = 1;
  uint32_t layers = 0;   // a layered texture's layers (tex.a1d, tex.a2d, tex.acube); 0: not layered
  bool cubemap = false;  // fetched by tex.cube (tex.acube when layered); dimensions 2, square
  // cudaReadModeNormalizedFloat: 8- and 16-bit integer texels read as floats in [0, 1]
  // (unsigned) or [-1, 1] (signed); otherwise (cudaReadModeElementType) as their values.
  bool normalized_read = false;
  // How float coordinates (tex.1d/2d/3d with .f32 coordinates) sample it: filter, what a
  // coordinate outside the texture reads, and whether coordinates are in [0, 1) rather than
  // texels (texture_sampler.h). tex1Dfetch's integer coordinates ignore all three.
  TextureFilter filter = TextureFilter::point;
  TextureAddress address = TextureAddress::clamp;
  bool normalized_coordinates = false;
  // A surface object (cudaSurfaceObject_t) rather than a texture one: suld/sust take it, tex
  // does not.
  bool surface = false;

  uint32_t texel_bytes() const { return static_cast<uint32_t>(type_bytes(element)) * channels; }
  uint64_t row_pitch() const { return pitch ? pitch : uint64_t{width} * texel_bytes(); }
  uint64_t slice_pitch() const { return uint64_t{height} * row_pitch(); }
  // The 1-D or 2-D textures a layered texture or cubemap holds (1 for any other).
  uint32_t slices() const { return (cubemap ? 6u : 1u) * (layers ? layers : 1u); }
  uint64_t layer_pitch() const { return dimensions == 1 ? row_pitch() : slice_pitch(); }
  // Byte `x` of row v of slice w of layer (or cubemap face) `slice`: surfaces address x in bytes.
  uint64_t byte_address(uint64_t x, uint64_t v, uint64_t w, uint64_t slice = 0) const {
    return base + (slice ? slice * layer_pitch() : 0) + w * slice_pitch() + v * row_pitch() + x;
  }
  uint64_t texel_address(uint64_t u, uint64_t v, uint64_t w, uint64_t slice = 0) const {
    return byte_address(u * texel_bytes(), v, w, slice);
  }
};

// What is not a texture at all in a binding (texel type, channels, dimensions, a size of 0, a
// pitch shorter than a row, a filter or address mode out of range; one sentence), or "".
std::string texture_shape_problem(const TextureBinding& binding);

// What CUDA would refuse, or the model does not sample, in a binding's sampling settings and
// shape (one sentence), or "" when there is nothing.
std::string texture_sampling_problem(const TextureBinding& binding);

// "a 2-D texture", "a layered 1-D surface", "a cubemap texture", ...: the binding's shape in an
// error message.
std::string texture_shape_text(const TextureBinding& binding);

// Cubemap fetch (the CUDA C++ Programming Guide's cubemap table, OpenGL's): the coordinate of
// largest magnitude picks the face, the other two divided by its magnitude give the face's
// coordinates, returned normalised to [0, 1]. On a tie x is taken before y and y before z (the
// guide's table does not say; a modelling choice).
struct CubemapFace {
  uint32_t face = 0;  // 0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z
  float s = 0.5f;
  float t = 0.5f;
};
CubemapFace cubemap_face(float x, float y, float z);

// Lookup by handle; a handful of bindings per launch, so a linear search.
class TextureTable {
 public:
  void bind(const TextureBinding& binding) {
    for (TextureBinding& existing : m_bindings)
      if (existing.handle == binding.handle) {
        existing = binding;
        return;
      }
    m_bindings.push_back(binding);
  }
  const TextureBinding* find(uint64_t handle) const {
    for (const TextureBinding& binding : m_bindings)
      if (binding.handle == handle) return &binding;
    return nullptr;
  }

 private:
  std::vector<TextureBinding> m_bindings;
};

}  // namespace ohmvp::gpu
