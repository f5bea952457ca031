#include "engine/io/json/header_blocks.hpp"

#include "engine/io/bounded_json.hpp"
#include "engine/model/advice.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>
#include <string>

namespace asyncscope {

using nlohmann::json;
using nlohmann::ordered_json;
using namespace json_fields;

namespace {

json linkJson(const PcieLink& l)
{
    return { { "speed", l.speed }, { "generation", l.generation }, { "width", l.width } };
}

json deviceJson(const Report& r)
{
    json j = deviceToJson(r.device);
    j["driver_version"] = r.driverVersion;
    j["runtime_version"] = r.runtimeVersion;
    return j;
}

json configJson(const PipelineConfig& c)
{
    return { { "device", c.device }, { "elements", c.elements }, { "bytes", c.bytes() }, { "value", c.value },
        { "threads_per_block", c.threadsPerBlock }, { "chunks", c.chunks }, { "streams", c.streams },
        { "order", nameOf(c.order) }, { "submission", nameOf(c.submission) }, { "runs", c.runs },
        { "warmup_runs", c.warmupRuns },
        { "host_memory", nameOf(c.hostMemory) }, { "copy", nameOf(c.copy) },
        { "managed_migration", nameOf(c.managedMigration) }, { "managed_advice", nameOf(c.managedAdvice) },
        { "prefer_overlap", c.preferOverlap }, { "wait", nameOf(c.waitMode) }, { "check", nameOf(c.checkMode) },
        { "check_threads", c.checkThreads }, { "stage_events", c.stageEvents }, { "profiler_range", c.profilerRange },
        { "trace_source", nameOf(c.traceSource) }, { "stop_rule", nameOf(c.stopRule) },
        { "target_noise_percent", c.targetNoisePercent },
        { "min_runs", c.minRuns }, { "min_gpu_ms", c.minGpuMs }, { "timeout_s", c.timeoutS } };
}

json statsJson(const Summary& s)
{
    return { { "samples", s.count }, { "min", s.min }, { "max", s.max }, { "mean", s.mean }, { "median", s.median },
        { "stddev", s.stddev }, { "noise_percent", s.noisePercent }, { "p95", s.p95 } };
}

json summaryJson(const SeriesSummary& s)
{
    json j = { { "samples", s.measuredRuns }, { "warmup_runs", s.warmupRuns }, { "verified_runs", s.verifiedRuns } };
    for (const Distribution& d : s.distributions)
        j[d.key] = statsJson(d.stats);
    for (const Figure& f : s.figures)
        j[f.key] = f.value;
    return j;
}

json peakJson(const CopyPeak& p)
{
    return { { "h2d_gbps", p.h2dGBps }, { "d2h_gbps", p.d2hGBps }, { "bidirectional_gbps", p.bidirectionalGBps },
        { "bytes", p.bytes }, { "cached", p.fromCache }, { "path", nameOf(p.path) } };
}

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

using json_header::BadField;

[[noreturn]] void refuse(std::string field, std::string found, std::string accepted)
{
    throw BadField(FieldProblem { std::move(field), std::move(found), std::move(accepted) });
}

template <class Enum>
Enum choiceAt(const json& object, const std::string& path, const char* key)
{
    if (!object.contains(key))
        refuse(path + key, "missing", acceptedNames<Enum>());
    const json& v = object.at(key);
    if (!v.is_string())
        refuse(path + key, quotedJson(v), acceptedNames<Enum>());
    const std::string& text = v.get_ref<const std::string&>();
    if (const auto value = parseName<Enum>(text))
        return *value;
    refuse(path + key, "'" + quotedValue(text) + "'", acceptedNames<Enum>());
}

// The fields a list of names gives, in its order; a name this version does not know is a field it passes over.
template <class Field, std::size_t N>
std::vector<Field> fieldsNamed(const json& lists, const char* key, const char* const (&names)[N])
{
    const json& list = lists.at(key);
    const std::string field = std::string("fields.") + key;
    if (!list.is_array())
        refuse(field, quotedJson(list), "a list of names");
    if (list.size() > 4 * N)
        refuse(field, "a list of " + std::to_string(list.size()), "at most " + std::to_string(4 * N) + " names");
    std::vector<Field> fields;
    for (const json& name : list) {
        if (!name.is_string())
            refuse(field + "[" + std::to_string(fields.size()) + "]", quotedJson(name), "a name");
        const auto* at = std::find(std::begin(names), std::end(names), name.get_ref<const std::string&>());
        fields.push_back(Field(at - std::begin(names)));  // one past the names: Unknown
    }
    return fields;
}

// What an integral field accepts, for messages: "a whole number from 0 to 2147483647".
template <class T>
std::string wholeRange()
{
    return "a whole number from " + std::to_string(std::numeric_limits<T>::min()) + " to " +
        std::to_string(std::numeric_limits<T>::max());
}

// A header block's fields, each error naming the field: "config.runs is 1e+12; accepted: a whole number …",
// "config.runs is missing".
class Block {
public:
    Block(const json& parent, const char* key, std::string path) : m_path(std::move(path))
    {
        if (!parent.contains(key))
            refuse(m_path, "missing", "an object");
        take(parent.at(key));
    }
    // A block given as it is: `path` names it.
    Block(const json& object, std::string path) : m_path(std::move(path)) { take(object); }

