// What a chunked pipeline can at best take, from this host's copy peaks: the bound a measurement is set beside.
#pragma once

#include "engine/model/copy_peak.hpp"

#include <cstddef>

namespace asyncscope {

// The least time, in ms, for `bytes` to go to the device, through the kernel and back in `chunks` chunks over
// `streams` streams, given the copy peaks and the kernel's time for the whole buffer (0 when unknown).
// One stream, or one chunk, runs every operation after the one before: bytes / H2D peak + kernel + bytes / D2H peak.
// Several streams fill a pipeline and then keep it full: the first chunk's H2D, kernel and D2H (the fill), then one
// step per further chunk, as long as the slowest of a chunk's H2D at the H2D peak, its D2H at the D2H peak, its
// kernel, and both its copies through the bidirectional peak the two directions share.
// Returns 0 when a peak the shape needs is unknown (no bidirectional peak: no bound for overlapping shapes).
double overlapBoundMs(std::size_t bytes, int chunks, int streams, const CopyPeak& peak, double kernelMs);

}  // namespace asyncscope
