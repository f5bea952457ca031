#include "engine/io/csv_report.hpp"

#include "engine/run/plan_summary.hpp"
#include "engine/model/statistics.hpp"

#include <charconv>
#include <functional>
#include <string_view>
#include <vector>

namespace asyncscope {

namespace {

// The shortest text that reads back as the same double, as the JSON report writes it.
std::string number(double v)
{
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    return std::string(text, end);
}

template <class T>
bool parseNumber(std::string_view text, T& out)
{
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return error == std::errc() && end == text.data() + text.size();
}

bool parseFlag(std::string_view text, bool& out)
{
    if (text != "0" && text != "1")
        return false;
    out = text == "1";
    return true;
}

template <class Enum>
bool parseChoice(std::string_view text, Enum& out)
{
    const auto choice = parseName<Enum>(text);
    if (choice)
        out = *choice;
    return choice.has_value();
}

// Quotes a field only when it needs it (RFC 4180): a comma, a quote or a line break.
std::string quoted(const std::string& field)
{
    if (field.find_first_of(",\"\r\n") == std::string::npos)
        return field;
    std::string q = "\"";
    for (const char c : field) {
        q += c;
        if (c == '"')
            q += '"';
    }
    return q + '"';
}

// Splits one CSV line into fields; empty when a quote is left open.
std::optional<std::vector<std::string>> splitLine(std::string_view line)
{
    std::vector<std::string> fields(1);
    bool inQuotes = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (inQuotes) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
                fields.back() += line[++i];
            else if (c == '"')
                inQuotes = false;
            else
                fields.back() += c;
        } else if (c == '"') {
            inQuotes = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    if (inQuotes)
        return std::nullopt;
    return fields;
}

// A row as it is read: the run, and the durations its spans are rebuilt from once the whole row is in.
struct Row {
    RunResult run;
    SerialDurations durations;
};

// One column: its name, how a run's row writes it, and how a read field goes back into the report (false when the
// text is malformed). Columns without `read` are derived from others and not read back. `accepted` lists the names
// a choice column takes, for the message about a value it does not. A column that is not `required` came later:
// files written before it keep the configuration's default.
struct CsvColumn {
    const char* name;
    std::function<std::string(const Report&, const RunResult&)> write;
    std::function<bool(std::string_view, Report&, Row&)> read;
    std::string accepted;
    bool required = true;
};

template <class Enum>
CsvColumn choice(const char* name, Enum PipelineConfig::*field, bool required = true)
{
    return { name, [field](const Report& r, const RunResult&) { return std::string(nameOf(r.config.*field)); },
        [field](std::string_view t, Report& r, Row&) { return parseChoice(t, r.config.*field); },
        acceptedNames<Enum>(), required };
}

CsvColumn count(const char* name, int PipelineConfig::*field)
{
    return { name, [field](const Report& r, const RunResult&) { return std::to_string(r.config.*field); },
        [field](std::string_view t, Report& r, Row&) { return parseNumber(t, r.config.*field); }, {}, false };
}

// A stage's time from its spans; empty when the run has none (no events between stages).
CsvColumn stage(const char* name, SpanKind kind, double SerialDurations::*ms)
{
    return { name, [kind](const Report&, const RunResult& x) { return x.has(kind) ? number(x.totalMs(kind)) : std::string(); },
        [ms](std::string_view t, Report&, Row& row) { return t.empty() || parseNumber(t, row.durations.*ms); }, {} };
}

CsvColumn rate(const char* name, SpanKind kind)
{
    return { name, [kind](const Report&, const RunResult& x) {
                return x.has(kind) ? number(gigabytesPerSecond(double(x.totalBytes(kind)), x.totalMs(kind))) : std::string();
            },
        nullptr, {} };
}

const std::vector<CsvColumn>& runColumns()
{
    using R = const Report&;
    using X = const RunResult&;
    static const std::vector<CsvColumn> all = {
        { "Device Index", [](R r, X) { return std::to_string(r.device.index); },
            [](std::string_view t, Report& r, Row&) { return parseNumber(t, r.device.index); }, {} },
        { "Device", [](R r, X) { return r.device.name; },
            [](std::string_view t, Report& r, Row&) {
                r.device.name = t;
                return !t.empty();
            }, {} },
        { "UUID", [](R r, X) { return r.device.uuid; },
            [](std::string_view t, Report& r, Row&) {
                r.device.uuid = t;
                return true;
            }, {} },
        { "PCI Bus Id", [](R r, X) { return r.device.pciBusId; },
            [](std::string_view t, Report& r, Row&) {
                r.device.pciBusId = t;
                return true;
            }, {} },
        { "Compute Capability", [](R r, X) { return r.device.computeCapability(); },
            [](std::string_view t, Report& r, Row&) {
                const auto dot = t.find('.');
                return dot != std::string_view::npos && parseNumber(t.substr(0, dot), r.device.computeMajor) &&
                    parseNumber(t.substr(dot + 1), r.device.computeMinor);
            }, {} },
        { "Driver Version", [](R r, X) { return std::to_string(r.driverVersion); },
            [](std::string_view t, Report& r, Row&) { return parseNumber(t, r.driverVersion); }, {} },
        { "Runtime Version", [](R r, X) { return std::to_string(r.runtimeVersion); },
            [](std::string_view t, Report& r, Row&) { return parseNumber(t, r.runtimeVersion); }, {} },
        { "Elements", [](R r, X) { return std::to_string(r.config.elements); },
            [](std::string_view t, Report& r, Row&) { return parseNumber(t, r.config.elements); }, {} },
        { "Size (B)", [](R r, X) { return std::to_string(r.config.bytes()); }, nullptr, {} },
        { "Value", [](R r, X) { return std::to_string(r.config.value); },
            [](std::string_view t, Report& r, Row&) { return parseNumber(t, r.config.value); }, {} },
        { "Threads/Block", [](R r, X) { return std::to_string(r.config.threadsPerBlock); },
            [](std::string_view t, Report& r, Row&) { return parseNumber(t, r.config.threadsPerBlock); }, {} },
        count("Chunks", &PipelineConfig::chunks),
        count("Streams", &PipelineConfig::streams),
        choice("Issue Order", &PipelineConfig::order, false),
        choice("Submission", &PipelineConfig::submission, false),
        choice("Host Memory", &PipelineConfig::hostMemory),
        choice("Wait", &PipelineConfig::waitMode),
        choice("Check", &PipelineConfig::checkMode),
        { "Run", [](R, X x) { return std::to_string(x.index); },
            [](std::string_view t, Report&, Row& row) { return parseNumber(t, row.run.index); }, {} },
        { "Warm-up", [](R, X x) { return std::string(x.warmup ? "1" : "0"); },
            [](std::string_view t, Report&, Row& row) { return parseFlag(t, row.run.warmup); }, {} },
        { "GPU Time (ms)", [](R, X x) { return number(x.gpuMs); },
            [](std::string_view t, Report&, Row& row) { return parseNumber(t, row.run.gpuMs); }, {} },
        { "CPU Time (ms)", [](R, X x) { return number(x.cpuSubmitMs()); },
            [](std::string_view t, Report&, Row& row) { return parseNumber(t, row.durations.submitMs); }, {} },
        { "Poll Iterations", [](R, X x) { return std::to_string(x.pollIterations); },
            [](std::string_view t, Report&, Row& row) { return parseNumber(t, row.run.pollIterations); }, {} },
        { "Wait Time (ms)", [](R, X x) { return number(x.waitMs()); },
            [](std::string_view t, Report&, Row& row) { return parseNumber(t, row.durations.waitMs); }, {} },
        { "Wait CPU Time (ms)", [](R, X x) { return number(x.waitCpuMs); },
            [](std::string_view t, Report&, Row& row) { return parseNumber(t, row.run.waitCpuMs); }, {} },
        stage("H2D Time (ms)", SpanKind::H2D, &SerialDurations::h2dMs),
        stage("Kernel Time (ms)", SpanKind::Kernel, &SerialDurations::kernelMs),
        stage("D2H Time (ms)", SpanKind::D2H, &SerialDurations::d2hMs),
        rate("H2D GB/s", SpanKind::H2D),
        rate("D2H GB/s", SpanKind::D2H),
        { "Expected Value", [](R, X x) { return std::to_string(x.expectedValue); },
            [](std::string_view t, Report&, Row& row) { return parseNumber(t, row.run.expectedValue); }, {} },
        { "Verified", [](R, X x) { return std::string(x.verified ? "1" : "0"); },
            [](std::string_view t, Report&, Row& row) { return parseFlag(t, row.run.verified); }, {} },
        { "First Wrong Index", [](R, X x) { return std::to_string(x.firstWrongIndex); },
            [](std::string_view t, Report&, Row& row) { return parseNumber(t, row.run.firstWrongIndex); }, {} },
        { "First Wrong Value", [](R, X x) { return x.verified ? std::string() : std::to_string(x.firstWrongValue); },
            [](std::string_view t, Report&, Row& row) { return t.empty() || parseNumber(t, row.run.firstWrongValue); },
            {} },
    };
    return all;
}

}  // namespace

void writeCsv(std::ostream& out, const Report& report)
{
    const auto& all = runColumns();
    for (std::size_t i = 0; i < all.size(); ++i)
        out << (i ? "," : "") << quoted(all[i].name);
    out << '\n';
    for (const RunResult& run : report.runs) {
        for (std::size_t i = 0; i < all.size(); ++i)
            out << (i ? "," : "") << quoted(all[i].write(report, run));
        out << '\n';
    }
}

void writeComparisonCsv(std::ostream& out, const PlanReport& plan)
{
    const std::vector<SeriesSummary> summaries = summarizePlan(plan);
    const std::vector<Column> values = comparisonColumns(summaries);
    out << "Variant,Size (B),Chunks,Streams,Issue Order,Submission,Host Memory,Wait,Check,Samples";
    for (const Column& c : values)
        out << ',' << quoted(headerOf(c.name, c.kind));
    out << ",Verified,Not Run\n";
    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        const VariantResult& v = plan.variants[i];
        const PipelineConfig& c = v.report.config;
        out << quoted(v.label) << ',' << c.bytes() << ',' << c.chunks << ',' << c.streams << ',' << nameOf(c.order)
            << ',' << nameOf(c.submission) << ',' << nameOf(c.hostMemory) << ',' << nameOf(c.waitMode)
            << ',' << nameOf(c.checkMode) << ',' << summaries[i].measuredRuns;
        for (const Column& column : values) {
            const auto value = v.ran() ? headlineValue(summaries[i], column.key) : std::nullopt;
            out << ',' << (value ? number(*value) : std::string());
        }
        const bool verified = v.ran() && summaries[i].verifiedRuns == v.report.runs.size();
        out << ',' << (verified ? 1 : 0) << ',' << quoted(v.notRun ? v.notRun->message() : std::string()) << '\n';
    }
}

