#include "engine/io/chrome_trace_layout.hpp"

#include "engine/model/trace_labels.hpp"

#include <map>

namespace asyncscope::chrome_trace {

Extent extentOf(const RunSpans& spans)
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    double first = inf, last = -inf, runBegin = inf, runEnd = -inf;
    spans.forEach([&](const Span& s, int tid) {
        first = std::min(first, s.beginMs);
        last = std::max(last, s.endMs);
        if (tid != kCheckTid) {
            runBegin = std::min(runBegin, s.beginMs);
            runEnd = std::max(runEnd, s.endMs);
        }
    });
    Extent e;
    e.runBegin = runBegin <= runEnd ? runBegin : 0.0;
    e.runEnd = runBegin <= runEnd ? runEnd : std::max(spans.runs.gpuMs(spans.i), 0.0);
    e.first = first <= last ? std::min(first, e.runBegin) : e.runBegin;
    e.last = first <= last ? std::max(last, e.runEnd) : e.runEnd;
    return e;
}

std::vector<ProcessStretch> processStretches(const MachineState& machine, bool& selfAmong)
{
    std::vector<ProcessStretch> done;
    std::map<std::uint32_t, ProcessStretch> open;
    selfAmong = false;
    for (const MachineSample& sample : machine.samples) {
        const OtherProcesses others = otherProcesses(sample, machine.selfPid);
        if (!sample.processes || (others.selfAmong && others.processes.size() <= 1))
            continue;
        selfAmong = selfAmong || others.selfAmong;
        std::set<std::uint32_t> listed;
        for (const GpuProcess& p : others.processes) {
            if (!listed.insert(p.pid).second)
                continue;  // listed twice in one reading
            auto [it, fresh] = open.try_emplace(p.pid);
            ProcessStretch& s = it->second;
            if (fresh) {
                s.process.pid = p.pid;
                s.firstMs = sample.atMs;
            }
            if (s.process.name.empty())
                s.process.name = p.name;
            s.process.usedBytes = std::max(s.process.usedBytes, p.usedBytes);
            s.lastMs = sample.atMs;
            ++s.readings;
        }
        for (auto it = open.begin(); it != open.end();) {
            if (listed.count(it->first)) {
                ++it;
                continue;
            }
            done.push_back(std::move(it->second));
            it = open.erase(it);
        }
    }
    for (auto& entry : open)
        done.push_back(std::move(entry.second));
    std::stable_sort(done.begin(), done.end(),
        [](const ProcessStretch& a, const ProcessStretch& b) { return a.firstMs < b.firstMs; });
    std::array<double, kOtherProcessLanes> laneEnds;
    laneEnds.fill(-std::numeric_limits<double>::infinity());
    for (ProcessStretch& s : done) {
        int lane = 0;
        while (lane + 1 < kOtherProcessLanes && laneEnds[std::size_t(lane)] > s.firstMs)
            ++lane;
        laneEnds[std::size_t(lane)] = std::max(laneEnds[std::size_t(lane)], s.lastMs);
        s.tid = kOtherProcessesTid0 + lane;
    }
    return done;
}

Scan scan(const Report& report)
{
    Scan s;
    forEachPlacedRun(report, [&](const RunSpans& spans, const Extent& extent, double at) {
        s.tracks.insert(kRunsTid);
        s.earliestMs = std::min(s.earliestMs, at + extent.first);
        s.tracedRuns += spans.traced ? 1 : 0;
        spans.forEach([&](const Span&, int tid) {
            s.tracks.insert(tid);
            s.migrations = s.migrations || migrationTrack(tid);
        });
    });
    if (showsMachine(report)) {
        bool selfAmong = false;
        for (const ProcessStretch& p : processStretches(*report.machine, selfAmong))
            s.tracks.insert(p.tid);
    }
    return s;
}

}  // namespace asyncscope::chrome_trace
