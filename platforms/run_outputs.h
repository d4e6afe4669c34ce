#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "modules/common/errors.h"
#include "modules/common/gtkwave_save_file.h"
#include "modules/common/run_input.h"
#include "modules/common/vcd_writer.h"
#include "platforms/run.h"

namespace ohmvp {

// What a run writes besides its report: the report's folder, the dump folder and the VCD, made
// before elaboration (modules register their VCD signals then).
// - Outputs that would overwrite the run's inputs, or each other, are refused first.
// - The VCD is written to `<vcd>.tmp` and renamed into place when the run ends, so an earlier
//   file of that name survives a run that fails on bad input (a device or FIFO is written
//   directly).
// - Some bad input only shows once the run has begun (a PTX module loaded, a kernel launched with
//   the wrong arguments); `guard` then removes the VCD and the folders the run made, so that bad
//   input leaves nothing behind. A simulation error keeps the VCD: the waveform up to the failure
//   is what one looks at; an earlier run's report.json and dump files in the same folders are
//   removed, and so are the folders the run made that hold no file.
// - GTKWave's save file (--gtkw) is written once the VCD is in place, after a simulation error
//   too; it needs the VCD's signals, which the modules add during elaboration.
class RunOutputs {
 public:
  // `inputs`: every file the run reads; `dump_files`: the names --dump will write; `run_name`
  // ("platform P, workload W") titles the GTKWave save file.
  RunOutputs(const RunOptions& options, const std::vector<RunInput>& inputs,
             const std::string& run_name, const std::vector<std::string>& dump_files = {});
  ~RunOutputs();
  RunOutputs(const RunOutputs&) = delete;
  RunOutputs& operator=(const RunOutputs&) = delete;

  VcdWriter* vcd() const { return m_vcd.get(); }
  // A named marker in the GTKWave save file (a kernel's start, an event); the first 26 given are
  // kept.
  void mark(uint64_t time_ps, const std::string& label);
  // The run is done: the VCD (closed) goes into place. ConfigError when it cannot.
  void finish();

  // Runs `body`; a ConfigError out of it removes the outputs before it goes on up.
  template <class Body>
  void guard(Body&& body) {
    try {
      body();
    } catch (const ConfigError&) {
      discard();
      throw;
    }
  }

 private:
  struct VcdSummary {
    std::vector<VcdDeclaration> declarations;
    uint64_t end_time_ps;
  };

  void discard() noexcept;
  // Closes the VCD, keeping what the save file needs of it.
  VcdSummary close_vcd();
  // The save file for the VCD (--gtkw), the kernels' blocks first.
  void write_gtkw(const VcdSummary& vcd);

  std::vector<std::filesystem::path> m_created_folders;  // the top-most ones that did not exist
  std::optional<std::filesystem::path> m_vcd_file;       // where the VCD ends up
  std::optional<std::filesystem::path> m_vcd_written;    // where it is written meanwhile
  bool m_vcd_placed = false;                             // finish() renamed it into place
  std::optional<std::filesystem::path> m_gtkw_file;      // --gtkw, absolute
  std::string m_gtkw_title;
  std::vector<GtkwaveMarker> m_markers;
  bool m_gtkw_written = false;
  std::filesystem::path m_report;                        // OUT/report.json
  std::optional<std::filesystem::path> m_dump_dir;       // --dump
  std::vector<std::filesystem::path> m_dump_files;       // DUMP/<name> that --dump writes
  bool m_finished = false;                               // finish() was called: the run ended
  bool m_discarded = false;                              // bad input: the outputs were removed
  std::unique_ptr<VcdWriter> m_vcd;
};

}  // namespace ohmvp
