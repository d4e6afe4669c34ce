#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ohmvp {

// A platform configuration: one JSON file with its "extends" chain merged in and the CLI's --set
// overrides applied, remembering which file set each value so that errors can name it.
class ConfigDocument {
 public:
  explicit ConfigDocument(nlohmann::json root, std::string origin = "<inline>");

  // Loads `file`. Each name in its top-level "extends" (a string or an array of strings) is looked
  // up as <file's folder>/<name>.json, then <dir>/<name>.json for each search dir (a name ending
  // in .json is used as is). Those documents are deep-merged in order and the file's own content
  // is merged over them: objects merge key by key, arrays and scalars replace.
  static ConfigDocument load(const std::filesystem::path& file,
                             const std::vector<std::filesystem::path>& search_dirs);

  const nlohmann::json& json() const { return m_root; }
  // The file load() was given; empty for a document built from JSON in memory.
  const std::filesystem::path& file() const { return m_file; }
  // How origin_of() names the file load() was given (what the user named), and the overrides.
  const std::string& root_origin() const { return m_root_origin; }
  static constexpr const char* override_origin = "--set";

  // The file that set `dotted_path` or its nearest ancestor ("--set" for an override). For an
  // object, the most direct of the files that set its values (see directness()); the root file
  // for the document itself ("") and when nothing sets the path.
  std::string origin_of(const std::string& dotted_path) const;
  // Whether a file or an override sets `dotted_path` (a leaf or anything below it), rather than
  // leaving it to its block's default.
  bool sets(const std::string& dotted_path) const;
  // How directly the user set `dotted_path`, for blaming the most direct of values in conflict:
  // -1 when nothing sets it; above that, the files in the order they were merged (a file that
  // extends another above it, the file named above all files), --set highest.
  int directness(const std::string& dotted_path) const;

  // Applies "a.b.c=value". The path must exist and the value must keep the leaf's JSON kind.
  void apply_override(const std::string& assignment);

  // Dotted path -> file that set it, for every leaf (scalar, array or empty object).
  using Origins = std::map<std::string, std::string>;
  // "path = value  (file)" per leaf the files and overrides set, notes ("_source") left out, in
  // path order: which file a value comes from, past the `extends` chain.
  std::string origins_text() const;

 private:
  ConfigDocument(nlohmann::json root, std::filesystem::path file, Origins origins,
                 std::vector<std::string> merge_order);
  int rank_of(const std::string& origin) const;
  // The origin origin_of() names; nullptr when nothing sets the path.
  const std::string* direct_origin(const std::string& dotted_path) const;

  nlohmann::json m_root;
  std::filesystem::path m_file;
  std::string m_root_origin;
  Origins m_origins;
  std::vector<std::string> m_merge_order;  // the files as origin_of() names them, merge order
};

}  // namespace ohmvp
