#include "engine/record/iteration_piece.hpp"

#include "engine/model/record_rules.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace asyncscope::iteration {

namespace {

constexpr std::uint32_t kCopyToDevice = 1;  // CUPTI_ACTIVITY_MEMCPY_KIND_HTOD
constexpr std::uint32_t kCopyToHost = 2;    // CUPTI_ACTIVITY_MEMCPY_KIND_DTOH
constexpr std::uint32_t kPageable = 1;      // CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE
constexpr std::uint32_t kNotReady = 600;    // cudaErrorNotReady and CUDA_ERROR_NOT_READY: a poll found the GPU busy

Span spanOf(const RecordedOperation& op, std::uint64_t t0, int stream)
{
    Span s;
    s.kind = op.kind == OperationKind::Kernel ? SpanKind::Kernel
        : op.copyKind == kCopyToDevice        ? SpanKind::H2D
                                              : SpanKind::D2H;
    s.device = int(op.device);
    s.stream = stream;
    s.bytes = op.bytes;
    s.beginMs = std::max(0.0, (double(op.start) - double(t0)) / 1e6);  // within kClockSlackNs before t0: at it
    s.endMs = std::max(s.beginMs, (double(op.end) - double(t0)) / 1e6);
    return s;
}

// An operation that is no copy to or from the host nor a kernel, as a note names it: "memset(s) on GPU 0",
// "peer copies GPU 0 → GPU 1", "device-to-device copies on GPU 1".
std::string undrawnText(const RecordedOperation& op)
{
    const std::string gpu = "GPU " + std::to_string(op.device);
    if (op.kind == OperationKind::Set)
        return "memset(s) on " + gpu;
    if (op.dstDevice != op.device)
        return "peer copies " + gpu + " \u2192 GPU " + std::to_string(op.dstDevice);
    return (op.copyKind == 8 ? "device-to-device copies on " : "other copies on ") + gpu;
}

bool drawn(const RecordedOperation& op)
{
    return op.kind == OperationKind::Kernel ||
        (op.kind == OperationKind::Copy && (op.copyKind == kCopyToDevice || op.copyKind == kCopyToHost));
}

}  // namespace

std::uint32_t SpanNames::numberOf(std::string_view name)
{
    if (name.empty())
        return 0;
    m_key.assign(name);
    const auto known = m_numbers.find(m_key);
    if (known != m_numbers.end())
        return known->second;
    if (m_names.size() >= kMaxProgramNames)
        return 0;
    m_names.push_back(m_key);
    const auto number = std::uint32_t(m_names.size());
    m_numbers.emplace(m_key, number);
    return number;
}

