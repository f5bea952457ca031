#include "engine/io/json/header_blocks.hpp"

#include <algorithm>
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
        { "host_memory", nameOf(c.hostMemory) }, { "wait", nameOf(c.waitMode) }, { "check", nameOf(c.checkMode) },
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

using json_header::BadField;

template <class Enum>
Enum choiceAt(const json& object, const char* path, const char* key)
{
    if (!object.contains(key))
        throw BadField(std::string(path) + key + " missing");
    if (!object.at(key).is_string())
        throw BadField(std::string(path) + key + " is not a name: " + object.at(key).dump());
    const std::string text = object.at(key).get<std::string>();
    if (const auto value = parseName<Enum>(text))
        return *value;
    throw BadField(std::string(path) + key + ": '" + text + "' is not " + acceptedNames<Enum>());
}

// The fields a list of names gives, in its order; a name this version does not know is a field it passes over.
template <class Field, std::size_t N>
std::vector<Field> fieldsNamed(const json& lists, const char* key, const char* const (&names)[N])
{
    const json& list = lists.at(key);
    if (!list.is_array())
        throw BadField(std::string("fields.") + key + " is not a list of names");
    std::vector<Field> fields;
    for (const json& name : list) {
        if (!name.is_string())
            throw BadField(std::string("fields.") + key + " holds something that is not a name");
        const auto* at = std::find(std::begin(names), std::end(names), name.get_ref<const std::string&>());
        fields.push_back(Field(at - std::begin(names)));  // one past the names: Unknown
    }
    return fields;
}

// A header block's fields, each error naming the field: "config.runs is not a whole number", "config.runs missing".
class Block {
public:
    Block(const json& parent, const char* key, std::string path) : m_path(std::move(path))
    {
        if (!parent.contains(key))
            throw BadField(m_path + " missing");
        m_object = &parent.at(key);
        if (!m_object->is_object())
            throw BadField(m_path + " is not an object");
        m_path += '.';
    }
    const json& object() const { return *m_object; }
    bool has(const char* key) const { return m_object->contains(key); }

    // A field that must be there.
    template <class T>
    void get(const char* key, T& out) const
    {
        if (!has(key))
            throw BadField(m_path + key + " missing");
        read(key, out);
    }
    // A field that may be left out: `out` keeps what it holds then.
    template <class T>
    void getOr(const char* key, T& out) const
    {
        if (has(key))
            read(key, out);
    }
    template <class Enum>
    Enum choice(const char* key) const { return choiceAt<Enum>(*m_object, m_path.c_str(), key); }
    template <class Enum>
    Enum choiceOr(const char* key, Enum fallback) const
    {
        return has(key) ? choice<Enum>(key) : fallback;
    }

private:
    template <class T>
    void read(const char* key, T& out) const
    {
        const json& v = m_object->at(key);
        if constexpr (std::is_same_v<T, bool>) {
            if (!v.is_boolean())
                throw BadField(m_path + key + " is not true or false");
        } else if constexpr (std::is_integral_v<T>) {
            const bool fits = v.is_number_unsigned()
                ? v.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<T>::max())
                : v.is_number_integer() && v.get<std::int64_t>() >= std::int64_t(std::numeric_limits<T>::min()) &&
                    (v.get<std::int64_t>() < 0 ||
                        std::uint64_t(v.get<std::int64_t>()) <= std::uint64_t(std::numeric_limits<T>::max()));
            if (!fits)
                throw BadField(m_path + key + " is not a whole number in range: " + v.dump());
        } else if constexpr (std::is_floating_point_v<T>) {
            if (!v.is_number())
                throw BadField(m_path + key + " is not a number");
        } else {
            if (!v.is_string())
                throw BadField(m_path + key + " is not text");
        }
        out = v.get<T>();
    }

    const json* m_object = nullptr;
    std::string m_path;
};

