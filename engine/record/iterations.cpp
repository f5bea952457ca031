// The passes of IterationSplitter over the records at hand: each process's iterations found, those whose records are
// all in made runs, and their records taken out of the recording. The runs become a report's in iteration_runs.cpp.
#include "engine/record/iterations.hpp"

#include "engine/model/record_rules.hpp"
#include "engine/record/iteration_piece.hpp"
#include "engine/record/iteration_split.hpp"
#include "engine/record/nvtx_ranges.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace asyncscope {

namespace {

using namespace iteration;

constexpr std::uint32_t kCopyToHost = 2;  // CUPTI_ACTIVITY_MEMCPY_KIND_DTOH
constexpr std::uint32_t kNotReady = 600;  // cudaErrorNotReady and CUDA_ERROR_NOT_READY: a poll found the GPU busy

// The records a pass took, by their places in the recording's vectors.
struct Taken {
    std::vector<bool> calls, operations, events, marks;
};

// One pass over the records at hand of one process: the iterations over by `settled` (CUPTI's clock; every one with
// `everything`) become runs in `state`, and the records they used are marked taken.
class Matcher {
public:
    Matcher(const Recording& recording, std::uint32_t pid, ProcessSplit& state, SpanNames& spanNames, Taken& taken,
        std::uint64_t settled, bool everything)
        : m_recording(recording), m_pid(pid), m_state(state), m_spanNames(spanNames), m_taken(taken),
          m_settled(settled), m_everything(everything)
    {
    }

    void pass(const IterationRule& rule);

private:
    bool over(std::uint64_t ns) const { return m_everything || ns <= m_settled; }
    void takeCalls();
    bool decide(const IterationRule& rule, const std::vector<Range>& ranges);
    std::vector<Piece> bySync();
    std::vector<Piece> byRanges(const std::vector<Range>& ranges);
    void takeOperations(std::vector<Piece>& pieces);
    std::vector<bool> finished(const std::vector<Piece>& pieces) const;
    void keep(Piece& piece);
    void takeMarks(std::uint64_t before);
    void take(const RecordedCall* c) { m_taken.calls[std::size_t(c - m_recording.calls.data())] = true; }

