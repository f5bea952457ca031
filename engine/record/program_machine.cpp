#include "engine/record/program_machine.hpp"

#include <algorithm>

namespace asyncscope {

ProgramMachine::ProgramMachine(Opener open)
    : m_open(std::move(open))
{
}

ProgramMachine::ProgramMachine(MachineProbe* probe)
    : m_probe(probe)
{
}

ProgramMachine::~ProgramMachine()
{
    settle();
}

void ProgramMachine::start()
{
    settle();
    m_starting = std::thread([this] { begin(); });
}

void ProgramMachine::begin()
{
    if (m_open) {
        m_owned = m_open();
        m_probe = m_owned.get();
    }
    m_devices.clear();
    m_monitors.clear();
    m_before.clear();
    m_finished.clear();
    m_finishedAtNs.clear();
    if (!m_probe || !m_probe->unavailable().empty())
        return;
    m_devices = m_probe->devices();
    for (const DeviceInfo& device : m_devices) {
        m_before.push_back(gpuProcessIds(*m_probe, device));
        m_monitors.push_back(std::make_unique<MachineMonitor>(*m_probe, device));
        m_finished.emplace_back();
        m_finishedAtNs.push_back(0);
        m_monitors.back()->start();
    }
}

void ProgramMachine::settle()
{
    if (m_starting.joinable())
        m_starting.join();
}

void ProgramMachine::stop()
{
    settle();
    for (auto& monitor : m_monitors)
        monitor->stop();
}

MachineState ProgramMachine::stateOf(const std::string& uuid, const Recording& recording, const RecordedRuns& split)
{
    settle();
    MachineState state;
    if (!m_probe) {
        if (!m_open)
            return unsampledMachine();
        state.unavailable = "no probe of the machine could be opened";
        return state;
    }
    state.source = m_probe->source();
    state.unavailable = m_probe->unavailable();
    if (!state.unavailable.empty())
        return state;
    const auto at =
        std::find_if(m_devices.begin(), m_devices.end(), [&](const DeviceInfo& d) { return d.uuid == uuid; });
    if (uuid.empty() || at == m_devices.end()) {
        state.unavailable = "the driver does not list the GPU the program ran on" +
            (uuid.empty() ? std::string() : " (" + uuid + ")");
        return state;
    }
    const auto process = std::find_if(recording.processes.begin(), recording.processes.end(),
        [&](const RecordedProcess& p) { return p.pid == split.originPid; });
    if (process == recording.processes.end() || !process->steadyMinusCuptiNs) {
        state.unavailable = "the recording does not place CUPTI's clock on the host's (it has no clock line)";
        return state;
    }
    const std::size_t i = std::size_t(at - m_devices.begin());
    const std::int64_t firstRunNs = std::int64_t(split.originNs) + *process->steadyMinusCuptiNs;
    // Each device's samples are taken off its monitor once, then placed on each series' clock (a program's
    // processes are series of their own, each with its first run).
    if (!m_finished[i]) {
        m_finished[i] = m_monitors[i]->finish(firstRunNs, m_before[i]);
        m_finishedAtNs[i] = firstRunNs;
    }
    state = *m_finished[i];
    for (MachineSample& sample : state.samples)
        sample.atMs += double(m_finishedAtNs[i] - firstRunNs) / 1e6;
    state.selfPid = programPid(state.samples, split.originPid, m_before[i]);
    // The program's other processes (a forked child, another rank) are the program, not another process on its GPU:
    // by their PIDs where the driver numbers them so; else, as many of those that appeared after it started as the
    // program has other processes.
    std::set<std::uint32_t> program;
    for (const RecordedProcess& p : recording.processes)
        program.insert(p.pid);
    std::set<std::uint32_t> seen, fresh;
    for (const MachineSample& sample : state.samples)
        for (const GpuProcess& p : sample.processes.value_or(std::vector<GpuProcess> {})) {
            seen.insert(p.pid);
            if (m_before[i] && m_before[i]->count(p.pid) == 0 && program.count(p.pid) == 0)
                fresh.insert(p.pid);
        }
    const bool numberedAlike = std::any_of(program.begin(), program.end(), [&](std::uint32_t pid) { return seen.count(pid) > 0; });
    if (!numberedAlike && !fresh.empty() && fresh.size() <= program.size())
        program.insert(fresh.begin(), fresh.end());
    for (MachineSample& sample : state.samples) {
        if (!sample.processes)
            continue;
        auto& listed = *sample.processes;
        listed.erase(std::remove_if(listed.begin(), listed.end(),
                         [&](const GpuProcess& p) { return program.count(p.pid) > 0 && p.pid != state.selfPid; }),
            listed.end());
    }
    return state;
}

MachineState unsampledMachine()
{
    MachineState state;
    state.unavailable = "it is not sampled when a report is made from a kept recording";
    return state;
}

std::optional<std::uint32_t> programPid(const std::vector<MachineSample>& samples, std::uint32_t program,
    const std::optional<std::set<std::uint32_t>>& before)
{
    std::set<std::uint32_t> fresh;
    for (const MachineSample& s : samples) {
        if (!s.processes)
            continue;
        for (const GpuProcess& p : *s.processes) {
            if (p.pid == program)
                return program;
            if (before && before->count(p.pid) == 0)
                fresh.insert(p.pid);
        }
    }
    return fresh.size() == 1 ? std::optional(*fresh.begin()) : std::nullopt;
}

}  // namespace asyncscope
