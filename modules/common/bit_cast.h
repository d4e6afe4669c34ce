#pragma once

#include <cstring>
#include <type_traits>

namespace ohmvp {

// C++20's std::bit_cast for C++17: `from`'s bytes as a `To` of the same size.
template <class To, class From>
To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs types of one size");
  static_assert(std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>,
                "bit_cast needs trivially copyable types");
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}

}  // namespace ohmvp
