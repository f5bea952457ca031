// This host's peak copy bandwidth per device and per way of moving the bytes (CopyPath), measured once and cached.
#pragma once

#include "engine/cuda/device_discovery.hpp"
#include "engine/io/copy_peak_cache.hpp"
#include "engine/model/copy_peak.hpp"
#include "engine/model/error.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace asyncscope {

constexpr std::size_t kCalibrationBytes = std::size_t(256) << 20;

// Times the moves of `path` over `bytes`, to the device, back to the host, and both ways at once (a move in each
// direction on its own stream, between other buffers), with events on the calling thread: one warm-up, then
// `repeats`; the best of them. The paths:
//   Pinned, Pageable, WriteCombined, Registered: cudaMemcpyAsync from and to host buffers of that kind (registered:
//     malloc'ed then cudaHostRegister'ed; the registration is not timed here). Pageable copies are staged by the
//     driver at a fraction of the link's rate and hold the calling thread, so both ways "at once" are mostly one
//     after the other, as a pipeline submitting from one thread gets them; they keep the same size and repeats
//     (about 0.7 s in all at 256 MiB and 7 to 14 GB/s).
//   Sm: the SM copy kernel (launchSmCopy) between a device buffer and mapped pinned memory, through its device
//     pointer: the copy engines take no part.
//   ManagedPrefetch: cudaMemPrefetchAsync of a managed buffer to the device and of another back to the host; before
//     each timed move the buffers are put back where the move starts from, outside the timing.
// Then the operations' fixed costs (OperationCosts): 64 moves of 64 KiB back to back each way, whose time beyond
// their bytes at the peaks is each copy's cost; 64 launches of the pipeline's kernel over 64 KiB and one over
// `bytes`, which give its launch cost and its rate; and the CPU time of each enqueue call. Managed prefetches have no
// device buffer for the kernel: their kernel figures stay 0.
// Needs two host buffers of the path's kind and two device buffers of `bytes` (managed: two managed buffers). A path
// this device cannot take (no mapped memory, no concurrent managed access, no host registration: checkHostAccess)
// is ErrorKind::Unsupported with the reason, before anything is allocated.
Result<CopyPeak> measureCopyPeak(int device, CopyPath path, std::size_t bytes = kCalibrationBytes, int repeats = 5);

// The cached figure for this device (by UUID) and path from `cacheDir`/copy-peaks.json (engine/io/copy_peak_cache),
// or a fresh measurement that is then stored there beside the other paths' entries. An entry the reader left out (an
// earlier version's without the bidirectional peak or the operations' costs, a hand edit) is measured again. A cache that cannot be read or
// written only costs a new measurement. An empty `cacheDir` measures without a cache.
Result<CopyPeak> cachedCopyPeak(const DeviceInfo& device, const std::string& cacheDir, CopyPath path);

}  // namespace asyncscope
