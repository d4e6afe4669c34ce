#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

// libsystemc provides main() and calls sc_main(); every test executable runs Catch2 from here.
int sc_main(int argc, char* argv[]) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  return Catch::Session().run(argc, argv);
}
