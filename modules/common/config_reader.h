#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace ohmvp {

class ConfigDocument;

namespace detail {
// Keeps a parameter out of template deduction, so get("n", u32, 1, 64) compiles.
template <class T>
struct NonDeduced {
  using type = T;
};
}  // namespace detail

// Reads one JSON object of a block's configuration into its config struct. Absent keys keep the
// struct's defaults; present ones are type- and range-checked. finish() then rejects every key no
// one asked about, so a typo is an error rather than a silently ignored setting. Errors read
// "<origin file>: <dotted.path.key>: <problem>".
// Keys beginning with '_' are notes ("_source"): no block reads them.
inline bool is_config_note(const std::string& key) {
  return !key.empty() && key.front() == '_';
}

class ConfigReader {
 public:
  // `path` is the dotted JSON path of `node` ("" for the root); `document`, when given, names the
  // file each value came from. `node` must outlive the reader.
  ConfigReader(const nlohmann::json& node, std::string path,
               const ConfigDocument* document = nullptr);

  // bool, std::string, floating point (any number) or an integer type (integers only, within the
  // type's range).
  template <class T>
  void get(const char* key, T& value) const {
    if (const nlohmann::json* found = lookup(key)) value = convert<T>(key, *found);
  }

  template <class T>
  void get(const char* key, T& value, typename detail::NonDeduced<T>::type min,
           typename detail::NonDeduced<T>::type max) const {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, "range needs a number");
    const nlohmann::json* found = lookup(key);
    if (!found) return;
    // Integers are read at 64 bits, so that a value beyond T is told this key's range, not T's.
    using Wide = std::conditional_t<!std::is_integral_v<T>, T,
                                    std::conditional_t<std::is_unsigned_v<T>, uint64_t, int64_t>>;
    const Wide read = convert<Wide>(key, *found);
    if (read < static_cast<Wide>(min) || read > static_cast<Wide>(max))
      fail_range(key, found->dump(), nlohmann::json(min).dump(), nlohmann::json(max).dump());
    value = static_cast<T>(read);
  }

  template <class E>
  void get_enum(const char* key, E& value,
                const std::vector<std::pair<std::string, E>>& names) const {
    const nlohmann::json* found = lookup(key);
    if (!found) return;
    std::vector<std::string> allowed;
    for (const auto& name : names) allowed.push_back(name.first);
    value = names[choose(key, *found, allowed)].second;
  }

  void get_u64_list(const char* key, std::vector<uint64_t>& values) const;

  bool has(const char* key) const;
  // The object under `key`; an absent key gives a reader over an empty object, so defaults apply.
  ConfigReader child(const char* key) const;
  // The value under `key` for custom parsing, or nullptr when absent.
  const nlohmann::json* raw(const char* key) const;

  const std::string& path() const { return m_path; }

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const;
  // A check of `key` against another value failed (`other_path`: that value's dotted path from
  // the root): as fail(), adding where the other value was set when that was somewhere else. When
  // `key` is at its default and the other value is set, the message begins with the other's file:
  // that is where the conflict was made.
  [[noreturn]] void fail_against(const std::string& key, const std::string& other_path,
                                 const std::string& problem) const;
  // The same against several values. The message begins with the file of the one the user set
  // most directly: --set, then the platform file named, then the files it extends, nearest first
  // (ConfigDocument::directness); every other value's origin follows in parentheses.
  [[noreturn]] void fail_against(const std::string& key,
                                 const std::vector<std::string>& other_paths,
                                 const std::string& problem) const;
  // Where `dotted_path` got its value, for a message that names `origin` first: " (<path> is not
  // set: its default)", " (<path> is set in <file>)" when that is another, or "".
  std::string where_set(const std::string& dotted_path, const std::string& origin) const;
  // "<file that set the value at dotted_path>: ", or "" without a document.
  std::string origin_prefix(const std::string& dotted_path) const;

  // Rejects any key that was not asked about, except notes whose name begins with '_'.
  void finish() const;
  // The same with `known` counted as asked: a misspelt key is named before the checks that
  // read the others (which would otherwise report the right key as missing).
  void finish(std::initializer_list<const char*> known) const;
  void finish(const std::vector<const char*>& known) const;

 private:
  template <class T>
  static constexpr bool k_unsupported = false;

  template <class T>
  T convert(const char* key, const nlohmann::json& value) const {
    if constexpr (std::is_same_v<T, bool>) {
      return read_bool(key, value);
    } else if constexpr (std::is_same_v<T, std::string>) {
      return read_string(key, value);
    } else if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(read_double(key, value));
    } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
      return static_cast<T>(read_unsigned(key, value, std::numeric_limits<T>::max()));
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(
          read_signed(key, value, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
    } else {
      static_assert(k_unsupported<T>, "ConfigReader::get: unsupported type; use get_enum or raw");
    }
  }

  // Marks `key` as asked about; nullptr when absent.
  const nlohmann::json* lookup(const char* key) const;

  bool read_bool(const char* key, const nlohmann::json& value) const;
  std::string read_string(const char* key, const nlohmann::json& value) const;
  double read_double(const char* key, const nlohmann::json& value) const;
  uint64_t read_unsigned(const char* key, const nlohmann::json& value, uint64_t max) const;
  int64_t read_signed(const char* key, const nlohmann::json& value, int64_t min, int64_t max) const;
  size_t choose(const char* key, const nlohmann::json& value,
                const std::vector<std::string>& allowed) const;
  [[noreturn]] void fail_range(const char* key, const std::string& value, const std::string& min,
                               const std::string& max) const;

  const nlohmann::json* m_node;
  std::string m_path;
  const ConfigDocument* m_document;
  mutable std::vector<std::string> m_asked;
};

}  // namespace ohmvp
