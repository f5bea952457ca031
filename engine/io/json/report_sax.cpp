#include "engine/io/json/report_sax.hpp"

#include "engine/io/bounded_json.hpp"
#include "engine/io/json/document_reader.hpp"
#include "engine/io/json/header_blocks.hpp"
#include "engine/io/json/run_fields.hpp"

#include <algorithm>
#include <iterator>
#include <optional>

namespace asyncscope::json_read {

using nlohmann::json;
using namespace json_fields;
using json_header::BadField;
using json_header::formatVersion;
using json_header::layoutFrom;

namespace {

// The header's blocks, whose lines a message names.
constexpr const char* kHeaderKeys[] = { "format", "format_version", "host", "device", "binding", "config",
    "calibration", "outcome", "fields", "runs" };

using KeyLines = std::vector<std::pair<std::string, std::size_t>>;

std::string whereIn(const KeyLines& keyLines, std::string_view key)
{
    const auto at = std::find_if(keyLines.begin(), keyLines.end(), [key](const auto& k) { return k.first == key; });
    return "line " + std::to_string(at == keyLines.end() ? std::size_t(1) : at->second);
}

json toJson(const FieldValue& v)
{
    switch (v.kind) {
    case FieldValue::Flag: return v.flag;
    case FieldValue::Int: return v.i;
    case FieldValue::Unsigned: return v.u;
    case FieldValue::Float: return v.d;
    case FieldValue::Text: return std::string(v.text);
    default: return nullptr;
    }
}

// A SAX handler for a whole report (the document's other fields become a small DOM, the runs are read one by one
// into RunResults) or for a plain list of runs (a stretch of version 3's one-run lines). It stops at the first
// problem and keeps it, with the run it was found in.
class ReportSax {
public:
    explicit ReportSax(StreamSource& source) : m_layout(Layout::full()), m_source(source) {}

    // ---- the SAX interface
    bool null() { return scalar({}); }
    bool boolean(bool b)
    {
        FieldValue v;
        v.kind = FieldValue::Flag;
        v.flag = b;
        return scalar(v);
    }
    bool number_integer(json::number_integer_t n)
    {
        FieldValue v;
        v.kind = FieldValue::Int;
        v.i = n;
        return scalar(v);
    }
    bool number_unsigned(json::number_unsigned_t n)
    {
        FieldValue v;
        v.kind = FieldValue::Unsigned;
        v.u = n;
        return scalar(v);
    }
    bool number_float(json::number_float_t n, const json::string_t&)
    {
        FieldValue v;
        v.kind = FieldValue::Float;
        v.d = n;
        return scalar(v);
    }
    bool string(json::string_t& s)
    {
        FieldValue v;
        v.kind = FieldValue::Text;
        v.text = s;
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
        case Ctx::Dom: m_domKey = k; return spend(TreeCost::member + TreeCost::text(k.size()));
        case Ctx::Run:
            m_key = runKeyOf(k);
            if (m_key == RunKey::Unknown)
                m_unknownKey = quotedValue(k);  // for a message about what it holds
            return true;
        case Ctx::SpanObject: m_spanKey = spanFieldOf(k); return true;
        default: return true;
        }
    }
    bool parse_error(std::size_t, const std::string& lastToken, const json::exception&)
    {
        const std::string line = std::to_string(m_source.line());
        const std::string run = std::to_string(m_runs.count());
        if (m_source.ended()) {
            m_error = inRun() ? "the file ends inside run " + run + " (line " + line + "): it is cut short"
                              : "the file ends early, at line " + line + ": it is cut short";
        } else {
            const std::string at = "line " + line + ", column " + std::to_string(m_source.column());
            m_error = (inRun() ? "run " + run + " (" + at + ")" : at) + ": not valid JSON at '" +
                quotedValue(lastToken) + "'";
        }
        return false;
    }

    // What it read; the handler is spent.
    ParsedDocument take()
    {
        ParsedDocument out;
        out.header = std::move(m_header);
        out.runs = std::move(m_runs.result());
        out.error = std::move(m_error);
        out.sawRuns = m_sawRuns;
        out.assumedFields = m_assumedFields;
        out.checkedRuns = m_config.has_value();
        out.keyLines = std::move(m_keyLines);
        return out;
    }

private:
    enum class Ctx : std::uint8_t { Root, Dom, RunList, Run, RunArray, SpanList, SpanArray, SpanObject, Skip };

    bool inRun() const
    {
        return std::any_of(m_stack.begin(), m_stack.end(), [](Ctx c) { return c == Ctx::Run || c == Ctx::RunArray; });
    }

    // Where the parser is: "run 3 (line 12)" in a run (or `atRun`: the run that has just ended), "line 12" outside.
    std::string place(bool atRun = false)
    {
        const std::string line = "line " + std::to_string(m_source.line());
        return atRun || inRun() ? "run " + std::to_string(m_runs.count()) + " (" + line + ")" : line;
    }

