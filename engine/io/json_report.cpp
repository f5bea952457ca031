#include "engine/io/json_report.hpp"

#include "engine/run/plan_summary.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <thread>

namespace asyncscope {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

constexpr const char* kFormatName = "asyncscope-report";
constexpr const char* kComparisonFormatName = "asyncscope-comparison";

// A run's fields. Version 3 writes a run as an array of the first twelve, in the order "fields": {"run": …} names
// them (the last, traced_spans, only where there are traced spans); version 2 as an object; version 1 had no spans
// but the last five fields. ("fields" sorts before "runs", so a tool that sorts the keys keeps the file readable.)
enum class RunKey : std::uint8_t {
    Run, Warmup, StartMs, GpuMs, Polls, WaitCpuMs, Expected, Verified, FirstWrongIndex, FirstWrongValue, Spans,
    Traced, CpuSubmitMs, WaitMs, H2dMs, KernelMs, D2hMs, Unknown
};
constexpr const char* kRunKeyNames[] = { "run", "warmup", "start_ms", "gpu_time_ms", "poll_iterations", "wait_cpu_ms",
    "expected_value", "verified", "first_wrong_index", "first_wrong_value", "spans", "traced_spans",
    "cpu_submit_time_ms", "wait_ms", "h2d_ms", "kernel_ms", "d2h_ms" };
constexpr std::size_t kWrittenRunFields = std::size_t(RunKey::Traced) + 1;

// A span's fields. Version 3 writes a span as an array of those "fields": {"span": …} names: kind, begin_ms, end_ms
// always, the others only where some span of the report has them other than 0 (call: where there are api spans,
// and then on api spans only, last). A field an array leaves out is 0.
enum class SpanField : std::uint8_t { Kind, Device, Stream, Chunk, Bytes, BeginMs, EndMs, Call, Unknown };
constexpr const char* kSpanFieldNames[] = { "kind", "device", "stream", "chunk", "bytes", "begin_ms", "end_ms",
    "call" };
constexpr std::size_t kSpanFieldCount = std::size(kSpanFieldNames);

// The fields a report's arrays hold, in order.
struct Layout {
    std::vector<RunKey> run;
    std::vector<SpanField> span;

    // What version 3 writes for every report, the span fields all there.
    static Layout full()
    {
        Layout l;
        for (std::size_t i = 0; i < kWrittenRunFields; ++i)
            l.run.push_back(RunKey(i));
        for (std::size_t i = 0; i < kSpanFieldCount; ++i)
            l.span.push_back(SpanField(i));
        return l;
    }
    bool has(SpanField f) const { return std::find(span.begin(), span.end(), f) != span.end(); }
};

// The span fields `report` needs: what any of its spans has other than 0.
Layout layoutOf(const Report& report)
{
    bool device = false, stream = false, chunk = false, bytes = false, call = false;
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
        for (const RunStore::SpanView& list : { report.runs.spans(i), report.runs.traced(i) }) {
            for (const Span& s : list) {
                device |= s.device != 0;
                stream |= s.stream != 0;
                chunk |= s.chunk != 0;
                bytes |= s.bytes != 0;
                call |= s.kind == SpanKind::Api;
            }
        }
    }
    Layout l = Layout::full();
    l.span = { SpanField::Kind };
    for (const auto& [used, field] : { std::pair { device, SpanField::Device }, std::pair { stream, SpanField::Stream },
             std::pair { chunk, SpanField::Chunk }, std::pair { bytes, SpanField::Bytes } }) {
        if (used)
            l.span.push_back(field);
    }
    l.span.push_back(SpanField::BeginMs);
    l.span.push_back(SpanField::EndMs);
    if (call)
        l.span.push_back(SpanField::Call);
    return l;
}

template <std::size_t N, class Field>
std::vector<std::string> namesOf(const char* const (&names)[N], const std::vector<Field>& fields)
{
    std::vector<std::string> out;
    for (const Field f : fields)
        out.emplace_back(names[std::size_t(f)]);
    return out;
}

// ---- Writing -------------------------------------------------------------------------------------------------

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
        { "order", nameOf(c.order) }, { "submission", nameOf(c.submission) }, { "runs", c.runs }, { "warmup_runs", c.warmupRuns },
        { "host_memory", nameOf(c.hostMemory) }, { "wait", nameOf(c.waitMode) }, { "check", nameOf(c.checkMode) },
        { "check_threads", c.checkThreads }, { "stage_events", c.stageEvents }, { "profiler_range", c.profilerRange },
        { "trace_source", nameOf(c.traceSource) }, { "stop_rule", nameOf(c.stopRule) }, { "target_noise_percent", c.targetNoisePercent },
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

json spanJson(const Span& s, const Layout& layout)
{
    json j = json::array();
    for (const SpanField f : layout.span) {
        switch (f) {
        case SpanField::Kind: j.push_back(nameOf(s.kind)); break;
        case SpanField::Device: j.push_back(s.device); break;
        case SpanField::Stream: j.push_back(s.stream); break;
        case SpanField::Chunk: j.push_back(s.chunk); break;
        case SpanField::Bytes: j.push_back(s.bytes); break;
        case SpanField::BeginMs: j.push_back(s.beginMs); break;
        case SpanField::EndMs: j.push_back(s.endMs); break;
        case SpanField::Call:
            if (s.kind == SpanKind::Api)
                j.push_back(nameOf(s.call));
            break;
        case SpanField::Unknown: break;
        }
    }
    return j;
}

json spansJson(const std::vector<Span>& spans, const Layout& layout)
{
    json j = json::array();
    for (const Span& s : spans)
        j.push_back(spanJson(s, layout));
    return j;
}

json runJson(const RunResult& r, const Layout& layout)
{
    json j = { r.index, r.warmup, r.startMs, r.gpuMs, r.pollIterations, r.waitCpuMs, r.expectedValue, r.verified,
        r.firstWrongIndex, r.firstWrongValue, spansJson(r.spans, layout) };
    if (!r.traced.empty())
        j.push_back(spansJson(r.traced, layout));
    return j;
}