std::optional<RunResult> runOfPiece(
    Piece& piece, const Issuers& issuers, PieceTally& tally, SpanNames& names, std::uint64_t& t0)
{
    std::vector<const RecordedOperation*>& ops = piece.ops;
    if (ops.empty() || piece.calls.empty())
        return std::nullopt;  // no GPU work: nothing to time
    std::sort(ops.begin(), ops.end(), [](const RecordedOperation* a, const RecordedOperation* b) {
        return a->correlation != b->correlation ? a->correlation < b->correlation : a->start < b->start;
    });
    // Between two waits, the iteration begins with its first call that gives the GPU work (an operation or an
    // event): what comes before it (reading the last one's results, freeing, a context's creation) is the host's own
    // time between iterations, and is left out. A range begins where it does.
    t0 = piece.calls.front()->call->start;
    if (piece.byRange) {
        t0 = std::min(piece.from, t0);
    } else {
        // The piece's calls are in the matcher's order (by start), so the earliest issuer is the first.
        const Call* first = nullptr;
        const auto earliest = [&](std::uint32_t pid, std::uint32_t correlation) {
            if (const Issuer* issuer = issuers.issuerOf(pid, correlation); issuer && (!first || issuer->call < first))
                first = issuer->call;
        };
        for (const RecordedOperation* op : ops)
            earliest(op->pid, op->correlation);
        for (const RecordedEvent* e : piece.events)
            earliest(e->pid, e->correlation);
        if (first)
            t0 = first->call->start;
    }
    // A record whose times lie outside its iteration's (a clock gone wrong, a damaged recording) is left out and
    // counted: it begins at or after the iteration's beginning (kClockSlackNs before it is taken as at it: CUPTI
    // converts the GPU's timestamps to its clock) and ends within kMaxTimeMs of it, as a report's times must.
    const auto outOfTime = [t0](std::uint64_t start, std::uint64_t end) {
        return (start < t0 && t0 - start > kClockSlackNs) || end < start ||
            double(end - std::min(t0, end)) / 1e6 > kMaxTimeMs;
    };
    const std::size_t before = ops.size() + piece.events.size();
    ops.erase(std::remove_if(ops.begin(), ops.end(),
                  [&](const RecordedOperation* op) { return outOfTime(op->start, op->end); }),
        ops.end());
    piece.events.erase(std::remove_if(piece.events.begin(), piece.events.end(),
                           [&](const RecordedEvent* e) { return outOfTime(e->timestamp, e->timestamp); }),
        piece.events.end());
    tally.outOfTime += before - ops.size() - piece.events.size();
    if (ops.empty())
        return std::nullopt;
    RunResult run;
    // No element is checked in a program: none is known wrong (the report's program block says none was checked).
    run.verified = true;
    const int lane = int(piece.lane);
    std::uint64_t gpuFrom = ~std::uint64_t(0), gpuTo = 0;
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> streams;  // (device, stream): its number in the run
    for (const RecordedOperation* op : ops) {
        gpuFrom = std::min(gpuFrom, op->start);
        gpuTo = std::max(gpuTo, op->end);
        if (op->kind == OperationKind::Copy && (op->srcKind == kPageable || op->dstKind == kPageable)) {
            ++tally.copies.pageable;
            tally.copies.pageableBytes = addCounts(tally.copies.pageableBytes, op->bytes);
            tally.copies.pageableMs += double(op->end - op->start) / 1e6;
        }
        if (!drawn(*op)) {
            ++tally.undrawn[undrawnText(*op)];
            continue;
        }
        const auto [at, added] = streams.emplace(std::pair { op->device, op->stream }, int(streams.size()));
        run.spans.push_back(spanOf(*op, t0, at->second));
        if (op->kind == OperationKind::Kernel)
            run.spans.back().name = names.numberOf(op->name);
    }
    // The events a program times its work with: the last it recorded before it issued the work and the first it
    // recorded after, in the order its thread made the calls (what its cudaEventElapsedTime measures between). An
    // earlier one (the last iteration's stop, recorded after its synchronous copy) times something else. The order of
    // the calls, not CUPTI's times: under busy streams a copy's recorded end can come after the event that follows it
    // on its stream.
    // A record's call's place in the thread's order: the matcher's calls are in that order, so its address.
    const auto placeOf = [&](std::uint32_t pid, std::uint32_t correlation) {
        const Issuer* issuer = issuers.issuerOf(pid, correlation);
        return issuer ? std::uintptr_t(issuer->call) : UINTPTR_MAX;
    };
    std::uintptr_t firstIssue = UINTPTR_MAX, lastIssue = 0;
    for (const RecordedOperation* op : ops) {
        const std::uintptr_t at = placeOf(op->pid, op->correlation);
        if (at != UINTPTR_MAX) {
            firstIssue = std::min(firstIssue, at);
            lastIssue = std::max(lastIssue, at);
        }
    }
    std::optional<std::uint64_t> startEvent, stopEvent;
    std::uintptr_t startAt = 0, stopAt = UINTPTR_MAX;
    for (const RecordedEvent* e : piece.events) {
        const std::uintptr_t at = placeOf(e->pid, e->correlation);
        if (at == UINTPTR_MAX || firstIssue == UINTPTR_MAX)
            continue;
        if (at < firstIssue && (!startEvent || at >= startAt)) {
            startEvent = e->timestamp;
            startAt = at;
        }
        if (at > lastIssue && (!stopEvent || at < stopAt)) {
            stopEvent = e->timestamp;
            stopAt = at;
        }
    }
    if (startEvent && stopEvent && *stopEvent < *startEvent)
        startEvent = stopEvent = std::nullopt;  // not a pair that times anything
    if (startEvent.value_or(gpuFrom) <= stopEvent.value_or(gpuTo)) {  // else events that time nothing of this
        gpuFrom = startEvent.value_or(gpuFrom);
        gpuTo = stopEvent.value_or(gpuTo);
    }
    run.gpuMs = double(gpuTo - gpuFrom) / 1e6;
    double submitNs = 0.0;
    std::optional<Span> polled;  // the polls that found the GPU busy, to the one that found it done: a wait
    for (const Call* c : piece.calls) {
        const RecordedCall& call = *c->call;
        if (call.start < t0)
            continue;  // before the iteration's first issuing call
        if (outOfTime(call.start, call.end)) {
            ++tally.outOfTime;
            continue;
        }
        const double ns = double(call.end >= call.start ? call.end - call.start : 0);
        Span api;
        api.kind = SpanKind::Api;
        api.stream = lane;
        api.call = c->name->call;
        api.name = names.numberOf(call.name);
        api.beginMs = (double(call.start) - double(t0)) / 1e6;
        api.endMs = api.beginMs + ns / 1e6;
        if (c->name->role == CallRole::Poll) {  // thousands in a wait: not one span each
            if (call.returnValue == kNotReady)
                run.pollIterations += call.calls;
            if (call.returnValue == kNotReady && !polled) {
                polled = api;
                polled->kind = SpanKind::Wait;
                polled->call = ApiCall::None;
            }
            if (polled)
                polled->endMs = api.endMs;
            if (call.returnValue != kNotReady && polled) {
                run.spans.push_back(*polled);
                polled.reset();
            }
            continue;
        }
        run.traced.push_back(api);
        if (c->name->role == CallRole::SyncCopy) {
            tally.copies.synchronous += call.calls;
            tally.copies.synchronousMs += ns / 1e6;
        }
        if (c->name->role == CallRole::Wait || c->name->role == CallRole::SyncCopy) {
            Span wait = api;
            wait.kind = SpanKind::Wait;
            wait.call = ApiCall::None;
            run.spans.push_back(wait);
        } else if (c->name->role == CallRole::Enqueue) {
            submitNs += ns;
        }
    }
    if (polled)
        run.spans.push_back(*polled);
    Span submit;
    submit.kind = SpanKind::Submit;
    submit.stream = lane;
    submit.endMs = submitNs / 1e6;
    run.spans.push_back(submit);
    for (const Span& s : run.spans) {
        if (onGpu(s.kind))
            run.traced.push_back(s);
    }
    const auto byBegin = [](const Span& a, const Span& b) { return a.beginMs < b.beginMs; };
    std::stable_sort(run.spans.begin(), run.spans.end(), byBegin);
    std::stable_sort(run.traced.begin(), run.traced.end(), byBegin);
    return run;
}

