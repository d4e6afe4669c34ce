#include "modules/common/gtkwave_save_file.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

namespace ohmvp {

namespace {

// GTKWave's trace flags (its savefile format, written as hexadecimal after '@'): TR_RJUSTIFY
// 0x20 with TR_BIN 0x8 or TR_DEC 0x4; a group is a blank comment line (TR_BLANK 0x200) with
// TR_GRP_BEGIN 0x800000 or TR_GRP_END 0x1000000, and TR_CLOSED 0x400000 (with TR_COLLAPSED 0x1000
// at its end) when it starts closed.
constexpr const char* k_binary = "@28";
constexpr const char* k_decimal = "@24";
constexpr const char* k_open_group = "@800200";
constexpr const char* k_closed_group = "@c00200";
constexpr const char* k_open_group_end = "@1000200";
constexpr const char* k_closed_group_end = "@1401200";

// Fewest signals that differ only in their numbers to be gathered into a group of their own.
constexpr std::size_t k_numbered_group = 4;

// "bank12_state" -> "bank*_state".
std::string numbered_pattern(const std::string& name) {
  std::string pattern;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(name[i])) == 0) {
      pattern += name[i];
    } else if (i == 0 || std::isdigit(static_cast<unsigned char>(name[i - 1])) == 0) {
      pattern += '*';
    }
  }
  return pattern;
}

// "sm12" -> "sm", "l2_0" -> "l2_": instances of one kind differ in their trailing number.
std::string kind_of(const std::string& scope) {
  std::size_t end = scope.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(scope[end - 1])) != 0) --end;
  return scope.substr(0, end);
}

// Line breaks as spaces: the file is read line by line.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

// GTKWave's zoom z shows 2^-z / 200 time units a pixel (measured on GTKWave 3.3 with a 1 ps
// timescale); the waves pane of the window below is about 700 pixels wide.
constexpr int k_window_width = 1400;
constexpr double k_waves_pixels = 700;

double zoom_to_show(uint64_t end_time_ps) {
  const double span = static_cast<double>(std::max<uint64_t>(end_time_ps, 1));
  return -std::log2(span * 200 / k_waves_pixels);
}

// One line: the zoom, no primary marker, then the 26 named markers' times (-1 for none); each
// named one's name on a line of its own.
std::string zoom_and_markers(const GtkwaveView& view) {
  constexpr std::size_t named = 26;
  std::vector<GtkwaveMarker> markers(view.markers.begin(),
                                     view.markers.begin() + std::min(view.markers.size(), named));
  std::stable_sort(
      markers.begin(), markers.end(),
      [](const GtkwaveMarker& a, const GtkwaveMarker& b) { return a.time_ps < b.time_ps; });
  char zoom[32];
  std::snprintf(zoom, sizeof zoom, "*%.6f -1", zoom_to_show(view.end_time_ps));
  std::string line = zoom;
  std::string names;
  for (std::size_t i = 0; i < named; ++i) {
    line += " " + (i < markers.size() ? std::to_string(markers[i].time_ps) : std::string("-1"));
    if (i < markers.size())
      names += "[markername] " + std::string(1, char('A' + i)) + one_line(markers[i].label) + "\n";
  }
  return line + "\n" + names;
}

std::string quoted(const std::filesystem::path& path) {
  const std::string text = path.string();
  if (text.find_first_of("\"\n\r") != std::string::npos)
    throw std::invalid_argument("GTKWave's save file cannot name the path '" + text +
                                "': it holds a double quote or a line break");
  return "\"" + text + "\"";
}