Result<Report> readCsv(std::istream& in)
{
    std::string line;
    if (!std::getline(in, line))
        return makeError(ErrorKind::Io, "the file is empty");
    if (line.rfind("\xEF\xBB\xBF", 0) == 0)  // a byte-order mark, as spreadsheets write
        line.erase(0, 3);
    auto strip = [](std::string& l) {
        if (!l.empty() && l.back() == '\r')
            l.pop_back();
    };
    strip(line);
    const auto header = splitLine(line);
    if (!header)
        return makeError(ErrorKind::Io, "line 1 has an unterminated quote");

    // Where each readable column sits in this file.
    std::vector<std::pair<const CsvColumn*, std::size_t>> found;
    for (const CsvColumn& column : runColumns()) {
        if (!column.read)
            continue;
        std::size_t at = 0;
        while (at < header->size() && (*header)[at] != column.name)
            ++at;
        if (at == header->size() && !column.required)
            continue;
        if (at == header->size())
            return makeError(ErrorKind::Io,
                std::string("the CSV has no '") + column.name + "' column, so it is not an AsyncScope run export");
        found.emplace_back(&column, at);
    }

    Report report;
    for (int lineNumber = 2; std::getline(in, line); ++lineNumber) {
        strip(line);
        if (line.empty())
            continue;
        const auto fields = splitLine(line);
        if (!fields)
            return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) + " has an unterminated quote");
        if (fields->size() != header->size())
            return makeError(ErrorKind::Io,
                "line " + std::to_string(lineNumber) + " has " + std::to_string(fields->size()) + " fields, the header " +
                    std::to_string(header->size()));
        Row row;
        for (const auto& [column, at] : found) {
            if (!column->read((*fields)[at], report, row))
                return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) + ", column '" + column->name +
                        "': '" + (*fields)[at] + "' is not " +
                        (column->accepted.empty() ? std::string("a valid value") : column->accepted));
        }
        row.durations.bytes = report.config.bytes();
        row.run.spans = serialSpans(report.device.index, row.durations);
        report.runs.push_back(std::move(row.run));
    }
    if (report.runs.empty())
        return makeError(ErrorKind::Io, "the CSV has a header but no runs");
    report.config.runs = 0;
    report.config.warmupRuns = 0;
    for (const RunResult& run : report.runs)
        ++(run.warmup ? report.config.warmupRuns : report.config.runs);
    return report;
}

}  // namespace asyncscope
