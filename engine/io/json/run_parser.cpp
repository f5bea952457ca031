#include "engine/io/json/run_parser.hpp"

#include "engine/io/json/run_fields.hpp"
#include "engine/model/record_rules.hpp"

#include <simdjson.h>

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace asyncscope::json_read {

using namespace json_fields;
namespace dom = simdjson::dom;

static_assert(kLinePadding >= simdjson::SIMDJSON_PADDING, "a line must be followed by simdjson's padding");

namespace {

// A problem in the run: its text, for the reader's message.
struct Problem {
    std::string text;
};

// The scalar `v` as the field rows take it (a list or an object: a Container). Inlined where a field is read: a
// call of its own for each of a big file's tens of millions of fields shows in its read time.
[[gnu::always_inline]] inline FieldValue valueOf(dom::element v)
{
    FieldValue f;
    switch (v.type()) {
    case dom::element_type::INT64:
        f.kind = FieldValue::Int;
        f.i = v.get_int64().value_unsafe();
        break;
    case dom::element_type::UINT64:  // only above what an int64 holds
        f.kind = FieldValue::Unsigned;
        f.u = v.get_uint64().value_unsafe();
        break;
    case dom::element_type::DOUBLE:
        f.kind = FieldValue::Float;
        f.d = v.get_double().value_unsafe();
        break;
    case dom::element_type::STRING:
        f.kind = FieldValue::Text;
        f.text = v.get_string().value_unsafe();
        break;
    case dom::element_type::BOOL:
        f.kind = FieldValue::Flag;
        f.flag = v.get_bool().value_unsafe();
        break;
    case dom::element_type::NULL_VALUE: break;
    default: f.kind = FieldValue::Container; break;
    }
    return f;
}

// The names of the run's fields as views, for comparing without counting their lengths.
const std::array<std::string_view, kWrittenRunFields> kKeys = [] {
    std::array<std::string_view, kWrittenRunFields> keys;
    for (std::size_t i = 0; i < keys.size(); ++i)
        keys[i] = kRunFields[i].name;
    return keys;
}();

class RunReader {
public:
    explicit RunReader(const Layout& layout) : m_layout(layout) {}

    // `continues`: the line is one of the spans that go on from the run before it.
    void run(dom::element doc, RunResult& run, bool& continues)
    {
        m_seen = 0;
        continues = false;
        bool moreSpans = false, moreTraced = false;  // a line going on with the run's spans gives each list once
        if (doc.is_object()) {
            std::size_t next = 0;  // the key the writer's order puts next: most lookups are one comparison
            for (const dom::key_value_pair field : dom::object(doc)) {
                const RunKey key = next < kKeys.size() && field.key == kKeys[next] ? RunKey(next) : runKeyOf(field.key);
                next = std::size_t(key) + 1;
                if (key == RunKey::Unknown && (field.key == kMoreSpansKey || field.key == kMoreTracedKey)) {
                    const bool traced = field.key == kMoreTracedKey;
                    const char* name = traced ? kMoreTracedKey : kMoreSpansKey;
                    if (!field.value.is_array())
                        throw Problem { std::string(name) + " is not a list" };
                    if (std::exchange(traced ? moreTraced : moreSpans, true))
                        throw Problem { givenTwice(name) };
                    spans(dom::array(field.value), traced, traced ? run.traced : run.spans);
                    continues = true;
                    continue;
                }
                runField(key, field.value, run);
            }
            if (continues) {
                if (m_seen != bit(RunKey::Run))
                    throw Problem { std::string("a line that goes on with a run's spans (") + kMoreSpansKey + ", " +
                        kMoreTracedKey + ") holds the run's number and nothing else of a run" };
                return;
            }
        } else if (doc.is_array()) {
            std::size_t position = 0;
            for (const dom::element value : dom::array(doc)) {
                const RunKey key = position < m_layout.run.size() ? m_layout.run[position] : RunKey::Unknown;
                ++position;
                runField(key, value, run);
            }
        } else {
            throw Problem { "not an object" };
        }
        if (const char* missing = missingRunField(m_seen))
            throw Problem { std::string(missing) + " missing" };
        if (!(m_seen & bit(RunKey::Spans)))
            throw Problem { std::string(ruleOf(RunKey::Spans).name) + " missing" };
    }

private:
    void runField(RunKey key, dom::element v, RunResult& r)
    {
        if (key == RunKey::Unknown)
            return;  // a field this reader does not know
        const RunFieldRule& rule = ruleOf(key);
        if (m_seen & bit(key))
            throw Problem { givenTwice(rule.name) };
        bool ok = true;
        switch (rule.kind) {
        case RunFieldKind::Value: ok = rule.read(valueOf(v), r, m_durations); break;
        case RunFieldKind::SpanList:
            ok = v.is_array();
            if (ok)
                spans(dom::array(v), key == RunKey::Traced, key == RunKey::Traced ? r.traced : r.spans);
            break;
        case RunFieldKind::Duration: return;  // version 1's, read in documents only
        }
        if (!ok)
            throw Problem { notExpected(key) };
        m_seen |= bit(key);
    }

    void spans(dom::array list, bool traced, std::vector<Span>& out)
    {
        if (list.size() > kMaxSpansPerRun)
            throw Problem { tooManySpans(traced, kMaxSpansPerRun) };
        out.clear();
        out.reserve(list.size());
        std::size_t index = 0;
        for (const dom::element s : list) {
            Span span;
            std::uint32_t seen = 0;
            if (s.is_array()) {
                std::size_t position = 0;
                for (const dom::element v : dom::array(s)) {
                    const SpanField f = position < m_layout.span.size() ? m_layout.span[position] : SpanField::Unknown;
                    ++position;
                    seen |= spanField(f, v, span, index, traced, seen);
                }
            } else if (s.is_object()) {
                for (const dom::key_value_pair field : dom::object(s))
                    seen |= spanField(spanFieldOf(field.key), field.value, span, index, traced, seen);
            } else {
                throw Problem { spanPlace(index, traced) + "it is not a list or an object" };
            }
            if (const char* missing = missingSpanField(seen))
                throw Problem { missingInSpan(missing, index, traced) };
            out.push_back(span);
            ++index;
        }
    }

    // The bit of the field read, 0 for one passed over.
    static std::uint32_t spanField(
        SpanField f, dom::element v, Span& s, std::size_t index, bool traced, std::uint32_t seen)
    {
        if (f == SpanField::Unknown)
            return 0;
        if (seen & bit(f))
            throw Problem { spanPlace(index, traced) + givenTwice(ruleOf(f).name) };
        const FieldValue value = valueOf(v);
        const SpanRead read = ruleOf(f).read(value, s);
        if (read != SpanRead::Taken)
            throw Problem { spanProblem(f, read, value, index, traced) };
        return bit(f);
    }

    const Layout& m_layout;
    std::uint32_t m_seen = 0;
    SerialDurations m_durations;  // version 1's, which run lines never give
};

// What is wrong with a line simdjson refuses, in words for a person (not simdjson's names for its errors).
std::string syntaxProblem(simdjson::error_code code)
{
    switch (code) {
    case simdjson::DEPTH_ERROR:
        return "it nests lists and objects deeper than a run does (" + std::to_string(kMaxRunDepth) + ")";
    case simdjson::UNCLOSED_STRING: return "not valid JSON: a text is not closed (the line is cut short?)";
    case simdjson::STRING_ERROR:
    case simdjson::UNESCAPED_CHARS: return "not valid JSON: a text holds a bad escape or a control character";
    case simdjson::UTF8_ERROR: return "not valid JSON: it holds bytes that are not UTF-8";
    case simdjson::NUMBER_ERROR:
    case simdjson::NUMBER_OUT_OF_RANGE: return "not valid JSON: a number is malformed or out of range";
    case simdjson::T_ATOM_ERROR:
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR: return "not valid JSON: a word other than true, false or null";
    case simdjson::EMPTY: return "not valid JSON: the line holds no value";
    case simdjson::CAPACITY: return "the line is too long to be a run";
    case simdjson::MEMALLOC: return "there is not memory enough to parse the line";
    default: return "not valid JSON: brackets, braces, commas or colons out of place (the line is cut short?)";
    }
}

}  // namespace

namespace {

constexpr std::size_t kFirstLineCapacity = std::size_t(4) << 10;  // a run of the classic pipeline takes ~600 bytes

}  // namespace

struct RunParser::Impl {
    Impl(const Layout& l, const PipelineConfig& c) : parser(kMaxLineBytes), layout(l), config(c) {}
    dom::parser parser;  // its buffers allocated at the first line, grown for a longer one
    Layout layout;
    PipelineConfig config;
};

RunParser::RunParser(const Layout& layout, const PipelineConfig& config)
    : m_impl(std::make_unique<Impl>(layout, config))
{
}

RunParser::~RunParser() = default;
RunParser::RunParser(RunParser&&) noexcept = default;
RunParser& RunParser::operator=(RunParser&&) noexcept = default;

bool RunParser::parse(std::string_view line, RunResult& run, std::string& error, bool& continues)
{
    continues = false;
    if (line.size() > kMaxLineBytes) {  // before simdjson allocates for it
        error = "the line is longer than " + std::to_string(kMaxLineBytes >> 20) + " MiB: it is not a run";
        return false;
    }
    // simdjson's buffers take about 14 times the capacity: sized to the lines met (a report of a few runs, one of
    // the thousands a merge reads, allocates tens of kB, not the most a line may take).
    dom::parser& parser = m_impl->parser;
    if (parser.capacity() < line.size() || parser.max_depth() != kMaxRunDepth) {
        std::size_t capacity = kFirstLineCapacity;
        while (capacity < line.size())
            capacity *= 2;
        if (const auto problem = parser.allocate(capacity, kMaxRunDepth)) {
            error = "cannot be parsed: " + syntaxProblem(problem);
            return false;
        }
    }
    dom::element doc;
    if (const auto code = parser.parse(line.data(), line.size(), false).get(doc)) {
        error = syntaxProblem(code);
        return false;
    }
    try {
        RunReader(m_impl->layout).run(doc, run, continues);
    } catch (const Problem& p) {
        error = p.text;
        return false;
    }
    if (auto bad = checkRun(run, m_impl->config)) {
        error = fieldError("", "", *bad).detail;
        return false;
    }
    return true;
}

}  // namespace asyncscope::json_read
