// `ohmvp kernels FILE.ptx`: what a workload needs to launch each kernel of a module.
#include <catch2/catch.hpp>

#include "cli_runner.h"

using Catch::Contains;

TEST_CASE("cli: kernels lists each kernel's name, signature, parameters and needs") {
  const CliResult r = run_ohmvp("kernels " + shipped("tests/data/ptx/kernel_names.ptx"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("kernel_names.ptx: 6 kernels\n"));
  // The shortest name that picks the kernel alone: an overload needs its signature.
  CHECK_THAT(r.output, Contains("\n\"fill(float*, float)\"  (.entry _Z4fillPff)\n"
                                "  parameters  2 (12 bytes)\n"
                                "    0  .u64        offset 0    8 bytes   float*\n"
                                "    1  .f32        offset 8    4 bytes   float\n"
                                "  shared      0 bytes static\n"
                                "  local       0 bytes per thread\n"
                                "  registers   5 a thread live at once (what occupancy counts), "
                                "14 declared (PTX's virtual registers)\n"
                                "  needs       compute capability 7.0 (sm_70, Volta)\n"));
  CHECK_THAT(r.output, Contains("\n\"scale<2>\"  void blas::scale<2>(float*, float)  "
                                "(.entry _ZN4blas5scaleILi2EEEvPff)\n"));
  CHECK_THAT(r.output, Contains("\n\"reach\"  reach(int*, int, int)  (.entry _Z5reachPiii)\n"));
}

TEST_CASE("cli: kernels names the feature that needs a later GPU, and a kernel that cannot run") {
  const CliResult wmma = run_ohmvp("kernels " + shipped("testbenches/kernels/wmma_gemm.ptx"));
  REQUIRE(wmma.exit_code == 0);
  CHECK_THAT(wmma.output, Contains("\n\"wmma_gemm_shared\"\n  parameters  4 (36 bytes)\n") &&
                              Contains("    3  .b8[12]     offset 24   12 bytes\n") &&
                              Contains("  shared      2048 bytes static\n") &&
                              Contains("compute capability 7.2 (sm_72) for integer wmma") &&
                              Contains("  needs       compute capability 7.0 (sm_70, Volta), and "
                                       "warps of 32 lanes (tensor cores)\n"));

  const CliResult bounded = run_ohmvp("kernels " + shipped("tests/data/ptx/sm70_bits.ptx"));
  REQUIRE(bounded.exit_code == 0);
  CHECK_THAT(bounded.output,
             Contains("\n\"bounded\"\n") &&
                 Contains("  block       at most 64 threads (__launch_bounds__)\n"));

  const std::string dir = scratch_dir("kernel_listing");
  write_text(dir + "/external.ptx",
             ".version 9.0\n.target sm_75\n.address_size 64\n.extern .func helper();\n"
             ".visible .entry k()\n{\ncall helper;\nret;\n}\n");
  const CliResult external = run_ohmvp("kernels " + dir + "/external.ptx");
  INFO(external.output);
  REQUIRE(external.exit_code == 0);
  CHECK_THAT(external.output, Contains("  cannot run  " + dir +
                                       "/external.ptx:7: kernel 'k' calls 'helper', which has "
                                       "no body"));

  // Thirty 64-bit registers are 60 of 32 bits, two of them live at once; __maxnreg__
  // (.maxnreg) caps them.
  write_text(dir + "/capped.ptx",
             ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n"
             ".maxnreg 40\n{\n.reg .b64 %rd<30>;\nmov.u64 %rd1, 5;\n"
             "st.global.u64 [%rd1], %rd1;\nret;\n}\n");
  const CliResult capped = run_ohmvp("kernels " + dir + "/capped.ptx");
  INFO(capped.output);
  CHECK_THAT(capped.output,
             Contains("  registers   2 a thread live at once (what occupancy counts), "
                      "60 declared (PTX's virtual registers), at most 40 "
                      "(.maxnreg)\n"));
}

TEST_CASE("cli: kernels refuses anything but one readable PTX file") {
  const CliResult none = run_ohmvp("kernels");
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.output, Contains("ohmvp kernels: expected one PTX file"));
  const CliResult folder = run_ohmvp("kernels " + shipped("tests"));
  CHECK(folder.exit_code == 2);
  CHECK_THAT(folder.output, Contains("tests': a folder, not a file"));
  const std::string dir = scratch_dir("kernel_listing_bad");
  write_text(dir + "/bad.ptx",
             ".version 9.0\n.target sm_75\n.address_size 64\n"
             ".visible .entry k()\n{\nfoo.bar;\nret;\n}\n");
  const CliResult bad = run_ohmvp("kernels " + dir + "/bad.ptx");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Contains("bad.ptx:6: unknown instruction 'foo'"));
}