    bool fail(std::string text, bool atRun = false)
    {
        if (m_error.empty())
            m_error = place(atRun) + ": " + text;
        return false;
    }

    bool failField(const FieldProblem& problem, bool atRun = false)
    {
        if (m_error.empty())
            m_error = fieldError("", place(atRun), problem).detail;
        return false;
    }

    // The document is not an object: `found` says what it is.
    bool notAnObject(std::string found)
    {
        return failField({ "the document", std::move(found), "an object: an AsyncScope report" });
    }

    // A key given a second time in an object whose values are kept: a reader would take the last and never see the
    // first. `key` is in the document's own object, or in its block m_rootKey (a level in or deeper).
    bool givenTwice(const std::string& key, bool inBlock)
    {
        std::string field = quotedValue(key);
        if (inBlock)
            field = m_domStack.size() == 1 ? quotedValue(m_rootKey) + "." + field
                                           : field + " in " + quotedValue(m_rootKey);
        return failField({ std::move(field), "given twice", "each key once in its object" });
    }

    // A problem with the run that has just ended.
    bool failAtRun(std::string text) { return fail(std::move(text), true); }

    // The field a list or an object nested too deep lies in.
    bool tooDeep()
    {
        std::string field = m_rootKey;
        if (inRun())
            field = m_key == RunKey::Unknown ? m_unknownKey : ruleOf(m_key).name;
        if (field.empty())
            field = inRun() ? "run" : "the document";
        return failField(nestedTooDeep(quotedValue(field)));
    }

