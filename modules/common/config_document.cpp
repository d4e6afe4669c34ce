#include "modules/common/config_document.h"

#include <algorithm>
#include <system_error>

#include "modules/common/closest_match.h"
#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/common/json_file.h"

namespace ohmvp {

namespace fs = std::filesystem;
using Origins = ConfigDocument::Origins;

namespace {

std::string join_path(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

bool is_within(const std::string& path, const std::string& prefix) {
  if (prefix.empty()) return true;
  return path.compare(0, prefix.size(), prefix) == 0 &&
         (path.size() == prefix.size() || path[prefix.size()] == '.');
}

// Entries within `prefix` sort together, but not contiguously: "a.b-x" lies between "a.b" and
// "a.b.c". So walk every key that starts with the prefix and filter.
template <class Map, class Visit>
void for_each_within(Map& origins, const std::string& prefix, Visit visit) {
  auto it = origins.lower_bound(prefix);
  while (it != origins.end() && it->first.compare(0, prefix.size(), prefix) == 0) {
    auto next = std::next(it);
    if (is_within(it->first, prefix)) visit(it);
    it = next;
  }
}

void erase_within(Origins& origins, const std::string& prefix) {
  for_each_within(origins, prefix, [&origins](Origins::iterator it) { origins.erase(it); });
}

void record_leaves(const nlohmann::json& value, const std::string& path, const std::string& origin,
                   Origins& origins) {
  if (value.is_object() && !value.empty()) {
    for (auto it = value.begin(); it != value.end(); ++it)
      record_leaves(*it, join_path(path, it.key()), origin, origins);
    return;
  }
  origins[path] = origin;
}

// Deep-merges `overlay` into `base` (objects key by key; everything else replaces) and carries the
// overlay's origins along for every value it replaces.
void merge_into(nlohmann::json& base, Origins& base_origins, const nlohmann::json& overlay,
                const Origins& overlay_origins, const std::string& path) {
  for (auto it = overlay.begin(); it != overlay.end(); ++it) {
    const std::string child = join_path(path, it.key());
    auto existing = base.find(it.key());
    if (existing != base.end() && existing->is_object() && it->is_object()) {
      merge_into(*existing, base_origins, *it, overlay_origins, child);
      continue;
    }
    base[it.key()] = *it;
    erase_within(base_origins, child);
    for_each_within(overlay_origins, child, [&base_origins](Origins::const_iterator entry) {
      base_origins.insert(*entry);
    });
  }
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string join_list(const std::vector<std::string>& items, const std::string& separator) {
  std::string result;
  for (const std::string& item : items) result += (result.empty() ? "" : separator) + item;
  return result;
}

std::vector<std::string> extends_names(const fs::path& file, const nlohmann::json& extends) {
  const std::string problem = file.string() + ": extends: expected a string or an array of strings";
  if (!extends.is_string() && !extends.is_array()) throw ConfigError(problem);
  std::vector<std::string> names;
  for (const nlohmann::json& name :
       extends.is_string() ? nlohmann::json::array({extends}) : extends) {
    if (!name.is_string()) throw ConfigError(problem);
    names.push_back(name.get<std::string>());
  }
  // A file name cut at a NUL would name another file.
  for (const std::string& name : names)
    if (find_control_character(name) != std::string::npos)
      throw ConfigError(file.string() + ": extends: " + control_character_refusal(name, "a name"));
  return names;
}

struct Layer {
  nlohmann::json root = nlohmann::json::object();
  Origins origins;
};

class Loader {
 public:
  explicit Loader(const std::vector<fs::path>& search_dirs) : m_search_dirs(search_dirs) {}

  const std::vector<std::string>& merge_order() const { return m_merge_order; }

  Layer load(const fs::path& file) {
    const std::string shown = file.string();
    std::error_code ignored;
    fs::path identity = fs::weakly_canonical(file, ignored);
    if (identity.empty()) identity = fs::absolute(file, ignored).lexically_normal();
    const auto seen = std::find(m_identities.begin(), m_identities.end(), identity);
    if (seen != m_identities.end()) {
      std::vector<std::string> cycle(m_shown.begin() + (seen - m_identities.begin()),
                                     m_shown.end());
      cycle.push_back(shown);
      throw ConfigError(m_shown.back() + ": extends cycle: " + join_list(cycle, " -> "));
    }
    m_identities.push_back(identity);
    m_shown.push_back(shown);

    nlohmann::json own = load_json_file(file);
    if (!own.is_object()) throw ConfigError(shown + ": expected a JSON object at the top level");
    Layer merged;
    if (auto extends = own.find("extends"); extends != own.end()) {
      const std::vector<std::string> names = extends_names(shown, *extends);
      own.erase(extends);
      for (const std::string& name : names) {
        const Layer parent = load(resolve(shown, name));
        merge_into(merged.root, merged.origins, parent.root, parent.origins, "");
      }
    }
    Origins own_origins;
    for (auto it = own.begin(); it != own.end(); ++it)
      record_leaves(*it, it.key(), shown, own_origins);
    merge_into(merged.root, merged.origins, own, own_origins, "");
    m_merge_order.push_back(shown);

    m_identities.pop_back();
    m_shown.pop_back();
    return merged;
  }

 private:
  fs::path resolve(const fs::path& including, const std::string& name) const {
    if (name.empty()) throw ConfigError(including.string() + ": extends: empty name");
    const std::string leaf = ends_with(name, ".json") ? name : name + ".json";
    std::vector<fs::path> candidates{(including.parent_path() / leaf).lexically_normal()};
    for (const fs::path& dir : m_search_dirs) candidates.push_back((dir / leaf).lexically_normal());
    std::vector<std::string> looked;
    for (const fs::path& candidate : candidates) {
      if (std::find(looked.begin(), looked.end(), candidate.string()) != looked.end()) continue;
      if (regular_file_exists(candidate)) return candidate;
      if (const auto why = why_not_regular(candidate))
        throw ConfigError(including.string() + ": extends: '" + excerpt(name) + "' is " +
                          excerpt(candidate.string(), 200) + ", " + *why);
      looked.push_back(candidate.string());
    }
    for (std::string& path : looked) path = excerpt(path, 200);
    const std::string suggestion = suggested_name(name);
    throw ConfigError(including.string() + ": extends: cannot find '" + excerpt(name) +
                      "' (looked in " + join_list(looked, ", ") + ")" +
                      (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"));
  }

  // A document of the search dirs `name` may have meant: the one of that name, or of the closest
  // spelling, in a subfolder ("platforms/ohm_bw_planar" for "ohm_bw_planar" or "ohm_bw_planr"),
  // a platform before a fragment of one ("platforms/ohm_gpu", not "gpu/ohm_gpu"). None for a path
  // that leaves the folders it names (absolute, "..").
  std::string suggested_name(const std::string& name) const {
    const fs::path given(name);
    if (given.is_absolute() || name.find("..") != std::string::npos) return "";
    std::vector<std::string> names = search_dir_names();
    std::stable_partition(names.begin(), names.end(),
                          [](const std::string& n) { return n.rfind("platforms/", 0) == 0; });
    std::vector<std::string> stems;
    for (const std::string& candidate : names) stems.push_back(fs::path(candidate).filename());
    const std::string stem = closest_match(fs::path(name).replace_extension().filename(), stems);
    if (!stem.empty())
      return names[size_t(std::find(stems.begin(), stems.end(), stem) - stems.begin())];
    return closest_match(name, names);
  }

  // The documents of the search dirs as `extends` names them: "platforms/ohm_bw_planar".
  std::vector<std::string> search_dir_names() const {
    std::vector<std::string> names;
    for (const fs::path& dir : m_search_dirs) {
      std::error_code error;
      for (fs::recursive_directory_iterator
               it(dir, fs::directory_options::skip_permission_denied, error),
           end;
           !error && it != end; it.increment(error)) {
        std::error_code not_a_file;
        if (it->path().extension() == ".json" && it->is_regular_file(not_a_file))
          names.push_back(it->path().lexically_relative(dir).replace_extension().string());
      }
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  std::vector<fs::path> m_search_dirs;
  // Every file as shown, in the order its content was merged: each over those before it.
  std::vector<std::string> m_merge_order;
  // The files being loaded, outermost first: canonical paths to spot cycles, and as shown.
  std::vector<fs::path> m_identities;
  std::vector<std::string> m_shown;
};

// JSON kinds as --set messages name them; an integer is a kind of its own so that an integer leaf
// can refuse 1.5.
std::string kind_of(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::boolean:
      return "boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return "integer";
    case nlohmann::json::value_t::number_float:
      return "number";
    case nlohmann::json::value_t::string:
      return "string";
    case nlohmann::json::value_t::array:
      return "array";
    case nlohmann::json::value_t::object:
      return "object";
    default:
      return "value";
  }
}

bool same_kind(const nlohmann::json& existing, const nlohmann::json& value) {
  if (existing.is_null()) return true;
  if (existing.is_number_float()) return value.is_number();
  return kind_of(existing) == kind_of(value);
}

// -?digits[.digits][(e|E)[+|-]digits]: JSON's number grammar (leading zeros aside).
bool is_json_number(const std::string& text) {
  size_t i = 0;
  const auto digits = [&] {
    const size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i > start;
  };
  if (i < text.size() && text[i] == '-') ++i;
  if (!digits()) return false;
  if (i < text.size() && text[i] == '.' && (++i, !digits())) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == text.size();
}

// The value text as JSON if it is JSON, else as a plain string. A string leaf takes the text as
// is, so "--set name=1234" keeps the name a string, or a JSON string ("\"[draft] x\""). Text that
// opens an object or an array is meant as JSON, on any leaf: when it does not parse, the parser
// says where. JSON too deep, with a number beyond a double's range or a key twice is an error
// naming the assignment.
nlohmann::json parse_override_value(const std::string& text, const nlohmann::json& existing,
                                    const std::string& assignment, const std::string& path) {
  try {
    (void)nlohmann::json(text).dump();  // JSON text is UTF-8: the document could not be written
  } catch (const nlohmann::json::type_error&) {
    throw ConfigError("--set " + path + ": the value is not valid UTF-8 text");
  }
  const bool opens_json = !text.empty() && (text.front() == '{' || text.front() == '[');
  if (existing.is_string() && opens_json) {
    try {
      return parse_json_text(text, "--set " + assignment, path);
    } catch (const ConfigError& error) {
      throw ConfigError(std::string(error.what()) + "; " + path +
                        " is a string: one that begins with '" + text.front() +
                        "' is given as a JSON string, --set '" + path + "=" +
                        excerpt(nlohmann::json(text).dump()) + "'");
    }
  }
  if (existing.is_string()) {
    const bool json_string = text.front() == '"' && nlohmann::json::accept(text);
    return json_string ? nlohmann::json::parse(text) : nlohmann::json(text);
  }
  // A JSON number beyond a double (1e400) is not accepted; the parser says what is wrong.
  if (!opens_json && !is_json_number(text) && !nlohmann::json::accept(text)) return text;
  return parse_json_text(text, "--set " + assignment, path);
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> segments;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    segments.push_back(path.substr(start, dot - start));
    if (dot == std::string::npos) return segments;
    start = dot + 1;
  }
}

bool parse_index(const std::string& text, size_t size, size_t& index) {
  if (text.empty() || text.size() > 9 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  index = std::stoul(text);
  return index < size;
}

}  // namespace

ConfigDocument::ConfigDocument(nlohmann::json root, std::string origin)
    : m_root(std::move(root)), m_root_origin(std::move(origin)), m_merge_order{m_root_origin} {
  if (m_root.is_object()) {
    for (auto it = m_root.begin(); it != m_root.end(); ++it)
      record_leaves(*it, it.key(), m_root_origin, m_origins);
  }
}

ConfigDocument::ConfigDocument(nlohmann::json root, fs::path file, Origins origins,
                               std::vector<std::string> merge_order)
    : m_root(std::move(root)),
      m_file(std::move(file)),
      m_root_origin(m_file.string()),
      m_origins(std::move(origins)),
      m_merge_order(std::move(merge_order)) {}

ConfigDocument ConfigDocument::load(const fs::path& file,
                                    const std::vector<fs::path>& search_dirs) {
  Loader loader(search_dirs);
  Layer layer = loader.load(file);
  return ConfigDocument(std::move(layer.root), file, std::move(layer.origins),
                        loader.merge_order());
}

namespace {

// The origin of the leaf above `dotted_path`, when it lies below one: an element of an array
// ("a.list[2]" or "a.list.2" is in "a.list"), a key of an object given whole (--set uvm={...}).
const std::string* origin_above(const ConfigDocument::Origins& origins,
                                const std::string& dotted_path) {
  std::string ancestor = dotted_path;
  while (true) {
    const size_t cut =
        !ancestor.empty() && ancestor.back() == ']' ? ancestor.rfind('[') : ancestor.rfind('.');
    if (cut == std::string::npos || cut == 0) return nullptr;
    ancestor.resize(cut);
    if (auto found = origins.find(ancestor); found != origins.end()) return &found->second;
  }
}

}  // namespace

int ConfigDocument::rank_of(const std::string& origin) const {
  if (origin == override_origin) return static_cast<int>(m_merge_order.size());
  const auto last = std::find(m_merge_order.rbegin(), m_merge_order.rend(), origin);
  return static_cast<int>(m_merge_order.rend() - last) - 1;
}

const std::string* ConfigDocument::direct_origin(const std::string& dotted_path) const {
  if (auto exact = m_origins.find(dotted_path); exact != m_origins.end()) return &exact->second;
  const std::string* direct = nullptr;
  for_each_within(m_origins, dotted_path, [&](Origins::const_iterator entry) {
    if (!direct || rank_of(entry->second) > rank_of(*direct)) direct = &entry->second;
  });
  return direct ? direct : origin_above(m_origins, dotted_path);
}

std::string ConfigDocument::origin_of(const std::string& dotted_path) const {
  // "" is the document itself, unless a file set a key named "" at the top level.
  if (dotted_path.empty()) {
    const auto key = m_origins.find("");
    return key != m_origins.end() ? key->second : m_root_origin;
  }
  const std::string* origin = direct_origin(dotted_path);
  return origin ? *origin : m_root_origin;
}

bool ConfigDocument::sets(const std::string& dotted_path) const {
  return direct_origin(dotted_path) != nullptr;
}

int ConfigDocument::directness(const std::string& dotted_path) const {
  const std::string* origin = direct_origin(dotted_path);
  return origin ? rank_of(*origin) : -1;
}

std::string ConfigDocument::origins_text() const {
  std::string text;
  for (const auto& [path, origin] : m_origins) {
    const std::vector<std::string> segments = split_path(path);
    if (std::any_of(segments.begin(), segments.end(), is_config_note)) continue;
    const nlohmann::json* value = &m_root;
    for (const std::string& segment : segments) value = &value->at(segment);
    text += path + " = " + excerpt(value->dump(), 120) + "  (" + origin + ")\n";
  }
  return text;
}

void ConfigDocument::apply_override(const std::string& assignment) {
  // Messages quote the assignment cut short: a value may be a whole JSON document.
  const std::string quoted = excerpt(assignment, 200);
  const size_t equals = assignment.find('=');
  const std::string path = assignment.substr(0, equals);
  const std::vector<std::string> segments = split_path(path);
  if (equals == std::string::npos ||
      std::any_of(segments.begin(), segments.end(), [](const std::string& s) { return s.empty(); }))
    throw ConfigError("--set '" + quoted + "': expected json.path=value");
  const std::string value_text = assignment.substr(equals + 1);
  const std::string where = "--set " + excerpt(path, 200) + ": ";
  if (segments.front() == "extends")
    throw ConfigError(where +
                      "'extends' is resolved as the platform file loads, before --set applies; "
                      "to start from another platform, use --platform or a file that extends it");

  nlohmann::json* node = &m_root;
  std::string walked;
  // An array is one leaf to the origins: an element set here makes the whole array --set's.
  std::string origin_path;
  for (size_t i = 0; i < segments.size(); ++i) {
    const std::string& segment = segments[i];
    const std::string at = walked.empty() ? "top level" : walked;
    if (node->is_object()) {
      auto found = node->find(segment);
      if (found == node->end() && i + 1 == segments.size()) {
        // A leaf the platform leaves at its default: added here, checked by its block's reader
        // (which names an unknown key and suggests the nearest).
        node = &(*node)[segment];
        break;
      }
      if (found == node->end()) {
        std::vector<std::string> keys;
        for (auto it = node->begin(); it != node->end(); ++it) keys.push_back(it.key());
        const std::string suggestion = closest_match(segment, keys);
        if (!suggestion.empty())
          throw ConfigError(where + "unknown key '" + segment + "' at " + at + "; did you mean '" +
                            suggestion + "'?");
        // Perhaps an object the platform leaves at its default: it has no leaves to change yet.
        std::string there;
        for (const std::string& key : keys) there += (there.empty() ? "" : ", ") + key;
        throw ConfigError(where + "no '" + segment + "' at " + at + " in the resolved config (" +
                          (there.empty() ? "nothing there" : "there: " + there) +
                          "); an object the platform leaves at its default is set whole: --set " +
                          join_path(walked, segment) + "=<JSON object>");
      }
      node = &*found;
    } else if (node->is_array()) {
      if (origin_path.empty()) origin_path = walked;
      size_t index = 0;
      if (!parse_index(segment, node->size(), index))
        throw ConfigError(where + "no element '" + segment + "' in the array at " + at + " (size " +
                          std::to_string(node->size()) + ")");
      node = &(*node)[index];
    } else {
      throw ConfigError(where + at + " is not an object (it is " + kind_of(*node) + ")");
    }
    walked = join_path(walked, segment);
  }

  // A new leaf is null.
  nlohmann::json value = parse_override_value(value_text, *node, quoted, path);
  if (!same_kind(*node, value))
    throw ConfigError("--set " + quoted + ": expected " + kind_of(*node) + ", got " +
                      kind_of(value));
  *node = std::move(value);
  if (origin_path.empty()) origin_path = path;
  erase_within(m_origins, origin_path);
  m_origins[origin_path] = override_origin;
}

}  // namespace ohmvp
