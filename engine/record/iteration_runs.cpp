// The runs IterationSplitter split off, as a report's: in the order they began over every thread of the processes
// asked for, each thread numbered in the order its first run began, the set-up and unfinished iterations as warm-ups,
// and the notes that say what the runs leave out.
#include "engine/record/iterations.hpp"

#include "engine/model/record_rules.hpp"
#include "engine/record/iteration_split.hpp"

#include "engine/model/display_text.hpp"
#include "engine/model/record_rules.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_set>

namespace asyncscope {

using iteration::ProcessSplit;

namespace {

// "host synchronizations", "NVTX range 'step'", "the whole recording": how the processes' runs were found.
std::string howOf(const std::vector<std::pair<std::uint32_t, ProcessSplit*>>& chosen)
{
    std::string how = "host synchronizations";
    bool waited = false;
    for (const auto& [pid, s] : chosen) {
        waited = waited || s->waited || !s->range.empty();
        if (!s->range.empty())
            how = "NVTX range '" + cutText(s->range, 80) + "'";
    }
    return waited ? how : "the whole recording";
}

}  // namespace

RecordedRuns IterationSplitter::runsOf(const Recording& recording, std::optional<std::uint32_t> pid)
{
    RecordedRuns out;
    out.names = m_names->names();
    std::vector<std::pair<std::uint32_t, ProcessSplit*>> chosen;
    for (const auto& [p, state] : m_processes)
        if (!pid || *pid == p)
            chosen.emplace_back(p, state.get());
    out.how = howOf(chosen);

    // Every run, in the order they began.
    struct Made {
        std::uint64_t t0;
        std::size_t process, at;
    };
    std::vector<Made> made;
    for (std::size_t c = 0; c < chosen.size(); ++c)
        for (std::size_t i = 0; i < chosen[c].second->runs.size(); ++i)
            made.push_back({ chosen[c].second->t0[i], c, i });
    std::stable_sort(made.begin(), made.end(), [](const Made& a, const Made& b) { return a.t0 < b.t0; });

    // The lanes that made runs, numbered in the order their first run began; a run's CPU spans on its lane's number.
    // Iterations of a lane before its first that runs a kernel are its set-up (allocations, memsets, first copies)
    // where the lane runs kernels later: kept and shown as warm-up runs, left out of the statistics.
    std::map<std::pair<std::size_t, std::uint32_t>, bool> laneKernels;  // (process, lane): runs a kernel
    for (const Made& m : made)
        laneKernels[{ m.process, chosen[m.process].second->lane[m.at] }] |= chosen[m.process].second->kernel[m.at];
    std::map<std::pair<std::size_t, std::uint32_t>, int> laneNumber;
    std::vector<bool> kernelSeen;
    std::size_t setUp = 0, unfinished = 0;
    if (!made.empty()) {
        out.originNs = made.front().t0;
        out.originPid = chosen[made.front().process].first;
    }
    // One process's runs made in the order they began are numbered and marked where they are; others are copied in
    // order.
    // Iterations that began later than a report's times reach (kMaxTimeMs after the first) are left out.
    const auto tooLate = [&](const Made& m) { return double(m.t0 - out.originNs) / 1e6 > kMaxTimeMs; };
    const std::size_t late = std::size_t(std::count_if(made.begin(), made.end(), tooLate));
    const bool inPlace = chosen.size() == 1 && late == 0 &&
        std::all_of(made.begin(), made.end(), [&](const Made& m) { return m.at == std::size_t(&m - made.data()); });
    if (!inPlace)
        out.runs.reserve(made.size());
    for (const Made& m : made) {
        if (tooLate(m))
            continue;
        ProcessSplit& s = *chosen[m.process].second;
        const std::pair<std::size_t, std::uint32_t> lane { m.process, s.lane[m.at] };
        const auto [at, fresh] = laneNumber.emplace(lane, int(out.threads.size()));
        if (fresh) {
            out.threads.push_back({ chosen[m.process].first, s.threads[lane.second], 0 });
            kernelSeen.push_back(false);
        }
        const int number = at->second;
        ++out.threads[std::size_t(number)].runs;
        kernelSeen[std::size_t(number)] = kernelSeen[std::size_t(number)] || s.kernel[m.at];
        bool warmup = false;
        if (laneKernels[lane] && !kernelSeen[std::size_t(number)]) {
            warmup = true;
            ++setUp;
        }
        if (s.unfinished[m.at] && !warmup) {
            warmup = true;
            ++unfinished;
        }
        const int index = int(inPlace ? m.at : out.runs.size());
        const double startMs = double(m.t0 - out.originNs) / 1e6;
        if (inPlace && std::uint32_t(number) == lane.second) {  // its CPU spans already on their lane's number
            s.runs.setPlace(m.at, index, warmup, startMs);
            continue;
        }
        RunResult run = s.runs[m.at];
        for (std::vector<Span>* list : { &run.spans, &run.traced })
            for (Span& span : *list)
                if (!onGpu(span.kind))
                    span.stream = number;
        run.warmup = warmup;
        run.index = index;
        run.startMs = startMs;
        if (inPlace)
            s.runs.set(m.at, run);
        else
            out.runs.push_back(run);
    }
    if (inPlace)
        out.runs = std::move(chosen.front().second->runs);
    for (const auto& [p, s] : chosen)
        s->runs.clear();  // handed over
    out.runs.shrink_to_fit();

    // What the runs leave out or could not tell.
    std::size_t untimed = 0, unmatched = 0, summarized = 0, wide = 0;
    for (const auto& [p, s] : chosen) {
        summarized += s->summarized;
        wide += s->wide;
        if (s->noRanges || s->noneRepeats)
            out.notes.push_back(s->noRanges ? "The program marked no NVTX ranges: the runs are split at host "
                                              "synchronizations instead."
                                            : "No NVTX range repeats: the runs are split at host synchronizations "
                                              "instead.");
        if (s->noneNamed)
            out.notes.push_back("No NVTX range is named '" + cutText(s->range, 80) + "'.");
        if (s->unendedRanges > 0)
            out.notes.push_back(std::to_string(s->unendedRanges) + " range(s) '" + cutText(s->range, 80) +
                "' never ended: each runs to the end of the recording.");
        untimed += s->untimed;
        unmatched += s->unmatched;
    }
    if (out.how == "the whole recording")
        out.notes.push_back("The program neither repeats an NVTX range nor waits for the GPU: its whole recording is "
                            "one run.");
    if (unfinished > 0)
        out.notes.push_back(std::to_string(unfinished) + " iteration(s) never ended with a wait (the program ended, "
            "died or was stopped first): shown as warm-up runs and left out of the statistics.");
    if (setUp > 0)
        out.notes.push_back("The first " + std::to_string(setUp) + " iteration(s) ran no kernel (the program's "
            "set-up): shown as warm-up runs and left out of the statistics.");
    if (out.threads.size() > 1 && out.how == "host synchronizations")
        out.how = "host synchronizations, thread by thread";
    if (out.threads.size() > 1) {
        std::string each;
        for (const ProgramThread& t : out.threads)
            each += (each.empty() ? "" : ", ") + std::to_string(t.runs) + " of thread " + std::to_string(t.thread) +
                (pid ? std::string() : " of process " + std::to_string(t.pid));
        out.notes.push_back("Iterations were found thread by thread (a wait ends only its own thread's): " + each +
            ".");
    }
    if (untimed > 0)
        out.notes.push_back(std::to_string(untimed) + " GPU operation(s) carried no time and are left out.");
    std::size_t outOfTime = 0;
    for (const auto& [p, s] : chosen)
        outOfTime += s->tally.outOfTime;
    if (outOfTime > 0)
        out.notes.push_back(std::to_string(outOfTime) + " record(s) carried times outside their iteration's (a clock "
            "gone wrong, or a damaged recording) and are left out.");
    if (unmatched > 0)
        out.notes.push_back(std::to_string(unmatched) + " GPU operation(s) were issued by calls outside every "
            "iteration (or not recorded) and are left out.");
    std::map<std::string, std::size_t> undrawn;
    for (const auto& [p, s] : chosen)
        for (const auto& [what, count] : s->tally.undrawn)
            undrawn[what] += count;
    if (!undrawn.empty()) {
        std::string each;
        for (const auto& [what, count] : undrawn)
            each += (each.empty() ? "" : ", ") + std::to_string(count) + " " + what;
        out.notes.push_back("Operations that count in GPU time but have no span of their own: " + each + ".");
    }
    for (const RecordedProcess& p : recording.processes) {
        if ((pid && *pid != p.pid) || p.exited)
            continue;
        out.notes.push_back("Process " + std::to_string(p.pid) + " (" + cutText(p.executable, 120) +
            (p.signal != 0 ? ") died on signal " + std::to_string(p.signal) +
                    ": every record until then was handed over."
                           : ") did not exit normally: records of its last 100 ms may be missing."));
    }
    if (summarized > 0)
        out.notes.push_back(std::to_string(summarized) + " run(s) past the recorder's memory budget keep their totals "
            "alone (GPU time, CPU submit time, waits), not their operations: the timeline shows them as such.");
    if (wide > 0)
        out.notes.push_back(std::to_string(wide) + " run(s) used more than " + std::to_string(kMaxStreams) +
            " streams (or more than 1e9 ms of one kind of GPU work), more than a report holds: they keep their "
            "totals alone (GPU time, CPU submit time, waits).");
    if (late > 0)
        out.notes.push_back(std::to_string(late) + " iteration(s) began more than 1e9 ms (11.6 days) after the "
            "first, later than a report's times reach: left out.");
    if (recording.unkept > 0)
        out.notes.push_back(std::to_string(recording.unkept) + " record(s) past the recorder's budget were counted, "
            "not kept: the runs end where the budget was reached. Record fewer iterations (--duration) to keep them "
            "all.");
    for (const std::string& note : recording.notes)
        out.notes.push_back("The recording says: " + cutText(note, 300));
    for (const auto& [p, s] : chosen) {
        const ProgramCopies& c = s->tally.copies;
        out.copies.pageable += c.pageable;
        out.copies.pageableBytes = addCounts(out.copies.pageableBytes, c.pageableBytes);
        out.copies.pageableMs += c.pageableMs;
        out.copies.synchronous += c.synchronous;
        out.copies.synchronousMs += c.synchronousMs;
        if (c.defaultStream)
            out.copies.defaultStream = out.copies.defaultStream.value_or(0) + *c.defaultStream;
        out.copies.defaultStreamIterations += c.defaultStreamIterations;
    }
    return out;
}

RecordedRuns splitIterations(const Recording& recording, const IterationRule& rule, std::optional<std::uint32_t> pid)
{
    Recording copy = recording;
    IterationSplitter splitter(rule);  // a whole recording: split at once
    splitter.take(copy, true);
    return splitter.runsOf(copy, pid);
}

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

std::vector<std::uint32_t> processesWithWork(const Recording& recording)
{
    std::unordered_set<std::uint32_t> working;
    for (const auto& [where, count] : recording.operationCounts)
        if (count > 0)
            working.insert(where.first);
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