    const json& object() const { return *m_object; }
    bool has(const char* key) const { return m_object->contains(key); }
    std::string path(const char* key) const { return m_path + key; }

    // A field that must be there.
    template <class T>
    void get(const char* key, T& out) const
    {
        if (!has(key))
            refuse(m_path + key, "missing", accepted<T>());
        read(key, out);
    }
    // A field that may be left out: `out` keeps what it holds then.
    template <class T>
    void getOr(const char* key, T& out) const
    {
        if (has(key))
            read(key, out);
    }
    // A whole number or null (unknown), where there is one.
    void getOrNull(const char* key, std::optional<int>& out) const
    {
        if (!has(key) || m_object->at(key).is_null())
            return;
        int value = 0;
        read(key, value);
        out = value;
    }
    template <class Enum>
    Enum choice(const char* key) const { return choiceAt<Enum>(*m_object, m_path, key); }
    template <class Enum>
    Enum choiceOr(const char* key, Enum fallback) const
    {
        return has(key) ? choice<Enum>(key) : fallback;
    }

private:
    void take(const json& object)
    {
        if (!object.is_object())
            refuse(m_path, quotedJson(object), "an object");
        m_object = &object;
        m_path += '.';
    }

    template <class T>
    static std::string accepted()
    {
        if constexpr (std::is_same_v<T, bool>)
            return "true or false";
        else if constexpr (std::is_integral_v<T>)
            return wholeRange<T>();
        else if constexpr (std::is_floating_point_v<T>)
            return "a number";
        else
            return "a text";
    }

    template <class T>
    void read(const char* key, T& out) const
    {
        const json& v = m_object->at(key);
        if constexpr (std::is_same_v<T, bool>) {
            if (!v.is_boolean())
                refuse(m_path + key, quotedJson(v), accepted<T>());
        } else if constexpr (std::is_integral_v<T>) {
            const bool fits = v.is_number_unsigned()
                ? v.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<T>::max())
                : v.is_number_integer() && v.get<std::int64_t>() >= std::int64_t(std::numeric_limits<T>::min()) &&
                    (v.get<std::int64_t>() < 0 ||
                        std::uint64_t(v.get<std::int64_t>()) <= std::uint64_t(std::numeric_limits<T>::max()));
            if (!fits)
                refuse(m_path + key, quotedJson(v), accepted<T>());
        } else if constexpr (std::is_floating_point_v<T>) {
            if (!v.is_number())
                refuse(m_path + key, quotedJson(v), accepted<T>());
        } else {
            if (!v.is_string())
                refuse(m_path + key, quotedJson(v), accepted<T>());
        }
        out = v.get<T>();
    }

