#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "modules/common/demangle.h"
#include "modules/common/errors.h"
#include "modules/gpu/simt/functional_executor.h"
#include "tests/unit/executor_test_util.h"
#include "tests/unit/ptx_test_util.h"

using namespace ohmvp;
using namespace ohmvp::gpu;
using namespace ohmvp::gpu::test;

TEST_CASE("demangle: nvcc's mangled names read as C++", "[ptx]") {
  CHECK(demangle("_ZN4blas5scaleILi2EEEvPff") == "void blas::scale<2>(float*, float)");
  CHECK(demangle("_Z11strided_sumPKiii") == "strided_sum(int const*, int, int)");
  CHECK(demangle("vecadd") == "vecadd");
  CHECK(demangle("_Zbroken") == "_Zbroken");
  CHECK(demangle("") == "");
}

TEST_CASE("demangle: the function name without return type, parameters, template arguments",
          "[ptx]") {
  CHECK(function_name("void blas::scale<2>(float*, float)") == "blas::scale<2>");
  CHECK(function_name("fill(int*, int)") == "fill");
  CHECK(function_name("void k<(Op)1, void (*)(int)>(int)") == "k<(Op)1, void (*)(int)>");
  CHECK(function_name("vecadd") == "vecadd");
  CHECK(function_name("unbalanced)") == "unbalanced)");
  CHECK(without_template_arguments("blas::scale<vec<2> >") == "blas::scale");
  CHECK(without_template_arguments("fill") == "fill");
  CHECK(unqualified("blas::scale<vec::lane<2> >") == "scale<vec::lane<2> >");
  CHECK(unqualified("fill") == "fill");
  CHECK(parameter_types("void k<2>(float*, pair<int, int>, void (*)(int, int))") ==
        std::vector<std::string>{"float*", "pair<int, int>", "void (*)(int, int)"});
  CHECK(parameter_types("k()").empty());
  CHECK(parameter_types("k(void)").empty());
  CHECK(parameter_types("vecadd").empty());
}

TEST_CASE("kernel names: a kernel is found by its mangled name, signature or a short form",
          "[ptx]") {
  const Module module = load_fixture("kernel_names.ptx");
  CHECK(module.kernel("_ZN4blas5scaleILi2EEEvPff").name == "_ZN4blas5scaleILi2EEEvPff");
  CHECK(module.kernel("void blas::scale<2>(float*, float)").name == "_ZN4blas5scaleILi2EEEvPff");
  CHECK(module.kernel("blas::scale<1>").name == "_ZN4blas5scaleILi1EEEvPff");
  CHECK(module.kernel("scale<1>").name == "_ZN4blas5scaleILi1EEEvPff");
  CHECK(module.kernel("fill(float *, float)").name == "_Z4fillPff");
  CHECK(module.kernel("reach").name == "_Z5reachPiii");
  CHECK(module.kernel("reach(int*,int,int)").name == "_Z5reachPiii");
  CHECK(kernel_name_forms("_ZN4blas5scaleILi2EEEvPff") ==
        std::vector<std::string>{"scale", "blas::scale", "scale<2>", "blas::scale<2>",
                                 "void blas::scale<2>(float*, float)",
                                 "_ZN4blas5scaleILi2EEEvPff"});
  CHECK(kernel_name_forms("vecadd") == std::vector<std::string>{"vecadd"});
  // As people write them: const before the type, literals without suffixes, a return type or
  // none.
  const std::string shift = "_Z5shiftILj3EEvPKiPi";  // void shift<3u>(int const*, int*)
  CHECK(module.kernel("void shift<3>(const int *, int *)").name == shift);
  CHECK(module.kernel("shift<3u>(int const*, int*)").name == shift);
  CHECK(module.kernel("shift<3>").name == shift);
  CHECK(module.kernel("void reach(int*, int, int)").name == "_Z5reachPiii");
  CHECK(module.kernel("blas::scale<2>(float*, float)").name == "_ZN4blas5scaleILi2EEEvPff");
}

TEST_CASE("kernel names: char template arguments as character literals", "[ptx]") {
  // void tags<'x'>(int*) and void tags<'\n'>(int*), which the demangler spells (char)120 and
  // (char)10.
  const Module module = parse_snippet(
      ".visible .entry _Z4tagsILc120EEvPi(.param .u64 p)\n{\nret;\n}\n"
      ".visible .entry _Z4tagsILc10EEvPi(.param .u64 p)\n{\nret;\n}\n");
  CHECK(module.kernel("tags<'x'>").name == "_Z4tagsILc120EEvPi");
  CHECK(module.kernel("void tags<'x'>(int *)").name == "_Z4tagsILc120EEvPi");
  CHECK(module.kernel("tags<(char)120>").name == "_Z4tagsILc120EEvPi");
  CHECK(module.kernel("tags<'\\n'>").name == "_Z4tagsILc10EEvPi");
  CHECK_THROWS_AS(module.kernel("tags<'y'>"), ohmvp::ConfigError);
}

TEST_CASE("kernel names: a short form that fits several kernels or none is refused", "[ptx]") {
  const Module module = load_fixture("kernel_names.ptx");
  CHECK_THROWS_AS(module.kernel("fill"), ohmvp::ConfigError);
  CHECK_THROWS_WITH(
      module.kernel("blas::scale"),
      Catch::EndsWith("kernel_names.ptx: kernel name 'blas::scale' fits 2 kernels; give one of "
                      "'_ZN4blas5scaleILi1EEEvPff' (void blas::scale<1>(float*, float)), "
                      "'_ZN4blas5scaleILi2EEEvPff' (void blas::scale<2>(float*, float))"));
  CHECK_THROWS_WITH(module.kernel("reahc"), Catch::EndsWith("did you mean 'reach'?"));
  // A device function is no kernel, under any of its names.
  CHECK_THROWS_WITH(module.kernel("strided_sum"),
                    Catch::Contains("no kernel (.entry) named 'strided_sum'"));
  CHECK_THROWS_WITH(module.kernel("copy"), Catch::Contains("it has '_Z4fillPii' (fill(int*, int)), "
                                                           "'_Z4fillPff' (fill(float*, float))"));
}

TEST_CASE("kernel names: a fault names kernel and function as C++ does", "[simt]") {
  const Module module = load_fixture("kernel_names.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t data = upload(memory, std::vector<int32_t>{7, 8});
  LaunchParams reach = one_cta("reach", 1, {data});
  put(reach.arguments, 8, int32_t{2});
  put(reach.arguments, 12, int32_t{1});
  executor.launch(reach);
  CHECK(download<int32_t>(memory, data, 1) == std::vector<int32_t>{15});
  put(reach.arguments, 12, int32_t{1 << 20});
  CHECK_THROWS_WITH(executor.launch(reach),
                    Catch::Contains("device fault in kernel 'reach(int*, int, int)' (") &&
                        Catch::Contains("in 'strided_sum(int const*, int, int)'): unmapped "
                                        "device address"));
  const uint64_t floats = upload(memory, std::vector<float>{1, 2, 3, 4});
  LaunchParams scale = one_cta("scale<2>", 2, {floats});
  put(scale.arguments, 8, 0.5f);
  executor.launch(scale);
  CHECK(download<float>(memory, floats, 4) == std::vector<float>{0.5f, 2, 1.5f, 4});
}
