// CUPTI's activity records as plain values, and which of them are one run's: the runtime calls the run's thread made
// while it ran, and the GPU operations those calls started, matched by correlation id (by the matcher a recorded
// program's iterations take too: correlation_matcher.hpp). No CUPTI header here: the
// collector in engine/cuda/cupti_trace copies each record into a TraceRecord, and the matching is tested without it.
#pragma once

#include "engine/model/config.hpp"
#include "engine/model/run_result.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace asyncscope {

// One activity record. GPU records (kind H2D, Kernel or D2H) carry their device; runtime-call records (kind Api)
// their thread and `call`. A GPU record's correlation id is that of the runtime call that started it: every
// operation of a graph launch carries the cudaGraphLaunch call's id, and `graphNode` tells them apart in the order
// they were captured; the copies of one cudaMemcpyBatchAsync call share its id too, and one record may stand for
// `copies` of them where the driver merged them. `smCopy`: a kernel record of the SM copy kernel (a copy done by a
// kernel through mapped memory), not the pipeline's increment kernel. Migration records (kind MigrateH2D or
// MigrateD2H: CUPTI's unified-memory counters) carry the device the pages moved to or from and no correlation id.
// Times are CUPTI's clock, in ns.
struct TraceRecord {
    SpanKind kind = SpanKind::H2D;
    ApiCall call = ApiCall::None;
    std::uint32_t device = 0;
    std::uint32_t thread = 0;
    std::uint32_t correlation = 0;
    std::uint64_t graphNode = 0;
    std::uint64_t bytes = 0;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::uint64_t copies = 1;
    bool smCopy = false;
};

// The runtime call a CUPTI callback name stands for: "cudaMemcpyAsync_v3020", "cudaMemcpyAsync_ptsz_v7000" (the
// per-thread default stream's) and "__cudaLaunchKernel_v13000" (the launch behind <<<...>>>) alike. Calls the
// pipeline does not make are ApiCall::Other.
ApiCall apiCallNamed(std::string name);

// The run a record may belong to: its device, the thread that submitted it and the CUPTI clock's readings as
// submission began and as the wait ended.
struct TraceWindow {
    std::uint32_t device = 0;
    std::uint32_t thread = 0;
    std::uint64_t fromNs = 0;
    std::uint64_t toNs = 0;
};

// One run's records. `calls`: the window's thread's runtime calls that began within [fromNs, toNs]. `operations`:
// the window's device's copy and kernel records whose correlation id is one of those calls' and whose call starts
// such work (a copy: cudaMemcpyAsync, cudaMemcpyBatchAsync, cudaMemPrefetchAsync or cudaGraphLaunch; a kernel:
// cudaLaunchKernel or cudaGraphLaunch); `unmatched` counts the device's other copy and kernel records (another
// thread's work, an earlier run's, a call outside the window, a record its call cannot have made). Both lists are
// in issue order: by correlation id (it grows with every call), a graph's operations by graph node, a batch's copies
// by their start. `migrations`: the device's page migrations that began within the window, by their start.
struct RunRecords {
    std::vector<TraceRecord> calls;
    std::vector<TraceRecord> operations;
    std::vector<TraceRecord> migrations;
    std::size_t unmatched = 0;
};
RunRecords runRecords(const std::vector<TraceRecord>& records, const TraceWindow& window);

// The run's records as spans in ms from `fromNs`, sorted by their begin. GPU operations are matched to chunks in
// issue order, per stage (the n-th H2D copy is chunk n's): chunk c on stream c % `streams`, its kernel's bytes read
// plus written.
// - Every record of one cudaMemcpyAsync or cudaMemPrefetchAsync call (of one node of a graph launch) is that call's
//   (node's) chunk's.
// - A cudaMemcpyBatchAsync call hands over one stream's copies one way: the n-th batch call of a direction is stream
//   n's, its k-th copy (by start) chunk n + k * `streams`. A record of several merged copies is one span, its first
//   chunk's, with the bytes of all.
// - SM copy kernels are the copy stage of their chunk: an SM copy issued while some chunk's kernel has been issued
//   without its D2H copy is that D2H copy, otherwise the next H2D copy (both issue orders keep a chunk's H2D copy,
//   kernel and D2H copy in that order). Their bytes are the chunk's.
// Operations beyond the last chunk, and records that end before they begin (untimed), are left out. Runtime calls
// become Api spans on stream 0; page migrations spans of their kind on stream 0, chunk 0, bytes what migrated.
std::vector<Span> tracedSpans(const RunRecords& run, int device, std::uint64_t fromNs,
    const std::vector<ChunkRange>& chunks, int streams);

// How many copy and kernel records a run of `chunks` chunks of `config` leaves: a kernel per chunk, and two copies
// per chunk where the run copies (copies, batch copies or SM copy kernels). Managed memory's prefetches may leave no
// copy record (CUPTI may report them as page migrations only): they are not counted.
std::size_t expectedOperations(const PipelineConfig& config, std::size_t chunks);

}  // namespace asyncscope