    const json* m_object = nullptr;
    std::string m_path;
};

// A number the file gives as a rate, a percentage or a time: finite and 0 or more.
void checkAmount(const Block& block, const char* key, double value, const char* unit)
{
    if (!std::isfinite(value) || value < 0.0)
        refuse(block.path(key), quotedNumber(value), std::string("a finite number of ") + unit + ", 0 or more");
}

CopyPeak peakFrom(const Block& k)
{
    CopyPeak peak;
    k.get("h2d_gbps", peak.h2dGBps);
    checkAmount(k, "h2d_gbps", peak.h2dGBps, "GB/s");
    k.get("d2h_gbps", peak.d2hGBps);
    checkAmount(k, "d2h_gbps", peak.d2hGBps, "GB/s");
    k.get("bytes", peak.bytes);
    peak.fromCache = false;
    k.getOr("cached", peak.fromCache);
    peak.bidirectionalGBps = 0.0;
    k.getOr("bidirectional_gbps", peak.bidirectionalGBps);
    checkAmount(k, "bidirectional_gbps", peak.bidirectionalGBps, "GB/s");
    peak.path = k.choiceOr("path", CopyPath::Pinned);  // reports from before each path had its peak: pinned
    return peak;
}

// A list under `key` of `block`, at most `most` long.
const json& listAt(const Block& block, const char* key, std::size_t most, const char* what)
{
    const json& list = block.object().at(key);
    if (!list.is_array())
        refuse(block.path(key), quotedJson(list), std::string("a list of ") + what);
    if (list.size() > most)
        refuse(block.path(key), "a list of " + std::to_string(list.size()),
            "at most " + std::to_string(most) + " " + what);
    return list;
}

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

Report headerReport(const json& j)
{
    json_header::formatVersion(j);
    Report r;
    if (!j.contains("device"))
        refuse("device", "missing", "an object");
    r.device = deviceFromJson(j.at("device"));
    const Block d(j, "device", "device");
    d.getOr("driver_version", r.driverVersion);
    d.getOr("runtime_version", r.runtimeVersion);
    if (j.contains("host")) {
        if (!j.at("host").is_string())
            refuse("host", quotedJson(j.at("host")), "a text");
        r.host = j.at("host").get<std::string>();
        if (auto bad = checkName("host", r.host))
            throw BadField(*bad);
    }
    if (j.contains("binding"))
        r.binding = bindingFromJson(j.at("binding"));

    const Block c(j, "config", "config");
    PipelineConfig& config = r.config;
    c.get("device", config.device);
    c.get("elements", config.elements);
    c.get("value", config.value);
    c.get("threads_per_block", config.threadsPerBlock);
    config.chunks = 1;  // reports from before chunked workloads
    c.getOr("chunks", config.chunks);
    config.streams = 1;
    c.getOr("streams", config.streams);
    config.order = c.choiceOr("order", IssueOrder::ByChunk);
    config.submission = c.choiceOr("submission", Submission::Stream);
    c.get("runs", config.runs);
    c.get("warmup_runs", config.warmupRuns);
    config.hostMemory = c.choice<HostMemory>("host_memory");
    // Reports from before the memory lab: copy-engine copies; the managed options as the CLI sets them.
    config.copy = c.choiceOr("copy", CopyMechanism::CopyEngine);
    config.managedMigration = c.choiceOr("managed_migration", ManagedMigration::Prefetch);
    config.managedAdvice = c.choiceOr("managed_advice", ManagedAdvice::None);
    config.preferOverlap = false;
    c.getOr("prefer_overlap", config.preferOverlap);
    config.waitMode = c.choice<WaitMode>("wait");
    config.checkMode = c.choiceOr("check", CheckMode::Serial);  // reports from before overlapped checking
    config.checkThreads = 0;
    c.getOr("check_threads", config.checkThreads);
    c.get("stage_events", config.stageEvents);
    config.profilerRange = false;
    c.getOr("profiler_range", config.profilerRange);
    config.traceSource = c.choiceOr("trace_source", TraceSource::Events);
    config.stopRule = c.choiceOr("stop_rule", StopRule::Fixed);
    c.getOr("target_noise_percent", config.targetNoisePercent);
    c.getOr("min_runs", config.minRuns);
    c.getOr("min_gpu_ms", config.minGpuMs);
    c.getOr("timeout_s", config.timeoutS);
    if (auto bad = checkConfig(config))
        throw BadField(*bad);

    if (j.contains("calibration"))
        r.peak = peakFrom(Block(j, "calibration", "calibration"));
    if (j.contains("pinned_peak"))
        r.pinnedPeak = peakFrom(Block(j, "pinned_peak", "pinned_peak"));
    if (j.contains("machine"))
        r.machine = machineFrom(Block(j, "machine", "machine"));
    // "findings" and "not_checked" are for people and tools: the rules judge the series again when it is read.
    if (j.contains("outcome")) {
        const Block o(j, "outcome", "outcome");
        SeriesOutcome outcome;
        o.get("measured_runs", outcome.measuredRuns);
        if (outcome.measuredRuns < 0)
            refuse(o.path("measured_runs"), std::to_string(outcome.measuredRuns), "0 or more");
        outcome.reason = o.choice<StopReason>("stop_reason");
        outcome.noisePercent = 0.0;
        o.getOr("noise_percent", outcome.noisePercent);
        checkAmount(o, "noise_percent", outcome.noisePercent, "percent");
        o.getOr("trace_note", outcome.traceNote);
        if (auto bad = checkNote(o.path("trace_note"), outcome.traceNote))
            throw BadField(*bad);
        // Registered host memory only; a report from before the memory lab has none.
        for (auto [key, ms] : { std::pair { "host_register_ms", &outcome.hostRegisterMs },
                 std::pair { "host_unregister_ms", &outcome.hostUnregisterMs } }) {
            if (o.has(key)) {
                double value = 0.0;
                o.get(key, value);
                *ms = value;
            }
        }
        o.getOr("host_registered_bytes", outcome.hostRegisteredBytes);
        if (auto bad = checkHostRegistration(outcome, "outcome."))
            throw BadField(*bad);
        r.outcome = outcome;
    }
    return r;
}

// The header key a field lies under: "config" for "config.streams", "fields" for "fields.run[2]".
std::string_view keyOf(std::string_view field)
{
    return field.substr(0, std::min(field.find('.'), field.find('[')));
}

}  // namespace

