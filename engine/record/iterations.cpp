#include "engine/record/iterations.hpp"

#include "engine/record/iteration_piece.hpp"
#include "engine/record/nvtx_ranges.hpp"

#include "engine/model/display_text.hpp"
#include "engine/model/trace_records.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace asyncscope {

namespace {

using namespace iteration;

constexpr std::uint32_t kCopyToDevice = 1;    // CUPTI_ACTIVITY_MEMCPY_KIND_HTOD
constexpr std::uint32_t kCopyToHost = 2;      // CUPTI_ACTIVITY_MEMCPY_KIND_DTOH
constexpr std::uint32_t kPageable = 1;        // CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE
constexpr std::uint32_t kNotReady = 600;      // cudaErrorNotReady and CUDA_ERROR_NOT_READY: a poll found the GPU busy

// Everything the split works on, for one process or all.
class Matcher {
public:
    Matcher(const Recording& recording, std::optional<std::uint32_t> pid) : m_recording(recording), m_pid(pid) {}

    RecordedRuns split(const IterationRule& rule);

private:
    bool mine(std::uint32_t pid) const { return !m_pid || *m_pid == pid; }
    void takeCalls();
    std::uint32_t resolve(std::uint32_t pid, std::uint32_t correlation) const;
    std::vector<Piece> bySync();
    std::vector<Piece> byRanges(const std::vector<Range>& ranges, std::string_view name);
    void takeOperations(std::vector<Piece>& pieces, const std::unordered_map<std::uint64_t, std::size_t>& pieceOf);

