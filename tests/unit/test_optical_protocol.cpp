#include <catch2/catch.hpp>

#include <memory>
#include <type_traits>

#include "tlm_protocols/ddr_protocol.h"
#include "tlm_protocols/ddr_t_protocol.h"
#include "tlm_protocols/optical_protocol.h"

using namespace ohmvp;

// An optical socket binds only to optical: its interfaces are unrelated to ddr, ddr_t and base.
static_assert(!std::is_convertible_v<OpticalFwTransport*, DdrFwTransport*>);
static_assert(!std::is_convertible_v<OpticalFwTransport*, DdrTFwTransport*>);
static_assert(!std::is_convertible_v<OpticalFwTransport*, tlm::tlm_fw_transport_if<>*>);
static_assert(!std::is_convertible_v<DdrTBwTransport*, OpticalBwTransport*>);
static_assert(light_coding_of(OpticalEncoding::nrz) == LightCoding::nrz);
static_assert(light_coding_of(OpticalEncoding::wom_first) == LightCoding::wom);
static_assert(light_coding_of(OpticalEncoding::wom_second) == LightCoding::wom);

TEST_CASE("Optical extension: defaults, clone and copy_from", "[optical]") {
  OpticalExtension ext;
  CHECK(ext.source == OpticalEndpoint{});
  CHECK(index_of(ext.virtual_channel) == 0);
  CHECK(ext.route == OpticalRoutePurpose::data_route);
  CHECK(ext.couplings.empty());
  CHECK(ext.encoding == OpticalEncoding::nrz);
  CHECK(ext.bit_count == 512);

  ext.source = {EndpointKind::xpoint, 2};
  ext.destination = {EndpointKind::dram, 1};
  ext.virtual_channel = VirtualChannelId{4};
  ext.route = OpticalRoutePurpose::memory_route;
  ext.encoding = OpticalEncoding::wom_second;
  ext.bit_count = 4096 * 8;
  ext.couplings = {{{{EndpointKind::xpoint, 2}, true, OpticalPath::forward, MrrCoupling::half},
                    MrrCoupling::half},
                   {{{EndpointKind::dram, 1}, false, OpticalPath::forward, MrrCoupling::full},
                    MrrCoupling::full}};

  std::unique_ptr<OpticalExtension> copy(static_cast<OpticalExtension*>(ext.clone()));
  CHECK(copy->source == OpticalEndpoint{EndpointKind::xpoint, 2});
  CHECK(copy->destination == OpticalEndpoint{EndpointKind::dram, 1});
  CHECK(index_of(copy->virtual_channel) == 4);
  CHECK(copy->route == OpticalRoutePurpose::memory_route);
  CHECK(copy->encoding == OpticalEncoding::wom_second);
  CHECK(copy->bit_count == 32768);
  CHECK(copy->couplings == ext.couplings);
  // A deep copy: changing the original leaves the clone alone.
  ext.couplings[0].state = MrrCoupling::off_resonance;
  CHECK(copy->couplings[0].state == MrrCoupling::half);

  OpticalExtension other;
  other.copy_from(*copy);
  CHECK(other.couplings.size() == 2);
  CHECK(other.destination == copy->destination);
  CHECK(std::string(to_string(OpticalEncoding::wom_first)) == "wom_first");
  CHECK(std::string(to_string(OpticalRoutePurpose::memory_route)) == "memory_route");
}

TEST_CASE("Optical extension travels on a generic payload", "[optical]") {
  tlm::tlm_generic_payload payload;
  auto* ext = new OpticalExtension;
  ext->bit_count = 256;
  payload.set_extension(ext);
  OpticalExtension* found = nullptr;
  payload.get_extension(found);
  REQUIRE(found == ext);
  CHECK(found->bit_count == 256);
  payload.clear_extension(ext);
  delete ext;
}
