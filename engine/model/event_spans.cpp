#include "engine/model/event_spans.hpp"

#include "engine/model/batch_order.hpp"
#include "engine/model/names.hpp"
#include "engine/model/operation_order.hpp"

#include <cmath>
#include <string>

namespace asyncscope {

namespace {

constexpr SpanKind kStageKinds[kStages] = { SpanKind::H2D, SpanKind::Kernel, SpanKind::D2H };

std::string operationName(int chunk, int stage)
{
    return std::string(nameOf(kStageKinds[stage])) + " of chunk " + std::to_string(chunk);
}

bool validTime(double ms)
{
    return std::isfinite(ms) && ms >= 0.0;
}

Result<std::vector<Span>> batchEventSpans(const EventTimes& times);

}  // namespace

Result<std::vector<Span>> eventSpans(const EventTimes& times)
{
    if (times.submission == Submission::Batch)
        return batchEventSpans(times);
    if (times.streams < 1)
        return makeError(ErrorKind::Cuda, "event times of a run on " + std::to_string(times.streams) + " streams");
    const std::size_t stagesPerChunk = times.copies ? kStages : 1;
    const std::size_t operations = stagesPerChunk * times.chunks.size();
    const bool staged = !times.operationEndMs.empty();
    if (staged && times.operationEndMs.size() != operations)
        return makeError(ErrorKind::Cuda,
            std::to_string(times.operationEndMs.size()) + " event times for a run of " + std::to_string(operations) +
                " operations (" + std::to_string(times.chunks.size()) + " chunks)");
    if (!validTime(times.submitEndMs) || !validTime(times.waitEndMs) || times.waitEndMs < times.submitEndMs)
        return makeError(ErrorKind::Cuda,
            "host times of a run out of order: submission ended at " + std::to_string(times.submitEndMs) +
                " ms, the wait at " + std::to_string(times.waitEndMs) + " ms");

    std::vector<Span> spans;
    spans.reserve((staged ? operations : 0) + 2);
    if (staged) {
        std::vector<double> streamAt(static_cast<std::size_t>(times.streams), 0.0);
        Status failed;
        forEachOperation(static_cast<int>(times.chunks.size()), times.order, [&](int chunk, int stage) {
            if (failed || (!times.copies && kStageKinds[stage] != SpanKind::Kernel))
                return;
            const auto op = times.copies ? static_cast<std::size_t>(kStages * chunk + stage)
                                         : static_cast<std::size_t>(chunk);
            const double end = times.operationEndMs[op];
            const auto stream = static_cast<std::size_t>(chunk % times.streams);
            if (!validTime(end) || end < streamAt[stream]) {
                failed = makeError(ErrorKind::Cuda,
                    "event times out of order: the " + operationName(chunk, stage) + " ends at " +
                        std::to_string(end) + " ms, before the operation ahead of it on stream " +
                        std::to_string(stream) + " (" + std::to_string(streamAt[stream]) + " ms)");
                return;
            }
            const SpanKind kind = kStageKinds[stage];
            const std::uint64_t chunkBytes = times.chunks[static_cast<std::size_t>(chunk)].count * sizeof(int);
            Span span;
            span.kind = kind;
            span.device = times.device;
            span.stream = static_cast<int>(stream);
            span.chunk = chunk;
            span.bytes = kind == SpanKind::Kernel ? 2 * chunkBytes : chunkBytes;  // a kernel reads and writes
            span.beginMs = streamAt[stream];
            span.endMs = end;
            spans.push_back(span);
            streamAt[stream] = end;
        });
        if (failed)
            return *failed;
        queueCopiesByDirection(spans);
    }
    Span submit;
    submit.kind = SpanKind::Submit;
    submit.device = times.device;
    submit.endMs = times.submitEndMs;
    spans.push_back(submit);
    Span wait = submit;
    wait.kind = SpanKind::Wait;
    wait.beginMs = times.submitEndMs;
    wait.endMs = times.waitEndMs;
    spans.push_back(wait);
    return spans;
}

namespace {

std::string stepName(const BatchStep& step)
{
    if (!step.isCopy())
        return operationName(step.chunks.front(), step.stage);
    return std::string(nameOf(kStageKinds[step.stage])) + " batch of stream " + std::to_string(step.stream);
}

// Batch submission: one span per batch (its copies' bytes together) and one per kernel, each beginning where the step
// before it on its stream ended, in issue order; then the host spans as for any run.
Result<std::vector<Span>> batchEventSpans(const EventTimes& times)
{
    if (times.streams < 1)
        return makeError(ErrorKind::Cuda, "event times of a run on " + std::to_string(times.streams) + " streams");
    const std::vector<BatchStep> steps =
        batchOrder(static_cast<int>(times.chunks.size()), times.streams, times.order);
    const bool staged = !times.operationEndMs.empty();
    if (staged && times.operationEndMs.size() != steps.size())
        return makeError(ErrorKind::Cuda,
            std::to_string(times.operationEndMs.size()) + " event times for a batched run of " +
                std::to_string(steps.size()) + " batches and kernels (" + std::to_string(times.chunks.size()) +
                " chunks on " + std::to_string(times.streams) + " streams)");
    EventTimes host = times;  // the host spans, and the checks of the host times, as for stream calls
    host.submission = Submission::Stream;
    host.operationEndMs.clear();
    auto hostSpans = eventSpans(host);
    if (!hostSpans)
        return hostSpans.error();

    std::vector<Span> spans;
    spans.reserve((staged ? steps.size() : 0) + hostSpans->size());
    if (staged) {
        std::vector<double> streamAt(static_cast<std::size_t>(times.streams), 0.0);
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const BatchStep& step = steps[i];
            const double end = times.operationEndMs[i];
            const auto stream = static_cast<std::size_t>(step.stream);
            if (!validTime(end) || end < streamAt[stream])
                return makeError(ErrorKind::Cuda,
                    "event times out of order: the " + stepName(step) + " ends at " + std::to_string(end) +
                        " ms, before the operation ahead of it on stream " + std::to_string(stream) + " (" +
                        std::to_string(streamAt[stream]) + " ms)");
            std::uint64_t bytes = 0;
            for (int chunk : step.chunks)
                bytes += times.chunks[static_cast<std::size_t>(chunk)].count * sizeof(int);
            Span span;
            span.kind = kStageKinds[step.stage];
            span.device = times.device;
            span.stream = step.stream;
            span.chunk = step.chunks.front();
            span.bytes = step.isCopy() ? bytes : 2 * bytes;  // a kernel reads and writes
            span.beginMs = streamAt[stream];
            span.endMs = end;
            spans.push_back(span);
            streamAt[stream] = end;
        }
        queueCopiesByDirection(spans);
    }
    spans.insert(spans.end(), hostSpans->begin(), hostSpans->end());
    return spans;
}

}  // namespace

}  // namespace asyncscope
