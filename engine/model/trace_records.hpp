// CUPTI's activity records as plain values, and which of them are one run's: the runtime calls the run's thread made
// while it ran, and the GPU operations those calls started, matched by correlation id. No CUPTI header here: the
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
// they were captured. Times are CUPTI's clock, in ns.
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
// the window's device's GPU records whose correlation id is one of those calls'; `unmatched` counts the device's GPU
// records whose id is none of them (another thread's work, an earlier run's, a call outside the window). Both lists
// are in issue order: by correlation id (it grows with every call), a graph's operations by graph node.
struct RunRecords {
    std::vector<TraceRecord> calls;
    std::vector<TraceRecord> operations;
    std::size_t unmatched = 0;
};
RunRecords runRecords(const std::vector<TraceRecord>& records, const TraceWindow& window);

// The run's records as spans in ms from `fromNs`, sorted by their begin. GPU operations are matched to chunks in
// issue order, per kind (the n-th H2D copy is chunk n's): chunk c on stream c % `streams`, its kernel's bytes read
// plus written. Operations beyond the last chunk, and records that end before they begin (untimed), are left out.
// Runtime calls become Api spans on stream 0.
std::vector<Span> tracedSpans(const RunRecords& run, int device, std::uint64_t fromNs,
    const std::vector<ChunkRange>& chunks, int streams);

}  // namespace asyncscope
