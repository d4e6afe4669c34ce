#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "modules/common/errors.h"
#include "modules/host/trace_reader.h"

namespace fs = std::filesystem;
using ohmvp::ConfigError;
using ohmvp::MemoryRequest;
using ohmvp::TraceSource;

namespace {

// A trace file in the temp folder, removed when the test ends.
class TempTrace {
 public:
  explicit TempTrace(const std::string& text)
      : m_path(fs::temp_directory_path() /
               ("ohmvp_trace_test_" + std::to_string(::getpid()) + ".trace")) {
    std::ofstream(m_path, std::ios::binary) << text;
  }
  ~TempTrace() {
    std::error_code ignored;
    fs::remove(m_path, ignored);
  }
  const fs::path& path() const { return m_path; }

 private:
  fs::path m_path;
};

std::vector<MemoryRequest> read_all(TraceSource& source) {
  std::vector<MemoryRequest> result;
  MemoryRequest request;
  while (source.next(request)) result.push_back(request);
  return result;
}

// The message TraceSource throws for `text`, or "no error".
std::string error_for(const std::string& text, std::string* file = nullptr) {
  TempTrace trace(text);
  if (file) *file = trace.path().string();
  try {
    TraceSource source(trace.path());
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("trace: every syntax form") {
  TempTrace trace(
      "# a comment\n"
      "\n"
      "R 0x1000\n"
      "   # an indented comment\n"
      "W 4096 128\n"
      "r 0X2000 32\n"
      "w 0xabcDEF00\n"
      "read 0x40 1\n"
      "WRITE 0x41 1\n"
      "@10 R 0x80\n"
      "\t@12.5\tw\t0x100\t256  \n"
      "R 0x200\n"
      "@12.5 R 0x240\n"
      "@13.0004 R 0x280\r\n"
      "@13.0005 R 0x2c0 64\n"
      "@18446744073709 R 0xffffffffffffffc0\n");
  TraceSource source(trace.path());
  REQUIRE(source.total() == 13);
  const std::vector<MemoryRequest> r = read_all(source);
  REQUIRE(r.size() == 13);
  struct Expected {
    bool is_write;
    uint64_t address;
    uint32_t size;
    uint64_t not_before_ps;
  };
  const Expected expected[] = {
      {false, 0x1000, 64, 0},
      {true, 4096, 128, 0},
      {false, 0x2000, 32, 0},
      {true, 0xabcdef00, 64, 0},
      {false, 0x40, 1, 0},
      {true, 0x41, 1, 0},
      {false, 0x80, 64, 10000},
      {true, 0x100, 256, 12500},
      {false, 0x200, 64, 12500},
      {false, 0x240, 64, 12500},
      {false, 0x280, 64, 13000},
      {false, 0x2c0, 64, 13001},
      {false, 0xffffffffffffffc0, 64, 18446744073709000},
  };
  for (size_t i = 0; i < std::size(expected); ++i) {
    INFO("request " << i);
    CHECK(r[i].is_write == expected[i].is_write);
    CHECK(r[i].address == expected[i].address);
    CHECK(r[i].size == expected[i].size);
    CHECK(r[i].not_before_ps == expected[i].not_before_ps);
  }
  MemoryRequest request;
  CHECK_FALSE(source.next(request));
}

TEST_CASE("trace: long files, lines across the reader's blocks, plain and general forms") {
  // Over 64 KiB, so that lines straddle the blocks the reader reads; CRLF on some lines and no
  // newline after the last. The plain form "R 0x..." has its own fast path; the others do not.
  std::string text;
  std::vector<MemoryRequest> expected;
  const int lines = 20000;
  for (int i = 0; i < lines; ++i) {
    MemoryRequest r;
    r.is_write = i % 2 == 1;
    r.address = uint64_t(i) * 448;
    char line[64];
    switch (i % 4) {
      case 0:
        std::snprintf(line, sizeof line, "%c 0x%llx", r.is_write ? 'W' : 'R',
                      static_cast<unsigned long long>(r.address));
        break;
      case 1:
        std::snprintf(line, sizeof line, "w 0X%llX", static_cast<unsigned long long>(r.address));
        break;
      case 2:
        std::snprintf(line, sizeof line, "read\t%llu", static_cast<unsigned long long>(r.address));
        break;
      default:
        std::snprintf(line, sizeof line, "W 0x%llx 64 ",
                      static_cast<unsigned long long>(r.address));
        break;
    }
    text += line;
    if (i + 1 < lines) text += i % 5 == 0 ? "\r\n" : "\n";
    expected.push_back(r);
  }
  REQUIRE(text.size() > 2 * 65536);
  TempTrace trace(text);
  TraceSource source(trace.path());
  const std::vector<MemoryRequest> got = read_all(source);
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("line " << i + 1);
    CHECK(got[i].is_write == expected[i].is_write);
    CHECK(got[i].address == expected[i].address);
    CHECK(got[i].size == 64);
    CHECK(got[i].not_before_ps == 0);
  }
}

TEST_CASE("trace: plain lines at the end of the file and of the address range") {
  // The plain form's fast path reads up to the character after a line; a last line without a
  // newline, a CR before the newline and a 16-digit address must all be read in full.
  TempTrace trace("W 0xffffffffffffffc0\r\nR 0x0\nR 0x1c0");
  TraceSource source(trace.path());
  const std::vector<MemoryRequest> got = read_all(source);
  REQUIRE(got.size() == 3);
  CHECK(got[0].is_write);
  CHECK(got[0].address == 0xffffffffffffffc0);
  CHECK_FALSE(got[1].is_write);
  CHECK(got[1].address == 0);
  CHECK(got[2].address == 0x1c0);
}

TEST_CASE("trace: a UTF-8 byte-order mark before the first line is skipped") {
  TempTrace trace("\xEF\xBB\xBFR 0x40\n@5 W 0x80 8\n");
  TraceSource source(trace.path());
  const std::vector<MemoryRequest> got = read_all(source);
  REQUIRE(got.size() == 2);
  CHECK(got[0].address == 0x40);
  CHECK(got[1].is_write);
}

TEST_CASE("trace: lines may end in a lone CR, and still count for messages") {
  TempTrace trace("# header\rR 0x40\r@5 W 0x80 8\rR 0xc0");
  TraceSource source(trace.path());
  const std::vector<MemoryRequest> got = read_all(source);
  REQUIRE(got.size() == 3);
  CHECK(got[1].not_before_ps == 5000);
  CHECK(got[2].address == 0xc0);
  std::string file;
  const std::string message = error_for("R 0x0\rR 0x0\rX 0x40\r", &file);
  CHECK(message == file + ":3: bad operation 'X'; expected R, W, read or write: 'X 0x40'");
}

TEST_CASE("trace: malformed lines name file and line") {
  using Catch::Contains;
  const std::string good = "# header\nR 0x0\n\n";  // the bad line is line 4
  std::string file;
  auto check = [&](const std::string& bad_line, const std::string& problem,
                   const std::string& expected) {
    INFO(bad_line);
    const std::string message = error_for(good + bad_line + "\nR 0x40\n", &file);
    CHECK(message == file + ":4: " + problem + "; expected " + expected + ": '" + bad_line + "'");
  };
  const std::string operation = "R, W, read or write";
  const std::string address = "a hexadecimal (0x...) or decimal 64-bit address";
  const std::string size = "a decimal power of two from 1 to 4096";

  check("X 0x40", "bad operation 'X'", operation);
  check("reads 0x40", "bad operation 'reads'", operation);
  check("@5", "missing operation", operation);
  check("R", "missing address", address);
  check("R 0xZZ", "bad address '0xZZ'", address);
  check("R 0x", "bad address '0x'", address);
  check("R -64", "bad address '-64'", address);
  check("R 12ab", "bad address '12ab'", address);
  check("R 0x10000000000000000", "bad address '0x10000000000000000'", address);
  check("R 0x40 48", "bad size '48'", size);
  check("R 0x40 0", "bad size '0'", size);
  check("R 0x40 8192", "bad size '8192'", size);
  check("R 0x40 0x40", "bad size '0x40'", size);
  check("R 0x20", "address 0x20 is not aligned to the size 64", "a multiple of the size");
  check("W 0x1010 32", "address 0x1010 is not aligned to the size 32", "a multiple of the size");
  check("R 0x40 64 extra", "unexpected 'extra'", "the end of the line");
  check("R 0x40 64 # note", "a comment after a request", "comments on lines of their own");
  check("R 0x40 # note", "a comment after a request", "comments on lines of their own");
  check("@5 #note", "a comment after a request", "comments on lines of their own");
  const std::string time =
      "@<nanoseconds> with an optional fraction, e.g. @12.5, at most @18446744073709550";
  check("@ R 0x40", "bad issue time '@'", time);
  check("@1e3 R 0x40", "bad issue time '@1e3'", time);
  check("@1. R 0x40", "bad issue time '@1.'", time);
  check("@-1 R 0x40", "bad issue time '@-1'", time);
  check("@99999999999999999999 R 0x40", "bad issue time '@99999999999999999999'", time);
  check("@18446744073709551 R 0x40", "bad issue time '@18446744073709551'", time);

  const std::string decreasing = "@10.5 R 0x0\nR 0x40\n@10.25 W 0x80\n";
  const std::string message = error_for(decreasing, &file);
  CHECK(message ==
        file +
            ":3: issue time @10.25 is before the previous line's @10.5; expected times that do "
            "not decrease: '@10.25 W 0x80'");
}

TEST_CASE("trace: unreadable or empty files") {
  const fs::path missing =
      fs::temp_directory_path() / ("ohmvp_no_such_trace_" + std::to_string(::getpid()));
  CHECK_THROWS_WITH(TraceSource(missing),
                    "cannot read trace " + missing.string() + ": No such file or directory");
  CHECK_THROWS_WITH(
      TraceSource(fs::temp_directory_path()),
      Catch::Contains("cannot read trace") && Catch::Contains("a folder, not a file"));
  std::string file;
  const std::string message = error_for("# nothing\n\n", &file);
  CHECK_THAT(message, Catch::StartsWith("trace " + file + " has no requests"));
}
