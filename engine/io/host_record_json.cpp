#include "engine/io/host_record_json.hpp"

#include "engine/io/bounded_json.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/json/document_reader.hpp"
#include "engine/io/json/header_blocks.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/model/record_rules.hpp"
#include "engine/run/plan_advice.hpp"
#include "engine/run/plan_summary.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string_view>

namespace asyncscope {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

constexpr std::int64_t kMaxSlurmTask = 10'000'000;  // far beyond any job's task count

// Everything before the devices, indented; the devices are written after it, each report as writeJsonDocument lays
// it out.
ordered_json headerJson(const HostReport& host)
{
    ordered_json j;
    j["format"] = kHostRecordFormat;
    j["format_version"] = kHostRecordVersion;
    j["host"] = host.host;
    j["mode"] = nameOf(host.mode);
    j["comparison"] = host.comparison ? nameOf(*host.comparison) : "series";
    j["driver_version"] = host.driverVersion;
    j["runtime_version"] = host.runtimeVersion;
    if (host.error)
        j["error"] = errorToJson(*host.error);
    if (host.slurm)
        j["slurm"] = { { "job", host.slurm->job }, { "node", host.slurm->node }, { "task", host.slurm->task } };
    if (host.aggregate) {
        const AggregateBandwidth& a = *host.aggregate;
        j["aggregate"] = { { "devices", a.devices }, { "overlap_ms", a.overlapMs }, { "bytes", a.bytes },
            { "gbps", a.gbps } };
    }
    return j;
}

struct BadRecord : std::runtime_error {
    using std::runtime_error::runtime_error;
};

[[noreturn]] void refuse(const FieldProblem& p)
{
    throw BadRecord(p.field + " is " + (p.found.empty() ? std::string("empty") : quotedValue(p.found)) +
        "; accepted: " + p.accepted);
}

void refuseIf(const FieldCheck& check, const std::string& prefix = {})
{
    if (!check)
        return;
    FieldProblem p = *check;
    p.field = prefix + p.field;
    refuse(p);
}

// What a value is, as a message quotes it: never the whole value, never serialized (a list may nest deep).
std::string found(const json& v)
{
    switch (v.type()) {
    case json::value_t::string: return "\"" + quotedValue(v.get_ref<const std::string&>()) + "\"";
    case json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case json::value_t::number_integer: return std::to_string(v.get<std::int64_t>());
    case json::value_t::number_unsigned: return std::to_string(v.get<std::uint64_t>());
    case json::value_t::number_float: return quotedNumber(v.get<double>());
    case json::value_t::null: return "null";
    case json::value_t::array: return "a list";
    case json::value_t::object: return "an object";
    default: return "a value of another kind";
    }
}

const json* find(const json& object, const char* key)
{
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

const json& need(const json& object, const char* key, const std::string& field)
{
    if (const json* v = find(object, key))
        return *v;
    throw BadRecord(field + " is missing");
}

const json& objectAt(const json& v, const std::string& field)
{
    if (!v.is_object())
        refuse({ field, found(v), "an object" });
    return v;
}

const json& listAt(const json& v, const std::string& field)
{
    if (!v.is_array())
        refuse({ field, found(v), "a list" });
    return v;
}

std::string textAt(const json& v, const std::string& field)
{
    if (!v.is_string())
        refuse({ field, found(v), "text" });
    return v.get<std::string>();
}

// Optional text: `fallback` when the field is absent.
std::string textOr(const json& object, const char* key, const std::string& prefix, const std::string& fallback = {})
{
    const json* v = find(object, key);
    return v ? textAt(*v, prefix + key) : fallback;
}

std::int64_t wholeAt(const json& v, const std::string& field, std::int64_t min, std::int64_t max)
{
    const bool whole = v.is_number_integer() &&
        (!v.is_number_unsigned() || v.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<std::int64_t>::max()));
    if (!whole || v.get<std::int64_t>() < min || v.get<std::int64_t>() > max)
        refuse({ field, found(v), "a whole number from " + std::to_string(min) + " to " + std::to_string(max) });
    return v.get<std::int64_t>();
}

int intOr(const json& object, const char* key, const std::string& prefix, int min, int fallback = 0)
{
    const json* v = find(object, key);
    return v ? int(wholeAt(*v, prefix + key, min, std::numeric_limits<int>::max())) : fallback;
}

double numberAt(const json& v, const std::string& field)
{
    if (!v.is_number())
        refuse({ field, found(v), "a number" });
    return v.get<double>();
}

std::optional<int> nodeOr(const json& object, const char* key, const std::string& prefix)
{
    const json* v = find(object, key);
    if (!v || v->is_null())
        return std::nullopt;
    return int(wholeAt(*v, prefix + key, -1, std::numeric_limits<int>::max()));
}

// An error as a record holds it: an object whose fields are text (and a whole-number code).
Error errorAt(const json& v, const std::string& field)
{
    objectAt(v, field);
    const std::string prefix = field + ".";
    for (const char* key : { "kind", "message", "api", "code_name", "detail", "advice" })
        textOr(v, key, prefix);
    intOr(v, "code", prefix, std::numeric_limits<int>::min());
    return errorFromJson(v);
}

// The device block: every field the record may hold checked for its type and range before it is taken, then the
// device as a whole against the rules every reader applies.
DeviceInfo deviceAt(const json& d, const std::string& field)
{
    objectAt(d, field);
    const std::string prefix = field + ".";
    int major = 0, minor = 0;
    wholeAt(need(d, "index", prefix + "index"), prefix + "index", 0, std::numeric_limits<int>::max());
    refuseIf(checkName(prefix + "name", textAt(need(d, "name", prefix + "name"), prefix + "name")));
    refuseIf(checkName(prefix + "uuid", textOr(d, "uuid", prefix)));
    refuseIf(checkName(prefix + "pci_bus_id", textOr(d, "pci_bus_id", prefix)));
    refuseIf(parseComputeCapability(prefix + "compute_capability", textOr(d, "compute_capability", prefix, "0.0"),
        major, minor));
    for (const char* key : { "multiprocessors", "async_engine_count", "clock_khz" })
        intOr(d, key, prefix, 0);
    if (const json* bytes = find(d, "total_memory_bytes"))
        wholeAt(*bytes, prefix + "total_memory_bytes", 0, std::numeric_limits<std::int64_t>::max());
    if (const json* t = find(d, "topology")) {
        const std::string at = prefix + "topology.";
        objectAt(*t, prefix + "topology");
        nodeOr(*t, "numa_node", at);
        textOr(*t, "local_cpus", at);
        textOr(*t, "note", at);
        for (const char* key : { "current_link", "max_link" }) {
            if (const json* link = find(*t, key)) {
                objectAt(*link, at + key);
                textOr(*link, "speed", at + key + ".");
                intOr(*link, "generation", at + key + ".", 0);
                intOr(*link, "width", at + key + ".", 0);
            }
        }
    }
    DeviceInfo device;
    try {
        device = deviceFromJson(d);
    } catch (const std::exception&) {
        throw BadRecord(field + " is not a device's record");
    }
    device.computeMajor = major;  // as parsed above: "9" is refused there, never read as 9.9
    device.computeMinor = minor;
    refuseIf(checkDevice(device), field.substr(0, field.rfind('.') + 1));
    return device;
}

CpuBinding bindingAt(const json& b, const std::string& field)
{
    objectAt(b, field);
    const std::string prefix = field + ".";
    if (!need(b, "bound", prefix + "bound").is_boolean())
        refuse({ prefix + "bound", found(b.at("bound")), "true or false" });
    textOr(b, "cpus", prefix);
    textOr(b, "why", prefix);
    textOr(b, "text", prefix);
    nodeOr(b, "numa_node", prefix);
    try {
        return bindingFromJson(b);
    } catch (const std::exception&) {
        throw BadRecord(field + " is not a CPU binding's record");
    }
}

template <class Enum>
Enum choiceAt(const json& object, const char* key, Enum fallback)
{
    const json* v = find(object, key);
    if (!v)
        return fallback;
    const std::string name = textAt(*v, key);
    if (const auto parsed = parseName<Enum>(name))
        return *parsed;
    refuse({ key, "\"" + quotedValue(name) + "\"", acceptedNames<Enum>() });
}

std::optional<Comparison> comparisonFrom(const json& j)
{
    const json* v = find(j, "comparison");
    if (!v)
        return std::nullopt;
    const std::string name = textAt(*v, "comparison");
    if (name == "series")
        return std::nullopt;
    if (const auto c = parseName<Comparison>(name))
        return c;
    refuse({ "comparison", "\"" + quotedValue(name) + "\"", "series, " + acceptedNames<Comparison>() });
}

// Where in a record the series reports sit: kept as their text by the parse, for the series reader.
const std::vector<std::string> kReportPlace = { "devices", "[]", "variants", "[]", "report" };

// Text in memory as a stream, without a copy.
class TextStream : private std::streambuf, public std::istream {
public:
    explicit TextStream(std::string_view text)
        : std::istream(static_cast<std::streambuf*>(this))
    {
        char* begin = const_cast<char*>(text.data());  // only read: a get area never writes
        setg(begin, begin, begin + text.size());
    }
};

// A series report inside the record, read by the series reader from its own text and held to the same rules as
// every report.
Report reportAt(const json& r, const std::string& field, const std::string& document)
{
    const auto kept = keptText(document, r);
    if (!kept)
        refuse({ field, found(r), "an object" });
    TextStream text(*kept);
    auto report = readJson(text);
    if (!report)
        throw BadRecord(field + ": " + report.error().detail);
    const std::string prefix = field + ".";
    refuseIf(checkConfig(report->config), prefix);
    refuseIf(checkDevice(report->device), prefix);
    for (std::size_t i = 0; i < report->runs.size(); ++i) {
        if (auto bad = checkRun(report->runs[i], report->config)) {
            bad->field = "run " + std::to_string(i + 1) + ": " + bad->field;
            refuseIf(bad, prefix);
        }
    }
    return std::move(*report);
}

VariantResult variantFrom(const json& v, const std::string& place, const std::string& document)
{
    objectAt(v, place);
    const std::string prefix = place + ".";
    VariantResult variant;
    variant.label = textOr(v, "label", prefix);
    refuseIf(checkName(prefix + "label", variant.label));
    if (const json* notRun = find(v, "not_run"))
        variant.notRun = errorAt(*notRun, prefix + "not_run");
    if (const json* failure = find(v, "failure"))
        variant.failure = errorAt(*failure, prefix + "failure");
    variant.report = reportAt(need(v, "report", prefix + "report"), prefix + "report", document);
    return variant;
}

AggregateBandwidth aggregateAt(const json& a, std::size_t devices)
{
    objectAt(a, "aggregate");
    AggregateBandwidth aggregate;
    aggregate.devices = int(wholeAt(need(a, "devices", "aggregate.devices"), "aggregate.devices", 0,
        std::int64_t(devices)));
    aggregate.overlapMs = numberAt(need(a, "overlap_ms", "aggregate.overlap_ms"), "aggregate.overlap_ms");
    refuseIf(checkDurationMs("aggregate.overlap_ms", aggregate.overlapMs));
    aggregate.bytes = std::uint64_t(wholeAt(need(a, "bytes", "aggregate.bytes"), "aggregate.bytes", 0,
        std::numeric_limits<std::int64_t>::max()));
    aggregate.gbps = numberAt(need(a, "gbps", "aggregate.gbps"), "aggregate.gbps");
    if (!std::isfinite(aggregate.gbps) || aggregate.gbps < 0.0)
        refuse({ "aggregate.gbps", quotedNumber(aggregate.gbps), "a finite number of GB/s, 0 or more" });
    return aggregate;
}

HostReport hostFrom(const json& j, const std::string& document)
{
    if (!j.is_object() || !j.contains("format") || !j.at("format").is_string() ||
        j.at("format").get_ref<const std::string&>() != kHostRecordFormat)
        throw BadRecord("not an AsyncScope host record (its format is not " + std::string(kHostRecordFormat) + ")");
    const json& version = need(j, "format_version", "format_version");
    if (!version.is_number())
        refuse({ "format_version", found(version), "a whole number from 1 to " + std::to_string(kHostRecordVersion) });
    refuseIf(checkFormatVersion(version.get<double>(), kHostRecordVersion));
    HostReport host;
    host.host = textAt(need(j, "host", "host"), "host");
    refuseIf(checkName("host", host.host));
    host.mode = choiceAt(j, "mode", DeviceMode::OneAtATime);
    host.comparison = comparisonFrom(j);
    host.driverVersion = intOr(j, "driver_version", "", 0);
    host.runtimeVersion = intOr(j, "runtime_version", "", 0);
    if (const json* error = find(j, "error"))
        host.error = errorAt(*error, "error");
    if (const json* slurm = find(j, "slurm")) {
        objectAt(*slurm, "slurm");
        SlurmTask task;
        task.job = textAt(need(*slurm, "job", "slurm.job"), "slurm.job");
        refuseIf(checkName("slurm.job", task.job));
        task.node = textAt(need(*slurm, "node", "slurm.node"), "slurm.node");
        refuseIf(checkName("slurm.node", task.node));
        task.task = int(wholeAt(need(*slurm, "task", "slurm.task"), "slurm.task", 0, kMaxSlurmTask));
        host.slurm = std::move(task);
    }
    const json& devices = listAt(need(j, "devices", "devices"), "devices");
    if (const json* a = find(j, "aggregate"))
        host.aggregate = aggregateAt(*a, devices.size());
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const json& d = objectAt(devices[i], "devices[" + std::to_string(i) + "]");
        const std::string place = "devices[" + std::to_string(i) + "]";
        DeviceResult result;
        result.device = deviceAt(need(d, "device", place + ".device"), place + ".device");
        if (const json* binding = find(d, "binding"))
            result.binding = bindingAt(*binding, place + ".binding");
        const json& variants = listAt(need(d, "variants", place + ".variants"), place + ".variants");
        if (variants.size() > kMaxPlanVariants)
            refuse({ place + ".variants", std::to_string(variants.size()) + " variants",
                "at most " + std::to_string(kMaxPlanVariants) + " (the longest plan)" });
        for (std::size_t k = 0; k < variants.size(); ++k)
            result.plan.variants.push_back(
                variantFrom(variants[k], place + ".variants[" + std::to_string(k) + "]", document));
        result.plan.comparison = host.comparison;
        result.plan.planned = result.plan.variants.size();
        if (const json* planned = find(d, "planned"))
            result.plan.planned = std::size_t(wholeAt(*planned, place + ".planned",
                std::int64_t(result.plan.variants.size()), std::int64_t(kMaxPlanVariants)));
        host.devices.push_back(std::move(result));
    }
    return host;
}

}  // namespace

