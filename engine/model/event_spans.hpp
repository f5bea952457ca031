// One run's CUDA event times as spans: what the pipeline read from its events and the host clock, turned into the
// spans of a RunResult without the CUDA runtime.
#pragma once

#include "engine/model/config.hpp"
#include "engine/model/error.hpp"
#include "engine/model/run_result.hpp"

#include <vector>

namespace asyncscope {

// What the pipeline timed in one run. Chunk c ran on stream c % streams, its operations issued in `order`.
struct EventTimes {
    int device = 0;
    int streams = 1;
    IssueOrder order = IssueOrder::ByChunk;
    // Stream and graph submission time every operation; batch submission times each batch and each kernel.
    Submission submission = Submission::Stream;
    std::vector<ChunkRange> chunks;
    // Whether the run copied (hasCopies): runs of mapped memory and of managed memory migrating on demand have no H2D
    // or D2H, only each chunk's kernel working on the host buffer in place.
    bool copies = true;
    // Events between stages: ms from the run's start event to the end of operation 3 * chunk + stage (0 H2D,
    // 1 kernel, 2 D2H); without copies, to the end of chunk c's kernel at index c. With batch submission, to the end
    // of step i of batchOrder(chunks, streams, order) instead: the batches and kernels in the order they were issued.
    // Empty when the run had no events between stages.
    std::vector<double> operationEndMs;
    // Host clock, ms from the moment submission began: when it ended, and when the wait for the stop event ended.
    double submitEndMs = 0.0;
    double waitEndMs = 0.0;
};

// The run's spans: with events between stages, every operation's span on its stream (each begins where the operation
// before it on its stream ended, the run's start for a stream's first, and a copy no earlier than the end of the copy
// the same way before it: queueCopiesByDirection), in issue order; then the Submit and Wait spans of the host thread.
// Without copies, the kernels' spans alone. Times that no run can give (not finite, negative, earlier than the
// operation before on the same stream, a list whose length is not three per chunk, or one per chunk without copies)
// are an ErrorKind::Cuda error naming the operation.
//
// Batch submission (a batched run's list holds one time per step, and its errors name the batch or the kernel): a batch
// is one span, not one per copy. The copies of a batch run in no order the events can see (an event follows the whole
// batch), so each batch of copies one way on one stream is a single H2D or D2H span on that stream carrying all its
// copies' bytes, its `chunk` the batch's first chunk (the stream's number). It begins where the operation before it on
// its stream ended (and no earlier than the end of the batch the same way before it) and ends at its event. The
// per-kind totals (time and bytes) therefore stay those of the copies themselves: each byte is counted once and each
// moment of a batch once. Kernels stay one span per chunk.
Result<std::vector<Span>> eventSpans(const EventTimes& times);

}  // namespace asyncscope
