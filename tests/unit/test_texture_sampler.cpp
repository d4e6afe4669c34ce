#include <catch2/catch.hpp>
#include <cmath>

#include "modules/gpu/simt/texture_sampler.h"

using namespace ohmvp::gpu;

namespace {

TextureBinding binding(TextureFilter filter, TextureAddress address, bool normalized) {
  TextureBinding b;
  b.filter = filter;
  b.address = address;
  b.normalized_coordinates = normalized;
  return b;
}

int64_t point(float x, uint32_t size, TextureAddress address, bool normalized = false) {
  return sample_axis(x, size, binding(TextureFilter::point, address, normalized)).first;
}

}  // namespace

TEST_CASE("texture addressing: clamp border wrap and mirror of a texel index", "[simt]") {
  CHECK(address_texel(-3, 8, TextureAddress::clamp) == 0);
  CHECK(address_texel(8, 8, TextureAddress::clamp) == 7);
  CHECK(address_texel(-1, 8, TextureAddress::border) == AxisTexels::border);
  CHECK(address_texel(8, 8, TextureAddress::border) == AxisTexels::border);
  CHECK(address_texel(7, 8, TextureAddress::border) == 7);
  CHECK(address_texel(-1, 8, TextureAddress::wrap) == 7);
  CHECK(address_texel(-17, 8, TextureAddress::wrap) == 7);
  CHECK(address_texel(10, 8, TextureAddress::wrap) == 2);
  // Mirror: texels 0..3, then 3..0, then 0..3 again.
  const int64_t mirrored[] = {3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0, 1};
  for (int64_t i = -4; i < 10; ++i) {
    INFO("texel " << i);
    CHECK(address_texel(i, 4, TextureAddress::mirror) == mirrored[i + 4]);
  }
}

TEST_CASE("texture point sampling: floor of the coordinate then the address mode", "[simt]") {
  CHECK(point(2.99f, 8, TextureAddress::clamp) == 2);
  CHECK(point(-0.01f, 8, TextureAddress::clamp) == 0);
  CHECK(point(8.0f, 8, TextureAddress::clamp) == 7);
  CHECK(point(std::nanf(""), 8, TextureAddress::clamp) == 0);
  CHECK(point(1e30f, 8, TextureAddress::clamp) == 7);
  CHECK(point(-1e30f, 8, TextureAddress::clamp) == 0);
  CHECK(point(-0.01f, 8, TextureAddress::border) == AxisTexels::border);
  CHECK(point(7.99f, 8, TextureAddress::border) == 7);
  // Normalised: scaled by the size first.
  CHECK(point(0.3f, 8, TextureAddress::clamp, true) == 2);
  CHECK(point(1.3f, 8, TextureAddress::wrap, true) == 2);     // texel 10
  CHECK(point(-0.1f, 8, TextureAddress::wrap, true) == 7);    // texel -1
  CHECK(point(1.1f, 4, TextureAddress::mirror, true) == 3);   // texel 4
  CHECK(point(1.9f, 4, TextureAddress::mirror, true) == 0);   // texel 7
  CHECK(point(-0.1f, 4, TextureAddress::mirror, true) == 0);  // texel -1
  CHECK(point(1.3f, 8, TextureAddress::border, true) == AxisTexels::border);
}

TEST_CASE("texture linear sampling: texels floor(x - 0.5) and the next, weight in 1/256",
          "[simt]") {
  const TextureBinding clamp = binding(TextureFilter::linear, TextureAddress::clamp, false);
  AxisTexels t = sample_axis(2.75f, 8, clamp);
  CHECK(t.first == 2);
  CHECK(t.second == 3);
  CHECK(t.weight == 0.25f);
  t = sample_axis(3.5f, 8, clamp);  // a texel's centre: all its own
  CHECK(t.first == 3);
  CHECK(t.weight == 0.0f);
  t = sample_axis(0.25f, 8, clamp);  // left of the first centre: both texels clamp to 0
  CHECK(t.first == 0);
  CHECK(t.second == 0);
  CHECK(t.weight == 0.75f);
  t = sample_axis(7.9f, 8, clamp);
  CHECK(t.first == 7);
  CHECK(t.second == 7);
  // 1/3 past a centre: alpha is 85/256 (85.33 rounded), not 1/3.
  t = sample_axis(0.5f + 1.0f / 3.0f, 8, clamp);
  CHECK(t.first == 0);
  CHECK(t.weight == 85.0f / 256.0f);
  // Within half a step of 256 of the next centre: alpha rounds up to 1, which 9 bits hold.
  t = sample_axis(1.4990f, 8, clamp);
  CHECK(t.first == 0);
  CHECK(t.weight == 1.0f);

  const TextureBinding border = binding(TextureFilter::linear, TextureAddress::border, false);
  t = sample_axis(0.25f, 8, border);
  CHECK(t.first == AxisTexels::border);
  CHECK(t.second == 0);
  t = sample_axis(7.75f, 8, border);
  CHECK(t.first == 7);
  CHECK(t.second == AxisTexels::border);
  CHECK(t.weight == 0.25f);

  // Normalised wrap: 0.0 is halfway between the last texel and the first.
  t = sample_axis(0.0f, 8, binding(TextureFilter::linear, TextureAddress::wrap, true));
  CHECK(t.first == 7);
  CHECK(t.second == 0);
  CHECK(t.weight == 0.5f);
}

