// Reading a comparison as writeComparisonJson writes it, in any layout: one pass of nlohmann's SAX parser over the
// whole text finds the comparison's own fields and where each variant's object begins and ends (keeping nothing of
// its runs), then each variant is read as any report document is (json_read::readDocument), from its own text set
// at its own line and column, so that every message names the line of the file.
#include "engine/io/bounded_json.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/json/document_reader.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/json/report_fields.hpp"
#include "engine/io/json/stream_source.hpp"
#include "engine/model/names.hpp"
#include "engine/model/record_rules.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <sstream>

namespace asyncscope {

namespace {

using json_read::SourceIterator;
using json_read::StreamSource;
using nlohmann::json;

constexpr std::size_t kMostVariants = 4096;          // a sweep of sizes from 1 byte to 1 TiB has 41
constexpr std::size_t kMostTextBytes = 4096;         // a label, or why a variant did not run
constexpr const char* kVariantKeys[] = { "variant", "not_run", "failure" };

struct Place {
    std::size_t line = 0, column = 0;  // from 1
};

// What the outline keeps of one variant: where its object lies, and its own fields.
struct VariantOutline {
    Place begin, end;  // its '{' and its '}'
    std::map<std::string, std::string> fields;  // of kVariantKeys
};

// The comparison's fields (scalars at its top level) and its variants' outlines; nothing else is kept.
class ComparisonOutline final : public nlohmann::json_sax<json> {
public:
    explicit ComparisonOutline(StreamSource& source)
        : m_source(source)
    {
    }

    json top = json::object();
    std::map<std::string, std::size_t> topLines;  // where each top-level field is
    std::vector<VariantOutline> variants;
    bool sawVariants = false;
    std::string error;  // with its place; the parse stops at the first problem

    bool null() override { return scalar(nullptr); }
    bool boolean(bool value) override { return scalar(value); }
    bool number_integer(number_integer_t value) override { return scalar(value); }
    bool number_unsigned(number_unsigned_t value) override { return scalar(value); }
    bool number_float(number_float_t value, const string_t&) override { return scalar(value); }
    bool string(string_t& value) override { return scalar(value); }
    bool binary(binary_t&) override { return scalar(nullptr); }

    bool key(string_t& name) override
    {
        if (m_depth == 1) {
            m_key = name;
            if (!topLines.emplace(name, m_source.line()).second)
                return givenTwice("\"" + quotedValue(name) + "\"");
        } else if (m_depth == 3 && m_inVariants) {
            m_key = name;
            const bool kept = std::find(std::begin(kVariantKeys), std::end(kVariantKeys), name) != std::end(kVariantKeys);
            if (kept && variants.back().fields.count(name) > 0)
                return givenTwice(variantName() + "'s \"" + name + "\"");
        }
        return true;
    }

    bool start_object(std::size_t) override
    {
        if (m_depth == 2 && m_inVariants) {
            if (variants.size() == kMostVariants)
                return fail(at() + ": more than " + std::to_string(kMostVariants) + " variants");
            variants.emplace_back();
            variants.back().begin = here();
        }
        ++m_depth;
        return true;
    }

    bool end_object() override
    {
        --m_depth;
        if (m_depth == 2 && m_inVariants)
            variants.back().end = here();
        return true;
    }

    bool start_array(std::size_t) override
    {
        if (m_depth == 0)
            return fail("line 1: a list, not a comparison (an object)");
        if (m_depth == 2 && m_inVariants)
            return notAVariant("a list");
        if (m_depth == 1 && m_key == "variants") {
            if (sawVariants)
                return fail(at() + ": \"variants\" is given twice");
            sawVariants = m_inVariants = true;
        }
        ++m_depth;
        return true;
    }

    bool end_array() override
    {
        --m_depth;
        if (m_depth == 1)
            m_inVariants = false;
        return true;
    }