json deviceToJson(const DeviceInfo& d)
{
    const DeviceTopology& t = d.topology;
    json topology = { { "numa_node", t.numaNode ? json(*t.numaNode) : json(nullptr) }, { "local_cpus", t.localCpus },
        { "current_link", linkJson(t.current) }, { "max_link", linkJson(t.max) },
        { "nominal_gbps", t.nominalGBps() } };
    if (!t.note.empty())
        topology["note"] = t.note;
    return { { "index", d.index }, { "name", d.name }, { "uuid", d.uuid }, { "pci_bus_id", d.pciBusId },
        { "compute_capability", d.computeCapability() }, { "multiprocessors", d.multiprocessors },
        { "total_memory_bytes", d.totalMemoryBytes }, { "async_engine_count", d.asyncEngineCount },
        { "clock_khz", d.clockKHz }, { "topology", std::move(topology) } };
}

DeviceInfo deviceFromJson(const json& d)
{
    const Block b(d, "device");
    DeviceInfo device;
    b.get("index", device.index);
    b.get("name", device.name);
    b.getOr("uuid", device.uuid);
    b.getOr("pci_bus_id", device.pciBusId);
    std::string cc = "0.0";
    b.getOr("compute_capability", cc);
    if (auto bad = parseComputeCapability(b.path("compute_capability"), cc, device.computeMajor, device.computeMinor))
        throw BadField(*bad);
    b.getOr("multiprocessors", device.multiprocessors);
    b.getOr("total_memory_bytes", device.totalMemoryBytes);
    b.getOr("async_engine_count", device.asyncEngineCount);
    b.getOr("clock_khz", device.clockKHz);
    if (b.has("topology")) {  // reports from before topology leave it unknown
        const Block t(b.object(), "topology", b.path("topology"));
        DeviceTopology& topology = device.topology;
        t.getOrNull("numa_node", topology.numaNode);
        t.getOr("local_cpus", topology.localCpus);
        if (auto bad = checkName(t.path("local_cpus"), topology.localCpus))
            throw BadField(*bad);
        for (auto [key, link] :
            { std::pair { "current_link", &topology.current }, std::pair { "max_link", &topology.max } }) {
            if (!t.has(key))
                continue;
            const Block l(t.object(), key, t.path(key));
            l.getOr("speed", link->speed);
            if (auto bad = checkName(l.path("speed"), link->speed))
                throw BadField(*bad);
            l.getOr("generation", link->generation);
            l.getOr("width", link->width);
        }
        t.getOr("note", topology.note);
        if (auto bad = checkNote(t.path("note"), topology.note))
            throw BadField(*bad);
    }
    if (auto bad = checkDevice(device))
        throw BadField(*bad);
    return device;
}

json bindingToJson(const CpuBinding& b)
{
    json j = { { "bound", b.bound }, { "text", b.text() } };
    if (b.bound) {
        j["cpus"] = b.cpus;
        j["numa_node"] = b.numaNode ? json(*b.numaNode) : json(nullptr);
    } else {
        j["why"] = b.why;
    }
    return j;
}

CpuBinding bindingFromJson(const json& b)
{
    const Block block(b, "binding");
    CpuBinding binding;
    block.get("bound", binding.bound);
    block.getOr("cpus", binding.cpus);
    if (auto bad = checkName(block.path("cpus"), binding.cpus))
        throw BadField(*bad);
    block.getOrNull("numa_node", binding.numaNode);
    block.getOr("why", binding.why);
    if (auto bad = checkNote(block.path("why"), binding.why))
        throw BadField(*bad);
    return binding;
}

