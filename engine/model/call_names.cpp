#include "engine/model/call_names.hpp"

#include "engine/model/trace_records.hpp"

#include <algorithm>

namespace asyncscope {

namespace {

bool endsWith(std::string_view text, std::string_view end)
{
    return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

bool startsWith(std::string_view text, std::string_view start)
{
    return text.compare(0, start.size(), start) == 0;
}

// A call that asks whether the GPU is done without waiting: a loop of them is a wait.
bool isPollBase(std::string_view base)
{
    return base == "cudaEventQuery" || base == "cudaStreamQuery" || base == "cuEventQuery" || base == "cuStreamQuery";
}

}  // namespace

std::string callBaseName(std::string_view name)
{
    name.remove_prefix(std::min(name.find_first_not_of('_'), name.size()));
    name = name.substr(0, name.find("_v"));
    if (const auto perThread = name.find("_pt"); perThread != std::string_view::npos)
        name = name.substr(0, perThread);
    return std::string(name);
}

bool isDriverCall(std::string_view name)
{
    name.remove_prefix(std::min(name.find_first_not_of('_'), name.size()));
    return startsWith(name, "cu") && !startsWith(name, "cuda");
}

bool isHostSynchronization(std::string_view name)
{
    const std::string base = callBaseName(name);
    return base == "cudaDeviceSynchronize" || base == "cudaStreamSynchronize" || base == "cudaEventSynchronize" ||
        base == "cudaThreadSynchronize" || base == "cuCtxSynchronize" || base == "cuStreamSynchronize" ||
        base == "cuEventSynchronize";
}

bool isSynchronousCopy(std::string_view name)
{
    const std::string base = callBaseName(name);
    const bool copies = startsWith(base, "cudaMemcpy") || startsWith(base, "cudaMemset") ||
        startsWith(base, "cuMemcpy") || startsWith(base, "cuMemset");
    return copies && !endsWith(base, "Async");
}

bool isEnqueueCall(std::string_view name)
{
    const std::string base = callBaseName(name);
    if (isPollBase(base) || isHostSynchronization(base))
        return false;
    return endsWith(base, "Async") || startsWith(base, "cudaLaunch") || startsWith(base, "cuLaunch") ||
        base == "cudaGraphLaunch" || base == "cuGraphLaunch" || base == "cudaEventRecord" ||
        base == "cudaEventRecordWithFlags" || base == "cuEventRecord" || base == "cuEventRecordWithFlags" ||
        base == "cudaStreamWaitEvent" || base == "cuStreamWaitEvent" || startsWith(base, "cuStreamWaitValue") ||
        startsWith(base, "cuStreamWriteValue") || base == "cuStreamBatchMemOp";
}

bool isPollCall(std::string_view name)
{
    return isPollBase(callBaseName(name));
}

const CallName& CallNames::of(std::string_view name)
{
    const auto [at, fresh] = m_names.try_emplace(name);
    if (fresh) {
        CallName& n = at->second;
        n.driver = isDriverCall(name);
        n.perThread = name.find("_ptsz") != std::string_view::npos || name.find("_ptds") != std::string_view::npos;
        n.call = apiCallNamed(std::string(name));
        const std::string base = callBaseName(name);
        n.role = isPollBase(base)          ? CallRole::Poll
            : isHostSynchronization(base) ? CallRole::Wait
            : isSynchronousCopy(base)     ? CallRole::SyncCopy
            : isEnqueueCall(base)         ? CallRole::Enqueue
                                          : CallRole::Other;
    }
    return at->second;
}

}  // namespace asyncscope
