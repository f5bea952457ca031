// How a Chrome trace lays a series out (engine/io/chrome_trace.hpp): the spans each run shows and on which track, where
// each run sits on the series' axis, the stretches in which other processes held the GPU, and what a first pass over
// a series finds (its tracks, its earliest moment).
#pragma once

#include "engine/io/chrome_trace_names.hpp"
#include "engine/model/report.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <set>
#include <vector>

namespace asyncscope::chrome_trace {

inline bool hasGpuSpans(const RunStore::SpanView& spans)
{
    for (std::size_t k = 0; k < spans.size(); ++k) {
        if (onGpu(spans.kind(k)))
            return true;
    }
    return false;
}

// The spans a run shows: GPU operations from CUPTI where it saw them, else from the events; submit, wait and check
// from the host clock; runtime calls where CUPTI traced them.
struct RunSpans {
    RunSpans(const RunStore& runs, std::size_t i)
        : runs(runs)
        , i(i)
        , spanList(runs.spans(i))
        , tracedList(runs.traced(i))
        , traced(hasGpuSpans(tracedList))
    {
    }

    // Calls f(span, tid) for each span in a fixed order: GPU, CPU, runtime calls. A page migration goes on the
    // first lane of its direction free when it begins (in the order the spans come, by their begin).
    template <class F>
    void forEach(F&& f) const
    {
        std::array<std::array<double, kMigrationLanes>, 2> laneEnds;
        for (auto& lanes : laneEnds)
            lanes.fill(-std::numeric_limits<double>::infinity());
        for (const Span& s : traced ? tracedList : spanList) {
            if (isMigration(s.kind)) {
                auto& lanes = laneEnds[s.kind == SpanKind::MigrateH2D ? 0 : 1];
                int lane = 0;
                while (lane + 1 < kMigrationLanes && lanes[std::size_t(lane)] > s.beginMs)
                    ++lane;
                lanes[std::size_t(lane)] = std::max(lanes[std::size_t(lane)], s.endMs);
                f(s, (s.kind == SpanKind::MigrateH2D ? kMigrateH2DTid0 : kMigrateD2HTid0) + lane);
            } else if (onGpu(s.kind)) {
                f(s, kStreamTid0 + s.stream);
            }
        }
        for (const Span& s : spanList) {
            if (!onGpu(s.kind) && s.kind != SpanKind::Api)
                f(s, cpuTid(s));
        }
        for (const Span& s : tracedList) {
            if (s.kind == SpanKind::Api)
                f(s, kCallsTid);
        }
    }

    const RunStore& runs;
    std::size_t i;  // the run
    RunStore::SpanView spanList;
    RunStore::SpanView tracedList;
    bool traced;  // its GPU spans come from CUPTI
};

// A run's extent in ms from its start: of all its spans, and of the run event (everything but the check, which
// may overlap the next run).
struct Extent {
    double first = 0.0, last = 0.0;
    double runBegin = 0.0, runEnd = 0.0;
};

Extent extentOf(const RunSpans& spans);

inline bool hasStartTimes(const Report& report)
{
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
        if (report.runs.startMs(i) != 0.0)
            return true;
    }
    return false;
}

// Calls f(spans, extent, at) for each run of the series, `at` being where it begins on the series' axis in ms: its
// start time, or where the run before it ended when the report holds no start times.
template <class F>
void forEachPlacedRun(const Report& report, F&& f)
{
    const bool byStart = hasStartTimes(report);
    double cursor = 0.0;
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
        const RunSpans spans(report.runs, i);
        const Extent extent = extentOf(spans);
        const double at = byStart ? report.runs.startMs(i) : cursor;
        cursor = std::max(cursor, at + extent.last);
        f(spans, extent, at);
    }
}

// A stretch of the machine's readings in which one other process held a context on the GPU: from the first reading
// that listed it to the last before one that listed processes without it. A reading that could not list them, or
// that listed only the one process that may be this one (its PID unknown), neither begins nor ends a stretch.
struct ProcessStretch {
    GpuProcess process;  // its name where some reading gave one; the most device memory a reading saw it hold
    double firstMs = 0.0, lastMs = 0.0;  // the readings' times
    std::size_t readings = 0;
    int tid = kOtherProcessesTid0;
};

// The stretches of `machine`'s readings by their first reading, each on the first lane free when it begins (the last
// lane where none is). `selfAmong`: this process's PID was unknown while others were listed, so it is among them.
std::vector<ProcessStretch> processStretches(const MachineState& machine, bool& selfAmong);

// The machine's readings a trace shows: a series' with start times (the readings' times are on the runs' clock).
inline bool showsMachine(const Report& report)
{
    return report.machine && !report.machine->samples.empty() && hasStartTimes(report);
}

// What the first pass over a series finds: the tracks it uses, its earliest moment, where its GPU spans come from.
struct Scan {
    std::set<int> tracks;
    double earliestMs = 0.0;
    std::size_t tracedRuns = 0;
    bool migrations = false;  // some run has page migrations of its own
};

Scan scan(const Report& report);

}  // namespace asyncscope::chrome_trace
