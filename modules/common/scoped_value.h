#pragma once

namespace ohmvp {

// Sets a variable for the life of a scope and gives it back its value when the scope ends,
// however it ends (an exception included).
template <class T>
class ScopedValue {
 public:
  ScopedValue(T& variable, T value) : m_variable(variable), m_before(variable) {
    m_variable = value;
  }
  ~ScopedValue() { m_variable = m_before; }
  ScopedValue(const ScopedValue&) = delete;
  ScopedValue& operator=(const ScopedValue&) = delete;

 private:
  T& m_variable;
  T m_before;
};

}  // namespace ohmvp
