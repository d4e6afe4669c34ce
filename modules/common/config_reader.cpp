#include "modules/common/config_reader.h"

#include <algorithm>

#include "modules/common/closest_match.h"
#include "modules/common/config_document.h"
#include "modules/common/errors.h"

namespace ohmvp {

namespace {

std::string join_path(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

// A value as JSON text; bytes that are not UTF-8 (text given to --set) become U+FFFD.
std::string quoted(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A value as messages quote it: scalars in full (up to a point), containers by kind.
std::string describe(const nlohmann::json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  std::string text = quoted(value);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string result;
  for (const std::string& item : items) result += (result.empty() ? "'" : ", '") + item + "'";
  return result;
}

const nlohmann::json& empty_object() {
  static const nlohmann::json empty = nlohmann::json::object();
  return empty;
}

}  // namespace

ConfigReader::ConfigReader(const nlohmann::json& node, std::string path,
                           const ConfigDocument* document)
    : m_node(&node), m_path(std::move(path)), m_document(document) {
  if (!node.is_object())
    throw ConfigError(origin_prefix(m_path) + (m_path.empty() ? "" : m_path + ": ") +
                      "expected object, got " + describe(node));
}

const nlohmann::json* ConfigReader::lookup(const char* key) const {
  if (std::find(m_asked.begin(), m_asked.end(), key) == m_asked.end()) m_asked.emplace_back(key);
  auto found = m_node->find(key);
  return found == m_node->end() ? nullptr : &*found;
}

bool ConfigReader::has(const char* key) const {
  return lookup(key) != nullptr;
}

const nlohmann::json* ConfigReader::raw(const char* key) const {
  return lookup(key);
}

ConfigReader ConfigReader::child(const char* key) const {
  const nlohmann::json* found = lookup(key);
  if (!found) return ConfigReader(empty_object(), join_path(m_path, key), m_document);
  if (!found->is_object()) fail(key, "expected object, got " + describe(*found));
  return ConfigReader(*found, join_path(m_path, key), m_document);
}

void ConfigReader::get_u64_list(const char* key, std::vector<uint64_t>& values) const {
  const nlohmann::json* found = lookup(key);
  if (!found) return;
  const std::string expected = "expected array of unsigned integers";
  if (!found->is_array()) fail(key, expected + ", got " + describe(*found));
  std::vector<uint64_t> read;
  for (size_t i = 0; i < found->size(); ++i) {
    const nlohmann::json& element = (*found)[i];
    if (!element.is_number_integer() ||
        (!element.is_number_unsigned() && element.get<int64_t>() < 0))
      fail(key, expected + "; element " + std::to_string(i) + " is " + describe(element));
    read.push_back(element.get<uint64_t>());
  }
  values = std::move(read);
}

void ConfigReader::finish() const {
  for (auto it = m_node->begin(); it != m_node->end(); ++it) {
    const std::string& key = it.key();
    if (is_config_note(key)) continue;
    if (std::find(m_asked.begin(), m_asked.end(), key) != m_asked.end()) continue;
    const std::string suggestion = closest_match(key, m_asked);
    // The problem names the location itself, so the dotted path is not repeated in front of it.
    throw ConfigError(origin_prefix(join_path(m_path, key)) + "unknown key '" + excerpt(key) +
                      "' at " + (m_path.empty() ? "top level" : m_path) +
                      (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"));
  }
}

void ConfigReader::finish(std::initializer_list<const char*> known) const {
  finish(std::vector<const char*>(known));
}

void ConfigReader::finish(const std::vector<const char*>& known) const {
  for (const char* key : known) lookup(key);
  finish();
}

void ConfigReader::fail(const std::string& key, const std::string& problem) const {
  const std::string dotted = join_path(m_path, key);
  throw ConfigError(origin_prefix(dotted) + dotted + ": " + problem);
}

void ConfigReader::fail_against(const std::string& key, const std::string& other_path,
                                const std::string& problem) const {
  fail_against(key, std::vector<std::string>{other_path}, problem);
}

void ConfigReader::fail_against(const std::string& key, const std::vector<std::string>& other_paths,
                                const std::string& problem) const {
  const std::string dotted = join_path(m_path, key);
  if (!m_document) throw ConfigError(dotted + ": " + problem);
  std::vector<std::string> paths{dotted};
  paths.insert(paths.end(), other_paths.begin(), other_paths.end());
  // A value left at its default did not make the conflict; of those set, the most direct.
  const std::string* blamed = &paths.front();
  for (const std::string& path : paths)
    if (m_document->directness(path) > m_document->directness(*blamed)) blamed = &path;
  const std::string origin = m_document->origin_of(*blamed);
  std::string notes;
  for (const std::string& path : paths)
    // The value blamed is named even where the message's file set it: it is not the key failed.
    notes += &path == blamed && path != dotted ? " (" + path + " is set in " + origin + ")"
                                               : where_set(path, origin);
  throw ConfigError(origin + ": " + dotted + ": " + problem + notes);
}

std::string ConfigReader::where_set(const std::string& dotted_path,
                                    const std::string& origin) const {
  if (!m_document) return "";
  if (!m_document->sets(dotted_path)) return " (" + dotted_path + " is not set: its default)";
  const std::string set_in = m_document->origin_of(dotted_path);
  return set_in == origin ? "" : " (" + dotted_path + " is set in " + set_in + ")";
}

std::string ConfigReader::origin_prefix(const std::string& dotted_path) const {
  return m_document ? m_document->origin_of(dotted_path) + ": " : "";
}

bool ConfigReader::read_bool(const char* key, const nlohmann::json& value) const {
  if (!value.is_boolean()) fail(key, "expected boolean, got " + describe(value));
  return value.get<bool>();
}

std::string ConfigReader::read_string(const char* key, const nlohmann::json& value) const {
  if (!value.is_string()) fail(key, "expected string, got " + describe(value));
  std::string text = value.get<std::string>();
  // Names, descriptions and paths reach terminals and file names: no control characters.
  if (find_control_character(text) != std::string::npos)
    fail(key, control_character_refusal(text, "text"));
  return text;
}

double ConfigReader::read_double(const char* key, const nlohmann::json& value) const {
  if (!value.is_number()) fail(key, "expected number, got " + describe(value));
  return value.get<double>();
}

uint64_t ConfigReader::read_unsigned(const char* key, const nlohmann::json& value,
                                     uint64_t max) const {
  if (!value.is_number_integer() || (!value.is_number_unsigned() && value.get<int64_t>() < 0))
    fail(key, "expected unsigned integer, got " + describe(value));
  const uint64_t read = value.get<uint64_t>();
  if (read > max) fail_range(key, value.dump(), "0", std::to_string(max));
  return read;
}

int64_t ConfigReader::read_signed(const char* key, const nlohmann::json& value, int64_t min,
                                  int64_t max) const {
  if (!value.is_number_integer()) fail(key, "expected integer, got " + describe(value));
  const bool too_big =
      value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(max);
  if (too_big ||
      (!value.is_number_unsigned() && (value.get<int64_t>() < min || value.get<int64_t>() > max)))
    fail_range(key, value.dump(), std::to_string(min), std::to_string(max));
  return value.get<int64_t>();
}

size_t ConfigReader::choose(const char* key, const nlohmann::json& value,
                            const std::vector<std::string>& allowed) const {
  if (!value.is_string()) fail(key, "expected string, got " + describe(value));
  const std::string& name = value.get_ref<const std::string&>();
  const auto found = std::find(allowed.begin(), allowed.end(), name);
  if (found != allowed.end()) return static_cast<size_t>(found - allowed.begin());
  const std::string suggestion = closest_match(name, allowed);
  fail(key, "unknown value '" + excerpt(name) + "'; expected one of " + quoted_list(allowed) +
                (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"));
}

void ConfigReader::fail_range(const char* key, const std::string& value, const std::string& min,
                              const std::string& max) const {
  fail(key, "value " + value + " out of range; expected " + min + " to " + max);
}

}  // namespace ohmvp
