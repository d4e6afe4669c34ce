#pragma once

#include <string>

#include "modules/common/errors.h"

namespace ohmvp {

// Ctrl-C (SIGINT), SIGTERM and SIGHUP end `ohmvp run` the way a simulation error does: the run
// monitor stops the simulation at its next look (every few microseconds of simulated time), the VCD
// up to then is kept, and no report is written. A signal again, a second or more later, ends the
// process at once, removing the unfinished VCD (one sooner is the same request: timeout(1)
// signals the child and its group).
// A signal that was ignored when the process started (nohup, a script's background job) stays
// ignored.
void catch_interruptions();

// The signal that asked the run to end; 0 while none has.
int interruption() noexcept;

// A file the run is writing that a forced end (the second signal) removes, being unfinished:
// the VCD's `.tmp`. Empty clears it. A path longer than the buffer is not kept.
void note_unfinished_file(const std::string& path) noexcept;

// A run ended by a signal; the CLI exits with 128 + the signal's number, as a shell does.
class Interrupted : public SimulationError {
 public:
  Interrupted(int signal, const std::string& message);
  int signal() const { return m_signal; }

 private:
  int m_signal;
};

// Throws Interrupted, saying at what simulated time, when a signal has asked the run to end.
void end_if_interrupted();

}  // namespace ohmvp