json errorToJson(const Error& error)
{
    json j = { { "kind", nameOf(error.kind) }, { "message", error.message() } };
    if (!error.api.empty())
        j["api"] = error.api;
    if (error.code != 0)
        j["code"] = error.code;
    if (!error.codeName.empty())
        j["code_name"] = error.codeName;
    j["detail"] = error.detail;
    if (!error.advice.empty())
        j["advice"] = error.advice;
    return j;
}

Error errorFromJson(const json& j)
{
    // Tolerant: a field of another type reads as absent, so that this never throws.
    const auto text = [&j](const char* key) {
        const auto it = j.is_object() ? j.find(key) : j.end();
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    Error e;
    e.kind = parseName<ErrorKind>(text("kind")).value_or(ErrorKind::Cuda);
    e.api = text("api");
    const auto code = j.is_object() ? j.find("code") : j.end();
    if (code != j.end() && code->is_number_integer() && code->get<std::int64_t>() >= std::numeric_limits<int>::min() &&
        code->get<std::int64_t>() <= std::numeric_limits<int>::max())
        e.code = code->get<int>();
    e.codeName = text("code_name");
    // A record written by hand may give only the message: it stands for the detail then.
    e.detail = j.is_object() && j.contains("detail") ? text("detail") : text("message");
    e.advice = text("advice");
    return e;
}

void writeHostRecordJson(std::ostream& out, const HostReport& host)
{
    // A text that is not well-formed UTF-8 is written with U+FFFD for each bad byte, never thrown on.
    constexpr auto replace = json::error_handler_t::replace;
    std::string text = headerJson(host).dump(2, ' ', false, replace);
    text.erase(text.size() - 2);  // "\n}": the devices come before the closing brace
    text += ",\n  \"devices\": [";
    out << text;
    for (std::size_t i = 0; i < host.devices.size(); ++i) {
        const DeviceResult& d = host.devices[i];
        out << (i ? ",\n    {" : "\n    {") << "\n      \"device\": " << deviceToJson(d.device).dump(-1, ' ', false, replace)
            << ",\n      \"binding\": " << bindingToJson(d.binding).dump(-1, ' ', false, replace)
            << ",\n      \"planned\": " << d.plan.planned << ",\n      \"variants\": [";
        // Each variant judged beside the device's other variants, as a comparison's file judges them.
        const std::vector<SeriesSummary> summaries = summarizePlan(d.plan);
        const std::vector<Advice> advice = advisePlan(d.plan, summaries);
        for (std::size_t k = 0; k < d.plan.variants.size(); ++k) {
            const VariantResult& v = d.plan.variants[k];
            out << (k ? ",\n        {" : "\n        {") << "\"label\": " << json(v.label).dump(-1, ' ', false, replace);
            if (v.notRun)
                out << ", \"not_run\": " << errorToJson(*v.notRun).dump(-1, ' ', false, replace);
            if (v.failure)
                out << ", \"failure\": " << errorToJson(*v.failure).dump(-1, ' ', false, replace);
            out << ", \"report\":\n";
            writeJsonDocument(out, v.report, summaries[k], advice[k]);
            out << "        }";
        }
        out << (d.plan.variants.empty() ? "]\n    }" : "\n      ]\n    }");
    }
    out << (host.devices.empty() ? "]\n}\n" : "\n  ]\n}\n");
}

Result<HostReport> readHostRecordJson(std::istream& in)
{
    std::string text;
    while (readMore(in, text, std::size_t(1) << 20) > 0) {
    }
    if (in.bad())
        return makeError(ErrorKind::Io, "cannot be read");
    return readHostRecordText(text);
}

Result<HostReport> readHostRecordText(const std::string& text)
{
    if (const auto nul = json_read::nulByteAt(text))
        return makeError(ErrorKind::Io, *nul + ": " + json_read::kNulByte);
    // Only the record's own keys are built (its series are kept as text, read by the series reader).
    const TreeLimits limits { { "format", "format_version", "host", "mode", "comparison", "driver_version",
                                  "runtime_version", "error", "slurm", "devices", "aggregate" },
        treeBytesLimit(text.size()), {} };
    auto j = parseBoundedJson(text, kReportPlace, limits);
    if (!j)
        return j.error();
    try {
        return hostFrom(*j, text);
    } catch (const BadRecord& e) {
        return makeError(ErrorKind::Io, e.what());
    } catch (const std::exception&) {  // a reader below met what its checks did not foresee
        return makeError(ErrorKind::Io, "the record is not one AsyncScope writes");
    }
}

}  // namespace asyncscope
