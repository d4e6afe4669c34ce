#include "platforms/interruption.h"

#include <unistd.h>
#include <csignal>
#include <cstring>
#include <ctime>
#include <sstream>
#include <systemc>

namespace ohmvp {

namespace {

volatile std::sig_atomic_t g_signal = 0;
timespec g_first_signal{};     // written and read by the handler only
bool g_progress_line = false;  // stderr is a terminal: a progress line may be on it
char g_unfinished[4096] = "";  // note_unfinished_file; read by the handler

// A repeat within this time is the same request (timeout(1) signals the child and its group).
constexpr long k_repeat_ns = 1'000'000'000;

extern "C" void note_interruption(int signal) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (g_signal == 0) {
    g_signal = signal;
    g_first_signal = now;
    // What happens next, for a run that is slow to stop (reading or checking large outputs).
    static const char k_notice[] =
        "\nohmvp: stopping the run at its next look; the same signal again, a second from now, "
        "ends it at once\n";
    const size_t skip = g_progress_line ? 0 : 1;  // the newline ends a progress line
    [[maybe_unused]] const ssize_t written =
        write(STDERR_FILENO, k_notice + skip, sizeof k_notice - 1 - skip);
    return;
  }
  const long elapsed_ns = (now.tv_sec - g_first_signal.tv_sec) * 1'000'000'000L +
                          (now.tv_nsec - g_first_signal.tv_nsec);
  if (elapsed_ns < k_repeat_ns) return;
  if (g_unfinished[0] != '\0') unlink(g_unfinished);
  std::signal(signal, SIG_DFL);  // asked again: the signal takes its default course, the end
  std::raise(signal);
}

void catch_signal(int signal) {
  struct sigaction current {};
  if (sigaction(signal, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) return;
  struct sigaction action {};
  action.sa_handler = note_interruption;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  sigaddset(&action.sa_mask, SIGHUP);
  sigaction(signal, &action, nullptr);
}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "a signal";
  }
}

}  // namespace

void catch_interruptions() {
  g_progress_line = isatty(STDERR_FILENO) != 0;
  catch_signal(SIGINT);
  catch_signal(SIGTERM);
  catch_signal(SIGHUP);  // the terminal went away
}

int interruption() noexcept {
  return g_signal;
}

void note_unfinished_file(const std::string& path) noexcept {
  g_unfinished[0] = '\0';  // the handler never sees a half-copied path
  if (path.empty() || path.size() >= sizeof g_unfinished) return;
  std::memcpy(g_unfinished + 1, path.c_str() + 1, path.size());
  g_unfinished[0] = path[0];
}

Interrupted::Interrupted(int signal, const std::string& message)
    : SimulationError(message), m_signal(signal) {}

void end_if_interrupted() {
  const int signal = g_signal;
  if (signal == 0) return;
  std::ostringstream message;
  message << "run interrupted by " << signal_name(signal) << " at " << sc_core::sc_time_stamp()
          << " simulated; no report written";
  throw Interrupted(signal, message.str());
}

}  // namespace ohmvp
