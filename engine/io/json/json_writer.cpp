// The one writer of format 4: the header through nlohmann (a few kB), the runs a line each without a DOM.
#include "engine/io/json/json_report.hpp"
#include "engine/io/json/run_line_writer.hpp"


#include <nlohmann/json.hpp>

namespace asyncscope {

using nlohmann::json;
using nlohmann::ordered_json;
using namespace json_fields;

namespace {

constexpr std::size_t kFlushBytes = std::size_t(1) << 20;
// A text that is not well-formed UTF-8 (made in code: what is read is repaired as it is read) is written with U+FFFD
// for each bad byte rather than refused with an exception halfway through a file.
constexpr auto kReplaceBadUtf8 = json::error_handler_t::replace;

void flush(std::ostream& out, std::string& text)
{
    out.write(text.data(), std::streamsize(text.size()));
    text.clear();
}

// The report as one object: `header` (the report's header and whatever else the object holds) indented, then the
// runs a line each.
void writeDocument(std::ostream& out, const Report& report, ordered_json header, const Layout& layout)
{
    std::string text = header.dump(2, ' ', false, kReplaceBadUtf8);
    text.erase(text.size() - 2);  // "\n}": the runs come before the closing brace
    text += ",\n  \"runs\": [";
    RunLineWriter line(layout);
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
        text += i ? ",\n    " : "\n    ";
        line.append(text, report.runs, i, ",\n    ");
        if (text.size() >= kFlushBytes)
            flush(out, text);
    }
    text += report.runs.empty() ? "]\n}" : "\n  ]\n}";
    flush(out, text);
}

}  // namespace

void writeJson(std::ostream& out, const Report& report, const Assessment& assessed)
{
    const Layout layout = layoutOf(report);
    std::string text = json_header::headerJson(report, assessed, layout).dump(-1, ' ', false, kReplaceBadUtf8);
    text += '\n';
    RunLineWriter line(layout);
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
        line.append(text, report.runs, i, "\n");
        text += '\n';
        if (text.size() >= kFlushBytes)
            flush(out, text);
    }
    flush(out, text);
}

void writeJsonDocument(std::ostream& out, const Report& report, const Assessment& assessed)
{
    const Layout layout = layoutOf(report);
    writeDocument(out, report, json_header::headerJson(report, assessed, layout), layout);
    out << '\n';
}

void writeComparisonJson(std::ostream& out, const PlanReport& plan, const std::vector<Assessment>& assessed)
{
    ordered_json top;
    top["format"] = kComparisonFormatName;
    top["format_version"] = kReportFormatVersion;
    top["comparison"] = plan.comparison ? nameOf(*plan.comparison) : "series";
    top["planned"] = plan.planned;
    std::string text = top.dump(2, ' ', false, kReplaceBadUtf8);
    text.erase(text.size() - 2);
    text += ",\n  \"variants\": [";
    flush(out, text);
    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        const VariantResult& v = plan.variants[i];
        out << (i ? ",\n" : "\n");
        ordered_json header;
        header["variant"] = v.label;
        if (v.notRun)
            header["not_run"] = v.notRun->message();
        if (v.failure)
            header["failure"] = v.failure->message();
        const Layout layout = layoutOf(v.report);
        header.update(json_header::headerJson(v.report, assessed.at(i), layout));
        writeDocument(out, v.report, std::move(header), layout);
    }
    out << (plan.variants.empty() ? "]\n}\n" : "\n  ]\n}\n");
}

}  // namespace asyncscope
