#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

// libsystemc provides main() and calls sc_main(); every test executable runs Catch2 from here.
int sc_main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
