#include "engine/io/csv/csv_report.hpp"

#include "engine/io/csv/csv_columns.hpp"
#include "engine/io/csv/csv_text.hpp"
#include "engine/io/json/header_blocks.hpp"

#include <charconv>
#include <string>
#include <vector>

namespace asyncscope {

using namespace csv;

namespace {

// The shortest text that reads back as the same double, as the JSON report writes it.
std::string number(double v)
{
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    return std::string(text, end);
}

}  // namespace

std::string csvField(const std::string& field)
{
    return quoted(field);
}

void writeCsv(std::ostream& out, const Report& report)
{
    const auto& all = runColumns();
    std::string text;
    for (std::size_t i = 0; i < all.size(); ++i)
        text += (i ? "," : "") + quoted(all[i].name);
    text += '\n';
    // The device's and the configuration's columns are the same on every row: written once, then copied.
    std::string fixedPart;
    std::size_t first = 0;
    for (; first < all.size() && !all[first].perRun; ++first) {
        all[first].write(report, 0, fixedPart);
        fixedPart += ',';
    }
    for (std::size_t run = 0; run < report.runs.size(); ++run) {
        text += fixedPart;
        for (std::size_t i = first; i < all.size(); ++i) {
            if (i > first)
                text += ',';
            all[i].write(report, run, text);
        }
        text += '\n';
        if (text.size() >= kBlock) {
            out.write(text.data(), std::streamsize(text.size()));
            text.clear();
        }
    }
    out.write(text.data(), std::streamsize(text.size()));
}

void writeComparisonCsv(std::ostream& out, const PlanReport& plan, const std::vector<Assessment>& assessed)
{
    const std::vector<SeriesSummary> summaries = summariesOf(assessed);
    const std::vector<Column> values = comparisonColumns(summaries);
    out << "Variant,Size (B),Chunks,Streams,Issue Order,Submission,Host Memory,Wait,Check,Samples";
    for (const Column& c : values)
        out << ',' << quoted(headerOf(c.name, c.kind));
    out << ",Peak Path,Verified,Not Run,Findings\n";  // the copy path each variant's peak figures were measured on
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
        out << ',' << (v.ran() && v.report.peak ? nameOf(v.report.peak->path) : "");
        const bool verified = v.ran() && summaries[i].verifiedRuns == v.report.runs.size();
        // "transfer-bound (info); submit-bound (suggestion)": each finding's rule and severity.
        std::string findings;
        for (const Finding& f : assessed.at(i).advice.findings)
            findings += (findings.empty() ? "" : "; ") + f.rule + " (" + nameOf(f.severity) + ")";
        out << ',' << (verified ? 1 : 0) << ',' << quoted(v.notRun ? v.notRun->message() : std::string()) << ','
            << quoted(findings) << '\n';
    }
}

}  // namespace asyncscope