// Everything but the runs, in the order the file shows it.
ordered_json headerJson(const Report& report, const SeriesSummary& summary, const Layout& layout)
{
    ordered_json j;
    j["format"] = kFormatName;
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
    j["fields"] = { { "run", namesOf(kRunKeyNames, layout.run) }, { "span", namesOf(kSpanFieldNames, layout.span) } };
    return j;
}

json reportJson(const Report& report, const SeriesSummary& summary)
{
    const Layout layout = layoutOf(report);
    json j = json(headerJson(report, summary, layout));
    json runs = json::array();
    for (const RunResult& r : report.runs)
        runs.push_back(runJson(r, layout));
    j["runs"] = std::move(runs);
    return j;
}

// One run as one line of text, what runJson gives without a DOM in between.
class RunLine {
public:
    explicit RunLine(const Layout& layout) : m_layout(layout) {}

    void append(std::string& out, const RunStore& r, std::size_t i)
    {
        m_out = &out;
        text("[");
        whole(r.index(i));
        text(r.warmup(i) ? ",true," : ",false,");
        number(r.startMs(i));
        text(",");
        number(r.gpuMs(i));
        text(",");
        whole(r.pollIterations(i));
        text(",");
        number(r.waitCpuMs(i));
        text(",");
        whole(r.expectedValue(i));
        text(r.verified(i) ? ",true," : ",false,");
        whole(r.firstWrongIndex(i));
        text(",");
        whole(r.firstWrongValue(i));
        text(",");
        spans(r.spans(i));
        if (!r.traced(i).empty()) {
            text(",");
            spans(r.traced(i));
        }
        text("]");
    }

private:
    void text(std::string_view t) { m_out->append(t); }
    void name(const char* n)
    {
        text("\"");
        text(n);  // the enums' names need no escaping
        text("\"");
    }
    template <class T>
    void whole(T v)
    {
        char digits[24];
        m_out->append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
    }
    // The shortest text that reads back as the same double; null for what JSON cannot hold, as nlohmann writes it.
    void number(double v)
    {
        if (!std::isfinite(v))
            return text("null");
        char digits[32];
        m_out->append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
    }
    void spans(const RunStore::SpanView& list)
    {
        text("[");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Span& s = list[i];
            text(i ? ",[" : "[");
            name(nameOf(s.kind));
            for (std::size_t f = 1; f < m_layout.span.size(); ++f) {
                switch (m_layout.span[f]) {
                case SpanField::Device: text(","); whole(s.device); break;
                case SpanField::Stream: text(","); whole(s.stream); break;
                case SpanField::Chunk: text(","); whole(s.chunk); break;
                case SpanField::Bytes: text(","); whole(s.bytes); break;
                case SpanField::BeginMs: text(","); number(s.beginMs); break;
                case SpanField::EndMs: text(","); number(s.endMs); break;
                case SpanField::Call:
                    if (s.kind == SpanKind::Api) {
                        text(",");
                        name(nameOf(s.call));
                    }
                    break;
                default: break;
                }
            }
            text("]");
        }
        text("]");
    }

    const Layout& m_layout;
    std::string* m_out = nullptr;
};

// ---- Reading: the parts that are not runs ----------------------------------------------------------------------

// A field that is there but wrong: the reader's message names it.
struct BadField : std::runtime_error {
    using std::runtime_error::runtime_error;
};

template <class Enum>
Enum choiceAt(const json& object, const char* path, const char* key)
{
    const std::string text = object.at(key).get<std::string>();
    if (const auto value = parseName<Enum>(text))
        return *value;
    throw BadField(std::string(path) + key + ": '" + text + "' is not " + acceptedNames<Enum>());
}

template <class Enum>
Enum choiceOr(const json& object, const char* path, const char* key, Enum fallback)
{
    return object.contains(key) ? choiceAt<Enum>(object, path, key) : fallback;
}