    bool parse_error(std::size_t, const std::string& lastToken, const nlohmann::detail::exception&) override
    {
        const std::string line = std::to_string(m_source.line());
        error = m_source.ended() ? "the file ends early, at line " + line + ": it is cut short"
                                 : at() + ": not valid JSON at '" + quotedValue(lastToken) + "'";
        return false;
    }

private:
    bool scalar(json value)
    {
        if (m_depth == 0)
            return fail("line 1: " + quotedJson(value) + ", not a comparison (an object)");
        if (m_depth == 1) {
            top[m_key] = std::move(value);
        } else if (m_depth == 2 && m_inVariants) {
            return notAVariant(quotedJson(value));
        } else if (m_depth == 3 && m_inVariants &&
            std::find(std::begin(kVariantKeys), std::end(kVariantKeys), m_key) != std::end(kVariantKeys)) {
            if (!value.is_string() || value.get_ref<const std::string&>().size() > kMostTextBytes)
                return fail(at() + ": " + variantName() + "'s \"" + m_key + "\" is " + quotedJson(value) +
                    "; accepted: a text of at most " + std::to_string(kMostTextBytes) + " bytes");
            variants.back().fields[m_key] = value.get<std::string>();
        }
        return true;
    }

    // A key its object gave before, which would take the first one's place.
    bool givenTwice(const std::string& field)
    {
        return fail(at() + ": " + field + " is given twice; accepted: each key once in its object");
    }

    bool notAVariant(const std::string& found)
    {
        return fail(at() + ": variant " + std::to_string(variants.size() + 1) + " is " + found +
            "; accepted: a report object");
    }

    bool fail(std::string text)
    {
        error = std::move(text);
        return false;
    }

    std::string variantName() const { return "variant " + std::to_string(variants.size()); }
    Place here() { return { m_source.line(), m_source.column() }; }
    std::string at()
    {
        return "line " + std::to_string(m_source.line()) + ", column " + std::to_string(m_source.column());
    }

    StreamSource& m_source;
    int m_depth = 0;
    bool m_inVariants = false;
    std::string m_key;
};

// The offset in `text` of each line's first character, from line 1.
std::vector<std::size_t> lineStarts(const std::string& text)
{
    std::vector<std::size_t> starts { 0 };
    for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1))
        starts.push_back(at + 1);
    return starts;
}

std::size_t offsetOf(const std::vector<std::size_t>& starts, Place place)
{
    return starts.at(place.line - 1) + place.column - 1;
}

// The comparison's own fields, checked: its kind (none for a plan of one series) and the variants planned.
Result<std::pair<std::optional<Comparison>, std::size_t>> readTop(const ComparisonOutline& outline)
{
    const json& top = outline.top;
    auto where = [&outline](const std::string& key) {
        const auto found = outline.topLines.find(key);
        return "line " + std::to_string(found == outline.topLines.end() ? 1 : found->second);
    };
    if (!top.contains("format") || top.at("format") != kComparisonFormatName)
        return fieldError("", where("format"),
            { "format", top.contains("format") ? quotedJson(top.at("format")) : "missing",
                std::string("\"") + kComparisonFormatName + "\": a comparison of AsyncScope series" });
    const json* version = top.contains("format_version") ? &top.at("format_version") : nullptr;
    if (!version || !version->is_number_integer() || version->get<long long>() < 1 ||
        version->get<long long>() > kReportFormatVersion)
        return fieldError("", where("format_version"),
            { "format_version", version ? quotedJson(*version) : "missing",
                "a whole number from 1 to " + std::to_string(kReportFormatVersion) });
    std::optional<Comparison> comparison;
    const json* kind = top.contains("comparison") ? &top.at("comparison") : nullptr;
    if (kind && kind->is_string())
        comparison = parseName<Comparison>(kind->get<std::string>());
    if (!kind || !kind->is_string() || (!comparison && kind->get<std::string>() != "series"))
        return fieldError("", where("comparison"),
            { "comparison", kind ? quotedJson(*kind) : "missing", acceptedNames<Comparison>() + " or series" });
    const json* planned = top.contains("planned") ? &top.at("planned") : nullptr;
    if (!planned || !planned->is_number_unsigned() || planned->get<std::size_t>() > kMostVariants ||
        planned->get<std::size_t>() < outline.variants.size())
        return fieldError("", where("planned"),
            { "planned", planned ? quotedJson(*planned) : "missing",
                "a whole number of variants, no fewer than the " + std::to_string(outline.variants.size()) +
                    " given and at most " + std::to_string(kMostVariants) });
    if (!outline.sawVariants)
        return fieldError("", "", { "variants", "missing", "a list of the variants' reports" });
    return std::pair { comparison, planned->get<std::size_t>() };
}

}  // namespace

