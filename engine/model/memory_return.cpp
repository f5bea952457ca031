#include "engine/model/memory_return.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace asyncscope {

void returnFreedMemory()
{
#if defined(__GLIBC__)
    static_cast<void>(malloc_trim(0));  // 1 where memory went back, 0 where there was none to give: either is fine
#endif
}

}  // namespace asyncscope
