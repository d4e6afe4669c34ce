#include "platforms/run_outputs.h"

#include <iostream>
#include <map>
#include <stdexcept>

#include "modules/common/gtkwave_save_file.h"
#include "modules/common/json_file.h"

#include "platforms/interruption.h"
#include "platforms/report.h"
#include "platforms/vcd_limit.h"

namespace ohmvp {

namespace {

bool is_device_or_fifo(const std::filesystem::path& path) {
  std::error_code unknown;
  const auto type = std::filesystem::status(path, unknown).type();
  return type == std::filesystem::file_type::character ||
         type == std::filesystem::file_type::block || type == std::filesystem::file_type::fifo;
}

// Every output with the option that names it; none may be an input or another output, and
// neither may the temporary file each is written as before it is renamed into place (X.tmp),
// which would overwrite or remove what it lands on.
void check_outputs(std::map<std::string, std::filesystem::path> outputs,
                   const std::vector<RunInput>& inputs) {
  std::map<std::string, std::filesystem::path> temporaries;
  for (const auto& [option, file] : outputs)
    if (!is_device_or_fifo(file))
      temporaries[option + "'s temporary file"] = std::filesystem::path(file.string() + ".tmp");
  // Found now, not once the run is over.
  for (const auto& [what, file] : temporaries)
    if (const auto why = why_not_regular(file))
      throw ConfigError(what + " " + file.string() + ": " + *why +
                        "; the output is written there first and renamed into place");
  outputs.insert(temporaries.begin(), temporaries.end());
  for (auto it = outputs.begin(); it != outputs.end(); ++it) {
    if (is_device_or_fifo(it->second)) continue;
    for (const RunInput& input : inputs)
      if (same_file(it->second, input.file))
        throw ConfigError(it->first + " " + it->second.string() + " is " + input.file.string() +
                          ", an input of this run; it would be overwritten");
    for (auto other = std::next(it); other != outputs.end(); ++other)
      if (same_file(it->second, other->second))
        throw ConfigError(it->first + " " + it->second.string() + " and " + other->first + " " +
                          other->second.string() + " are the same file");
  }
}

// Whether `folder` holds anything but folders; true when it cannot be read through (it is kept).
// Errors are codes, not exceptions: the caller is a destructor.
bool holds_anything_but_folders(const std::filesystem::path& folder) {
  std::error_code error;
  std::filesystem::recursive_directory_iterator it(folder, error);
  for (const std::filesystem::recursive_directory_iterator end; !error && it != end;
       it.increment(error)) {
    std::error_code unknown;
    if (!it->is_directory(unknown)) return true;
  }
  return static_cast<bool>(error);
}

}  // namespace

RunOutputs::RunOutputs(const RunOptions& options, const std::vector<RunInput>& inputs,
                       const std::string& run_name, const std::vector<std::string>& dump_files) {
  m_report = options.out_dir / "report.json";
  std::map<std::string, std::filesystem::path> outputs{{"the report", m_report}};
  if (options.vcd) outputs["--vcd"] = *options.vcd;
  if (options.gtkw) {
    if (!options.vcd)
      throw ConfigError("--gtkw writes GTKWave's save file of the VCD; give --vcd FILE too");
    if (is_device_or_fifo(*options.vcd))
      throw ConfigError("--gtkw: --vcd " + options.vcd->string() +
                        " is a device or a FIFO, which the save file cannot show again; give "
                        "--vcd a file");
    outputs["--gtkw"] = *options.gtkw;
    m_gtkw_file = std::filesystem::absolute(*options.gtkw).lexically_normal();
    m_gtkw_title = std::string("OhmVP ") + OHMVP_VERSION + ": " + run_name;
    try {
      gtkwave_save_text(
          {}, GtkwaveView{
                  std::filesystem::absolute(*options.vcd), *m_gtkw_file, m_gtkw_title, 0, {}, {}});
    } catch (const std::invalid_argument& error) {
      throw ConfigError(std::string("--gtkw: ") + error.what());
    }
  }
  m_dump_dir = options.dump;
  if (options.dump)
    for (const std::string& name : dump_files) {
      const std::filesystem::path file = *options.dump / name;
      // Another GPU's folder (gpu<i>/) is made at the end: found now if something else is there.
      std::error_code error;
      if (file.parent_path() != *options.dump &&
          std::filesystem::exists(file.parent_path(), error) &&
          !std::filesystem::is_directory(file.parent_path(), error))
        throw ConfigError("--dump: " + file.parent_path().string() +
                          " is not a folder; another GPU's outputs are written in a folder of "
                          "that name");
      outputs["--dump " + name] = file;
      m_dump_files.push_back(file);
    }
  check_outputs(outputs, inputs);
  // A file name that names a folder is found now, not once the run is over.
  const std::pair<const char*, const std::optional<std::filesystem::path>*> files[] = {
      {"--vcd", &options.vcd}, {"--gtkw", &options.gtkw}};
  for (const auto& [option, file] : files) {
    if (!*file) continue;
    std::error_code unknown;
    if (!(*file)->has_filename() || std::filesystem::is_directory(**file, unknown))
      throw ConfigError(std::string(option) + " " + (*file)->string() +
                        ": a folder; expected a file name");
  }
  if (options.gtkw)
    if (const auto why = why_not_regular(*options.gtkw))
      throw ConfigError("--gtkw " + options.gtkw->string() + ": " + *why +
                        "; GTKWave's save file is written beside and renamed into place");
  guard([&] {
    // The VCD's folder is made like the others, so that --vcd runs/a/w.vcd needs no mkdir.
    const auto folder_of = [](const std::optional<std::filesystem::path>& file) {
      std::optional<std::filesystem::path> folder;
      if (file && !is_device_or_fifo(*file))
        folder = file->has_parent_path() ? file->parent_path() : ".";
      return folder;
    };
    const std::pair<const char*, std::optional<std::filesystem::path>> folders[] = {
        {"--out", options.out_dir},
        {"--dump", options.dump},
        {"--vcd", folder_of(options.vcd)},
        {"--gtkw", folder_of(options.gtkw)}};
    for (const auto& [option, folder] : folders) {
      if (!folder) continue;
      try {
        const std::filesystem::path created = create_folder(*folder);
        if (!created.empty()) m_created_folders.push_back(created);
        // Found now, not once the run is over.
        check_folder_writable(*folder);
      } catch (const ConfigError& error) {
        throw ConfigError(std::string(option) + ": " + error.what());
      }
    }
    if (options.vcd) {
      m_vcd_file = options.vcd;
      m_vcd_written = is_device_or_fifo(*options.vcd)
                          ? *options.vcd
                          : std::filesystem::path(options.vcd->string() + ".tmp");
      m_vcd = std::make_unique<VcdWriter>(*m_vcd_written);
      m_vcd->set_size_limit(options.vcd_limit_bytes.value_or(k_default_vcd_limit_bytes));
      if (*m_vcd_written != *m_vcd_file) note_unfinished_file(m_vcd_written->string());
    }
  });
}

void RunOutputs::finish() {
  m_finished = true;
  if (!m_vcd) return;
  const VcdSummary vcd = close_vcd();
  if (*m_vcd_written != *m_vcd_file) {
    note_unfinished_file("");
    std::error_code error;
    std::filesystem::rename(*m_vcd_written, *m_vcd_file, error);
    if (error) {
      const std::string reason = error.message();
      std::filesystem::remove(*m_vcd_written, error);
      throw ConfigError("cannot write VCD file " + m_vcd_file->string() + ": " + reason);
    }
    m_vcd_placed = true;
  }
  write_gtkw(vcd);
}

RunOutputs::VcdSummary RunOutputs::close_vcd() {
  VcdSummary summary{m_vcd->declarations(), m_vcd->end_time()};
  m_vcd.reset();  // closes the file
  return summary;
}

RunOutputs::~RunOutputs() {
  if (m_finished || m_discarded) return;
  // Left by a simulation error: the waveform up to it is kept, and a report or dump files of an
  // earlier run in the same folders go (they would read as this run's).
  std::error_code ignored;
  std::filesystem::remove(m_report, ignored);
  for (const std::filesystem::path& file : m_dump_files) {
    std::filesystem::remove(file, ignored);
    // Another GPU's folder (gpu<i>/) goes with its files once empty.
    if (m_dump_dir && file.parent_path() != *m_dump_dir)
      std::filesystem::remove(file.parent_path(), ignored);
  }
  if (m_vcd) {
    const VcdSummary vcd = close_vcd();
    note_unfinished_file("");
    if (*m_vcd_written != *m_vcd_file)
      std::filesystem::rename(*m_vcd_written, *m_vcd_file, ignored);
    try {
      write_gtkw(vcd);
    } catch (const std::exception& error) {
      std::cerr << "ohmvp: warning: " << error.what() << "\n";
    }
  }
  // A folder the run made and left without a file (folders only) goes too.
  for (const std::filesystem::path& folder : m_created_folders)
    if (!holds_anything_but_folders(folder)) std::filesystem::remove_all(folder, ignored);
}

void RunOutputs::mark(uint64_t time_ps, const std::string& label) {
  m_markers.push_back(GtkwaveMarker{time_ps, label});
}

void RunOutputs::write_gtkw(const VcdSummary& vcd) {
  if (!m_gtkw_file) return;
  const GtkwaveView view{std::filesystem::absolute(*m_vcd_file).lexically_normal(),
                         *m_gtkw_file,
                         m_gtkw_title,
                         vcd.end_time_ps,
                         m_markers,
                         {"gpu", "host", "memory"}};
  write_file_atomically(*m_gtkw_file, gtkwave_save_text(vcd.declarations, view));
  m_gtkw_written = true;
}

void RunOutputs::discard() noexcept {
  m_discarded = true;
  std::error_code ignored;
  if (m_vcd) {
    m_vcd.reset();
    note_unfinished_file("");
    if (*m_vcd_written != *m_vcd_file) std::filesystem::remove(*m_vcd_written, ignored);
  } else if (m_vcd_placed) {
    // The report could not be written after the VCD went into place.
    std::filesystem::remove(*m_vcd_file, ignored);
  }
  if (m_gtkw_written) std::filesystem::remove(*m_gtkw_file, ignored);
  for (const std::filesystem::path& folder : m_created_folders)
    std::filesystem::remove_all(folder, ignored);
}

}  // namespace ohmvp
