#pragma once

#include <cstdint>
#include <string_view>

namespace ohmvp {

constexpr uint64_t fnv1a64_basis = 0xcbf29ce484222325;

// FNV-1a, 64 bits: the same on every platform and standard library (std::hash is not). `hash`
// carries on the hash of what came before `bytes`.
inline uint64_t fnv1a64(std::string_view bytes, uint64_t hash = fnv1a64_basis) {
  for (const char c : bytes) hash = (hash ^ static_cast<uint8_t>(c)) * 0x100000001b3;
  return hash;
}

}  // namespace ohmvp
