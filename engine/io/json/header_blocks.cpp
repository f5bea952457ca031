#include "engine/io/json/header_blocks.hpp"

#include "engine/io/bounded_json.hpp"
#include "engine/io/json/device_json.hpp"
#include "engine/io/json/machine_block.hpp"
#include "engine/io/json/program_block.hpp"
#include "engine/io/json/run_fields.hpp"
#include "engine/io/operation_costs_json.hpp"
#include "engine/model/advice.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

namespace asyncscope {

using nlohmann::json;
using nlohmann::ordered_json;
using namespace json_fields;
using json_header::BadField;
using json_header::Block;
using json_header::checkAmount;
using json_header::refuse;

namespace {

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
    json j = { { "h2d_gbps", p.h2dGBps }, { "d2h_gbps", p.d2hGBps }, { "bidirectional_gbps", p.bidirectionalGBps },
        { "bytes", p.bytes }, { "cached", p.fromCache }, { "path", nameOf(p.path) } };
    if (p.costs.measured())
        j["costs"] = operationCostsJson(p.costs);
    return j;
}

// The fields a list of names gives, in its order; a name this version does not know is a field it passes over.
// `fieldOf` finds a name's field among the `count` there are (Unknown for none).
template <class Field>
std::vector<Field> fieldsNamed(const json& lists, const char* key, Field (*fieldOf)(std::string_view), std::size_t count)
{
    const json& list = lists.at(key);
    const std::string field = std::string("fields.") + key;
    if (!list.is_array())
        refuse(field, quotedJson(list), "a list of names");
    if (list.size() > 4 * count)
        refuse(field, "a list of " + std::to_string(list.size()), "at most " + std::to_string(4 * count) + " names");
    std::vector<Field> fields;
    for (const json& name : list) {
        if (!name.is_string())
            refuse(field + "[" + std::to_string(fields.size()) + "]", quotedJson(name), "a name");
        fields.push_back(fieldOf(name.get_ref<const std::string&>()));
    }
    return fields;
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
    if (k.has("costs"))  // reports from before the operations' costs were calibrated have none
        json_header::refuseIf(readOperationCosts(k.object().at("costs"), k.path("costs"), peak.costs));
    return peak;
}

Report headerReport(const json& j)
{
    json_header::formatVersion(j);
    Report r;
    const Block d(j, "device", "device");
    r.device = deviceFrom(d);
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
        r.binding = bindingFrom(Block(j, "binding", "binding"));

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
        r.machine = json_header::machineFrom(Block(j, "machine", "machine"));
    if (j.contains("program"))
        r.program = json_header::programFrom(Block(j, "program", "program"));
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
ordered_json headerJson(const Report& report, const Assessment& assessed, const Layout& layout)
{
    ordered_json j;
    j["format"] = kReportFormatName;
    j["format_version"] = kReportFormatVersion;
    if (!report.host.empty())
        j["host"] = report.host;
    if (report.program)
        j["program"] = programJson(*report.program);
    j["device"] = deviceJson(report);
    if (report.binding)
        j["binding"] = bindingToJson(*report.binding);
    j["config"] = configJson(report.config);
    j["summary"] = summaryJson(assessed.summary);
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
        j["machine"] = json_header::machineJson(*report.machine);
    j["findings"] = findingsJson(assessed.advice);
    j["not_checked"] = notCheckedJson(assessed.advice);
    j["fields"] = { { "run", runFieldNames(layout) }, { "span", spanFieldNames(layout) } };
    return j;
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
        layout.run = fieldsNamed(lists, "run", runKeyOf, kRunFieldCount);
    if (lists.contains("span")) {
        layout.span = fieldsNamed(lists, "span", spanFieldOf, kSpanFieldCount);
        for (const SpanField needed : { SpanField::Kind, SpanField::BeginMs, SpanField::EndMs }) {
            if (!layout.has(needed))
                refuse("fields.span", std::string("without ") + ruleOf(needed).name,
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
