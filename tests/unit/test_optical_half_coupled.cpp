#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "modules/common/random.h"
#include "modules/optical/half_coupled_route.h"
#include "modules/optical/receiver_model.h"

using namespace ohmvp;

namespace {

std::vector<uint8_t> random_bytes(uint64_t seed, size_t n) {
  Rng rng(seed);
  std::vector<uint8_t> bytes(n);
  for (auto& b : bytes) b = static_cast<uint8_t>(rng.next());
  return bytes;
}

}  // namespace

TEST_CASE("Ohm-BW half-coupled transmitter: both streams share the light at full rate",
          "[optical]") {
  const HalfCoupledRoute route(0.5, 0.1);
  const std::vector<uint8_t> controller = random_bytes(1, 256);
  const std::vector<uint8_t> xpoint = random_bytes(2, 256);
  const HalfCoupledRoute::Light light = route.transmit(controller.data(), xpoint.data(), 256);
  REQUIRE(light.at_xpoint.size() == 2048);
  CHECK(route.read_controller_at_xpoint(light) == controller);
  CHECK(route.read_xpoint_at_dram(light) == xpoint);
  // A controller 0 keeps half the light: at least a quarter reaches the XPoint's modulator.
  int too_dim = 0;
  for (size_t i = 0; i < 2048; ++i) {
    const bool xpoint_bit = (xpoint[i / 8] >> (i % 8)) & 1u;
    if (light.at_xpoint[i] < 0.25 || light.at_dram[i] < (xpoint_bit ? 0.25 : 0.025)) ++too_dim;
  }
  CHECK(too_dim == 0);
  CHECK(route.xpoint_threshold() == Approx(0.375));
  CHECK(route.dram_threshold() == Approx(0.15));
  CHECK_THROWS_AS(HalfCoupledRoute(0.5, 0.6), std::invalid_argument);
}

TEST_CASE("Ohm-BW dual route under noise: errors as 0.5 erfc(Q / sqrt 2) predicts", "[optical]") {
  const HalfCoupledRoute route(0.5, 0.1);
  const size_t bytes = 1 << 16;
  const std::vector<uint8_t> controller = random_bytes(3, bytes);
  const std::vector<uint8_t> xpoint = random_bytes(4, bytes);
  HalfCoupledRoute::Light light = route.transmit(controller.data(), xpoint.data(), bytes);
  const double sigma = 0.1 / 3.0;  // Q = 3 for the worst pair at the DRAM (0.25 against 0.05)
  Rng rng(99);
  HalfCoupledRoute::add_noise(light.at_dram, sigma, rng);
  const std::vector<uint8_t> read = route.read_xpoint_at_dram(light);
  const double measured =
      static_cast<double>(bit_errors(read.data(), xpoint.data(), bytes)) / (bytes * 8.0);
  // The four levels are equally likely; each errs with ber_from_q(distance to threshold / sigma).
  const double t = route.dram_threshold();
  const double expected = 0.25 * (ber_from_q((0.5 - t) / sigma) + ber_from_q((0.25 - t) / sigma) +
                                  ber_from_q((t - 0.05) / sigma) + ber_from_q((t - 0.025) / sigma));
  CHECK(expected == Approx(6.97e-4).epsilon(0.01));
  CHECK(measured == Approx(expected).epsilon(0.2));
}
