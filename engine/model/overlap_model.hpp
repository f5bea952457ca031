// What a chunked pipeline can at best take, from this host's copy peaks: the bound a measurement is set beside.
#pragma once

#include "engine/model/config.hpp"
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

// Mapped (zero-copy) memory has no copies: the kernel reads its input from host memory and writes its output back
// over the link while it runs, both directions at once, as SM copies do. Its least time is therefore the longest of
// bytes / H2D peak, bytes / D2H peak and, where the bidirectional peak is known, 2 × bytes / bidirectional peak
// (the two directions sharing the link), all with the SM-copy peaks (CopyPath::Sm). In ms; 0 when a peak is unknown.
double zeroCopyBoundMs(std::size_t bytes, const CopyPeak& peak);

// The least time the link takes for a series of `config`, with the peaks of its own path (copyPathOf):
//   kinds with copies (pinned, pageable, write-combined, registered, SM copies, managed prefetches): the serial
//     bound, bytes / H2D peak + bytes / D2H peak (serialBoundMs);
//   mapped memory: zeroCopyBoundMs;
//   managed memory migrating on demand: none, 0 (pages move on the kernel's faults, at a rate no copy calibrates).
double linkBoundMs(const PipelineConfig& config, const CopyPeak& peak);

// The modelled time for a series of `config`: overlapBoundMs for the kinds with copies; for mapped memory the
// zero-copy bound, whatever the chunks and streams (the kernel is the transfer: its chunks share one link, there is
// no pipeline of copies to fill, and its measured time already holds the link's); 0 for managed memory migrating on
// demand.
double modelledBoundMs(const PipelineConfig& config, const CopyPeak& peak, double kernelMs);

// A path's name in a figure's name: "pinned", "pageable", "write-combined", "registered", "SM copies", "managed
// prefetch" ("Host peak H2D, SM copies").
const char* copyPathLabel(CopyPath path);
// What a path's calibration moves, for a sentence: "pinned copies", "SM copies through mapped memory", "managed
// memory prefetches".
const char* copyPathMoves(CopyPath path);

}  // namespace asyncscope