namespace json_header {

json findingsJson(const Advice& advice)
{
    json list = json::array();
    for (const Finding& f : advice.findings) {
        json runs = json::array();
        for (const RunRange& r : f.runs)
            runs.push_back({ r.first, r.last });
        list.push_back({ { "rule", f.rule }, { "title", f.title }, { "severity", nameOf(f.severity) },
            { "evidence", f.evidence }, { "action", f.action }, { "run_ranges", std::move(runs) }, { "stages", f.stages } });
    }
    return list;
}

json notCheckedJson(const Advice& advice)
{
    json list = json::array();
    for (const NotChecked& n : advice.notChecked)
        list.push_back({ { "rule", n.rule }, { "why", n.why } });
    return list;
}

// Everything but the runs, in the order the file shows it.
ordered_json headerJson(const Report& report, const SeriesSummary& summary, const Layout& layout)
{
    ordered_json j;
    j["format"] = kReportFormatName;
    j["format_version"] = kReportFormatVersion;
    if (!report.host.empty())
        j["host"] = report.host;
    j["device"] = deviceJson(report);
    if (report.binding)
        j["binding"] = bindingToJson(*report.binding);
    j["config"] = configJson(report.config);
    j["summary"] = summaryJson(summary);
    if (report.peak)
        j["calibration"] = peakJson(*report.peak);
    if (report.pinnedPeak)
        j["pinned_peak"] = peakJson(*report.pinnedPeak);
    if (report.outcome) {
        j["outcome"] = { { "measured_runs", report.outcome->measuredRuns },
            { "stop_reason", nameOf(report.outcome->reason) }, { "noise_percent", report.outcome->noisePercent } };
        if (!report.outcome->traceNote.empty())
            j["outcome"]["trace_note"] = report.outcome->traceNote;
        if (report.outcome->hostRegisterMs) {
            j["outcome"]["host_register_ms"] = *report.outcome->hostRegisterMs;
            if (report.outcome->hostUnregisterMs)
                j["outcome"]["host_unregister_ms"] = *report.outcome->hostUnregisterMs;
            j["outcome"]["host_registered_bytes"] = report.outcome->hostRegisteredBytes;
        }
    }
    if (report.machine)
        j["machine"] = machineJson(*report.machine);
    const Advice advice = judgeSeries(report, summary);
    j["findings"] = findingsJson(advice);
    j["not_checked"] = notCheckedJson(advice);
    j["fields"] = { { "run", runFieldNames(layout) }, { "span", spanFieldNames(layout) } };
    return j;
}

BadField::BadField(const FieldProblem& p)
    : nlohmann::json::exception(0, fieldError("", "", p).detail.c_str())
    , problem(p)
{
}

Error headerError(const BadField& bad, const WhereOf& where)
{
    return fieldError("", where ? where(keyOf(bad.problem.field)) : std::string(), bad.problem);
}

int formatVersion(const json& header)
{
    if (!header.contains("format_version"))
        return 1;
    const json& version = header.at("format_version");
    const double value = version.is_number() ? version.get<double>() : std::numeric_limits<double>::quiet_NaN();
    if (auto bad = checkFormatVersion(value, kReportFormatVersion)) {
        bad->found = quotedJson(version);  // as the file gives it: 18446744073709551615, not 1.8e19
        throw BadField(*bad);
    }
    return int(value);
}

Layout layoutFrom(const json& header)
{
    Layout layout = Layout::full();
    if (!header.contains("fields"))
        return layout;
    const json& lists = header.at("fields");
    if (!lists.is_object())
        refuse("fields", quotedJson(lists), "an object of lists");
    if (lists.contains("run"))
        layout.run = fieldsNamed<RunKey>(lists, "run", kRunKeyNames);
    if (lists.contains("span")) {
        layout.span = fieldsNamed<SpanField>(lists, "span", kSpanFieldNames);
        for (const SpanField needed : { SpanField::Kind, SpanField::BeginMs, SpanField::EndMs }) {
            if (!layout.has(needed))
                refuse("fields.span", std::string("without ") + kSpanFieldNames[int(needed)],
                    "a list of names that holds kind, begin_ms and end_ms");
        }
    }
    return layout;
}

Result<Report> readHeader(const json& header, const WhereOf& where)
{
    try {
        return headerReport(header);
    } catch (const BadField& e) {
        return headerError(e, where);
    } catch (const json::exception&) {  // every field is checked before it is taken: not expected
        return makeError(ErrorKind::Io, (where ? where("") + ": " : std::string()) +
                "the header holds a value of a kind no field takes");
    }
}

}  // namespace json_header
}  // namespace asyncscope