std::uint64_t defaultStreamWork(const Piece& piece, const StreamFlags& flags, const Issuers& issuers)
{
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> onDefault;  // (pid, context): operations
    std::set<std::pair<std::uint32_t, std::uint32_t>> blocking;                   // (pid, context) with such a stream
    for (const RecordedOperation* op : piece.ops) {
        const auto flag = flags.find({ op->pid, op->context, op->stream });
        if (flag == flags.end())
            continue;
        if (flag->second == kNullStreamFlag) {
            const Issuer* issuer = issuers.issuerOf(op->pid, op->correlation);
            const bool perThread = issuer && issuer->call->name->perThread;
            if (!perThread)
                ++onDefault[{ op->pid, op->context }];
        } else if (flag->second != kNonBlockingStreamFlag) {
            blocking.insert({ op->pid, op->context });
        }
    }
    std::uint64_t count = 0;
    for (const auto& [context, operations] : onDefault)
        count += blocking.count(context) > 0 ? operations : 0;
    return count;
}

// A wait on nothing but events recorded after a synchronous copy to the host (cudaEventRecord(stop);
// cudaEventSynchronize(stop)) belongs to the iteration that copy ended: the events time it.
void mergeEventWaits(std::vector<Piece>& pieces)
{
    std::unordered_map<std::uint32_t, std::size_t> last;  // each lane's piece before
    for (std::size_t p = 0; p < pieces.size(); ++p) {
        Piece& piece = pieces[p];
        const auto before = last.find(piece.lane);
        if (before != last.end() && pieces[before->second].endedByCopy && piece.ops.empty() && !piece.events.empty() &&
            !piece.unfinished && piece.closed) {
            Piece& into = pieces[before->second];
            into.calls.insert(into.calls.end(), piece.calls.begin(), piece.calls.end());
            into.events.insert(into.events.end(), piece.events.begin(), piece.events.end());
            into.endedByCopy = false;
            piece.calls.clear();
            piece.events.clear();
            continue;
        }
        last[piece.lane] = p;
    }
}

}  // namespace asyncscope::iteration