Result<PlanReport> readComparisonJson(std::istream& in, const ReadControl& control)
{
    // The whole text: the outline's pass, then each variant's read, are over it.
    std::string text;
    while (readMore(in, text, std::size_t(1) << 20) > 0) {
        if (control.cancel && control.cancel->load())
            return json_read::cancelled();
    }
    ReadControl quiet { {}, control.cancel, 0 };  // the variants' reads tell the progress
    ReadMeter outlineMeter(quiet);
    std::istringstream nothingMore;
    StreamSource source(nothingMore, text, outlineMeter);
    ComparisonOutline outline(source);
    json::sax_parse(SourceIterator(&source), SourceIterator(), &outline);
    if (outlineMeter.cancelled())
        return json_read::cancelled();
    if (const std::string nul = source.nulPlace(); !nul.empty())
        return makeError(ErrorKind::Io, nul + ": " + json_read::kNulByte);
    if (!outline.error.empty())
        return makeError(ErrorKind::Io, outline.error);
    auto top = readTop(outline);
    if (!top)
        return top.error();

    PlanReport plan;
    plan.comparison = top->first;
    plan.planned = top->second;
    const std::vector<std::size_t> starts = lineStarts(text);
    std::uintmax_t total = 0;
    for (const VariantOutline& v : outline.variants)
        total += v.begin.line + v.begin.column + offsetOf(starts, v.end) - offsetOf(starts, v.begin);
    const ReadControl variants { control.progress, control.cancel, total };  // the meter refers to it: it outlives it
    ReadMeter meter(variants);
    for (std::size_t i = 0; i < outline.variants.size(); ++i) {
        const VariantOutline& v = outline.variants[i];
        const std::string name = "variant " + std::to_string(i + 1);
        const auto label = v.fields.find("variant");
        if (label == v.fields.end())
            return fieldError(
                "", "line " + std::to_string(v.begin.line), { name + ".variant", "missing", "its label" });
        // Its text where it lies in the file: lines and columns in messages are the file's.
        std::string document(v.begin.line - 1, '\n');
        document.append(v.begin.column - 1, ' ');
        const std::size_t from = offsetOf(starts, v.begin);
        document.append(text, from, offsetOf(starts, v.end) + 1 - from);
        std::istringstream rest;
        auto report = json_read::readDocument(rest, std::move(document), meter);
        if (!report) {
            Error error = report.error();
            if (error.kind != ErrorKind::Cancelled)
                error.detail = name + " (\"" + quotedValue(label->second) + "\"): " + error.detail;
            return error;
        }
        VariantResult result { label->second, std::move(*report), std::nullopt, std::nullopt };
        // The file keeps what was said of a variant that did not run or failed, not the kind of error it was.
        if (const auto notRun = v.fields.find("not_run"); notRun != v.fields.end())
            result.notRun = makeError(ErrorKind::Io, notRun->second);
        if (const auto failure = v.fields.find("failure"); failure != v.fields.end())
            result.failure = makeError(ErrorKind::Io, failure->second);
        plan.variants.push_back(std::move(result));
    }
    return plan;
}

}  // namespace asyncscope