TEST_CASE("texture bindings: what CUDA refuses to sample", "[simt]") {
  TextureBinding b;
  CHECK(texture_sampling_problem(b).empty());
  b.address = TextureAddress::mirror;
  CHECK(texture_sampling_problem(b) ==
        "address \"mirror\" needs normalized coordinates (\"normalized\": true), as in CUDA");
  b.normalized_coordinates = true;
  CHECK(texture_sampling_problem(b).empty());
  b.filter = TextureFilter::linear;
  b.element = DataType::s32;
  CHECK_THAT(texture_sampling_problem(b),
             Catch::StartsWith("linear filtering needs texels read as floats"));
  b.element = DataType::u8;
  CHECK_FALSE(texture_sampling_problem(b).empty());
  b.normalized_read = true;  // uchar texels read as [0, 1] floats
  CHECK(texture_sampling_problem(b).empty());
  b.element = DataType::f16;
  b.normalized_read = false;
  CHECK(texture_sampling_problem(b).empty());
}

TEST_CASE("texture bindings: layered and cubemap shapes", "[simt]") {
  TextureBinding b;
  b.dimensions = 2;
  b.width = 8;
  b.height = 8;
  b.layers = 3;
  CHECK(texture_sampling_problem(b).empty());
  CHECK(texture_shape_text(b) == "a layered 2-D texture");
  CHECK(b.slices() == 3);
  CHECK(b.layer_pitch() == 8 * 8 * 4);
  b.cubemap = true;
  CHECK(texture_sampling_problem(b).empty());
  CHECK(texture_shape_text(b) == "a layered cubemap texture");
  CHECK(b.slices() == 18);
  b.height = 4;
  CHECK(texture_sampling_problem(b) ==
        "a cubemap texture's faces are square: width and height equal, no depth");
  b = TextureBinding{};
  b.surface = true;
  b.dimensions = 3;
  b.layers = 2;
  CHECK(texture_sampling_problem(b) == "a layered surface is 1-D or 2-D, as in CUDA");
  b.dimensions = 1;
  b.width = 16;
  CHECK(texture_shape_text(b) == "a layered 1-D surface");
  CHECK(b.layer_pitch() == 16 * 4);  // a 1-D texture's layers are rows
}

TEST_CASE("cubemap fetch: the major axis picks the face and scales the other two", "[simt]") {
  // The CUDA C++ Programming Guide's cubemap table: face, then s and t before normalisation.
  struct Case {
    float x, y, z;
    uint32_t face;
    float s, t;
  };
  const Case cases[] = {{2.0f, 1.0f, 0.5f, 0, -0.25f, -0.5f},     // +x: s = -z, t = -y
                        {-4.0f, 1.0f, 2.0f, 1, 0.5f, -0.25f},     // -x: s = z, t = -y
                        {0.5f, 2.0f, -1.0f, 2, 0.25f, -0.5f},     // +y: s = x, t = z
                        {0.5f, -2.0f, -1.0f, 3, 0.25f, 0.5f},     // -y: s = x, t = -z
                        {-1.0f, 0.5f, 4.0f, 4, -0.25f, -0.125f},  // +z: s = x, t = -y
                        {-1.0f, 0.5f, -4.0f, 5, 0.25f, -0.125f},  // -z: s = -x, t = -y
                        {1.0f, 1.0f, 0.0f, 0, 0.0f, -1.0f},       // a tie: x before y
                        {0.0f, -1.0f, 1.0f, 3, 0.0f, -1.0f}};     // a tie: y before z
  for (const Case& c : cases) {
    INFO(c.x << ", " << c.y << ", " << c.z);
    const CubemapFace face = cubemap_face(c.x, c.y, c.z);
    CHECK(face.face == c.face);
    CHECK(face.s == 0.5f * (c.s + 1.0f));
    CHECK(face.t == 0.5f * (c.t + 1.0f));
  }
}
