// How much of the host's memory the pipeline's host buffers can take without pushing the host into swap or the
// out-of-memory killer.
#pragma once

#include <cstddef>

namespace asyncscope {

// The kernel's estimate of memory available for new allocations (MemAvailable), in bytes; the free physical
// memory where that is unknown; the largest size_t where neither is.
std::size_t availableHostMemory();

}  // namespace asyncscope
