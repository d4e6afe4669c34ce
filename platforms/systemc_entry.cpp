#include <cstdlib>

#include <systemc>

// The executables' entry point: SystemC's banner off before its kernel prints it, then SystemC's
// own start-up, which calls the executable's sc_main.
int main(int argc, char* argv[]) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
