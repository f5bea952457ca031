#include "engine/run/machine_monitor.hpp"

#include <algorithm>

namespace asyncscope {

namespace {

std::int64_t steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

std::optional<std::set<std::uint32_t>> gpuProcessIds(MachineProbe& probe, const DeviceInfo& device)
{
    if (!probe.unavailable().empty())
        return std::nullopt;
    auto s = probe.sample(device);
    if (!s || !s->processes)
        return std::nullopt;
    std::set<std::uint32_t> pids;
    for (const GpuProcess& p : *s->processes)
        pids.insert(p.pid);
    return pids;
}

std::optional<std::uint32_t> selfPid(const std::vector<MachineSample>& samples, std::uint32_t ownPid,
    const std::optional<std::set<std::uint32_t>>& before)
{
    std::optional<std::set<std::uint32_t>> always;  // in every sample that lists processes
    for (const MachineSample& s : samples) {
        if (!s.processes)
            continue;
        std::set<std::uint32_t> here;
        for (const GpuProcess& p : *s.processes) {
            if (p.pid == ownPid)
                return ownPid;
            here.insert(p.pid);
        }
        if (!always) {
            always = std::move(here);
        } else {
            std::set<std::uint32_t> both;
            std::set_intersection(always->begin(), always->end(), here.begin(), here.end(),
                std::inserter(both, both.begin()));
            always = std::move(both);
        }
    }
    if (!before || !always)
        return std::nullopt;
    std::vector<std::uint32_t> fresh;
    std::set_difference(always->begin(), always->end(), before->begin(), before->end(), std::back_inserter(fresh));
    return fresh.size() == 1 ? std::optional(fresh.front()) : std::nullopt;
}

MachineMonitor::MachineMonitor(MachineProbe& probe, DeviceInfo device, std::chrono::milliseconds every)
    : m_probe(probe)
    , m_device(std::move(device))
    , m_every(every)
{
}

MachineMonitor::~MachineMonitor()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void MachineMonitor::take(bool last)
{
    const std::int64_t at = steadyNs();
    auto s = m_probe.sample(m_device);
    const std::lock_guard lock(m_mutex);
    if (!s) {
        m_lastError = s.error().message();
        return;
    }
    const std::size_t half = kMaxMachineSamples / 2;
    if (m_samples.size() >= half && !last && ++m_skipped < m_stride)
        return;
    if (m_samples.size() >= kMaxMachineSamples) {
        // Full: the second half keeps every other of its readings, and takes one in twice as many from now on. What
        // it holds stays evenly spaced from the first half's end to now; a thinning only ever halves it again.
        std::vector<std::pair<std::int64_t, MachineSample>> kept;
        kept.reserve(m_samples.size());
        for (std::size_t i = 0; i < m_samples.size(); ++i) {
            if (i < half || (i - half) % 2 == 0)
                kept.push_back(std::move(m_samples[i]));
        }
        m_samples = std::move(kept);
        m_stride *= 2;
        // The newest kept one is a stride before the one dropped last: this reading is one new stride after it.
    }
    m_skipped = 0;
    m_samples.emplace_back(at, std::move(*s));
}

void MachineMonitor::loop()
{
    std::unique_lock lock(m_mutex);
    while (!m_wake.wait_for(lock, m_every, [this] { return m_stop; })) {
        lock.unlock();
        take();
        lock.lock();
    }
}

void MachineMonitor::start()
{
    if (!m_probe.unavailable().empty())
        return;
    take();
    m_thread = std::thread([this] { loop(); });
}

void MachineMonitor::stop()
{
    if (m_stopped || !m_probe.unavailable().empty())
        return;
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    take(true);
    m_stopped = true;
}

MachineState MachineMonitor::finish(std::int64_t firstRunNs, const std::optional<std::set<std::uint32_t>>& before)
{
    MachineState state;
    state.source = m_probe.source();
    state.unavailable = m_probe.unavailable();
    if (!state.unavailable.empty())
        return state;
    stop();
    const std::int64_t origin = firstRunNs != 0 ? firstRunNs : (m_samples.empty() ? 0 : m_samples.front().first);
    for (auto& [ns, sample] : m_samples) {
        sample.atMs = static_cast<double>(ns - origin) / 1e6;
        state.samples.push_back(std::move(sample));
    }
    m_samples.clear();
    if (state.samples.empty())
        state.unavailable = m_lastError.empty() ? "no reading was taken" : m_lastError;
    state.selfPid = selfPid(state.samples, m_probe.ownPid(), before);
    return state;
}

}  // namespace asyncscope
