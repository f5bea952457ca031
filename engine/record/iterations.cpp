#include "engine/record/iterations.hpp"

#include "engine/model/display_text.hpp"
#include "engine/model/trace_records.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace asyncscope {

namespace {

constexpr std::uint32_t kCopyToDevice = 1;    // CUPTI_ACTIVITY_MEMCPY_KIND_HTOD
constexpr std::uint32_t kCopyToHost = 2;      // CUPTI_ACTIVITY_MEMCPY_KIND_DTOH
constexpr std::uint32_t kPageable = 1;        // CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE
constexpr std::uint32_t kNotReady = 600;      // cudaErrorNotReady: a poll found the GPU busy

// A call that asks whether the GPU is done without waiting: a loop of them is a wait.
bool isPoll(std::string_view name)
{
    const std::string base = callBaseName(name);
    return base == "cudaEventQuery" || base == "cudaStreamQuery";
}

// Where an iteration's calls began: [from, to] on its process's CPU clock (CUPTI's).
struct Window {
    std::uint32_t pid = 0;
    std::uint64_t from = 0, to = 0;
};

// An NVTX range: a start mark and its end.
struct Range {
    std::uint32_t pid = 0;
    std::string name;
    std::uint64_t from = 0, to = 0;
    bool ended = true;
};

std::uint64_t key(std::uint32_t pid, std::uint32_t correlation)
{
    return (std::uint64_t(pid) << 32) | correlation;
}

std::vector<Range> rangesOf(const Recording& recording, std::uint64_t lastTime)
{
    std::vector<Range> ranges;
    std::unordered_map<std::uint64_t, std::size_t> open;  // (pid, id): its range
    for (const RecordedMark& m : recording.marks) {
        if (m.kind == MarkKind::Start) {
            open[key(m.pid, m.id)] = ranges.size();
            ranges.push_back({ m.pid, m.name, m.timestamp, lastTime, false });
        } else if (m.kind == MarkKind::End) {
            if (auto found = open.find(key(m.pid, m.id)); found != open.end()) {
                Range& r = ranges[found->second];
                r.to = std::max(m.timestamp, r.from);
                r.ended = true;
                open.erase(found);
            }
        }
    }
    return ranges;
}

// The outermost range name that repeats: of the names with two ranges or more, the one whose ranges no other
// repeated name's range holds; among those, the most frequent. Empty where none repeats.
std::string outermostRepeated(const std::vector<Range>& ranges)
{
    std::map<std::string, std::size_t> counts;
    for (const Range& r : ranges)
        ++counts[r.name];
    std::string best;
    std::size_t bestCount = 0;
    for (const auto& [name, count] : counts) {
        if (count < 2)
            continue;
        const bool inside = std::any_of(ranges.begin(), ranges.end(), [&](const Range& outer) {
            if (outer.name == name || counts[outer.name] < 2)
                return false;
            return std::any_of(ranges.begin(), ranges.end(), [&](const Range& inner) {
                return inner.name == name && inner.pid == outer.pid && inner.from >= outer.from &&
                    inner.to <= outer.to && !(inner.from == outer.from && inner.to == outer.to);
            });
        });
        if (!inside && count > bestCount) {
            best = name;
            bestCount = count;
        }
    }
    return best;
}

// Iterations between host waits, process by process: each ends as a wait for the GPU ends (a synchronize call, or a
// poll that found the GPU done after finding it busy).
std::vector<Window> syncWindows(const std::vector<const RecordedCall*>& calls)
{
    std::vector<Window> windows;
    std::map<std::uint32_t, std::uint64_t> since;  // each process's last wait's end
    std::map<std::uint32_t, bool> polling;         // each process's polls found the GPU busy since then
    for (const RecordedCall* c : calls) {
        if (isPoll(c->name) && c->returnValue == kNotReady)
            polling[c->pid] = true;
        const bool pollEnded = isPoll(c->name) && c->returnValue == 0 && polling[c->pid];
        if (!isHostSynchronization(c->name) && !pollEnded)
            continue;
        polling[c->pid] = false;
        auto [at, fresh] = since.emplace(c->pid, 0);
        windows.push_back({ c->pid, at->second, c->start });
        at->second = c->end + 1;
    }
    // What follows each process's last wait: an iteration that never waited, if it issued anything.
    for (const auto& [pid, from] : since)
        windows.push_back({ pid, from, ~std::uint64_t(0) });
    return windows;
}

Span spanOf(const RecordedOperation& op, std::uint64_t t0, int stream)
{
    Span s;
    s.kind = op.kind == OperationKind::Kernel ? SpanKind::Kernel
        : op.copyKind == kCopyToDevice        ? SpanKind::H2D
                                              : SpanKind::D2H;
    s.device = int(op.device);
    s.stream = stream;
    s.bytes = op.bytes;
    s.beginMs = (double(op.start) - double(t0)) / 1e6;
    s.endMs = (double(op.end) - double(t0)) / 1e6;
    return s;
}

bool drawn(const RecordedOperation& op)
{
    return op.kind == OperationKind::Kernel ||
        (op.kind == OperationKind::Copy && (op.copyKind == kCopyToDevice || op.copyKind == kCopyToHost));
}

}  // namespace

