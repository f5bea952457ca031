#include "engine/io/chrome_trace_names.hpp"

#include "engine/model/size_parse.hpp"
#include "engine/model/trace_labels.hpp"

#include <limits>

namespace asyncscope::chrome_trace {

int sortIndex(int tid)
{
    if (tid == kCheckTid)
        return std::numeric_limits<int>::max();
    if (otherProcessTrack(tid))
        return kCheckTid + 1 + tid - kOtherProcessesTid0;
    return migrationTrack(tid) ? std::numeric_limits<int>::max() - 100 + tid - kMigrateH2DTid0 : tid;
}

std::string trackName(int tid)
{
    switch (tid) {
    case kRunsTid: return "Runs";
    case kSubmitTid: return "CPU · submit & wait";
    case kCallsTid: return "CPU · runtime calls (CUPTI)";
    case kCheckTid: return "CPU · check threads";
    default: break;
    }
    if (otherProcessTrack(tid)) {
        const int lane = tid - kOtherProcessesTid0;
        return "Other processes on the GPU" + (lane > 0 ? " " + std::to_string(lane + 1) : std::string());
    }
    if (migrationTrack(tid)) {
        const bool toDevice = tid < kMigrateD2HTid0;
        const int lane = tid - (toDevice ? kMigrateH2DTid0 : kMigrateD2HTid0);
        return std::string("GPU · page migrations to the ") + (toDevice ? "device" : "host") + " (unified memory)" +
            (lane > 0 ? " " + std::to_string(lane + 1) : "");
    }
    return "Stream " + std::to_string(tid - kStreamTid0);
}

std::string deviceName(const Report& report)
{
    return "GPU " + std::to_string(report.device.index) + ": " + report.device.name;
}

std::string configText(const PipelineConfig& c)
{
    std::string text = formatBytes(c.bytes()) + ", K = " + std::to_string(c.chunks) + ", S = " +
        std::to_string(c.streams);
    if (c.chunks > 1)
        text += c.order == IssueOrder::ByChunk ? ", by chunk" : ", by stage";
    text += c.submission == Submission::Graph ? ", CUDA Graph"
        : c.submission == Submission::Batch  ? ", cudaMemcpyBatchAsync"
                                             : ", stream calls";
    text += ", " + std::string(nameOf(c.hostMemory)) + " host memory";
    if (c.hostMemory == HostMemory::Managed)
        text += " (" + std::string(nameOf(c.managedMigration)) + ")";
    if (const std::string mechanism = copyMechanismText(c); !mechanism.empty())
        text += ", copies: " + mechanism;
    return text + ", " + nameOf(c.waitMode) + " wait, " + nameOf(c.checkMode) + " check";
}

}  // namespace asyncscope::chrome_trace
