// Kernels' names as a person reads them: demangled where nvcc mangled them, and cut to the function's own name.
#include "engine/model/kernel_names.hpp"

#include <gtest/gtest.h>

namespace asyncscope {
namespace {

TEST(KernelNames, MangledNamesAreShownAsTheSourceHasThem)
{
    EXPECT_EQ(demangledName("_Z9incrementPii"), "increment(int*, int)");
    EXPECT_EQ(demangledName("_ZN2ns5scaleIfEEvPT_i"), "void ns::scale<float>(float*, int)");
    // Not mangled (extern "C", a module's own names), or not a name the demangler takes: as they are.
    EXPECT_EQ(demangledName("increment_kernel"), "increment_kernel");
    EXPECT_EQ(demangledName("_Z"), "_Z");
    EXPECT_EQ(demangledName("_Zq!!"), "_Zq!!");
    EXPECT_EQ(demangledName(""), "");
}

TEST(KernelNames, TheShortNameIsTheFunctionsOwn)
{
    EXPECT_EQ(shortFunctionName("increment(int*, int)"), "increment");
    EXPECT_EQ(shortFunctionName("void ns::scale<float>(float*, int)"), "scale");
    EXPECT_EQ(shortFunctionName("void (anonymous namespace)::fill<(int)3>(int*)"), "fill");
    EXPECT_EQ(shortFunctionName("void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, "
                                "at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, "
                                "at::detail::Array<char*, 3>)"),
        "vectorized_elementwise_kernel");
    EXPECT_EQ(shortFunctionName("Foo::bar() const"), "bar");
    EXPECT_EQ(shortFunctionName("plain"), "plain");
    EXPECT_EQ(shortFunctionName(""), "");
}

}  // namespace
}  // namespace asyncscope
