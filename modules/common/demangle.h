#pragma once

#include <string>
#include <vector>

namespace ohmvp {

// The readable form of an Itanium-mangled C++ name, as nvcc mangles kernels and device
// functions: "_Z6reduceILi256EEvPKfPfi" -> "void reduce<256>(float const*, float*, int)". A name
// that is not mangled (an extern "C" kernel) comes back as it is.
std::string demangle(const std::string& name);

// The function's name without return type and parameter list: "void ns::reduce<256>(float
// const*, float*, int)" -> "ns::reduce<256>". A name without a parameter list comes back whole.
std::string function_name(const std::string& demangled);

// The name without its template arguments: "ns::reduce<256>" -> "ns::reduce".
std::string without_template_arguments(const std::string& name);

// The name without its namespaces and classes: "ns::reduce<a::b>" -> "reduce<a::b>".
std::string unqualified(const std::string& name);

// The parameter types of a demangled signature: "void k<2>(float*, pair<int, int>)" -> {"float*",
// "pair<int, int>"}; none for "k()", "k(void)" or a name without a parameter list.
std::vector<std::string> parameter_types(const std::string& demangled);

}  // namespace ohmvp
