// An error thrown inside a SystemC process ends sc_start with the kernel still inside that
// process; SystemC cannot run on from there. The runtime's next waiting call says so, instead of
// a SystemC error about wait() in a method. One platform, one process.
#include <catch2/catch.hpp>
#include <systemc>
#include <vector>

#include "modules/common/errors.h"
#include "platforms/gpu_platform.h"

namespace {

struct Thrower : sc_core::sc_module {
  sc_core::sc_event fire;
  SC_HAS_PROCESS(Thrower);
  explicit Thrower(sc_core::sc_module_name name) : sc_module(name) {
    SC_METHOD(act);
    sensitive << fire;
    dont_initialize();
  }
  void act() { throw ohmvp::SimulationError("the test's process failed"); }
};

}  // namespace

TEST_CASE("runtime: after an error inside a process, waiting calls say the run cannot go on") {
  ohmvp::GpuPlatform platform("gpu_small");
  Thrower thrower("thrower");
  ohmvp::Runtime& cuda = platform.runtime();
  std::vector<uint8_t> bytes(64, 7);
  const uint64_t device = cuda.malloc(bytes.size());
  cuda.copy_to_device(device, bytes.data(), bytes.size());  // starts the simulation
  thrower.fire.notify(100, sc_core::SC_NS);                 // inside the next copy's 1 us
  CHECK_THROWS_WITH(cuda.copy_to_device(device, bytes.data(), bytes.size()),
                    Catch::Contains("the test's process failed"));
  CHECK_THROWS_WITH(cuda.copy_to_host(bytes.data(), device, bytes.size()),
                    Catch::Contains("the simulation cannot go on: an error stopped it inside a "
                                    "SystemC process earlier") &&
                        Catch::Contains("the test's process failed"));
  CHECK_THROWS_AS(cuda.copy_to_device(device, bytes.data(), bytes.size()), ohmvp::SimulationError);
}
