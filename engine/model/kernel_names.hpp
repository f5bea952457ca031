// A kernel's name as a person reads it: CUPTI gives it as compiled ("_Z5scaleIfEvPT_i"), the views and the trace show
// it as the source has it ("void scale<float>(float*, int)"), and where room is short by the function's own name
// ("scale").
#pragma once

#include <string>
#include <string_view>

namespace asyncscope {

// The name demangled (Itanium C++ ABI, as nvcc compiles); the name as it is where it is not mangled (extern "C",
// a driver API module's own names) or cannot be demangled.
std::string demangledName(std::string_view name);

// The function's own name in a demangled one: without its return type, namespaces and classes, template arguments
// and parameters ("scale" for "void ns::scale<float>(float*, int)"). The name as it is where it has no such parts.
std::string shortFunctionName(std::string_view demangled);

}  // namespace asyncscope