Report headerReport(const json& j)
{
    json_header::formatVersion(j);
    Report r;
    const Block d(j, "device", "device");
    try {
        r.device = deviceFromJson(d.object());
    } catch (const json::exception& e) {
        throw BadField("device: " + std::string(e.what()));
    }
    d.getOr("driver_version", r.driverVersion);
    d.getOr("runtime_version", r.runtimeVersion);
    if (j.contains("host")) {
        if (!j.at("host").is_string())
            throw BadField("host is not text");
        r.host = j.at("host").get<std::string>();
    }
    if (j.contains("binding")) {
        const Block b(j, "binding", "binding");
        try {
            r.binding = bindingFromJson(b.object());
        } catch (const json::exception& e) {
            throw BadField("binding: " + std::string(e.what()));
        }
    }

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

    if (j.contains("calibration")) {
        const Block k(j, "calibration", "calibration");
        CopyPeak peak;
        k.get("h2d_gbps", peak.h2dGBps);
        k.get("d2h_gbps", peak.d2hGBps);
        k.get("bytes", peak.bytes);
        peak.fromCache = false;
        k.getOr("cached", peak.fromCache);
        peak.bidirectionalGBps = 0.0;
        k.getOr("bidirectional_gbps", peak.bidirectionalGBps);
        r.peak = peak;
    }
    if (j.contains("outcome")) {
        const Block o(j, "outcome", "outcome");
        SeriesOutcome outcome;
        o.get("measured_runs", outcome.measuredRuns);
        outcome.reason = o.choice<StopReason>("stop_reason");
        outcome.noisePercent = 0.0;
        o.getOr("noise_percent", outcome.noisePercent);
        o.getOr("trace_note", outcome.traceNote);
        r.outcome = outcome;
    }
    return r;
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
    DeviceInfo device;
    device.index = d.at("index");
    device.name = d.at("name");
    device.uuid = d.value("uuid", "");
    device.pciBusId = d.value("pci_bus_id", "");
    const std::string cc = d.value("compute_capability", "0.0");
    device.computeMajor = std::stoi(cc);
    device.computeMinor = std::stoi(cc.substr(cc.find('.') + 1));
    device.multiprocessors = d.value("multiprocessors", 0);
    device.totalMemoryBytes = d.value("total_memory_bytes", std::size_t(0));
    device.asyncEngineCount = d.value("async_engine_count", 0);
    device.clockKHz = d.value("clock_khz", 0);
    if (d.contains("topology")) {  // reports from before topology leave it unknown
        const json& t = d.at("topology");
        DeviceTopology& topology = device.topology;
        if (t.contains("numa_node") && !t.at("numa_node").is_null())
            topology.numaNode = t.at("numa_node").get<int>();
        topology.localCpus = t.value("local_cpus", "");
        for (auto [key, link] :
            { std::pair { "current_link", &topology.current }, std::pair { "max_link", &topology.max } }) {
            if (!t.contains(key))
                continue;
            const json& l = t.at(key);
            link->speed = l.value("speed", "");
            link->generation = l.value("generation", 0);
            link->width = l.value("width", 0);
        }
        topology.note = t.value("note", "");
    }
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
    CpuBinding binding;
    binding.bound = b.at("bound");
    binding.cpus = b.value("cpus", "");
    if (b.contains("numa_node") && !b.at("numa_node").is_null())
        binding.numaNode = b.at("numa_node").get<int>();
    binding.why = b.value("why", "");
    return binding;
}

namespace json_header {

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
        j["calibration"] = { { "h2d_gbps", report.peak->h2dGBps }, { "d2h_gbps", report.peak->d2hGBps },
            { "bidirectional_gbps", report.peak->bidirectionalGBps }, { "bytes", report.peak->bytes },
            { "cached", report.peak->fromCache } };
    if (report.outcome) {
        j["outcome"] = { { "measured_runs", report.outcome->measuredRuns },
            { "stop_reason", nameOf(report.outcome->reason) }, { "noise_percent", report.outcome->noisePercent } };
        if (!report.outcome->traceNote.empty())
            j["outcome"]["trace_note"] = report.outcome->traceNote;
    }
    j["fields"] = { { "run", runFieldNames(layout) }, { "span", spanFieldNames(layout) } };
    return j;
}

int formatVersion(const json& header)
{
    if (!header.contains("format_version"))
        return 1;
    const json& version = header.at("format_version");
    if (!version.is_number_integer())
        throw BadField("format_version " + version.dump() + " is not a whole number");
    const bool inRange = version.is_number_unsigned()
        ? version.get<std::uint64_t>() <= std::uint64_t(kReportFormatVersion)
        : version.get<std::int64_t>() <= std::int64_t(kReportFormatVersion);
    if (!inRange || version.get<std::int64_t>() < 1)
        throw BadField("format_version " + version.dump() + " is not one this AsyncScope reads (1 to " +
            std::to_string(kReportFormatVersion) + "); a newer AsyncScope wrote it?");
    return version.get<int>();
}

Layout layoutFrom(const json& header)
{
    Layout layout = Layout::full();
    if (!header.contains("fields"))
        return layout;
    const json& lists = header.at("fields");
    if (!lists.is_object())
        throw BadField("fields is not an object of lists");
    if (lists.contains("run"))
        layout.run = fieldsNamed<RunKey>(lists, "run", kRunKeyNames);
    if (lists.contains("span")) {
        layout.span = fieldsNamed<SpanField>(lists, "span", kSpanFieldNames);
        for (const SpanField needed : { SpanField::Kind, SpanField::BeginMs, SpanField::EndMs }) {
            if (!layout.has(needed))
                throw BadField(std::string("fields.span does not name ") + kSpanFieldNames[int(needed)]);
        }
    }
    return layout;
}

Result<Report> readHeader(const json& header)
{
    try {
        return headerReport(header);
    } catch (const BadField& e) {
        return makeError(ErrorKind::Io, e.what());
    } catch (const json::exception& e) {
        return makeError(ErrorKind::Io, std::string("the report is incomplete: ") + e.what());
    } catch (const std::exception& e) {
        return makeError(ErrorKind::Io, std::string("the report has a malformed field: ") + e.what());
    }
}

}  // namespace json_header
}  // namespace asyncscope