    const Recording& m_recording;
    std::uint32_t m_pid;
    ProcessSplit& m_state;
    SpanNames& m_spanNames;
    Taken& m_taken;
    std::uint64_t m_settled;
    bool m_everything;
    CallNames m_names;
    std::vector<Call> m_calls;  // in order of start, driver calls within a runtime call's left out
    std::vector<std::pair<const RecordedCall*, const RecordedCall*>> m_folded;  // such a driver call, its runtime call
    Issuers m_issuers;
    StreamFlags m_streamFlags;
};

void Matcher::takeCalls()
{
    std::vector<const RecordedCall*> calls;
    for (const RecordedCall& c : m_recording.calls)
        if (c.pid == m_pid)
            calls.push_back(&c);
    // Thread by thread in order of start, an enclosing call before the calls within it.
    std::sort(calls.begin(), calls.end(), [](const RecordedCall* a, const RecordedCall* b) {
        return std::tie(a->thread, a->start, b->end) < std::tie(b->thread, b->start, a->end);
    });
    std::vector<const RecordedCall*> kept;
    kept.reserve(calls.size());
    const RecordedCall* runtime = nullptr;  // the thread's latest runtime call
    for (const RecordedCall* c : calls) {
        if (runtime && runtime->thread != c->thread)
            runtime = nullptr;
        if (!m_names.of(c->name).driver) {
            runtime = c;
        } else if (runtime && c->start >= runtime->start && c->end <= runtime->end) {
            // The runtime call's own work in the driver: its operations are the runtime call's.
            m_issuers.within(c->pid, c->correlation, runtime->correlation);
            m_folded.emplace_back(c, runtime);
            continue;
        }
        kept.push_back(c);
    }
    std::stable_sort(kept.begin(), kept.end(),
        [](const RecordedCall* a, const RecordedCall* b) { return a->start < b->start; });
    m_calls.reserve(kept.size());
    for (const RecordedCall* c : kept) {
        const auto [at, fresh] = m_state.laneOf.emplace(c->thread, std::uint32_t(m_state.threads.size()));
        if (fresh) {
            m_state.threads.push_back(c->thread);
            m_state.waits.push_back(false);
            m_state.ended.push_back(false);
        }
        m_calls.push_back({ c, &m_names.of(c->name), at->second });
    }
}

// The rule, decided on the records at hand where it needs them: auto and nvtx take the outermost repeated range once
// one repeats, nvtx:NAME the ranges NAME once one is marked. Until then (ranges marked, none repeating yet) the pass
// waits; at the end it decides as on a whole recording.
bool Matcher::decide(const IterationRule& rule, const std::vector<Range>& ranges)
{
    ProcessSplit& s = m_state;
    if (s.decided)
        return true;
    const std::string repeated = rule.by == IterationRule::By::Sync ? std::string() : outermostRepeated(ranges);
    const bool named = !rule.range.empty() &&
        std::any_of(ranges.begin(), ranges.end(), [&](const Range& r) { return r.name == rule.range; });
    if (rule.by == IterationRule::By::Sync) {
        s.decided = true;
    } else if (!rule.range.empty()) {  // nvtx:NAME
        s.decided = named || m_everything;
        s.range = named || !ranges.empty() ? rule.range : std::string();
        s.noneNamed = !named;
    } else if (!repeated.empty()) {
        s.decided = true;
        s.range = repeated;
    } else if (m_everything || (rule.by == IterationRule::By::Auto && ranges.empty())) {
        s.decided = true;  // by synchronizations
        s.noRanges = rule.by == IterationRule::By::Nvtx && ranges.empty();
        s.noneRepeats = rule.by == IterationRule::By::Nvtx && !ranges.empty();
    }
    return s.decided;
}

// Iterations between waits, lane by lane. A thread that never waits but in synchronous copies or memsets of its own
// (a loop of cudaMemcpy to the device) has those end its iterations.
std::vector<Piece> Matcher::bySync()
{
    std::unordered_map<std::uint64_t, std::uint32_t> copyKinds;  // (pid, correlation): its first copy's kind
    for (const RecordedOperation& op : m_recording.operations)
        if (op.pid == m_pid && op.kind == OperationKind::Copy)
            copyKinds.emplace(key(op.pid, m_issuers.resolved(op.pid, op.correlation)), op.copyKind);
    const auto endsByItself = [&](const Call& c) {
        if (c.name->role == CallRole::Wait)
            return true;
        if (c.name->role != CallRole::SyncCopy)
            return false;
        const auto kind = copyKinds.find(key(c.call->pid, c.call->correlation));
        return kind != copyKinds.end() && kind->second == kCopyToHost;  // the host waits for the GPU's results
    };
    for (const Call& c : m_calls)
        m_state.waits[c.lane] = m_state.waits[c.lane] || endsByItself(c) ||
            (c.name->role == CallRole::Poll && c.call->returnValue == kNotReady);

    std::vector<Piece> pieces;
    std::vector<std::size_t> current(m_state.threads.size(), SIZE_MAX);  // each lane's open piece
    std::vector<bool> polling(m_state.threads.size(), false);  // its polls found the GPU busy since its last wait
    for (const Call& c : m_calls) {
        std::size_t& open = current[c.lane];
        if (open == SIZE_MAX) {
            open = pieces.size();
            pieces.push_back({});
            pieces.back().lane = c.lane;
        }
        pieces[open].calls.push_back(&c);
        bool ends = endsByItself(c) || (c.name->role == CallRole::SyncCopy && !m_state.waits[c.lane]);
        if (c.name->role == CallRole::Poll) {
            if (c.call->returnValue == kNotReady)
                polling[c.lane] = true;
            else if (c.call->returnValue == 0 && polling[c.lane])
                ends = true;
        }
        if (ends) {
            pieces[open].endedByCopy = c.name->role == CallRole::SyncCopy;
            pieces[open].closed = true;
            polling[c.lane] = false;
            open = SIZE_MAX;
            m_state.ended[c.lane] = true;
        }
    }
    for (std::size_t lane = 0; lane < current.size(); ++lane)
        if (current[lane] != SIZE_MAX && m_state.ended[lane] && m_everything)
            pieces[current[lane]].unfinished = true;
    return pieces;
}

// Each range of the chosen name an iteration: the calls its thread began within it, or where its thread began none
// there, its process's.
std::vector<Piece> Matcher::byRanges(const std::vector<Range>& ranges)
{
    std::vector<const Range*> chosen;
    for (const Range& r : ranges)
        if (r.name == m_state.range)
            chosen.push_back(&r);
    std::sort(chosen.begin(), chosen.end(), [](const Range* a, const Range* b) { return a->from < b->from; });
    // The latest end of the ranges up to each: a search back from a call's start stops where none can hold it.
    std::vector<std::uint64_t> reach(chosen.size());
    for (std::size_t w = 0; w < chosen.size(); ++w)
        reach[w] = std::max(chosen[w]->to, w > 0 ? reach[w - 1] : 0);
    std::vector<Piece> pieces(chosen.size());
    for (std::size_t w = 0; w < chosen.size(); ++w) {
        pieces[w].from = chosen[w]->from;
        pieces[w].byRange = true;
        pieces[w].closed = chosen[w]->ended;
        const auto lane = m_state.laneOf.find(chosen[w]->thread);
        pieces[w].lane = lane != m_state.laneOf.end() ? lane->second : UINT32_MAX;
    }
    for (const Call& c : m_calls) {
        const std::uint64_t t = c.call->start;
        std::size_t w = std::size_t(std::upper_bound(chosen.begin(), chosen.end(), t,
                                        [](std::uint64_t at, const Range* r) { return at < r->from; }) -
            chosen.begin());
        std::optional<std::size_t> sameProcess;
        bool placed = false;
        while (w-- > 0 && reach[w] >= t) {
            const Range& r = *chosen[w];
            if (t > r.to)
                continue;
            if (r.thread == c.call->thread || r.thread == 0) {
                pieces[w].calls.push_back(&c);
                placed = true;
                break;
            }
            if (!sameProcess)
                sameProcess = w;
        }
        if (!placed && sameProcess)
            pieces[*sameProcess].calls.push_back(&c);
    }
    for (Piece& p : pieces) {
        std::stable_sort(p.calls.begin(), p.calls.end(),
            [](const Call* a, const Call* b) { return a->call->start < b->call->start; });
        if (p.lane == UINT32_MAX && !p.calls.empty())
            p.lane = p.calls.front()->lane;  // a range marked where no call was made: its calls' thread
    }
    if (m_everything)
        m_state.unendedRanges += std::size_t(std::count_if(chosen.begin(), chosen.end(),
            [](const Range* r) { return !r->ended; }));
    return pieces;
}

// The operations and events of the pieces' calls. One that carries no time, or that no call at hand issued and whose
// call would have come by now, is counted and taken.
void Matcher::takeOperations(std::vector<Piece>& pieces)
{
    for (std::size_t i = 0; i < m_recording.operations.size(); ++i) {
        const RecordedOperation& op = m_recording.operations[i];
        if (op.pid != m_pid)
            continue;
        if (op.start == 0 || op.end < op.start) {
            ++m_state.untimed;
            m_taken.operations[i] = true;
            continue;
        }
        const Issuer* issuer = m_issuers.issuerOf(op.pid, op.correlation);
        if (issuer && issuer->piece != SIZE_MAX) {
            pieces[issuer->piece].ops.push_back(&op);
        } else if (over(op.end)) {
            ++m_state.unmatched;
            m_taken.operations[i] = true;
        }
    }
    for (std::size_t i = 0; i < m_recording.events.size(); ++i) {
        const RecordedEvent& e = m_recording.events[i];
        if (e.pid != m_pid)
            continue;
        const Issuer* issuer = m_issuers.issuerOf(e.pid, e.correlation);
        if (issuer && issuer->piece != SIZE_MAX)
            pieces[issuer->piece].events.push_back(&e);
        else if (over(e.timestamp))
            m_taken.events[i] = true;
    }
}

// Which pieces are over: every one at the end; before it, one closed whose every record is older than `settled`,
// after every earlier piece of its thread (by synchronizations); one a synchronous copy ended only once the piece
// after it is over too (a wait on events after the copy may yet join it).
std::vector<bool> Matcher::finished(const std::vector<Piece>& pieces) const
{
    std::vector<bool> done(pieces.size(), m_everything);
    if (m_everything)
        return done;
    const auto candidate = [&](const Piece& p) {
        if (!p.closed)
            return false;
        std::uint64_t last = 0;
        for (const Call* c : p.calls)
            last = std::max(last, c->call->end);
        for (const RecordedOperation* op : p.ops)
            last = std::max(last, op->end);
        for (const RecordedEvent* e : p.events)
            last = std::max(last, e->timestamp);
        return over(last);
    };
    if (!m_state.range.empty()) {
        for (std::size_t p = 0; p < pieces.size(); ++p)
            done[p] = candidate(pieces[p]);
        return done;
    }
    std::unordered_map<std::uint32_t, std::vector<std::size_t>> lanes;
    for (std::size_t p = 0; p < pieces.size(); ++p)
        lanes[pieces[p].lane].push_back(p);
    for (const auto& [lane, order] : lanes) {
        for (std::size_t k = 0; k < order.size(); ++k) {
            const Piece& p = pieces[order[k]];
            const bool next = k + 1 < order.size() && candidate(pieces[order[k + 1]]);
            if (!candidate(p) || (p.endedByCopy && !next))
                break;
            done[order[k]] = true;
        }
    }
    return done;
}

// A piece over: its run kept (where it issued GPU work), its records taken.
void Matcher::keep(Piece& piece)
{
    std::uint64_t t0 = 0;
    if (std::optional<RunResult> run = runOfPiece(piece, m_issuers, m_state.tally, m_spanNames, t0)) {
        if (m_state.tally.copies.defaultStream) {
            const std::uint64_t onDefault = defaultStreamWork(piece, m_streamFlags, m_issuers);
            *m_state.tally.copies.defaultStream += onDefault;
            m_state.tally.copies.defaultStreamIterations += onDefault > 0 ? 1 : 0;
        }
        int streams = 0;
        for (const Span& s : run->spans)
            streams = onGpu(s.kind) ? std::max(streams, s.stream + 1) : streams;
        const bool wide = streams > kMaxStreams || run->totalMs(SpanKind::Kernel) > kMaxTimeMs ||
            run->totalMs(SpanKind::H2D) > kMaxTimeMs || run->totalMs(SpanKind::D2H) > kMaxTimeMs;
        if (wide || m_state.spans + run->spans.size() + run->traced.size() > m_state.spanBudget) {
            // Past the budget, or more streams or GPU time of a kind than a report holds: the run's totals alone, as
            // the statistics take them.
            Span submit, wait;
            submit.kind = SpanKind::Submit;
            submit.stream = int(piece.lane);
            submit.endMs = run->cpuSubmitMs();
            wait.kind = SpanKind::Wait;
            wait.stream = int(piece.lane);
            wait.endMs = run->waitMs();
            run->spans = { submit, wait };
            run->traced.clear();
            ++(wide ? m_state.wide : m_state.summarized);
        }
        m_state.spans += run->spans.size() + run->traced.size();
        m_state.runs.push_back(*run);
        m_state.t0.push_back(t0);
        m_state.lane.push_back(piece.lane);
        m_state.kernel.push_back(run->has(SpanKind::Kernel));
        m_state.unfinished.push_back(piece.unfinished);
    }
    for (const Call* c : piece.calls)
        take(c->call);
    for (const RecordedOperation* op : piece.ops)
        m_taken.operations[std::size_t(op - m_recording.operations.data())] = true;
    for (const RecordedEvent* e : piece.events)
        m_taken.events[std::size_t(e - m_recording.events.data())] = true;
}

// The marks of ranges that ended before `before`, and instants before it: no piece to come needs them.
void Matcher::takeMarks(std::uint64_t before)
{
    std::unordered_map<std::uint32_t, std::size_t> open;  // id: its start's place
    for (std::size_t i = 0; i < m_recording.marks.size(); ++i) {
        const RecordedMark& m = m_recording.marks[i];
        if (m.pid != m_pid)
            continue;
        const bool old = m_everything || m.timestamp < before;
        if (m.kind == MarkKind::Start) {
            open[m.id] = i;
        } else if (m.kind == MarkKind::End) {
            const auto start = open.find(m.id);
            if (start != open.end()) {
                m_taken.marks[start->second] = m_taken.marks[start->second] || old;
                open.erase(start);
            }
            m_taken.marks[i] = old;
        } else {
            m_taken.marks[i] = old;
        }
    }
    if (m_everything)
        for (const auto& [id, at] : open)
            m_taken.marks[at] = true;
}

void Matcher::pass(const IterationRule& rule)
{
    takeCalls();
    std::uint64_t lastTime = 0;
    for (const Call& c : m_calls)
        lastTime = std::max(lastTime, c.call->end);
    const std::vector<Range> ranges = rangesOf(m_recording, m_pid, lastTime);
    if (!decide(rule, ranges))
        return;  // ranges are marked and none repeats yet: the next pass decides
    for (const Call& c : m_calls)
        m_state.waited = m_state.waited || c.name->role == CallRole::Wait || c.name->role == CallRole::SyncCopy ||
            c.name->role == CallRole::Poll;
    std::vector<Piece> pieces = m_state.range.empty() ? bySync() : byRanges(ranges);
    for (std::size_t p = 0; p < pieces.size(); ++p)
        for (const Call* c : pieces[p].calls)
            m_issuers.issued(c->call->pid, c->call->correlation, Issuer { c, p });
    takeOperations(pieces);
    if (m_state.range.empty())
        mergeEventWaits(pieces);

    // Each stream's kind as the program made it: which one is the legacy default stream.
    for (const RecordedStream& st : m_recording.streams)
        if (st.pid == m_pid)
            m_streamFlags[{ st.pid, st.context, st.stream }] = st.flag;
    if (!m_streamFlags.empty() && !m_state.tally.copies.defaultStream)
        m_state.tally.copies.defaultStream = 0;

    const std::vector<bool> done = finished(pieces);
    std::uint64_t firstOpen = m_everything ? ~std::uint64_t(0) : m_settled;  // where the pieces still open begin
    for (std::size_t p = 0; p < pieces.size(); ++p) {
        if (done[p])
            keep(pieces[p]);
        else if (pieces[p].byRange)
            firstOpen = std::min(firstOpen, pieces[p].from);
        else if (!pieces[p].calls.empty())
            firstOpen = std::min(firstOpen, pieces[p].calls.front()->call->start);
    }
    // Calls in no range (outside every iteration), and the driver calls within runtime calls taken.
    std::unordered_map<const RecordedCall*, std::size_t> inPiece;
    for (std::size_t p = 0; p < pieces.size(); ++p)
        for (const Call* c : pieces[p].calls)
            inPiece.emplace(c->call, p);
    for (const Call& c : m_calls)
        if (inPiece.count(c.call) == 0 && over(c.call->end) && c.call->start < firstOpen)
            take(c.call);
    for (const auto& [driver, runtime] : m_folded)
        if (m_taken.calls[std::size_t(runtime - m_recording.calls.data())])
            take(driver);
    takeMarks(firstOpen);
}

template <typename T>
void erase(std::vector<T>& records, const std::vector<bool>& taken)
{
    std::size_t kept = 0;
    for (std::size_t i = 0; i < records.size(); ++i)
        if (!taken[i])
            records[kept++] = std::move(records[i]);
    records.resize(kept);
}

}  // namespace

