#include <catch2/catch.hpp>

#include "modules/common/errors.h"

using ohmvp::ConfigError;

TEST_CASE("errors: messages show control bytes and broken UTF-8 as \\xNN, keep the rest") {
  CHECK(ohmvp::printable("line 1\n\tµs") == "line 1\n\tµs");
  CHECK(ohmvp::printable(std::string("a\0b\x7f\x1b[2J", 8)) == "a\\x00b\\x7f\\x1b[2J");
  CHECK(ohmvp::printable("\xff\xc3(\xe2\x82") == "\\xff\\xc3(\\xe2\\x82");
  CHECK(ohmvp::printable("bad \xef\xbb\xbfR") == "bad \\ufeffR");  // a byte-order mark
  CHECK(ohmvp::printable("a\xc2\x9b"
                         "31mb \xc2\xa0") == "a\\u009b31mb \xc2\xa0");  // C1, not NBSP
  // A NUL inside a message no longer ends it.
  const char raw[] =
      "bad operation '\x7f"
      "ELF\0\x02' here";
  const ConfigError error(std::string(raw, sizeof raw - 1));
  CHECK(std::string(error.what()) == "bad operation '\\x7fELF\\x00\\x02' here");
}

TEST_CASE("errors: an excerpt of quoted input is cut with ...") {
  CHECK(ohmvp::excerpt("short") == "short");
  CHECK(ohmvp::excerpt(std::string(100, 'x'), 10) == "xxxxxxxxxx...");
  // Never inside a UTF-8 character: "é" is two bytes, the cut falls before it.
  const std::string accented = std::string("abc\xc3\xa9") + "def";
  CHECK(ohmvp::excerpt(accented, 4) == "abc...");
  CHECK(ohmvp::excerpt(accented, 5) == "abc\xc3\xa9...");
}

TEST_CASE("errors: a control character is refused naming where it is") {
  CHECK(ohmvp::find_control_character("plain text") == std::string::npos);
  CHECK(ohmvp::find_control_character("tab\there") == 3);
  CHECK(ohmvp::find_control_character("\xc3\xa9\xc2\x9b") == 2);  // é, then 8-bit CSI
  CHECK(ohmvp::control_character_refusal("a\nb", "a name") ==
        "expected a name without control characters; byte 1 is U+000A in \"a\\nb\"");
}

TEST_CASE("errors: a number in a message has six significant digits") {
  CHECK(ohmvp::number_text(0.1) == "0.1");
  CHECK(ohmvp::number_text(2.0) == "2");
  CHECK(ohmvp::number_text(1.0 / 3.0) == "0.333333");
  CHECK(ohmvp::number_text(1234567.0) == "1.23457e+06");
  CHECK(ohmvp::number_text(-2.5e-9) == "-2.5e-09");
}