    // ---- containers
    bool open(bool object)
    {
        if (m_stack.size() >= std::size_t(kMaxNestingDepth))
            return tooDeep();
        if (m_stack.empty()) {
            if (object) {
                m_stack.push_back(Ctx::Root);
                return true;
            }
            return notAnObject("a list");
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
            if (!readBlock(m_domKey))
                return skip();
            if (m_header.contains(m_domKey))
                return givenTwice(m_domKey, false);
            if (!spend(TreeCost::value + TreeCost::container))
                return false;
            m_domStack.push_back(&(m_header[m_domKey] = object ? json::object() : json::array()));
            m_stack.push_back(Ctx::Dom);
            return true;
        case Ctx::Dom: {
            if (!spend(TreeCost::value + TreeCost::container))
                return false;
            json& parent = *m_domStack.back();
            json child = object ? json::object() : json::array();
            if (parent.is_object() && parent.contains(m_domKey))
                return givenTwice(m_domKey, true);
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
            m_runs.beginRun();
            m_key = RunKey::Unknown;
            m_runPosition = 0;
            m_stack.push_back(object ? Ctx::Run : Ctx::RunArray);
            return true;
        case Ctx::RunArray:
            m_key = runFieldAt(m_runPosition++);
            [[fallthrough]];
        case Ctx::Run:
            if (m_key == RunKey::Unknown)
                return skip();
            if (ruleOf(m_key).kind == RunFieldKind::SpanList && !object) {
                if (!m_runs.beginSpans(m_key))
                    return fail(m_runs.problem());
                m_stack.push_back(Ctx::SpanList);
                return true;
            }
            return fail(notExpected(m_key));
        case Ctx::SpanList:
            m_runs.beginSpan();
            m_spanPosition = 0;
            m_spanKey = SpanField::Unknown;
            m_stack.push_back(object ? Ctx::SpanObject : Ctx::SpanArray);
            return true;
        case Ctx::SpanArray:
            if (spanFieldAt(m_spanPosition++) == SpanField::Unknown)
                return skip();
            return fail(m_runs.spanPlace() + "a field is a list or an object");
        case Ctx::SpanObject:
            if (m_spanKey == SpanField::Unknown)
                return skip();
            return fail(m_runs.spanPlace() + ruleOf(m_spanKey).name + " is a list or an object");
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

    // Whether the document's block `key` is one a reader reads: the others (a summary, the advice, keys of other
    // programs) are read past without being built.
    static bool readBlock(const std::string& key)
    {
        return std::find(json_header::kBlocksRead.begin(), json_header::kBlocksRead.end(), key) !=
            json_header::kBlocksRead.end();
    }

    // `bytes` more of the header's tree: past what the bytes read so far may cost (treeBytesLimit), the read stops.
    bool spend(std::size_t bytes)
    {
        m_domBytes += bytes;
        const std::size_t limit = treeBytesLimit(m_source.total());
        if (m_domBytes <= limit)
            return true;
        return failField(holdsTooMuch(quotedValue(m_rootKey.empty() ? "the document" : m_rootKey), limit));
    }

    bool close()
    {
        const Ctx ended = m_stack.back();
        m_stack.pop_back();
        switch (ended) {
        case Ctx::Dom: m_domStack.pop_back(); return true;
        case Ctx::Run:
        case Ctx::RunArray:
            return m_runs.endRun(m_config ? &*m_config : nullptr, m_source.line()) || failAtRun(m_runs.problem());
        case Ctx::SpanArray:
        case Ctx::SpanObject: return m_runs.endSpan() || fail(m_runs.problem());
        default: return true;
        }
    }

    // ---- the document's own fields
    bool rootKey(const std::string& k)
    {
        m_rootKey = k;
        const bool headerKey = std::find(std::begin(kHeaderKeys), std::end(kHeaderKeys), k) != std::end(kHeaderKeys);
        const bool seen =
            std::any_of(m_keyLines.begin(), m_keyLines.end(), [&k](const auto& at) { return at.first == k; });
        if (headerKey && !seen)  // the first place each is given (a hostile file may repeat a key without end)
            m_keyLines.emplace_back(k, m_source.line());
        if (k != "runs") {
            m_domKey = k;
            return true;
        }
        if (m_sawRuns)
            return givenTwice(k, false);
        // Before the runs: is it a report, and one this version reads? Its span fields, where it named them.
        const json_header::WhereOf where = [this](std::string_view key) { return whereIn(m_keyLines, key); };
        if (m_header.contains("format") && m_header.at("format") != kReportFormatName) {
            const FieldProblem problem = json_read::notAReport(quotedJson(m_header.at("format")));
            m_error = fieldError("", whereIn(m_keyLines, "format"), problem).detail;
            return false;
        }
        try {
            if (m_header.contains("format_version"))
                formatVersion(m_header);
            m_layout = layoutFrom(m_header);
            m_fieldsFromDocument = m_header.contains("fields");
        } catch (const BadField& e) {
            m_error = json_header::headerError(e, where).detail;
            return false;
        }
        // The runs are checked against the configuration as they are read, where it came before them. (Where a
        // block the header needs comes after them, they are checked once it is read.)
        if (m_header.contains("config") && m_header.contains("device")) {
            auto report = json_header::readHeader(m_header, where);
            if (report)
                m_config = report->config;
        }
        m_sawRuns = true;
        m_runsNext = true;
        return true;
    }

    bool scalar(const FieldValue& v)
    {
        if (m_stack.empty())
            return notAnObject(quotedJson(toJson(v)));
        switch (m_stack.back()) {
        case Ctx::Root:
            if (m_runsNext)
                return fail("'runs' is not a list of runs");
            if (readBlock(m_domKey)) {
                if (m_header.contains(m_domKey))
                    return givenTwice(m_domKey, false);
                m_header[m_domKey] = toJson(v);
            }
            return true;
        case Ctx::Dom: {
            if (!spend(TreeCost::value + (v.kind == FieldValue::Text ? TreeCost::text(v.text.size()) : 0)))
                return false;
            json& parent = *m_domStack.back();
            if (parent.is_array())
                parent.push_back(toJson(v));
            else if (parent.contains(m_domKey))
                return givenTwice(m_domKey, true);
            else
                parent[m_domKey] = toJson(v);
            return true;
        }
        case Ctx::RunList: return failAtRun("not an object");
        case Ctx::RunArray:
            m_key = runFieldAt(m_runPosition++);
            return m_runs.field(m_key, v) || fail(m_runs.problem());
        case Ctx::Run: return m_runs.field(m_key, v) || fail(m_runs.problem());
        case Ctx::SpanList: return fail(m_runs.spanPlace() + "it is not a list or an object");
        case Ctx::SpanArray: return m_runs.spanField(spanFieldAt(m_spanPosition++), v) || fail(m_runs.problem());
        case Ctx::SpanObject: return m_runs.spanField(m_spanKey, v) || fail(m_runs.problem());
        case Ctx::Skip: return true;
        }
        return false;
    }

    // ---- the fields an array holds, by its place
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

    Layout m_layout;
    StreamSource& m_source;
    bool m_fieldsFromDocument = true;
    bool m_assumedFields = false;
    std::vector<Ctx> m_stack;

    // The document's other fields.
    json m_header = json::object();
    std::vector<json*> m_domStack;
    std::string m_domKey;
    std::size_t m_domBytes = 0;  // what the header's tree takes, about
    bool m_runsNext = false;
    bool m_sawRuns = false;
    std::string m_rootKey;                                       // the document's key whose value is being read
    std::vector<std::pair<std::string, std::size_t>> m_keyLines;  // where the header's blocks begin
    std::optional<PipelineConfig> m_config;                      // the header's, where it came before the runs

    // The run and the span being read: which field comes next.
    DocumentRuns m_runs;
    RunKey m_key = RunKey::Unknown;
    std::string m_unknownKey;  // the name of the run's field m_key does not know
    std::size_t m_runPosition = 0;
    std::size_t m_spanPosition = 0;
    SpanField m_spanKey = SpanField::Unknown;

    std::string m_error;  // with its place
};

}  // namespace

std::string ParsedDocument::whereOf(std::string_view key) const
{
    return whereIn(keyLines, key);
}

ParsedDocument parseDocument(StreamSource& source)
{
    ReportSax sax(source);
    json::sax_parse(SourceIterator(&source), SourceIterator(), &sax);
    return sax.take();
}

}  // namespace asyncscope::json_read
