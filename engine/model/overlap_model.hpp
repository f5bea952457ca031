// What a chunked pipeline can at best take, from this host's copy peaks: the bound a measurement is set beside.
#pragma once

#include "engine/model/config.hpp"
#include "engine/model/copy_peak.hpp"
#include "engine/model/run_result.hpp"

#include <cstddef>
#include <optional>

namespace asyncscope {

// One iteration's work as it runs one operation after another, in ms: each stage as one operation (its fixed cost
// included), and the time both directions' bytes take through the link at once (0: unknown).
struct StageTimes {
    double h2dMs = 0.0;
    double kernelMs = 0.0;
    double d2hMs = 0.0;
    double bothWaysMs = 0.0;  // the two copies' bytes at the bidirectional peak, fixed costs left out
};

// A recorded iteration's stages: the time its copies to the device, its kernels and its copies back took in all
// (RunResult::totalMs), and, where `peak` is given with a bidirectional peak, both directions' bytes through it.
StageTimes iterationStages(const RunResult& run, const CopyPeak* peak);

// That work in `chunks` chunks over `streams` streams, each chunk's copy in, kernel and copy out on one stream
// (round-robin). Each chunk's operation takes its share of the stage and pays the operation's fixed cost
// (`costs.copyUs` a copy, `costs.launchUs` a kernel) once. One stream, or one chunk, runs every operation after the
// one before: chunks × (copy in + kernel + copy out). Several streams fill a pipeline and then keep it full: the first
// chunk's three operations (the fill), then one step per further chunk, as long as the slowest of: a chunk's copy in,
// its copy out, its kernel, its two copies through the link the directions share (where bothWaysMs is known), and a
// stream's three operations over the streams (each stream runs its own chunks one after another).
double chunkedMs(const StageTimes& whole, int chunks, int streams, const OperationCosts& costs);

// The pipeline's stages over `bytes` from the copy peaks: each copy at its one-way peak plus the path's copy cost, the
// kernel as measured (`kernelMs`, the series' kernel stage) or else from the calibration (launch cost + bytes at the
// kernel's rate; 0 when neither is known), both ways at the bidirectional peak.
StageTimes pipelineStages(std::size_t bytes, const CopyPeak& peak, double kernelMs);

// The kernel's time for the whole buffer from a run whose `chunks` kernels took `kernelMs` in all (0: unknown): less
// the launch costs of all but one.
double wholeKernelMs(double kernelMs, int chunks, const OperationCosts& costs);

// The least time, in ms, for `bytes` to go to the device, through the kernel and back in `chunks` chunks over
// `streams` streams: chunkedMs of the stages at the peaks with no operation's fixed cost (bandwidth only; the kernel
// `kernelMs`, else at the calibration's kernel rate, else none). Returns 0 when a peak the shape needs is unknown (no bidirectional peak: no bound for
// overlapping shapes).
double overlapBoundMs(std::size_t bytes, int chunks, int streams, const CopyPeak& peak, double kernelMs);

// The modelled time of a run of that shape, in ms: chunkedMs with the calibration's operation costs (pipelineStages),
// and, for runs submitted call by call on streams, no less than the CPU takes to submit them (one call per operation
// at costs.callUs) followed by the last chunk's copy out. 0 when a peak the shape needs is unknown.
double modelledMs(std::size_t bytes, int chunks, int streams, Submission submission, const CopyPeak& peak,
    double kernelMs);

// The least the overlap model (modelledMs) gives any shape of `bytes` (chunks a power of two up to `maxChunks` and
// `elements`, streams up to `maxStreams` and the chunks), with the shape that gives it; a shape of more chunks only
// where it saves more than 1 %, and of its chunk count the most streams unless fewer save more than 1 %. Empty when
// there is none (no copy peaks).
inline constexpr int kModelMaxChunks = 64;  // the shapes the advice and the summary's bound look among
inline constexpr int kModelMaxStreams = 4;  // as the overlap comparison runs them
struct ModelledShape {
    int chunks = 1;
    int streams = 1;
    double ms = 0.0;
};
std::optional<ModelledShape> bestModelledShape(std::size_t bytes, std::size_t elements, Submission submission,
    const CopyPeak& peak, double kernelMs, int maxChunks, int maxStreams);

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

// The modelled time for a series of `config`: modelledMs for the kinds with copies; for mapped memory the
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