    const Recording& m_recording;
    std::optional<std::uint32_t> m_pid;
    CallNames m_names;
    std::vector<Call> m_calls;  // in order of start, driver calls within a runtime call's left out
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_lanes;  // (pid, thread) by first call
    Aliases m_aliases;
    Issuers m_issuers;
    std::unordered_map<std::uint64_t, std::uint32_t> m_copyKinds;  // (pid, correlation): its first copy's kind
    RecordedRuns m_out;
    std::size_t m_unmatched = 0, m_untimed = 0;
    PieceTally m_tally;
};

void Matcher::takeCalls()
{
    std::vector<const RecordedCall*> calls;
    calls.reserve(m_recording.calls.size());
    for (const RecordedCall& c : m_recording.calls)
        if (mine(c.pid))
            calls.push_back(&c);
    // Thread by thread in order of start, an enclosing call before the calls within it.
    std::sort(calls.begin(), calls.end(), [](const RecordedCall* a, const RecordedCall* b) {
        return std::tie(a->pid, a->thread, a->start, b->end) < std::tie(b->pid, b->thread, b->start, a->end);
    });
    std::vector<const RecordedCall*> kept;
    kept.reserve(calls.size());
    const RecordedCall* runtime = nullptr;  // the thread's latest runtime call
    for (const RecordedCall* c : calls) {
        if (runtime && (runtime->pid != c->pid || runtime->thread != c->thread))
            runtime = nullptr;
        const CallName& name = m_names.of(c->name);
        if (!name.driver) {
            runtime = c;
        } else if (runtime && c->start >= runtime->start && c->end <= runtime->end) {
            // The runtime call's own work in the driver: its operations are the runtime call's.
            if (c->correlation != runtime->correlation)
                m_aliases.emplace(key(c->pid, c->correlation), runtime->correlation);
            continue;
        }
        kept.push_back(c);
    }
    std::stable_sort(kept.begin(), kept.end(), [](const RecordedCall* a, const RecordedCall* b) { return a->start < b->start; });
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> lanes;
    m_calls.reserve(kept.size());
    for (const RecordedCall* c : kept) {
        const auto [at, fresh] = lanes.emplace(std::pair { c->pid, c->thread }, std::uint32_t(m_lanes.size()));
        if (fresh)
            m_lanes.push_back(at->first);
        m_calls.push_back({ c, &m_names.of(c->name), at->second });
    }
    m_issuers.reserve(m_calls.size());
    for (const Call& c : m_calls)
        m_issuers.emplace(key(c.call->pid, c.call->correlation), &c);
}

std::uint32_t Matcher::resolve(std::uint32_t pid, std::uint32_t correlation) const
{
    return iteration::resolve(m_aliases, pid, correlation);
}

// Iterations between waits, lane by lane. A thread that never waits but in synchronous copies or memsets of its own
// (a loop of cudaMemcpy to the device) has those end its iterations. A wait on nothing but events recorded after a
// synchronous copy to the host (cudaEventRecord(stop); cudaEventSynchronize(stop)) belongs to the iteration that copy
// ended: the events time it (mergeEventWaits).
std::vector<Piece> Matcher::bySync()
{
    for (const RecordedOperation& op : m_recording.operations)
        if (mine(op.pid) && op.kind == OperationKind::Copy)
            m_copyKinds.emplace(key(op.pid, resolve(op.pid, op.correlation)), op.copyKind);
    const auto endsByItself = [this](const Call& c) {
        if (c.name->role == CallRole::Wait)
            return true;
        if (c.name->role != CallRole::SyncCopy)
            return false;
        const auto kind = m_copyKinds.find(key(c.call->pid, c.call->correlation));
        return kind != m_copyKinds.end() && kind->second == kCopyToHost;  // the host waits for the GPU's results
    };
    std::vector<bool> waits(m_lanes.size(), false);  // the lane waits otherwise than in other synchronous copies
    for (const Call& c : m_calls)
        waits[c.lane] = waits[c.lane] || endsByItself(c) ||
            (c.name->role == CallRole::Poll && c.call->returnValue == kNotReady);

    std::vector<Piece> pieces;
    std::vector<std::size_t> current(m_lanes.size(), SIZE_MAX);  // each lane's open piece
    std::vector<bool> polling(m_lanes.size(), false);             // its polls found the GPU busy since its last wait
    std::vector<bool> ended(m_lanes.size(), false);               // a wait of its own ended one of its pieces
    for (const Call& c : m_calls) {
        std::size_t& open = current[c.lane];
        if (open == SIZE_MAX) {
            open = pieces.size();
            pieces.push_back({});
            pieces.back().lane = c.lane;
        }
        pieces[open].calls.push_back(&c);
        bool ends = endsByItself(c) || (c.name->role == CallRole::SyncCopy && !waits[c.lane]);
        if (c.name->role == CallRole::Poll) {
            if (c.call->returnValue == kNotReady)
                polling[c.lane] = true;
            else if (c.call->returnValue == 0 && polling[c.lane])
                ends = true;
        }
        if (ends) {
            pieces[open].endedByCopy = c.name->role == CallRole::SyncCopy;
            polling[c.lane] = false;
            open = SIZE_MAX;
            ended[c.lane] = true;
        }
    }
    for (std::size_t lane = 0; lane < m_lanes.size(); ++lane)
        if (current[lane] != SIZE_MAX && ended[lane])
            pieces[current[lane]].unfinished = true;
    return pieces;
}

// Each range of `name` an iteration: the calls its thread began within it, or where its thread began none there, its
// process's.
void mergeEventWaits(std::vector<Piece>& pieces)
{
    std::unordered_map<std::uint32_t, std::size_t> last;  // each lane's piece before
    for (std::size_t p = 0; p < pieces.size(); ++p) {
        Piece& piece = pieces[p];
        const auto before = last.find(piece.lane);
        if (before != last.end() && pieces[before->second].endedByCopy && piece.ops.empty() && !piece.events.empty() &&
            !piece.unfinished) {
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

std::vector<Piece> Matcher::byRanges(const std::vector<Range>& ranges, std::string_view name)
{
    std::vector<const Range*> chosen;
    for (const Range& r : ranges)
        if (r.name == name)
            chosen.push_back(&r);
    std::sort(chosen.begin(), chosen.end(), [](const Range* a, const Range* b) { return a->from < b->from; });
    // The latest end of the ranges up to each: a search back from a call's start stops where none can hold it.
    std::vector<std::uint64_t> reach(chosen.size());
    for (std::size_t w = 0; w < chosen.size(); ++w)
        reach[w] = std::max(chosen[w]->to, w > 0 ? reach[w - 1] : 0);
    std::vector<Piece> pieces(chosen.size());
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> laneOf;
    for (std::uint32_t l = 0; l < m_lanes.size(); ++l)
        laneOf.emplace(m_lanes[l], l);
    for (std::size_t w = 0; w < chosen.size(); ++w) {
        pieces[w].from = chosen[w]->from;
        pieces[w].byRange = true;
        const auto lane = laneOf.find({ chosen[w]->pid, chosen[w]->thread });
        pieces[w].lane = lane != laneOf.end() ? lane->second : std::uint32_t(m_lanes.size());
    }
    std::vector<const Call*> unplaced;
    for (const Call& c : m_calls) {
        const std::uint64_t t = c.call->start;
        std::size_t w = std::size_t(std::upper_bound(chosen.begin(), chosen.end(), t,
                                        [](std::uint64_t at, const Range* r) { return at < r->from; }) -
            chosen.begin());
        std::optional<std::size_t> sameProcess;
        bool placed = false;
        while (w-- > 0 && reach[w] >= t) {
            const Range& r = *chosen[w];
            if (r.pid != c.call->pid || t > r.to)
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
        if (p.lane == m_lanes.size() && !p.calls.empty())
            p.lane = p.calls.front()->lane;  // a range marked where no call was made: its calls' thread
    }
    return pieces;
}

void Matcher::takeOperations(std::vector<Piece>& pieces, const std::unordered_map<std::uint64_t, std::size_t>& pieceOf)
{
    for (const RecordedOperation& op : m_recording.operations) {
        if (!mine(op.pid))
            continue;
        if (op.start == 0 || op.end < op.start) {
            ++m_untimed;
            continue;
        }
        const auto found = pieceOf.find(key(op.pid, resolve(op.pid, op.correlation)));
        if (found == pieceOf.end()) {
            ++m_unmatched;
            continue;
        }
        pieces[found->second].ops.push_back(&op);
    }
    for (const RecordedEvent& e : m_recording.events) {
        if (!mine(e.pid))
            continue;
        if (const auto found = pieceOf.find(key(e.pid, resolve(e.pid, e.correlation))); found != pieceOf.end())
            pieces[found->second].events.push_back(&e);
    }
}

RecordedRuns Matcher::split(const IterationRule& rule)
{
    takeCalls();
    std::uint64_t lastTime = 0;
    for (const Call& c : m_calls)
        lastTime = std::max(lastTime, c.call->end);

    // The iterations, by the rule asked for.
    const std::vector<Range> ranges = rangesOf(m_recording, m_pid, lastTime);
    std::string range = rule.range;
    if (rule.by != IterationRule::By::Sync && range.empty())
        range = outermostRepeated(ranges);
    if (rule.by == IterationRule::By::Nvtx && range.empty())
        m_out.notes.push_back(ranges.empty() ? "The program marked no NVTX ranges: the runs are split at host "
                                               "synchronizations instead."
                                             : "No NVTX range repeats: the runs are split at host synchronizations "
                                               "instead.");
    std::vector<Piece> pieces;
    if (rule.by != IterationRule::By::Sync && !range.empty()) {
        const std::size_t unended = std::size_t(std::count_if(ranges.begin(), ranges.end(),
            [&](const Range& r) { return r.name == range && !r.ended; }));
        pieces = byRanges(ranges, range);
        m_out.how = "NVTX range '" + cutText(range, 80) + "'";
        if (pieces.empty())
            m_out.notes.push_back("No NVTX range is named '" + cutText(range, 80) + "'.");
        if (unended > 0)
            m_out.notes.push_back(std::to_string(unended) + " range(s) '" + cutText(range, 80) +
                "' never ended: each runs to the end of the recording.");
    }
    if (pieces.empty() && (rule.by != IterationRule::By::Nvtx || range.empty() || ranges.empty())) {
        pieces = bySync();
        m_out.how = "host synchronizations";
    }
    std::unordered_map<std::uint64_t, std::size_t> pieceOf;  // (pid, correlation): the piece its call is in
    pieceOf.reserve(m_calls.size());
    for (std::size_t p = 0; p < pieces.size(); ++p)
        for (const Call* c : pieces[p].calls)
            pieceOf.emplace(key(c->call->pid, c->call->correlation), p);
    takeOperations(pieces, pieceOf);
    if (m_out.how == "host synchronizations")
        mergeEventWaits(pieces);

    // A program that never waits: each thread's whole recording one run.
    const bool waited = m_out.how != "host synchronizations" ||
        std::any_of(m_calls.begin(), m_calls.end(), [](const Call& c) {
            return c.name->role == CallRole::Wait || c.name->role == CallRole::SyncCopy || c.name->role == CallRole::Poll;
        });
    if (!waited) {
        m_out.how = "the whole recording";
        m_out.notes.push_back("The program neither repeats an NVTX range nor waits for the GPU: its whole recording is "
                              "one run.");
    }

    // Each stream's kind as the program made it: which one is the legacy default stream.
    StreamFlags streamFlags;
    for (const RecordedStream& st : m_recording.streams)
        if (mine(st.pid))
            streamFlags[{ st.pid, st.context, st.stream }] = st.flag;
    if (!streamFlags.empty())
        m_tally.copies.defaultStream = 0;

    struct Made {
        std::uint64_t t0;
        std::uint32_t lane;
        RunResult run;
        bool unfinished;
    };
    std::vector<Made> made;
    for (Piece& piece : pieces) {
        std::uint64_t t0 = 0;
        std::optional<RunResult> run = runOfPiece(piece, m_aliases, m_tally, t0);
        if (!run)
            continue;
        if (m_tally.copies.defaultStream) {
            const std::uint64_t onDefault = defaultStreamWork(piece, streamFlags, m_issuers);
            *m_tally.copies.defaultStream += onDefault;
            m_tally.copies.defaultStreamIterations += onDefault > 0 ? 1 : 0;
        }
        made.push_back({ t0, piece.lane, std::move(*run), piece.unfinished });
    }
    std::stable_sort(made.begin(), made.end(), [](const Made& a, const Made& b) { return a.t0 < b.t0; });

    // The lanes that made runs, numbered in the order their first run began; a run's CPU spans on its lane's number.
    // Iterations of a lane before its first that runs a kernel are its set-up (allocations, memsets, first copies)
    // where the lane runs kernels later: kept and shown as warm-up runs, left out of the statistics.
    std::vector<bool> laneKernels(m_lanes.size(), false);
    for (const Made& m : made)
        laneKernels[m.lane] = laneKernels[m.lane] || m.run.has(SpanKind::Kernel);
    std::vector<int> laneNumber(m_lanes.size(), -1);
    std::vector<bool> kernelSeen;
    std::size_t setUp = 0, unfinished = 0;
    if (!made.empty()) {
        m_out.originNs = made.front().t0;
        m_out.originPid = m_lanes[made.front().lane].first;
    }
    m_out.runs.reserve(made.size());
    for (Made& m : made) {
        int& number = laneNumber[m.lane];
        if (number < 0) {
            number = int(m_out.threads.size());
            m_out.threads.push_back({ m_lanes[m.lane].first, m_lanes[m.lane].second, 0 });
            kernelSeen.push_back(false);
        }
        ++m_out.threads[std::size_t(number)].runs;
        for (std::vector<Span>* list : { &m.run.spans, &m.run.traced })
            for (Span& s : *list)
                if (!onGpu(s.kind))
                    s.stream = number;
        kernelSeen[std::size_t(number)] = kernelSeen[std::size_t(number)] || m.run.has(SpanKind::Kernel);
        if (laneKernels[m.lane] && !kernelSeen[std::size_t(number)]) {
            m.run.warmup = true;
            ++setUp;
        }
        if (m.unfinished && !m.run.warmup) {
            m.run.warmup = true;
            ++unfinished;
        }
        m.run.index = int(m_out.runs.size());
        m.run.startMs = double(m.t0 - m_out.originNs) / 1e6;
        m_out.runs.push_back(std::move(m.run));
    }
    if (unfinished > 0)
        m_out.notes.push_back(std::to_string(unfinished) + " iteration(s) never ended with a wait (the program ended, "
            "died or was stopped first): shown as warm-up runs and left out of the statistics.");
    if (setUp > 0)
        m_out.notes.push_back("The first " + std::to_string(setUp) + " iteration(s) ran no kernel (the program's "
            "set-up): shown as warm-up runs and left out of the statistics.");
    if (m_out.threads.size() > 1 && m_out.how == "host synchronizations")
        m_out.how = "host synchronizations, thread by thread";

    if (m_out.threads.size() > 1) {
        std::string each;
        for (const ProgramThread& t : m_out.threads)
            each += (each.empty() ? "" : ", ") + std::to_string(t.runs) + " of thread " + std::to_string(t.thread) +
                (m_pid ? std::string() : " of process " + std::to_string(t.pid));
        m_out.notes.push_back("Iterations were found thread by thread (a wait ends only its own thread's): " + each +
            ".");
    }
    if (m_untimed > 0)
        m_out.notes.push_back(std::to_string(m_untimed) + " GPU operation(s) carried no time and are left out.");
    if (m_unmatched > 0)
        m_out.notes.push_back(std::to_string(m_unmatched) + " GPU operation(s) were issued by calls outside every "
            "iteration (or not recorded) and are left out.");
    if (!m_tally.undrawn.empty()) {
        std::string each;
        for (const auto& [what, count] : m_tally.undrawn)
            each += (each.empty() ? "" : ", ") + std::to_string(count) + " " + what;
        m_out.notes.push_back("Operations that count in GPU time but have no span of their own: " + each + ".");
    }
    for (const RecordedProcess& p : m_recording.processes) {
        if (!mine(p.pid) || p.exited)
            continue;
        m_out.notes.push_back("Process " + std::to_string(p.pid) + " (" + cutText(p.executable, 120) +
            (p.signal != 0 ? ") died on signal " + std::to_string(p.signal) +
                    ": every record until then was handed over."
                           : ") did not exit normally: records of its last 100 ms may be missing."));
    }
    if (m_recording.unkept > 0)
        m_out.notes.push_back(std::to_string(m_recording.unkept) + " record(s) past the recorder's budget were counted, "
            "not kept: the runs end where the budget was reached. Record fewer iterations (--duration) to keep them all.");
    for (const std::string& note : m_recording.notes)
        m_out.notes.push_back("The recording says: " + cutText(note, 300));
    m_out.copies = m_tally.copies;
    return std::move(m_out);
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

int threadPlaceOf(const RunResult& run)
{
    for (const Span& s : run.spans)
        if (s.kind == SpanKind::Submit)
            return s.stream;
    return 0;
}

RecordedRuns splitIterations(const Recording& recording, const IterationRule& rule, std::optional<std::uint32_t> pid)
{
    return Matcher(recording, pid).split(rule);
}

std::vector<std::uint32_t> processesWithWork(const Recording& recording)
{
    std::unordered_set<std::uint32_t> working;
    for (const RecordedOperation& op : recording.operations)
        working.insert(op.pid);
    std::vector<std::uint32_t> pids;
    for (const RecordedProcess& p : recording.processes)
        if (working.erase(p.pid) > 0)
            pids.push_back(p.pid);
    std::vector<std::uint32_t> rest(working.begin(), working.end());  // operations of a process with no process line
    std::sort(rest.begin(), rest.end());
    pids.insert(pids.end(), rest.begin(), rest.end());
    return pids;
}

}  // namespace asyncscope
