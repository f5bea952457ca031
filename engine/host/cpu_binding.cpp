#include "engine/host/cpu_binding.hpp"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>

namespace asyncscope {

namespace {

constexpr int kMaxCpus = 1 << 15;  // far above any host; CPU_ALLOC sizes the set for it

struct CpuSetDeleter {
    void operator()(cpu_set_t* set) const { CPU_FREE(set); }
};
using CpuSet = std::unique_ptr<cpu_set_t, CpuSetDeleter>;

CpuSet allocateSet()
{
    CpuSet set(CPU_ALLOC(kMaxCpus));
    if (set)
        CPU_ZERO_S(CPU_ALLOC_SIZE(kMaxCpus), set.get());
    return set;
}

Error badList(std::string_view list, std::string_view part)
{
    return makeError(ErrorKind::Usage,
        "'" + std::string(list) + "' is not a CPU list: '" + std::string(part) + "' is not a CPU or a range of CPUs",
        "Write CPUs as a list like 0-3,8,10-11.");
}

}  // namespace

Result<std::vector<int>> parseCpuList(std::string_view list)
{
    std::vector<int> cpus;
    std::string_view rest = list;
    while (!rest.empty() && (rest.back() == '\n' || rest.back() == ' '))
        rest.remove_suffix(1);
    if (rest.empty())
        return cpus;
    for (;;) {
        const auto comma = rest.find(',');
        const std::string_view part = rest.substr(0, comma);
        const auto dash = part.find('-');
        int first = 0, last = 0;
        auto number = [](std::string_view text, int& value) {
            const auto [end, failed] = std::from_chars(text.data(), text.data() + text.size(), value);
            return failed == std::errc() && end == text.data() + text.size() && value >= 0 && value < kMaxCpus;
        };
        if (!number(part.substr(0, dash), first))
            return badList(list, part);
        last = first;
        if (dash != std::string_view::npos && (!number(part.substr(dash + 1), last) || last < first))
            return badList(list, part);
        for (int cpu = first; cpu <= last; ++cpu)
            cpus.push_back(cpu);
        if (comma == std::string_view::npos)
            break;
        rest.remove_prefix(comma + 1);
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    return cpus;
}

std::string formatCpuList(const std::vector<int>& cpus)
{
    std::string text;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
            ++j;
        text += (text.empty() ? "" : ",") + std::to_string(cpus[i]) + (j > i ? "-" + std::to_string(cpus[j]) : "");
        i = j + 1;
    }
    return text;
}

std::vector<int> threadCpus()
{
    std::vector<int> cpus;
    CpuSet set = allocateSet();
    if (!set || sched_getaffinity(0, CPU_ALLOC_SIZE(kMaxCpus), set.get()) != 0)
        return cpus;
    for (int cpu = 0; cpu < kMaxCpus; ++cpu) {
        if (CPU_ISSET_S(cpu, CPU_ALLOC_SIZE(kMaxCpus), set.get()))
            cpus.push_back(cpu);
    }
    return cpus;
}

CpuBinding bindThisThread(const DeviceTopology& topology)
{
    CpuBinding binding;
    if (topology.localCpus.empty()) {
        binding.why = "the GPU's local CPUs are unknown" +
            (topology.note.empty() ? std::string() : " (" + topology.note + ")");
        return binding;
    }
    auto local = parseCpuList(topology.localCpus);
    if (!local || local->empty()) {
        binding.why = "the GPU's local CPU list '" + topology.localCpus + "' cannot be read";
        return binding;
    }
    const std::vector<int> allowed = threadCpus();
    std::vector<int> usable;
    std::set_intersection(local->begin(), local->end(), allowed.begin(), allowed.end(), std::back_inserter(usable));
    if (usable.empty()) {
        binding.why = "none of the GPU's local CPUs " + topology.localCpus + " is available to this process (" +
            (allowed.empty() ? std::string("its CPUs are unknown") : "it may use " + formatCpuList(allowed)) + ")";
        return binding;
    }
    CpuSet set = allocateSet();
    if (!set) {
        binding.why = "no memory for a CPU set";
        return binding;
    }
    for (const int cpu : usable)
        CPU_SET_S(cpu, CPU_ALLOC_SIZE(kMaxCpus), set.get());
    if (sched_setaffinity(0, CPU_ALLOC_SIZE(kMaxCpus), set.get()) != 0) {
        binding.why = std::string("sched_setaffinity failed: ") + std::strerror(errno);
        return binding;
    }
    binding.bound = true;
    binding.cpus = formatCpuList(usable);
    binding.numaNode = topology.numaNode;
    return binding;
}

}  // namespace asyncscope
