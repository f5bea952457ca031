// A series or a comparison as a Chrome trace: the trace-event JSON format that Perfetto UI (ui.perfetto.dev) and
// chrome://tracing open. One process per device (in a comparison, per variant), one track per CUDA stream and per
// CPU thread, a track of runs; every run of a series on one time axis.
#pragma once

#include "engine/model/advice.hpp"
#include "engine/model/report.hpp"
#include "engine/run/plan.hpp"

#include <ostream>
#include <vector>

namespace asyncscope {

constexpr const char* kChromeTraceFormatName = "asyncscope-trace";
constexpr int kChromeTraceFormatVersion = 1;

// Writes {"otherData": {...}, "displayTimeUnit": "ms", "traceEvents": [...]}: "M" events naming the processes and
// tracks and ordering them, the findings' "i" events, then one "X" event per span and per run (ts and dur in µs, to
// the ns), then the machine's "C" events and slices.
//
// Tracks: "Runs" (one event per run, submission to the end of its GPU work and wait), "CPU · submit & wait" (the
// thread that submits and waits), "CPU · runtime calls (CUPTI)" (that thread's CUDA runtime calls, where CUPTI
// traced them: on CUPTI's clock, so a track of their own rather than nested in submit and wait), "Stream 0" … (the
// GPU's copies and kernels, from CUPTI where a run holds traced GPU spans, else from the CUDA events; copies made by
// the SM copy kernel are named "H2D (SM copy kernel)", managed memory's prefetches "H2D (prefetch)"), "GPU · page
// migrations to the device (unified memory)" and "… to the host" (managed memory's page migrations as CUPTI's
// unified-memory counters saw them, bytes in args; overlapping ones on further lanes), "CPU · check threads" (the
// host check). Where the data moves inside other spans (mapped memory; managed memory on demand without traced
// migrations), otherData's "memory_note" says so.
//
// The machine's state around a series with start times (Report::machine), on its device's process: counters ("C")
// "SM clock" (MHz), "GPU power" (W) and "GPU temperature" (C) at each reading, on the runs' clock (of the readings
// before the first moment shown, the last, at it); "Other processes on the GPU": a slice "PID 554 name" per stretch of
// readings that listed another process (every process listed where this one's PID could not be told; args say so),
// overlapping ones on further lanes. The advice (`assessed`'s: assessSeries; a comparison's assessPlan, each variant
// judged beside the others) as instant events ("i", process-wide) at the first moment shown, args {rule, title,
// severity, evidence, action, runs}, and in otherData ("findings", "not_checked"; a comparison's under each variant).
//
// Run r is placed at its start (RunResult::startMs); where every run's start is 0 (reports from before start times
// were kept) each run begins where the one before it ended. In a comparison each variant's series starts at 0, so
// variants line up. Events are written one by one as they are made: memory does not grow with the series.
void writeChromeTrace(std::ostream& out, const Report& report, const Assessment& assessed);
void writeChromeTrace(std::ostream& out, const PlanReport& plan, const std::vector<Assessment>& assessed);

}  // namespace asyncscope