class SaveFileText {
 public:
  SaveFileText(const std::vector<VcdDeclaration>& declarations,
               const std::vector<std::string>& first_scopes)
      : m_declarations(declarations), m_nodes(vcd_scope_tree(declarations)) {
    m_top = m_nodes[0].children;
    // By instance ("gpu1" is the second GPU's), then by the order of the kinds named first.
    const auto rank = [&](std::size_t node) {
      const std::string& name = m_nodes[node].name;
      const std::string kind = kind_of(name);
      const std::string number = name.substr(kind.size());
      const auto found = std::find(first_scopes.begin(), first_scopes.end(), kind);
      return std::make_pair(number.empty() ? 0 : std::strtoull(number.c_str(), nullptr, 10) + 1,
                            found - first_scopes.begin());
    };
    std::stable_sort(m_top.begin(), m_top.end(),
                     [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
  }

  std::vector<std::string> top_scopes() const {
    std::vector<std::string> names;
    for (std::size_t node : m_top) names.push_back(m_nodes[node].name);
    return names;
  }

  std::string traces() {
    std::set<std::string> kinds_seen;
    for (std::size_t node : m_top) {
      const std::string& name = m_nodes[node].name;
      const bool open = kinds_seen.insert(kind_of(name)).second;
      group(name, open, [&] { scope_contents(node, name, open); });
    }
    return m_text;
  }

 private:
  // A trace's flags hold for the traces after it, so they are written when they change.
  void flags(const char* value) {
    if (m_flags == value) return;
    m_flags = value;
    m_text += value;
    m_text += '\n';
  }

  void group_line(const char* group_flags, const std::string& name) {
    m_flags.clear();
    flags(group_flags);
    m_text += "-" + name + "\n";
  }

  template <class Contents>
  void group(const std::string& name, bool open, Contents&& contents) {
    group_line(open ? k_open_group : k_closed_group, name);
    contents();
    group_line(open ? k_open_group_end : k_closed_group_end, name);
  }

  // `shown_scope` names a signal shown outside a group of its own scope by an alias: GTKWave
  // shows a trace by its last name after a dot, which would not say whose it is.
  void trace(std::size_t id, const std::string& shown_scope) {
    const VcdDeclaration& declaration = m_declarations[id];
    flags(declaration.width == 1 ? k_binary : k_decimal);
    const std::string name = gtkwave_trace_name(declaration);
    if (!shown_scope.empty())
      m_text += "+{" + shown_scope + " " + name.substr(declaration.scope.size() + 1) + "} ";
    m_text += name + "\n";
  }

  // A scope's own signals in order, those numbered alike gathered at the first of them.
  void signals(const std::vector<std::size_t>& ids, const std::string& shown_scope = "") {
    std::map<std::string, std::vector<std::size_t>> alike;
    for (std::size_t id : ids) alike[numbered_pattern(m_declarations[id].name)].push_back(id);
    std::set<std::string> written;
    for (std::size_t id : ids) {
      const std::string pattern = numbered_pattern(m_declarations[id].name);
      const std::vector<std::size_t>& numbered = alike[pattern];
      if (numbered.size() < k_numbered_group) {
        trace(id, shown_scope);
      } else if (written.insert(pattern).second) {
        group(m_declarations[id].scope + "." + pattern, false, [&] {
          for (std::size_t each : numbered) trace(each, shown_scope);
        });
      }
    }
  }

  void scope_contents(std::size_t node, const std::string& path, bool open) {
    signals(m_nodes[node].signals);
    std::set<std::string> kinds_seen;
    for (std::size_t child : m_nodes[node].children) {
      const VcdScopeNode& scope = m_nodes[child];
      const std::string child_path = path + "." + scope.name;
      const bool first_of_kind = kinds_seen.insert(kind_of(scope.name)).second;
      if (scope.children.empty() && scope.signals.size() <= 1) {
        signals(scope.signals, scope.name);
        continue;
      }
      const bool child_open = open && first_of_kind;
      group(child_path, child_open, [&] { scope_contents(child, child_path, child_open); });
    }
  }

  const std::vector<VcdDeclaration>& m_declarations;
  const std::vector<VcdScopeNode> m_nodes;
  std::vector<std::size_t> m_top;  // the top-level scopes in the order shown
  std::string m_text;
  std::string m_flags;
};

}  // namespace

std::string gtkwave_trace_name(const VcdDeclaration& declaration) {
  std::string name = declaration.scope + "." + declaration.name;
  if (declaration.width > 1) name += "[" + std::to_string(declaration.width - 1) + ":0]";
  return name;
}

std::string gtkwave_save_text(const std::vector<VcdDeclaration>& declarations,
                              const GtkwaveView& view) {
  SaveFileText text(declarations, view.first_scopes);
  std::string header = "[*]\n[*] " + one_line(view.title) + "\n[*]\n";
  header += "[dumpfile] " + quoted(view.vcd) + "\n";
  header += "[savefile] " + quoted(view.save_file) + "\n";
  header += "[timestart] 0\n";
  header += zoom_and_markers(view);
  header += "[size] " + std::to_string(k_window_width) +
            " 900\n[pos] -1 -1\n[sst_width] 260\n[signals_width] 380\n[sst_expanded] 1\n";
  for (const std::string& top : text.top_scopes()) header += "[treeopen] " + top + ".\n";
  return header + text.traces();
}

}  // namespace ohmvp