Result<IterationRule> parseIterationRule(std::string_view text)
{
    if (text == "auto")
        return IterationRule {};
    if (text == "sync")
        return IterationRule { IterationRule::By::Sync, {} };
    if (text == "nvtx")
        return IterationRule { IterationRule::By::Nvtx, {} };
    if (text.rfind("nvtx:", 0) == 0 && text.size() > 5)
        return IterationRule { IterationRule::By::Nvtx, std::string(text.substr(5)) };
    return makeError(ErrorKind::Usage, "--iteration '" + cutText(text, 60) + "' is not a way to find iterations",
        "Give nvtx:NAME (each NVTX range NAME is one), nvtx (the outermost repeated range), sync (host "
        "synchronizations end them) or auto.");
}

std::string callBaseName(std::string_view name)
{
    name.remove_prefix(std::min(name.find_first_not_of('_'), name.size()));
    name = name.substr(0, name.find("_v"));
    if (const auto perThread = name.find("_pt"); perThread != std::string_view::npos)
        name = name.substr(0, perThread);
    return std::string(name);
}

bool isHostSynchronization(std::string_view name)
{
    const std::string base = callBaseName(name);
    return base == "cudaDeviceSynchronize" || base == "cudaStreamSynchronize" || base == "cudaEventSynchronize" ||
        base == "cudaThreadSynchronize";
}

bool isSynchronousCopy(std::string_view name)
{
    const std::string base = callBaseName(name);
    const bool copies = base.rfind("cudaMemcpy", 0) == 0 || base.rfind("cudaMemset", 0) == 0;
    const std::string_view async = "Async";
    return copies && !(base.size() >= async.size() && base.compare(base.size() - async.size(), async.size(), async) == 0);
}

