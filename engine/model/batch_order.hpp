// The order a run submitted in batches issues its work: each stream's chunks' H2D copies in one cudaMemcpyBatchAsync
// call, then that stream's kernels one by one, then one batch of its D2H copies. The pipeline issues the steps in
// this order (an event after each with stage events) and reads their events back in it.
#pragma once

#include "engine/model/config.hpp"

#include <vector>

namespace asyncscope {

// One step of a batched run on one stream: a batch of copies one way (stage 0 H2D, stage 2 D2H) holding every chunk
// of the stream, or one chunk's kernel (stage 1, one chunk). Chunk c runs on stream c % streams, so a stream's chunks
// are its number, that plus the streams, and so on, in ascending order.
struct BatchStep {
    int stage = 0;
    int stream = 0;
    std::vector<int> chunks;

    bool isCopy() const { return stage != 1; }
};

// The steps of a run of `chunks` chunks over `streams` streams, in the order they are issued. IssueOrder::ByChunk:
// stream after stream, each stream's H2D batch, its kernels and its D2H batch. IssueOrder::ByStage: every stream's H2D
// batch, then every kernel in chunk order, then every stream's D2H batch. A stream without chunks has no steps; no
// chunks or no streams give none. There are 2 × min(chunks, streams) batches and `chunks` kernels.
std::vector<BatchStep> batchOrder(int chunks, int streams, IssueOrder order);

}  // namespace asyncscope
