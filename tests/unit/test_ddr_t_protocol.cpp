#include <catch2/catch.hpp>

#include <memory>
#include <type_traits>

#include "tlm_protocols/ddr_protocol.h"
#include "tlm_protocols/ddr_t_protocol.h"
#include "tlm_protocols/swap_cmd.h"

using namespace ohmvp;

// A DDR-T socket binds only to DDR-T: its interfaces are unrelated to the ddr and base ones.
static_assert(!std::is_convertible_v<DdrTFwTransport*, DdrFwTransport*>);
static_assert(!std::is_convertible_v<DdrFwTransport*, DdrTFwTransport*>);
static_assert(!std::is_convertible_v<DdrTFwTransport*, tlm::tlm_fw_transport_if<>*>);
static_assert(!std::is_same_v<DdrTTargetSocket<>, tlm::tlm_target_socket<64, ddr_protocol_types>>);

TEST_CASE("DDR-T extension: defaults, clone and copy_from", "[xpoint]") {
  DdrTExtension ext;
  CHECK(ext.command == DdrTCommand::read);
  CHECK(ext.tag == 0);
  CHECK(ext.address == 0);
  CHECK(ext.size == 64);
  ext.command = DdrTCommand::write;
  ext.tag = 513;
  ext.address = 0x1234500;
  ext.size = 32;
  std::unique_ptr<DdrTExtension> copy(static_cast<DdrTExtension*>(ext.clone()));
  const DdrTExtension& c = *copy;
  CHECK(c.command == DdrTCommand::write);
  CHECK(c.tag == 513);
  CHECK(c.address == 0x1234500);
  CHECK(c.size == 32);
  DdrTExtension other;
  other.copy_from(ext);
  CHECK(other.tag == 513);
  CHECK(std::string(to_string(DdrTCommand::swap)) == "swap");
  CHECK(ddr_t::RSP_READY != ddr_t::SEND);
  CHECK(std::string(ddr_t::RSP_READY.get_name()) == "RSP_READY");
}

TEST_CASE("SWAP-CMD encodes and decodes over the data route", "[xpoint]") {
  SwapCommand cmd;
  cmd.dram_address = 0x0102030405060708ull;
  cmd.xpoint_address = 0xA0B0C0D0E0F00010ull;
  cmd.size = 4096;
  cmd.direction = SwapDirection::exchange;
  const SwapCommandBytes bytes = encode(cmd);
  CHECK(bytes[0] == 0x08);  // little-endian
  CHECK(bytes[20] == 2);
  SwapCommand back;
  REQUIRE(decode(bytes.data(), back));
  CHECK(back == cmd);
  SwapCommandBytes bad = bytes;
  bad[20] = 3;
  CHECK_FALSE(decode(bad.data(), back));
  bad = bytes;
  bad[23] = 1;
  CHECK_FALSE(decode(bad.data(), back));

  SwapCompletion done{4096, SwapStatus::ok};
  const auto done_bytes = encode(done);
  SwapCompletion read_back;
  REQUIRE(decode_completion(done_bytes.data(), read_back));
  CHECK(read_back.bytes_moved == 4096);
  CHECK(read_back.status == SwapStatus::ok);
}
