#include "engine/model/memory_return.hpp"

#include "engine/model/big_vector.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace asyncscope {

void returnBigBlocksWhenFreed()
{
#if defined(__GLIBC__)
    // Setting the threshold also turns its raising off. A refusal leaves malloc as it was: nothing to report.
    static_cast<void>(mallopt(M_MMAP_THRESHOLD, int(kHugePageBytes)));
#endif
}

}  // namespace asyncscope
