// The names and places of a Chrome trace's events (engine/io/chrome_trace.hpp): the tracks of a device's process as
// thread ids, their names and order, the process's name, and a span's event name.
#pragma once

#include "engine/model/report.hpp"
#include "engine/model/trace_labels.hpp"

#include <string>

namespace asyncscope::chrome_trace {

// The tracks of a device's process, as thread ids; streams take kStreamTid0 + their number.
inline constexpr int kRunsTid = 1;
inline constexpr int kSubmitTid = 2;
inline constexpr int kCallsTid = 3;
inline constexpr int kCheckTid = 4;
// Page migrations to the device and to the host, each on lanes of their own where they overlap (a track's slices
// must nest or follow one another).
inline constexpr int kMigrateH2DTid0 = 10;
inline constexpr int kMigrateD2HTid0 = 30;
inline constexpr int kMigrationLanes = 16;
inline constexpr int kStreamTid0 = 100;
// Other processes while the machine's readings saw them on the GPU, each on a lane of its own where they overlap.
inline constexpr int kOtherProcessesTid0 = 50;
inline constexpr int kOtherProcessLanes = 16;

inline bool migrationTrack(int tid)
{
    return tid >= kMigrateH2DTid0 && tid < kMigrateD2HTid0 + kMigrationLanes;
}

inline bool otherProcessTrack(int tid)
{
    return tid >= kOtherProcessesTid0 && tid < kOtherProcessesTid0 + kOtherProcessLanes;
}

// Runs, then the submitting thread and its runtime calls, then the other processes on the GPU, then the streams, then
// the page migrations, then the check threads.
int sortIndex(int tid);

std::string trackName(int tid);

// CPU spans: the check threads' (stream 1, or a Check span) or the thread's that submits and waits.
inline int cpuTid(const Span& s)
{
    return s.kind == SpanKind::Check || s.stream == 1 ? kCheckTid : kSubmitTid;
}

// "GPU 0: NVIDIA H200": a device's process.
std::string deviceName(const Report& report);

// A series' configuration in one line: its size, K and S, issue order, submission, host memory, copies, wait and check.
std::string configText(const PipelineConfig& c);

// A span's event name: its kind's (the copies named by what makes them: "H2D (SM copy kernel)" where a kernel
// copies), the wait by how it waits.
inline std::string spanName(const Span& s, const PipelineConfig& config)
{
    if (s.kind == SpanKind::Wait)
        return config.waitMode == WaitMode::Spin ? "wait (poll)" : "wait (blocking sync)";
    return spanTitle(s, config);
}

}  // namespace asyncscope::chrome_trace