namespace {

// The call a (pid, correlation) names, and the iteration (window) it is in.
struct Issuer {
    std::size_t window = 0;
    const RecordedCall* call = nullptr;
};
using Issuers = std::unordered_map<std::uint64_t, Issuer>;

// The operations of one iteration on the legacy default stream, where the iteration also used a blocking stream of
// the same context (the two then wait for each other); 0 otherwise. Work a per-thread default stream build issued
// (calls named …_ptsz, …_ptds) waits for no other stream and is not counted.
std::uint64_t defaultStreamWork(const std::vector<const RecordedOperation*>& ops,
    const std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t>& flags,
    const Issuers& issuers)
{
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> onDefault;  // (pid, context): operations
    std::set<std::pair<std::uint32_t, std::uint32_t>> blocking;                   // (pid, context) with such a stream
    for (const RecordedOperation* op : ops) {
        const auto flag = flags.find({ op->pid, op->context, op->stream });
        if (flag == flags.end())
            continue;
        if (flag->second == kNullStreamFlag) {
            const auto issuer = issuers.find(key(op->pid, op->correlation));
            const bool perThread = issuer != issuers.end()
                && (issuer->second.call->name.find("_ptsz") != std::string::npos
                    || issuer->second.call->name.find("_ptds") != std::string::npos);
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

}  // namespace

RecordedRuns splitIterations(const Recording& recording, const IterationRule& rule)
{
    RecordedRuns out;
    std::vector<const RecordedCall*> calls;
    std::uint64_t lastTime = 0;
    for (const RecordedCall& c : recording.calls) {
        calls.push_back(&c);
        lastTime = std::max(lastTime, c.end);
    }
    std::stable_sort(calls.begin(), calls.end(),
        [](const RecordedCall* a, const RecordedCall* b) { return a->start < b->start; });

    // The iterations' windows, by the rule asked for.
    std::vector<Window> windows;
    const std::vector<Range> ranges = rangesOf(recording, lastTime);
    std::string range = rule.range;
    if (rule.by != IterationRule::By::Sync && range.empty())
        range = outermostRepeated(ranges);
    if (rule.by == IterationRule::By::Nvtx && range.empty())
        out.notes.push_back(ranges.empty() ? "The program marked no NVTX ranges: the runs are split at host "
                                             "synchronizations instead."
                                           : "No NVTX range repeats: the runs are split at host synchronizations "
                                             "instead.");
    if (rule.by != IterationRule::By::Sync && !range.empty()) {
        std::size_t unended = 0;
        for (const Range& r : ranges) {
            if (r.name != range)
                continue;
            windows.push_back({ r.pid, r.from, r.to });
            unended += r.ended ? 0 : 1;
        }
        out.how = "NVTX range '" + cutText(range, 80) + "'";
        if (windows.empty())
            out.notes.push_back("No NVTX range is named '" + cutText(range, 80) + "'.");
        if (unended > 0)
            out.notes.push_back(std::to_string(unended) + " range(s) '" + cutText(range, 80) +
                "' never ended: each runs to the end of the recording.");
    }
    if (windows.empty() && (rule.by != IterationRule::By::Nvtx || range.empty() || ranges.empty())) {
        windows = syncWindows(calls);
        out.how = "host synchronizations";
    }
    const bool byRange = !windows.empty() && out.how != "host synchronizations";
    std::sort(windows.begin(), windows.end(), [](const Window& a, const Window& b) { return a.from < b.from; });

    // Each call to the first window of its process that holds its start; with no windows, one for all.
    const bool whole = windows.empty();
    if (whole) {
        out.how = "the whole recording";
        out.notes.push_back("The program neither repeats an NVTX range nor waits for the GPU: its whole recording is "
                            "one run.");
        windows.push_back({ 0, 0, ~std::uint64_t(0) });
    }
    // The latest end of the windows up to each: a search back from a call's start stops where none can hold it.
    std::vector<std::uint64_t> reach(windows.size());
    for (std::size_t w = 0; w < windows.size(); ++w)
        reach[w] = std::max(windows[w].to, w > 0 ? reach[w - 1] : 0);
    std::vector<std::vector<const RecordedCall*>> callsOf(windows.size());
    Issuers issuers;  // (pid, correlation): the call and its window
    for (const RecordedCall* c : calls) {
        std::size_t w = std::size_t(std::distance(windows.begin(), std::upper_bound(windows.begin(), windows.end(),
            c->start, [](std::uint64_t t, const Window& window) { return t < window.from; })));
        while (w-- > 0 && reach[w] >= c->start) {
            if ((whole || windows[w].pid == c->pid) && c->start <= windows[w].to) {
                callsOf[w].push_back(c);
                issuers.emplace(key(c->pid, c->correlation), Issuer { w, c });
                break;
            }
        }
    }
    std::vector<std::vector<const RecordedOperation*>> opsOf(windows.size());
    std::size_t unmatched = 0, untimed = 0, undrawn = 0;
    for (const RecordedOperation& op : recording.operations) {
        if (op.start == 0 || op.end < op.start) {
            ++untimed;
            continue;
        }
        const auto found = issuers.find(key(op.pid, op.correlation));
        if (found == issuers.end()) {
            ++unmatched;
            continue;
        }
        opsOf[found->second.window].push_back(&op);
    }

    // The CUDA events the iterations' calls recorded: the points the program times itself between.
    std::vector<std::vector<const RecordedEvent*>> eventsOf(windows.size());
    for (const RecordedEvent& e : recording.events) {
        if (const auto found = issuers.find(key(e.pid, e.correlation)); found != issuers.end())
            eventsOf[found->second.window].push_back(&e);
    }

    // Each stream's kind as the program made it: which one is the legacy default stream.
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t> streamFlags;
    for (const RecordedStream& st : recording.streams)
        streamFlags[{ st.pid, st.context, st.stream }] = st.flag;
    if (!streamFlags.empty())
        out.copies.defaultStream = 0;

    std::uint64_t firstStart = 0;
    for (std::size_t w = 0; w < windows.size(); ++w) {
        std::vector<const RecordedOperation*>& ops = opsOf[w];
        if (ops.empty())
            continue;  // no GPU work: nothing to time
        std::sort(ops.begin(), ops.end(), [](const RecordedOperation* a, const RecordedOperation* b) {
            return a->correlation != b->correlation ? a->correlation < b->correlation : a->start < b->start;
        });
        const std::vector<const RecordedCall*>& own = callsOf[w];  // not empty: its calls issued the operations
        // Between two waits, the iteration begins with its first call that gives the GPU work (an operation or an
        // event): what comes before it (reading the last one's results, freeing, a context's creation) is the host's
        // own time between iterations, and is left out. A range begins where it does.
        std::uint64_t t0 = own.front()->start;
        if (byRange) {
            t0 = std::min(windows[w].from, t0);
        } else {
            std::unordered_set<std::uint32_t> issuing;
            for (const RecordedOperation* op : ops)
                issuing.insert(op->correlation);
            for (const RecordedEvent* e : eventsOf[w])
                issuing.insert(e->correlation);
            const auto first = std::find_if(own.begin(), own.end(),
                [&issuing](const RecordedCall* c) { return issuing.count(c->correlation) > 0; });
            if (first != own.end())
                t0 = (*first)->start;
        }
        if (out.runs.empty()) {
            firstStart = t0;
            out.originNs = t0;
            out.originPid = own.front()->pid;
        }
        RunResult run;
        run.index = int(out.runs.size());
        run.startMs = (double(t0) - double(firstStart)) / 1e6;
        // No element is checked in a program: none is known wrong (the report's program block says none was checked).
        run.verified = true;
        std::uint64_t gpuFrom = ~std::uint64_t(0), gpuTo = 0;
        std::map<std::pair<std::uint32_t, std::uint32_t>, int> streams;  // (device, stream): its number in the run
        for (const RecordedOperation* op : ops) {
            gpuFrom = std::min(gpuFrom, op->start);
            gpuTo = std::max(gpuTo, op->end);
            if (op->kind == OperationKind::Copy && (op->srcKind == kPageable || op->dstKind == kPageable)) {
                ++out.copies.pageable;
                out.copies.pageableBytes += op->bytes;
                out.copies.pageableMs += double(op->end - op->start) / 1e6;
            }
            if (!drawn(*op)) {
                ++undrawn;
                continue;
            }
            const auto [at, added] = streams.emplace(std::pair { op->device, op->stream }, int(streams.size()));
            run.spans.push_back(spanOf(*op, t0, at->second));
        }
        if (out.copies.defaultStream) {
            const std::uint64_t onDefault = defaultStreamWork(ops, streamFlags, issuers);
            *out.copies.defaultStream += onDefault;
            out.copies.defaultStreamIterations += onDefault > 0 ? 1 : 0;
        }
        for (const RecordedEvent* e : eventsOf[w]) {
            gpuFrom = std::min(gpuFrom, e->timestamp);
            gpuTo = std::max(gpuTo, e->timestamp);
        }
        run.gpuMs = double(gpuTo - gpuFrom) / 1e6;
        double submitNs = 0.0;
        std::optional<Span> polled;  // the polls that found the GPU busy, to the one that found it done: a wait
        for (const RecordedCall* c : own) {
            if (c->start < t0)
                continue;  // before the iteration's first issuing call
            const double ns = double(c->end >= c->start ? c->end - c->start : 0);
            Span api;
            api.kind = SpanKind::Api;
            api.call = apiCallNamed(c->name);
            api.beginMs = (double(c->start) - double(t0)) / 1e6;
            api.endMs = api.beginMs + ns / 1e6;
            if (isPoll(c->name)) {  // thousands in a wait: not one span each
                if (c->returnValue == kNotReady)
                    run.pollIterations += c->calls;
                if (c->returnValue == kNotReady && !polled) {
                    polled = api;
                    polled->kind = SpanKind::Wait;
                    polled->call = ApiCall::None;
                }
                if (polled)
                    polled->endMs = api.endMs;
                if (c->returnValue != kNotReady && polled) {
                    run.spans.push_back(*polled);
                    polled.reset();
                }
                continue;
            }
            run.traced.push_back(api);
            if (isSynchronousCopy(c->name)) {
                out.copies.synchronous += c->calls;
                out.copies.synchronousMs += ns / 1e6;
            }
            if (isHostSynchronization(c->name)) {
                Span wait = api;
                wait.kind = SpanKind::Wait;
                wait.call = ApiCall::None;
                run.spans.push_back(wait);
            } else {
                submitNs += ns;
            }
        }
        if (polled)
            run.spans.push_back(*polled);
        Span submit;
        submit.kind = SpanKind::Submit;
        submit.endMs = submitNs / 1e6;
        run.spans.push_back(submit);
        for (const Span& s : run.spans) {
            if (onGpu(s.kind))
                run.traced.push_back(s);
        }
        const auto byBegin = [](const Span& a, const Span& b) { return a.beginMs < b.beginMs; };
        std::stable_sort(run.spans.begin(), run.spans.end(), byBegin);
        std::stable_sort(run.traced.begin(), run.traced.end(), byBegin);
        out.runs.push_back(std::move(run));
    }

    // Iterations before the first that runs a kernel are the program's set-up (allocations, memsets, first copies)
    // where a later one runs kernels: kept and shown as warm-up runs, left out of the statistics.
    const auto firstKernel = std::find_if(out.runs.begin(), out.runs.end(),
        [](const RunResult& run) { return run.has(SpanKind::Kernel); });
    if (firstKernel != out.runs.end() && firstKernel != out.runs.begin()) {
        const auto setUp = std::size_t(firstKernel - out.runs.begin());
        for (auto run = out.runs.begin(); run != firstKernel; ++run)
            run->warmup = true;
        out.notes.push_back("The first " + std::to_string(setUp) + " iteration(s) ran no kernel (the program's "
            "set-up): shown as warm-up runs and left out of the statistics.");
    }
    if (untimed > 0)
        out.notes.push_back(std::to_string(untimed) + " GPU operation(s) carried no time and are left out.");
    if (unmatched > 0)
        out.notes.push_back(std::to_string(unmatched) + " GPU operation(s) were issued by calls outside every "
            "iteration (or not recorded) and are left out.");
    if (undrawn > 0)
        out.notes.push_back(std::to_string(undrawn) + " memset(s) and copies within the GPU count in GPU time but "
            "have no span of their own.");
    for (const RecordedProcess& p : recording.processes) {
        if (!p.exited)
            out.notes.push_back("Process " + std::to_string(p.pid) + " (" + cutText(p.executable, 120) +
                ") did not exit normally: records of its last 100 ms may be missing.");
    }
    if (recording.dropped > 0)
        out.notes.push_back("CUPTI dropped " + std::to_string(recording.dropped) +
            " record(s) for want of buffer room: some runs may lack operations.");
    for (const std::string& note : recording.notes)
        out.notes.push_back("The recording says: " + cutText(note, 300));
    return out;
}

}  // namespace asyncscope
