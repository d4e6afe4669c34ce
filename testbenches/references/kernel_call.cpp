#include "testbenches/references/kernel_call.h"

namespace ohmvp::reference {

namespace {

const char* kind_name(KernelArg::Kind kind) {
  switch (kind) {
    case KernelArg::Kind::buffer:
      return "a buffer";
    case KernelArg::Kind::scalar:
      return "a scalar";
    case KernelArg::Kind::texture:
      return "a texture";
    case KernelArg::Kind::structure:
      return "a struct";
  }
  return "?";
}

}  // namespace

void KernelCall::expect_args(size_t count) const {
  if (m_args.size() != count)
    throw SimulationError("reference kernel " + m_launch.kernel + ": takes " +
                          std::to_string(count) + " arguments, the launch passes " +
                          std::to_string(m_args.size()));
}

const ResolvedArg& KernelCall::argument(size_t index, KernelArg::Kind kind) const {
  if (index >= m_args.size()) fail(index, "missing");
  if (m_args[index].kind != kind)
    fail(index,
         std::string("expected ") + kind_name(kind) + ", got " + kind_name(m_args[index].kind));
  return m_args[index];
}

void KernelCall::fail(size_t index, const std::string& problem) const {
  throw SimulationError("reference kernel " + m_launch.kernel + ": argument " +
                        std::to_string(index) + ": " + problem);
}

TextureView KernelCall::texture(size_t index) const {
  const ResolvedArg& arg = argument(index, KernelArg::Kind::texture);
  if (arg.texture.filter != TextureFilter::point)
    fail(index, "the references model point filtering only");
  return TextureView(
      BufferView<float>(m_memory.at(arg.buffer), m_launch.kernel + " texture '" + arg.buffer + "'"),
      arg.texture);
}

int64_t TextureView::address(float coordinate, uint64_t extent) const {
  const double scaled =
      m_binding.normalized ? static_cast<double>(coordinate) * extent : coordinate;
  int64_t i = static_cast<int64_t>(std::floor(scaled));
  const int64_t n = static_cast<int64_t>(extent);
  switch (m_binding.address) {
    case TextureAddress::clamp:
      return i < 0 ? 0 : (i >= n ? n - 1 : i);
    case TextureAddress::border:
      return i < 0 || i >= n ? -1 : i;
    case TextureAddress::wrap:
      return ((i % n) + n) % n;
    case TextureAddress::mirror: {
      const int64_t period = ((i % (2 * n)) + 2 * n) % (2 * n);
      return period < n ? period : 2 * n - 1 - period;
    }
  }
  return i;
}

float TextureView::sample_2d(float x, float y) const {
  const int64_t column = address(x, m_binding.width);
  const int64_t row = address(y, m_binding.height);
  if (column < 0 || row < 0) return 0.0f;
  return m_texels[static_cast<uint64_t>(row) * m_binding.width + static_cast<uint64_t>(column)];
}

}  // namespace ohmvp::reference
