#include "engine/io/json/machine_block.hpp"

#include "engine/io/json/header_blocks.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace asyncscope::json_header {

using nlohmann::json;

json machineJson(const MachineState& m)
{
    json j = { { "source", m.source } };
    if (!m.unavailable.empty())
        j["unavailable"] = m.unavailable;
    if (m.selfPid)
        j["self_pid"] = *m.selfPid;
    json samples = json::array();
    for (const MachineSample& s : m.samples) {
        json o = { { "at_ms", s.atMs } };
        auto put = [&o](const char* key, const auto& value) {
            if (value)
                o[key] = *value;
        };
        put("sm_clock_mhz", s.smClockMHz);
        put("sm_clock_max_mhz", s.smClockMaxMHz);
        put("memory_clock_mhz", s.memoryClockMHz);
        put("memory_clock_max_mhz", s.memoryClockMaxMHz);
        put("clock_reasons", s.clockReasons);
        if (s.clockReasons)
            o["clock_reasons_text"] = clockReasonsText(*s.clockReasons);
        put("temperature_c", s.temperatureC);
        put("power_w", s.powerW);
        put("persistence_mode", s.persistenceMode);
        put("pcie_generation", s.linkGeneration);
        put("pcie_width", s.linkWidth);
        put("pcie_generation_max", s.linkGenerationMax);
        put("pcie_width_max", s.linkWidthMax);
        if (s.processes) {
            json list = json::array();
            for (const GpuProcess& p : *s.processes) {
                json entry = { { "pid", p.pid }, { "used_bytes", p.usedBytes } };
                if (!p.name.empty())
                    entry["name"] = p.name;
                list.push_back(std::move(entry));
            }
            o["processes"] = std::move(list);
        }
        samples.push_back(std::move(o));
    }
    j["samples"] = std::move(samples);
    return j;
}

namespace {

// A whole-number reading from `low` to `high`, where the sample has one.
template <class T>
void readingOr(const Block& b, const char* key, std::optional<T>& out, T low, T high)
{
    if (!b.has(key))
        return;
    T value {};
    b.get(key, value);
    if (value < low || value > high)
        refuse(b.path(key), std::to_string(value), "a whole number from " + std::to_string(low) + " to "
            + std::to_string(high));
    out = value;
}

}  // namespace

MachineState machineFrom(const Block& m)
{
    MachineState state;
    m.getOr("source", state.source);
    if (auto bad = checkNote(m.path("source"), state.source))
        throw BadField(*bad);
    m.getOr("unavailable", state.unavailable);
    if (auto bad = checkNote(m.path("unavailable"), state.unavailable))
        throw BadField(*bad);
    if (m.has("self_pid")) {
        std::uint32_t pid = 0;
        m.get("self_pid", pid);
        state.selfPid = pid;
    }
    if (!m.has("samples"))
        return state;
    const json& samples = listAt(m, "samples", kMaxMachineSamplesRead, "readings");
    state.samples.reserve(samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const Block b(samples[i], m.path("samples") + "[" + std::to_string(i) + "]");
        MachineSample s;
        b.get("at_ms", s.atMs);
        if (!std::isfinite(s.atMs))
            refuse(b.path("at_ms"), quotedNumber(s.atMs), "a finite number of ms");
        readingOr(b, "sm_clock_mhz", s.smClockMHz, 0, kMaxClockMHz);
        readingOr(b, "sm_clock_max_mhz", s.smClockMaxMHz, 0, kMaxClockMHz);
        readingOr(b, "memory_clock_mhz", s.memoryClockMHz, 0, kMaxClockMHz);
        readingOr(b, "memory_clock_max_mhz", s.memoryClockMaxMHz, 0, kMaxClockMHz);
        readingOr<std::uint64_t>(b, "clock_reasons", s.clockReasons, 0, std::numeric_limits<std::uint64_t>::max());
        readingOr(b, "temperature_c", s.temperatureC, -273, 1000);
        if (b.has("power_w")) {
            double w = 0.0;
            b.get("power_w", w);
            checkAmount(b, "power_w", w, "W");
            s.powerW = w;
        }
        if (b.has("persistence_mode")) {
            bool on = false;
            b.get("persistence_mode", on);
            s.persistenceMode = on;
        }
        readingOr(b, "pcie_generation", s.linkGeneration, 0, 64);
        readingOr(b, "pcie_width", s.linkWidth, 0, 1024);
        readingOr(b, "pcie_generation_max", s.linkGenerationMax, 0, 64);
        readingOr(b, "pcie_width_max", s.linkWidthMax, 0, 1024);
        if (b.has("processes")) {
            const json& list = listAt(b, "processes", kMaxGpuProcessesRead, "processes");
            std::vector<GpuProcess> processes;
            processes.reserve(list.size());
            for (std::size_t k = 0; k < list.size(); ++k) {
                const Block p(list[k], b.path("processes") + "[" + std::to_string(k) + "]");
                GpuProcess process;
                p.get("pid", process.pid);
                p.getOr("used_bytes", process.usedBytes);
                p.getOr("name", process.name);
                if (auto bad = checkName(p.path("name"), process.name))
                    throw BadField(*bad);
                processes.push_back(std::move(process));
            }
            s.processes = std::move(processes);
        }
        state.samples.push_back(std::move(s));
    }
    return state;
}

}  // namespace asyncscope::json_header