int formatVersion(const json& header)
{
    const json* version = header.contains("format_version") ? &header.at("format_version") : nullptr;
    if (version && !version->is_number_integer())
        throw BadField("format_version is not a whole number");
    const int v = version ? version->get<int>() : 1;
    if (v < 1 || v > kReportFormatVersion)
        throw BadField("format_version " + std::to_string(v) + " is not one this AsyncScope reads (1 to " +
            std::to_string(kReportFormatVersion) + "); a newer AsyncScope wrote it?");
    return v;
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

// What "fields" names, where the document has it; version 3's full lists where not.
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

// The report but its runs, from the document's other fields.
Report readHeader(const json& j)
{
    formatVersion(j);
    Report r;
    const json& d = j.at("device");
    r.device = deviceFromJson(d);
    r.driverVersion = d.value("driver_version", 0);
    r.runtimeVersion = d.value("runtime_version", 0);
    r.host = j.value("host", "");
    if (j.contains("binding"))
        r.binding = bindingFromJson(j.at("binding"));

    const json& c = j.at("config");
    PipelineConfig& config = r.config;
    config.device = c.at("device");
    config.elements = c.at("elements");
    config.value = c.at("value");
    config.threadsPerBlock = c.at("threads_per_block");
    config.chunks = c.value("chunks", 1);  // reports from before chunked workloads
    config.streams = c.value("streams", 1);
    config.order = choiceOr(c, "config.", "order", IssueOrder::ByChunk);
    config.submission = choiceOr(c, "config.", "submission", Submission::Stream);
    config.runs = c.at("runs");
    config.warmupRuns = c.at("warmup_runs");
    config.hostMemory = choiceAt<HostMemory>(c, "config.", "host_memory");
    config.waitMode = choiceAt<WaitMode>(c, "config.", "wait");
    config.checkMode = choiceOr(c, "config.", "check", CheckMode::Serial);  // reports from before overlapped checking
    config.checkThreads = c.value("check_threads", 0);
    config.stageEvents = c.at("stage_events");
    config.profilerRange = c.value("profiler_range", false);
    config.traceSource = choiceOr(c, "config.", "trace_source", TraceSource::Events);
    config.stopRule = choiceOr(c, "config.", "stop_rule", StopRule::Fixed);
    config.targetNoisePercent = c.value("target_noise_percent", config.targetNoisePercent);
    config.minRuns = c.value("min_runs", config.minRuns);
    config.minGpuMs = c.value("min_gpu_ms", config.minGpuMs);
    config.timeoutS = c.value("timeout_s", config.timeoutS);

    if (j.contains("calibration")) {
        const json& k = j.at("calibration");
        r.peak = CopyPeak { k.at("h2d_gbps"), k.at("d2h_gbps"), k.at("bytes"), k.value("cached", false),
            k.value("bidirectional_gbps", 0.0) };
    }
    if (j.contains("outcome")) {
        const json& o = j.at("outcome");
        r.outcome = SeriesOutcome { o.at("measured_runs"), choiceAt<StopReason>(o, "outcome.", "stop_reason"),
            o.value("noise_percent", 0.0), o.value("trace_note", std::string()) };
    }
    return r;
}

Result<Report> readHeaderChecked(const json& header)
{
    try {
        return readHeader(header);
    } catch (const BadField& e) {
        return makeError(ErrorKind::Io, e.what());
    } catch (const json::exception& e) {
        return makeError(ErrorKind::Io, std::string("the report is incomplete: ") + e.what());
    } catch (const std::exception& e) {
        return makeError(ErrorKind::Io, std::string("the report has a malformed field: ") + e.what());
    }
}

// nlohmann's message without its "[json.exception.parse_error.101] " and, where the place is given otherwise, its
// "parse error at line 1, column 12: ".
std::string parseMessage(const json::exception& e, bool keepPlace)
{
    std::string text = e.what();
    if (const auto bracket = text.find("] "); text.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
        text.erase(0, bracket + 2);
    if (!keepPlace && text.rfind("parse error", 0) == 0) {
        if (const auto colon = text.find(": "); colon != std::string::npos)
            text.erase(0, colon + 2);
    }
    return text;
}

// ---- Reading: runs, as SAX events ------------------------------------------------------------------------------

RunKey runKeyOf(std::string_view key)
{
    for (std::size_t i = 0; i < std::size(kRunKeyNames); ++i) {
        if (key == kRunKeyNames[i])
            return RunKey(i);
    }
    return RunKey::Unknown;
}

SpanField spanFieldOf(std::string_view key)
{
    for (std::size_t i = 0; i < kSpanFieldCount; ++i) {
        if (key == kSpanFieldNames[i])
            return SpanField(i);
    }
    return SpanField::Unknown;
}

// One scalar of the document, as the SAX parser hands it over.
struct Scalar {
    enum Type { Null, Bool, Int, Unsigned, Float, String } type = Null;
    bool flag = false;
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double d = 0.0;
    const std::string* s = nullptr;

    bool toDouble(double& out) const
    {
        switch (type) {
        case Int: out = double(i); return true;
        case Unsigned: out = double(u); return true;
        case Float: out = d; return true;
        case Null: out = std::numeric_limits<double>::quiet_NaN(); return true;  // written for what JSON cannot hold
        default: return false;
        }
    }
    template <class T>
    bool toWhole(T& out) const
    {
        if (type == Int && i >= std::int64_t(std::numeric_limits<T>::min()) &&
            (i < 0 || std::uint64_t(i) <= std::uint64_t(std::numeric_limits<T>::max()))) {
            out = T(i);
            return true;
        }
        if (type == Unsigned && u <= std::uint64_t(std::numeric_limits<T>::max())) {
            out = T(u);
            return true;
        }
        return false;
    }
    bool toBool(bool& out) const
    {
        if (type != Bool)
            return false;
        out = flag;
        return true;
    }
    json toJson() const
    {
        switch (type) {
        case Bool: return flag;
        case Int: return i;
        case Unsigned: return u;
        case Float: return d;
        case String: return *s;
        default: return nullptr;
        }
    }
};

// The runs read, and those that gave version 1's durations in place of spans (their spans are laid out once the
// device and the size are known).
struct ReadRuns {
    RunStore runs;
    std::vector<std::pair<std::size_t, SerialDurations>> durations;
};

// A SAX handler for a whole report (the document's other fields become a small DOM, the runs are read one by one
// into RunResults) or for a plain list of runs (a stretch of version 3's one-run lines). It stops at the first
// problem and keeps it, with the run it was found in.
class ReportSax {
public:
    enum class Mode { Document, RunList };

    ReportSax(Mode mode, Layout layout) : m_mode(mode), m_layout(std::move(layout)) {}

    // ---- the SAX interface
    bool null() { return scalar({}); }
    bool boolean(bool b)
    {
        Scalar v;
        v.type = Scalar::Bool;
        v.flag = b;
        return scalar(v);
    }
    bool number_integer(json::number_integer_t n)
    {
        Scalar v;
        v.type = Scalar::Int;
        v.i = n;
        return scalar(v);
    }
    bool number_unsigned(json::number_unsigned_t n)
    {
        Scalar v;
        v.type = Scalar::Unsigned;
        v.u = n;
        return scalar(v);
    }
    bool number_float(json::number_float_t n, const json::string_t&)
    {
        Scalar v;
        v.type = Scalar::Float;
        v.d = n;
        return scalar(v);
    }
    bool string(json::string_t& s)
    {
        Scalar v;
        v.type = Scalar::String;
        v.s = &s;
        return scalar(v);
    }
    bool binary(json::binary_t&) { return fail("the file holds binary data"); }
    bool start_object(std::size_t) { return open(true); }
    bool start_array(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(json::string_t& k)
    {
        switch (m_stack.back()) {
        case Ctx::Root: return rootKey(k);
        case Ctx::Dom: m_domKey = k; return true;
        case Ctx::Run: m_key = runKeyOf(k); return true;
        case Ctx::SpanObject: m_spanKey = spanFieldOf(k); return true;
        default: return true;
        }
    }
    bool parse_error(std::size_t, const std::string&, const json::exception& e)
    {
        m_syntax = true;
        if (m_mode == Mode::RunList || inRun())
            m_errorRun = m_out.runs.size();
        m_endOfInput = std::string_view(e.what()).find("unexpected end of input") != std::string_view::npos;
        m_parseMessage = parseMessage(e, m_mode == Mode::Document && !inRun());
        return false;
    }

    // ---- what it read
    ReadRuns& result() { return m_out; }
    const json& header() const { return m_header; }
    bool sawRuns() const { return m_sawRuns; }
    bool failed() const { return m_syntax || !m_error.empty(); }
    bool syntaxError() const { return m_syntax; }
    bool endOfInput() const { return m_endOfInput; }
    // The run the problem is in, counted from this handler's first; empty when it is outside the runs.
    std::optional<std::size_t> errorRun() const { return m_errorRun; }
    // What is wrong, without the run.
    std::string errorText() const
    {
        return m_syntax ? (m_errorRun ? "not valid JSON: " : "the file is not valid JSON: ") + m_parseMessage : m_error;
    }
    // Runs or spans given as arrays before the document said what their fields are.
    bool assumedFields() const { return m_assumedFields; }

private:
    enum class Ctx : std::uint8_t { Root, Dom, RunList, Run, RunArray, SpanList, SpanArray, SpanObject, Skip };

    bool inRun() const
    {
        return std::any_of(m_stack.begin(), m_stack.end(), [](Ctx c) { return c == Ctx::Run || c == Ctx::RunArray; });
    }

    bool fail(std::string text)
    {
        if (m_error.empty()) {
            m_error = std::move(text);
            if (inRun())
                m_errorRun = m_out.runs.size();
        }
        return false;
    }

    bool notAReport() { return fail("the file is JSON but not an AsyncScope report"); }

    // A problem with the run as a whole, or with the run that has just ended.
    bool failAtRun(std::string text)
    {
        if (m_error.empty())
            m_errorRun = m_out.runs.size();
        return fail(std::move(text));
    }

    // ---- containers
    bool open(bool object)
    {
        if (m_stack.empty()) {
            if (m_mode == Mode::RunList && !object) {
                m_stack.push_back(Ctx::RunList);
                return true;
            }
            if (m_mode == Mode::Document && object) {
                m_stack.push_back(Ctx::Root);
                return true;
            }
            return notAReport();
        }
        switch (m_stack.back()) {
        case Ctx::Root:
            if (m_runsNext) {
                m_runsNext = false;
                if (object)
                    return fail("'runs' is not a list of runs");
                m_stack.push_back(Ctx::RunList);
                return true;
            }
            m_domStack.push_back(&(m_header[m_domKey] = object ? json::object() : json::array()));
            m_stack.push_back(Ctx::Dom);
            return true;
        case Ctx::Dom: {
            json& parent = *m_domStack.back();
            json child = object ? json::object() : json::array();
            if (parent.is_array()) {
                parent.push_back(std::move(child));
                m_domStack.push_back(&parent.back());
            } else {
                m_domStack.push_back(&(parent[m_domKey] = std::move(child)));
            }
            m_stack.push_back(Ctx::Dom);
            return true;
        }
        case Ctx::RunList:
            beginRun();
            m_stack.push_back(object ? Ctx::Run : Ctx::RunArray);
            return true;
        case Ctx::RunArray:
            m_key = runFieldAt(m_runPosition++);
            [[fallthrough]];
        case Ctx::Run:
            if (m_key == RunKey::Unknown)
                return skip();
            if ((m_key == RunKey::Spans || m_key == RunKey::Traced) && !object) {
                m_traced = m_key == RunKey::Traced;
                m_seen |= bit(m_key);
                m_spanIndex = 0;
                m_stack.push_back(Ctx::SpanList);
                return true;
            }
            return fail(std::string(kRunKeyNames[int(m_key)]) + " is not " + expected(m_key));
        case Ctx::SpanList:
            beginSpan();
            m_stack.push_back(object ? Ctx::SpanObject : Ctx::SpanArray);
            return true;
        case Ctx::SpanArray:
            if (spanFieldAt(m_spanPosition++) == SpanField::Unknown)
                return skip();
            return fail(spanPlace() + "a field is a list or an object");
        case Ctx::SpanObject:
            if (m_spanKey == SpanField::Unknown)
                return skip();
            return fail(spanPlace() + kSpanFieldNames[int(m_spanKey)] + " is a list or an object");
        case Ctx::Skip:
            return skip();
        }
        return false;
    }

    bool skip()
    {
        m_stack.push_back(Ctx::Skip);
        return true;
    }

    bool close()
    {
        const Ctx ended = m_stack.back();
        m_stack.pop_back();
        switch (ended) {
        case Ctx::Dom: m_domStack.pop_back(); return true;
        case Ctx::Run:
        case Ctx::RunArray: return endRun();
        case Ctx::SpanArray:
        case Ctx::SpanObject: return endSpan();
        default: return true;
        }
    }

    // ---- the document's own fields
    bool rootKey(const std::string& k)
    {
        if (k != "runs") {
            m_domKey = k;
            return true;
        }
        // Before the runs: is it a report, and one this version reads? Its span fields, where it named them.
        if (m_header.contains("format") && m_header.at("format") != kFormatName)
            return notAReport();
        try {
            if (m_header.contains("format_version"))
                formatVersion(m_header);
            m_layout = layoutFrom(m_header);
            m_fieldsFromDocument = m_header.contains("fields");
        } catch (const BadField& e) {
            return fail(e.what());
        }
        m_sawRuns = true;
        m_runsNext = true;
        return true;
    }

    bool scalar(const Scalar& v)
    {
        if (m_stack.empty())
            return notAReport();
        switch (m_stack.back()) {
        case Ctx::Root:
            if (m_runsNext)
                return fail("'runs' is not a list of runs");
            m_header[m_domKey] = v.toJson();
            return true;
        case Ctx::Dom: {
            json& parent = *m_domStack.back();
            if (parent.is_array())
                parent.push_back(v.toJson());
            else
                parent[m_domKey] = v.toJson();
            return true;
        }
        case Ctx::RunList: return failAtRun("not an object");
        case Ctx::RunArray:
            m_key = runFieldAt(m_runPosition++);
            return runField(v);
        case Ctx::Run: return runField(v);
        case Ctx::SpanList: return fail(spanPlace() + "it is not a list or an object");
        case Ctx::SpanArray: return spanField(spanFieldAt(m_spanPosition++), v);
        case Ctx::SpanObject: return spanField(m_spanKey, v);
        case Ctx::Skip: return true;
        }
        return false;
    }

    // ---- runs
    static constexpr std::uint32_t bit(RunKey k) { return 1u << unsigned(k); }
    static constexpr std::uint32_t bit(SpanField f) { return 1u << unsigned(f); }

    static const char* expected(RunKey k)
    {
        switch (k) {
        case RunKey::Warmup:
        case RunKey::Verified: return "true or false";
        case RunKey::Run:
        case RunKey::Polls:
        case RunKey::Expected:
        case RunKey::FirstWrongIndex:
        case RunKey::FirstWrongValue: return "a whole number";
        case RunKey::Spans:
        case RunKey::Traced: return "a list of spans";
        default: return "a number";
        }
    }

    void beginRun()
    {
        m_run = RunResult {};
        m_seen = 0;
        m_v1 = SerialDurations {};
        m_spans.clear();
        m_tracedSpans.clear();
        m_key = RunKey::Unknown;
        m_runPosition = 0;
    }

    bool runField(const Scalar& v)
    {
        bool ok = true;
        switch (m_key) {
        case RunKey::Run: ok = v.toWhole(m_run.index); break;
        case RunKey::Warmup: ok = v.toBool(m_run.warmup); break;
        case RunKey::StartMs: ok = v.toDouble(m_run.startMs); break;
        case RunKey::GpuMs: ok = v.toDouble(m_run.gpuMs); break;
        case RunKey::Polls: ok = v.toWhole(m_run.pollIterations); break;
        case RunKey::WaitCpuMs: ok = v.toDouble(m_run.waitCpuMs); break;
        case RunKey::Expected: ok = v.toWhole(m_run.expectedValue); break;
        case RunKey::Verified: ok = v.toBool(m_run.verified); break;
        case RunKey::FirstWrongIndex: ok = v.toWhole(m_run.firstWrongIndex); break;
        case RunKey::FirstWrongValue: ok = v.toWhole(m_run.firstWrongValue); break;
        case RunKey::Spans:
        case RunKey::Traced: ok = false; break;
        case RunKey::CpuSubmitMs: ok = v.toDouble(m_v1.submitMs); break;
        case RunKey::WaitMs: ok = v.toDouble(m_v1.waitMs); break;
        case RunKey::H2dMs: ok = v.toDouble(m_v1.h2dMs); break;
        case RunKey::KernelMs: ok = v.toDouble(m_v1.kernelMs); break;
        case RunKey::D2hMs: ok = v.toDouble(m_v1.d2hMs); break;
        case RunKey::Unknown: return true;
        }
        if (!ok)
            return fail(std::string(kRunKeyNames[int(m_key)]) + " is not " + expected(m_key));
        m_seen |= bit(m_key);
        return true;
    }

    bool endRun()
    {
        for (const RunKey needed : { RunKey::Run, RunKey::Warmup, RunKey::GpuMs, RunKey::Polls, RunKey::Verified }) {
            if (!(m_seen & bit(needed)))
                return missing(kRunKeyNames[int(needed)]);
        }
        if (m_seen & bit(RunKey::Spans)) {
            m_run.spans.assign(m_spans.begin(), m_spans.end());  // exactly as many as there are
            m_run.traced.assign(m_tracedSpans.begin(), m_tracedSpans.end());
        } else if (m_seen & bit(RunKey::CpuSubmitMs)) {
            // Version 1 gave durations, not spans: the one-stream pipeline's spans lie end to end.
            if (m_seen & bit(RunKey::H2dMs)) {
                for (const RunKey needed : { RunKey::KernelMs, RunKey::D2hMs }) {
                    if (!(m_seen & bit(needed)))
                        return missing(kRunKeyNames[int(needed)]);
                }
            } else {
                m_v1.kernelMs = m_v1.d2hMs = -1.0;
            }
            m_out.durations.emplace_back(m_out.runs.size(), m_v1);
        } else {
            return missing("spans");
        }
        m_out.runs.push_back(m_run);
        return true;
    }

    bool missing(const char* field) { return failAtRun(std::string(field) + " missing"); }

    // ---- spans
    RunKey runFieldAt(std::size_t position)
    {
        if (!m_fieldsFromDocument)
            m_assumedFields = true;
        return position < m_layout.run.size() ? m_layout.run[position] : RunKey::Unknown;
    }

    SpanField spanFieldAt(std::size_t position)
    {
        if (!m_fieldsFromDocument)
            m_assumedFields = true;
        return position < m_layout.span.size() ? m_layout.span[position] : SpanField::Unknown;
    }

    std::string spanPlace() const
    {
        return std::string(m_traced ? "traced span " : "span ") + std::to_string(m_spanIndex) + ": ";
    }

    void beginSpan()
    {
        m_span = Span {};
        m_spanSeen = 0;
        m_spanPosition = 0;
        m_spanKey = SpanField::Unknown;
    }

    bool spanField(SpanField field, const Scalar& v)
    {
        bool ok = true;
        switch (field) {
        case SpanField::Kind:
        case SpanField::Call:
            if (v.type != Scalar::String)
                return fail(spanPlace() + kSpanFieldNames[int(field)] + " is not a name");
            if (field == SpanField::Kind) {
                const auto kind = parseName<SpanKind>(*v.s);
                if (!kind)
                    return fail(spanPlace() + "kind '" + *v.s + "' is not " + acceptedNames<SpanKind>());
                m_span.kind = *kind;
            } else {
                const auto call = parseName<ApiCall>(*v.s);
                if (!call)
                    return fail(spanPlace() + "call '" + *v.s + "' is not " + acceptedNames<ApiCall>());
                m_span.call = *call;
            }
            break;
        case SpanField::Device: ok = v.toWhole(m_span.device); break;
        case SpanField::Stream: ok = v.toWhole(m_span.stream); break;
        case SpanField::Chunk: ok = v.toWhole(m_span.chunk); break;
        case SpanField::Bytes: ok = v.toWhole(m_span.bytes); break;
        case SpanField::BeginMs: ok = v.toDouble(m_span.beginMs); break;
        case SpanField::EndMs: ok = v.toDouble(m_span.endMs); break;
        case SpanField::Unknown: return true;
        }
        if (!ok)
            return fail(spanPlace() + kSpanFieldNames[int(field)] + " is not " +
                (field == SpanField::BeginMs || field == SpanField::EndMs ? "a number" : "a whole number"));
        m_spanSeen |= bit(field);
        return true;
    }

    bool endSpan()
    {
        for (const SpanField needed : { SpanField::Kind, SpanField::BeginMs, SpanField::EndMs }) {
            if (!(m_spanSeen & bit(needed)))
                return fail(std::string(kSpanFieldNames[int(needed)]) + " missing in " +
                    (m_traced ? "traced span " : "span ") + std::to_string(m_spanIndex));
        }
        (m_traced ? m_tracedSpans : m_spans).push_back(m_span);
        ++m_spanIndex;
        return true;
    }

    Mode m_mode;
    Layout m_layout;
    bool m_fieldsFromDocument = true;
    bool m_assumedFields = false;
    std::vector<Ctx> m_stack;

    // The document's other fields.
    json m_header = json::object();
    std::vector<json*> m_domStack;
    std::string m_domKey;
    bool m_runsNext = false;
    bool m_sawRuns = false;

    // The run and the span being read.
    RunResult m_run;
    std::uint32_t m_seen = 0;
    SerialDurations m_v1;
    RunKey m_key = RunKey::Unknown;
    std::size_t m_runPosition = 0;
    std::vector<Span> m_spans, m_tracedSpans;
    Span m_span;
    std::uint32_t m_spanSeen = 0;
    std::size_t m_spanPosition = 0;
    std::size_t m_spanIndex = 0;
    SpanField m_spanKey = SpanField::Unknown;
    bool m_traced = false;

    ReadRuns m_out;

    std::string m_error;
    std::optional<std::size_t> m_errorRun;
    bool m_syntax = false;
    bool m_endOfInput = false;
    std::string m_parseMessage;
};

// ---- Reading: the input ----------------------------------------------------------------------------------------

constexpr std::size_t kFirstBlock = std::size_t(1) << 20;  // the header of a version 3 file is a few kB
constexpr std::size_t kBlockPerThread = std::size_t(4) << 20;

Error cancelled()
{
    return makeError(ErrorKind::Cancelled, "reading was cancelled");
}

// Reads up to `bytes` more from `in` onto the end of `buffer`; how many came.
std::size_t readMore(std::istream& in, std::string& buffer, std::size_t bytes)
{
    const std::size_t had = buffer.size();
    buffer.resize(had + bytes);
    in.read(buffer.data() + had, std::streamsize(bytes));
    const std::size_t got = std::size_t(in.gcount());
    buffer.resize(had + got);
    return got;
}

// The stream as the characters nlohmann's parser takes, a block at a time, counting and cancellable: at a cancel
// the input just ends.
class StreamSource {
public:
    StreamSource(std::istream& in, std::string first, ReadMeter& meter)
        : m_in(in)
        , m_buffer(std::move(first))
        , m_meter(meter)
    {
    }
    bool more() { return m_pos < m_buffer.size() || refill(); }
    char get() const { return m_buffer[m_pos]; }
    void next() { ++m_pos; }

private:
    bool refill()
    {
        if (m_done)
            return false;
        m_buffer.clear();
        m_pos = 0;
        const std::size_t got = readMore(m_in, m_buffer, kBlockPerThread);
        m_done = got == 0 || !m_meter.advance(got);
        return !m_done;
    }

    std::istream& m_in;
    std::string m_buffer;
    std::size_t m_pos = 0;
    ReadMeter& m_meter;
    bool m_done = false;
};

class SourceIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = char;

    SourceIterator() = default;
    explicit SourceIterator(StreamSource* source) : m_source(source) {}
    char operator*() const { return m_source->get(); }
    SourceIterator& operator++()
    {
        m_source->next();
        return *this;
    }
    SourceIterator operator++(int)
    {
        SourceIterator was = *this;
        m_source->next();
        return was;
    }
    friend bool operator==(const SourceIterator& a, const SourceIterator& b) { return a.atEnd() == b.atEnd(); }
    friend bool operator!=(const SourceIterator& a, const SourceIterator& b) { return !(a == b); }

private:
    bool atEnd() const { return !m_source || !m_source->more(); }
    StreamSource* m_source = nullptr;
};

std::string runPlace(std::optional<std::size_t> run)
{
    return run ? "run " + std::to_string(*run) + ": " : std::string();
}

// Lays out the spans of the runs that gave version 1's durations, now that the device and the size are known.
void layOutDurations(Report& report, std::vector<std::pair<std::size_t, SerialDurations>>& durations)
{
    std::vector<std::pair<std::size_t, std::vector<Span>>> spans;
    spans.reserve(durations.size());
    for (auto& [at, d] : durations) {
        d.bytes = report.config.bytes();
        spans.emplace_back(at, serialSpans(report.device.index, d));
    }
    report.runs.setSpans(spans);
}

// Any layout, any version: one pass of nlohmann's SAX parser over the whole stream.
Result<Report> readDocument(std::istream& in, std::string first, ReadMeter& meter)
{
    ReportSax sax(ReportSax::Mode::Document, Layout::full());
    StreamSource source(in, std::move(first), meter);
    json::sax_parse(SourceIterator(&source), SourceIterator(), &sax);
    if (meter.cancelled())
        return cancelled();
    const json& header = sax.header();
    const bool report = header.contains("format") && header.at("format") == kFormatName;
    if (sax.failed()) {
        if (!report && !sax.syntaxError())
            return makeError(ErrorKind::Io, "the file is JSON but not an AsyncScope report");
        if (sax.syntaxError() && sax.endOfInput())
            return makeError(ErrorKind::Io,
                sax.errorRun() ? "the file ends inside run " + std::to_string(*sax.errorRun()) + ": it is cut short"
                               : "the file ends early: it is cut short");
        return makeError(ErrorKind::Io, runPlace(sax.errorRun()) + sax.errorText());
    }
    if (!report)
        return makeError(ErrorKind::Io, "the file is JSON but not an AsyncScope report");
    auto read = readHeaderChecked(header);
    if (!read)
        return read;
    if (!sax.sawRuns())
        return makeError(ErrorKind::Io, "the report has no runs");
    if (sax.assumedFields() && header.contains("fields"))
        return makeError(ErrorKind::Io, "\"fields\" comes after the runs it describes; it must come before");
    read->runs = std::move(sax.result().runs);
    layOutDurations(*read, sax.result().durations);
    return read;
}

// One stretch of version 3's run lines, read as a JSON list of runs on its own thread.
struct Stretch {
    std::string text;  // "[" + the lines + "]"
    std::unique_ptr<ReportSax> sax;
    std::size_t lines = 0;
};

void readStretch(Stretch& stretch, const Layout& layout)
{
    stretch.sax = std::make_unique<ReportSax>(ReportSax::Mode::RunList, layout);
    json::sax_parse(stretch.text.data(), stretch.text.data() + stretch.text.size(), stretch.sax.get());
    if (stretch.text.size() > 2)
        stretch.lines = std::size_t(std::count(stretch.text.begin(), stretch.text.end(), '\n')) + 1;
}

// Version 3 as writeJson lays it out: the header, then `  "runs": [`, then one run a line, then `  ]` and `}`.
// The lines are cut into as many stretches as there are cores and read at once.
class LineReader {
public:
    LineReader(std::istream& in, ReadMeter& meter, Layout layout, std::size_t threads)
        : m_in(in)
        , m_meter(meter)
        , m_layout(std::move(layout))
        , m_threads(threads)
    {
    }

    // `buffer` begins with the first run line. Runs go into `out`.
    Status read(std::string buffer, ReadRuns& out)
    {
        for (;;) {
            // The line that closes the runs: at the start of a line, two spaces and a bracket (a run line is compact).
            std::size_t close = buffer.find("  ]");
            while (close != std::string::npos && close > 0 && buffer[close - 1] != '\n')
                close = buffer.find("  ]", close + 1);
            const std::size_t lastLine = buffer.rfind('\n');
            const std::size_t end = close != std::string::npos ? close
                : lastLine == std::string::npos                 ? 0
                                                                : lastLine + 1;
            if (auto problem = readLines(std::string_view(buffer).substr(0, end), close != std::string::npos, out))
                return problem;
            if (close != std::string::npos)
                return checkTail(buffer.substr(close + 3));
            buffer.erase(0, end);
            const std::size_t got = readMore(m_in, buffer, kBlockPerThread * m_threads);
            if (!m_meter.advance(got))
                return cancelled();
            if (got == 0) {
                const bool partial = buffer.find_first_not_of(" \t\r\n") != std::string::npos;
                return makeError(ErrorKind::Io, partial || m_runs == 0
                        ? "the file ends inside run " + std::to_string(m_runs) + ": it is cut short"
                        : "the file ends after run " + std::to_string(m_runs - 1) +
                            ", before the list of runs is closed: it is cut short");
            }
        }
    }

private:
    // Whole lines of runs; `last` when they end the list (the last run has no comma after it).
    Status readLines(std::string_view lines, bool last, ReadRuns& out)
    {
        // Cut where a line ends, near equal shares.
        std::vector<std::string_view> parts;
        std::size_t from = 0;
        for (std::size_t k = 1; k <= m_threads && from < lines.size(); ++k) {
            const std::size_t share = (lines.size() - from) / (m_threads - k + 1);
            std::size_t to = k == m_threads ? lines.size() : lines.find('\n', from + share);
            to = to == std::string_view::npos || to >= lines.size() ? lines.size() : to + 1;
            parts.push_back(lines.substr(from, to - from));
            from = to;
        }
        std::vector<Stretch> stretches(parts.size());
        for (std::size_t k = 0; k < parts.size(); ++k) {
            std::string_view part = parts[k];
            while (!part.empty() && std::strchr(" \t\r\n", part.back()))
                part.remove_suffix(1);
            const bool final = last && k + 1 == parts.size();
            if (!final && !part.empty() && part.back() == ',')
                part.remove_suffix(1);  // the comma before the next stretch's first run
            std::string& text = stretches[k].text;
            text.reserve(part.size() + 2);
            text += '[';
            text += part;
            text += ']';
        }
        std::vector<std::thread> helpers;
        for (std::size_t k = 1; k < stretches.size(); ++k)
            helpers.emplace_back(readStretch, std::ref(stretches[k]), std::cref(m_layout));
        if (!stretches.empty())
            readStretch(stretches[0], m_layout);
        for (std::thread& t : helpers)
            t.join();
        for (Stretch& s : stretches) {
            ReportSax& sax = *s.sax;
            if (sax.failed()) {
                const std::size_t run = m_runs + sax.errorRun().value_or(sax.result().runs.size());
                return makeError(ErrorKind::Io, "run " + std::to_string(run) + ": " + sax.errorText());
            }
            ReadRuns& read = sax.result();
            if (read.runs.size() != s.lines)
                return makeError(ErrorKind::Io, "run " + std::to_string(m_runs) +
                        " and those after it are not one a line, as version 3 writes them: was the file edited?");
            for (auto& [at, d] : read.durations)
                out.durations.emplace_back(out.runs.size() + at, d);
            out.runs.append(read.runs);
            m_runs += read.runs.size();
            s = Stretch {};  // its memory goes now, not at the end of the block
        }
        return std::nullopt;
    }

    // After the list of runs only the document's closing brace may follow.
    Status checkTail(std::string tail)
    {
        while (readMore(m_in, tail, 1 << 16) > 0 && tail.size() < (std::size_t(1) << 20)) {
        }
        const auto first = tail.find_first_not_of(" \t\r\n");
        const auto last = tail.find_last_not_of(" \t\r\n");
        if (first == std::string::npos)
            return makeError(ErrorKind::Io, "the file ends after the runs, before the closing brace: it is cut short");
        if (first != last || tail[first] != '}')
            return makeError(ErrorKind::Io, "the file has something other than a closing brace after the runs");
        return std::nullopt;
    }

    std::istream& m_in;
    ReadMeter& m_meter;
    Layout m_layout;
    std::size_t m_threads;
    std::size_t m_runs = 0;
};

constexpr std::string_view kRunsLine = ",\n  \"runs\": [\n";

// The header of a version 3 report laid out by writeJson, parsed; empty when `first` is not one.
std::optional<json> layoutHeader(const std::string& first, std::size_t& runsBegin)
{
    const std::size_t at = first.find(kRunsLine);
    if (at == std::string::npos)
        return std::nullopt;
    runsBegin = at + kRunsLine.size();
    // The first run: a whole one on a line of its own.
    const std::size_t lineEnd = first.find('\n', runsBegin);
    const std::size_t lineBegin = first.find_first_not_of(' ', runsBegin);
    if (lineEnd == std::string::npos || lineBegin >= lineEnd)
        return std::nullopt;
    std::string_view line = std::string_view(first).substr(lineBegin, lineEnd - lineBegin);
    if (!line.empty() && line.back() == ',')
        line.remove_suffix(1);
    if ((line.front() != '[' && line.front() != '{') || !json::accept(line))
        return std::nullopt;
    const json header = json::parse(first.substr(0, at) + "\n}", nullptr, false);  // the runs cut off
    if (!header.is_object() || !header.contains("format") || header.at("format") != kFormatName ||
        !header.contains("format_version") || !header.at("format_version").is_number_integer() ||
        header.at("format_version").get<int>() < 3)
        return std::nullopt;
    return header;
}

std::size_t readerThreads()
{
    return std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
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

json toJson(const Report& report)
{
    return reportJson(report, summarizeSeries(report));
}

void writeJson(std::ostream& out, const Report& report)
{
    const Layout layout = layoutOf(report);
    ordered_json header = headerJson(report, summarizeSeries(report), layout);
    // The field lists on a line each, right above the runs they describe.
    std::string fields = ",\n  \"fields\": {";
    for (const char* key : { "run", "span" })
        fields += std::string(*key == 'r' ? "\n    \"" : ",\n    \"") + key + "\": " +
            header.at("fields").at(key).dump();
    fields += "\n  }";
    header.erase("fields");
    std::string text = header.dump(2);
    text.erase(text.size() - 2);  // "\n}": the runs come before the closing brace
    text += fields + ",\n  \"runs\": [";
    RunLine line(layout);
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
        text += i ? ",\n    " : "\n    ";
        line.append(text, report.runs, i);
        if (text.size() >= (std::size_t(1) << 20)) {
            out.write(text.data(), std::streamsize(text.size()));
            text.clear();
        }
    }
    text += report.runs.empty() ? "]\n}\n" : "\n  ]\n}\n";
    out.write(text.data(), std::streamsize(text.size()));
}

void writeComparisonJson(std::ostream& out, const PlanReport& plan)
{
    json variants = json::array();
    const std::vector<SeriesSummary> summaries = summarizePlan(plan);
    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        const VariantResult& v = plan.variants[i];
        json j = reportJson(v.report, summaries[i]);
        j["variant"] = v.label;
        if (v.notRun)
            j["not_run"] = v.notRun->message();
        if (v.failure)
            j["failure"] = v.failure->message();
        variants.push_back(std::move(j));
    }
    const json j = { { "format", kComparisonFormatName }, { "format_version", kReportFormatVersion },
        { "comparison", plan.comparison ? nameOf(*plan.comparison) : "series" }, { "planned", plan.planned },
        { "variants", std::move(variants) } };
    out << j.dump(2) << '\n';
}

Result<Report> readJson(std::istream& in, const ReadControl& control)
{
    ReadMeter meter(control);
    if (!meter.advance(0))
        return cancelled();
    std::string first;
    if (!meter.advance(readMore(in, first, kFirstBlock)))
        return cancelled();
    if (first.find_first_not_of(" \t\r\n") == std::string::npos)
        return makeError(ErrorKind::Io, "the file is empty");

    std::size_t runsBegin = 0;
    const auto header = layoutHeader(first, runsBegin);
    if (!header)
        return readDocument(in, std::move(first), meter);
    auto report = readHeaderChecked(*header);
    if (!report)
        return report;
    Layout layout;
    try {
        layout = layoutFrom(*header);
    } catch (const BadField& e) {
        return makeError(ErrorKind::Io, e.what());
    }
    // Room for every run at once, from the first run line's length.
    const std::size_t firstLine = first.find('\n', runsBegin) - runsBegin + 1;
    if (control.totalBytes > 0)
        report->runs.reserve(std::size_t(std::min<std::uintmax_t>(control.totalBytes / firstLine + 16, 1u << 28)));
    ReadRuns runs;
    runs.runs = std::move(report->runs);
    LineReader lines(in, meter, std::move(layout), readerThreads());
    if (auto problem = lines.read(first.substr(runsBegin), runs))
        return *problem;
    report->runs = std::move(runs.runs);
    layOutDurations(*report, runs.durations);
    return report;
}

}  // namespace asyncscope