IterationSplitter::IterationSplitter(IterationRule rule, std::size_t spanBudget)
    : m_rule(std::move(rule)), m_spanBudget(spanBudget), m_names(std::make_unique<SpanNames>())
{
}
IterationSplitter::~IterationSplitter() = default;

void IterationSplitter::take(Recording& recording, bool everything)
{
    // A pass goes over every record at hand. Where most of them stay (a thread that never waits, a long stretch
    // without a wait), a pass at every call would make the splitting quadratic: the next pass waits until the records
    // at hand have doubled since the last one left them, so that they are gone over a few times in all.
    const auto held = [&recording] {
        return recording.calls.size() + recording.operations.size() + recording.events.size() +
            recording.marks.size();
    };
    if (!everything && held() < 2 * m_heldAfterPass)
        return;
    Taken taken { std::vector<bool>(recording.calls.size()), std::vector<bool>(recording.operations.size()),
        std::vector<bool>(recording.events.size()), std::vector<bool>(recording.marks.size()) };
    for (const auto& [pid, latest] : recording.latestNs) {
        std::unique_ptr<ProcessSplit>& state = m_processes[pid];
        if (!state) {
            state = std::make_unique<ProcessSplit>();
            state->spanBudget = m_spanBudget;
        }
        const std::uint64_t settled = latest > kSettleNs ? latest - kSettleNs : 0;
        Matcher(recording, pid, *state, *m_names, taken, settled, everything).pass(m_rule);
    }
    erase(recording.calls, taken.calls);
    erase(recording.operations, taken.operations);
    erase(recording.events, taken.events);
    erase(recording.marks, taken.marks);
    // Waits on the GPU's side are read, not split: let them go with the rest.
    std::size_t kept = 0;
    for (RecordedSync& s : recording.syncs) {
        const auto latest = recording.latestNs.find(s.pid);
        const bool old = everything || latest == recording.latestNs.end() || s.end + kSettleNs <= latest->second;
        if (!old)
            recording.syncs[kept++] = s;
    }
    recording.syncs.resize(kept);
    m_heldAfterPass = held();
}

}  // namespace asyncscope
