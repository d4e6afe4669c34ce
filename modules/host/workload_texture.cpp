#include "modules/host/workload_texture.h"

#include "modules/common/errors.h"

namespace ohmvp {

namespace {

gpu::DataType texel_type(ElementType type) {
  switch (type) {
    case ElementType::u8:
      return gpu::DataType::u8;
    case ElementType::s8:
      return gpu::DataType::s8;
    case ElementType::u16:
      return gpu::DataType::u16;
    case ElementType::s16:
      return gpu::DataType::s16;
    case ElementType::u32:
      return gpu::DataType::u32;
    case ElementType::s32:
      return gpu::DataType::s32;
    case ElementType::f16:
      return gpu::DataType::f16;
    case ElementType::f32:
      return gpu::DataType::f32;
    case ElementType::u64:
      return gpu::DataType::u64;
    case ElementType::s64:
      return gpu::DataType::s64;
    case ElementType::f64:
      return gpu::DataType::f64;
    default:
      return gpu::DataType::none;
  }
}

}  // namespace

gpu::TextureBinding workload_texture(const GpuWorkload& workload, const TextureBinding& texture,
                                     uint64_t base) {
  const std::string where =
      std::string(texture.surface ? "surface" : "texture") + " over '" + texture.buffer + "': ";
  if (texture.width > UINT32_MAX || texture.height > UINT32_MAX || texture.depth > UINT32_MAX)
    throw ConfigError(where + "width, height and depth must fit in 32 bits");
  const BufferSpec* spec = workload.find_buffer(texture.buffer);
  const gpu::DataType element = spec ? texel_type(spec->type) : gpu::DataType::none;
  if (element == gpu::DataType::none || (!texture.surface && type_bytes(element) == 8))
    throw ConfigError(where + "texel type must be one of u8 s8 u16 s16 u32 s32 f16 f32" +
                      (texture.surface ? " u64 s64 f64" : ""));
  gpu::TextureBinding binding;
  binding.base = base;
  binding.element = element;
  binding.channels = texture.channels;
  binding.normalized_read = texture.normalized_read;
  binding.filter = texture.filter;
  binding.address = texture.address;
  binding.normalized_coordinates = texture.normalized;
  binding.surface = texture.surface;
  binding.dimensions = texture.dimensions;
  binding.width = static_cast<uint32_t>(texture.width);
  binding.height = static_cast<uint32_t>(texture.dimensions >= 2 ? texture.height : 1);
  binding.depth = static_cast<uint32_t>(texture.dimensions == 3 ? texture.depth : 1);
  binding.layers = static_cast<uint32_t>(texture.layers);
  binding.cubemap = texture.cubemap;
  const std::string problem = gpu::texture_sampling_problem(binding);
  if (!problem.empty()) throw ConfigError(where + problem);
  return binding;
}

}  // namespace ohmvp
