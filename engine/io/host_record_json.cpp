#include "engine/io/host_record_json.hpp"

#include "engine/io/bounded_json.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/json/device_json.hpp"
#include "engine/io/json/document_reader.hpp"
#include "engine/io/json/json_block.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/model/record_rules.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace asyncscope {

using nlohmann::json;
using nlohmann::ordered_json;
using json_header::Block;
using json_header::Range;
using json_header::refuse;
using json_header::refuseIf;
using json_header::Wording;

namespace {

constexpr std::uint64_t kMaxSlurmTask = 10'000'000;  // far beyond any job's task count

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

// A record that is not one, in words of its own (a field's problem is a json_header::BadField).
struct BadRecord : std::runtime_error {
    using std::runtime_error::runtime_error;
};

constexpr Wording kRecord = Wording::Record;

// A whole number from `least` up to what an int holds.
constexpr Range upToInt(std::int64_t least)
{
    return { least, std::uint64_t(std::numeric_limits<int>::max()) };
}

// An error as a record holds it: an object whose fields are text (and a whole-number code).
Error errorAt(const json& v, const std::string& field)
{
    const Block e(v, field, kRecord);
    for (const char* key : { "kind", "message", "api", "code_name", "detail", "advice" }) {
        std::string text;
        e.getOr(key, text);
    }
    int code = 0;
    e.getOr("code", code);
    return errorFromJson(v);
}

std::optional<Comparison> comparisonFrom(const Block& record)
{
    if (!record.has("comparison"))
        return std::nullopt;
    std::string name;
    record.get("comparison", name);
    if (name == "series")
        return std::nullopt;
    if (const auto c = parseName<Comparison>(name))
        return c;
    refuse("comparison", record.quotedName(name), "series, " + acceptedNames<Comparison>());
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
        refuse(field, quotedJson(r, false), "an object");
    TextStream text(*kept);
    auto report = readJson(text);
    if (!report)
        throw BadRecord(field + ": " + report.error().detail);
    const std::string prefix = field + ".";
    refuseIf(checkConfig(report->config), prefix);
    refuseIf(checkDevice(report->device), prefix);
    for (std::size_t i = 0; i < report->runs.size(); ++i)
        refuseIf(checkRun(report->runs[i], report->config), prefix + "run " + std::to_string(i + 1) + ": ");
    return std::move(*report);
}

VariantResult variantFrom(const json& v, const std::string& place, const std::string& document)
{
    const Block b(v, place, kRecord);
    VariantResult variant;
    b.getOr("label", variant.label);
    refuseIf(checkName(b.path("label"), variant.label));
    if (const json* notRun = b.find("not_run"))
        variant.notRun = errorAt(*notRun, b.path("not_run"));
    if (const json* failure = b.find("failure"))
        variant.failure = errorAt(*failure, b.path("failure"));
    variant.report = reportAt(b.need("report", "an object"), b.path("report"), document);
    return variant;
}

AggregateBandwidth aggregateAt(const json& a, std::size_t devices)
{
    const Block b(a, "aggregate", kRecord);
    AggregateBandwidth aggregate;
    b.get("devices", aggregate.devices, Range { 0, devices });
    b.get("overlap_ms", aggregate.overlapMs);
    refuseIf(checkDurationMs(b.path("overlap_ms"), aggregate.overlapMs));
    b.get("bytes", aggregate.bytes, Range { 0, std::uint64_t(std::numeric_limits<std::int64_t>::max()) });
    b.get("gbps", aggregate.gbps);
    checkAmount(b, "gbps", aggregate.gbps, "GB/s");
    return aggregate;
}

DeviceResult deviceResultFrom(const json& v, const std::string& place, std::optional<Comparison> comparison,
    const std::string& document)
{
    const Block d(v, place, kRecord);
    DeviceResult result;
    result.device = deviceFrom(Block(d.object(), "device", d.path("device"), kRecord));
    if (d.has("binding"))
        result.binding = bindingFrom(Block(d.object(), "binding", d.path("binding"), kRecord));
    const json& variants = d.list("variants");
    if (variants.size() > kMaxPlanVariants)
        refuse(d.path("variants"), std::to_string(variants.size()) + " variants",
            "at most " + std::to_string(kMaxPlanVariants) + " (the longest plan)");
    for (std::size_t k = 0; k < variants.size(); ++k)
        result.plan.variants.push_back(
            variantFrom(variants[k], d.path("variants") + "[" + std::to_string(k) + "]", document));
    result.plan.comparison = comparison;
    result.plan.planned = result.plan.variants.size();
    d.getOr("planned", result.plan.planned, Range { std::int64_t(result.plan.variants.size()), kMaxPlanVariants });
    return result;
}

HostReport hostFrom(const json& j, const std::string& document)
{
    if (!j.is_object() || !j.contains("format") || !j.at("format").is_string() ||
        j.at("format").get_ref<const std::string&>() != kHostRecordFormat)
        throw BadRecord("not an AsyncScope host record (its format is not " + std::string(kHostRecordFormat) + ")");
    const Block record(j, "", kRecord);
    const json& version = record.need("format_version", "");
    if (!version.is_number())
        refuse("format_version", record.quoted(version),
            "a whole number from 1 to " + std::to_string(kHostRecordVersion));
    refuseIf(checkFormatVersion(version.get<double>(), kHostRecordVersion));
    HostReport host;
    record.get("host", host.host);
    refuseIf(checkName("host", host.host));
    host.mode = record.choiceOr("mode", DeviceMode::OneAtATime);
    host.comparison = comparisonFrom(record);
    record.getOr("driver_version", host.driverVersion, upToInt(0));
    record.getOr("runtime_version", host.runtimeVersion, upToInt(0));
    if (const json* error = record.find("error"))
        host.error = errorAt(*error, "error");
    if (const json* slurm = record.find("slurm")) {
        const Block s(*slurm, "slurm", kRecord);
        SlurmTask task;
        s.get("job", task.job);
        refuseIf(checkName("slurm.job", task.job));
        s.get("node", task.node);
        refuseIf(checkName("slurm.node", task.node));
        s.get("task", task.task, Range { 0, kMaxSlurmTask });
        host.slurm = std::move(task);
    }
    const json& devices = record.list("devices");
    if (const json* a = record.find("aggregate"))
        host.aggregate = aggregateAt(*a, devices.size());
    for (std::size_t i = 0; i < devices.size(); ++i)
        host.devices.push_back(
            deviceResultFrom(devices[i], "devices[" + std::to_string(i) + "]", host.comparison, document));
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

void writeHostRecordJson(
    std::ostream& out, const HostReport& host, const std::vector<std::vector<Assessment>>& assessed)
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
        for (std::size_t k = 0; k < d.plan.variants.size(); ++k) {
            const VariantResult& v = d.plan.variants[k];
            out << (k ? ",\n        {" : "\n        {") << "\"label\": " << json(v.label).dump(-1, ' ', false, replace);
            if (v.notRun)
                out << ", \"not_run\": " << errorToJson(*v.notRun).dump(-1, ' ', false, replace);
            if (v.failure)
                out << ", \"failure\": " << errorToJson(*v.failure).dump(-1, ' ', false, replace);
            out << ", \"report\":\n";
            writeJsonDocument(out, v.report, assessed.at(i).at(k));
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
    } catch (const json_header::BadField& e) {
        return makeError(ErrorKind::Io, e.what());
    } catch (const BadRecord& e) {
        return makeError(ErrorKind::Io, e.what());
    } catch (const std::exception&) {  // a reader below met what its checks did not foresee
        return makeError(ErrorKind::Io, "the record is not one AsyncScope writes");
    }
}

}  // namespace asyncscope
