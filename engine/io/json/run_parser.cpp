#include "engine/io/json/run_parser.hpp"

#include "engine/model/record_rules.hpp"

#include <simdjson.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
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

bool toDouble(dom::element v, double& out)
{
    if (v.is_null()) {
        out = std::numeric_limits<double>::quiet_NaN();  // written for what JSON cannot hold
        return true;
    }
    return !v.get_double().get(out);
}

template <class T>
bool toWhole(dom::element v, T& out)
{
    if (v.is_uint64() && !v.is_int64()) {  // above what an int64 holds
        std::uint64_t u = 0;
        if (v.get_uint64().get(u) || u > std::uint64_t(std::numeric_limits<T>::max()))
            return false;
        out = T(u);
        return true;
    }
    std::int64_t i = 0;
    if (v.get_int64().get(i))
        return false;
    if (i < std::int64_t(std::numeric_limits<T>::min()) ||
        (i > 0 && std::uint64_t(i) > std::uint64_t(std::numeric_limits<T>::max())))
        return false;
    out = T(i);
    return true;
}

// An enum's value by its name, the names' lengths counted once (parseName counts them at every call).
template <class Enum>
std::optional<Enum> valueNamed(std::string_view name)
{
    static const auto table = [] {
        std::vector<std::pair<std::string_view, Enum>> t;
        for (const auto& [value, text] : EnumNames<Enum>::entries)
            t.emplace_back(text, value);
        return t;
    }();
    for (const auto& [text, value] : table) {
        if (text == name)
            return value;
    }
    return std::nullopt;
}

constexpr std::uint32_t bit(RunKey k) { return 1u << unsigned(k); }
constexpr std::uint32_t bit(SpanField f) { return 1u << unsigned(f); }

// The names of the run's fields as views, for comparing without counting their lengths.
const std::array<std::string_view, kWrittenRunFields> kKeys = [] {
    std::array<std::string_view, kWrittenRunFields> keys;
    for (std::size_t i = 0; i < keys.size(); ++i)
        keys[i] = kRunKeyNames[i];
    return keys;
}();

class RunReader {
public:
    explicit RunReader(const Layout& layout) : m_layout(layout) {}

    void run(dom::element doc, RunResult& run)
    {
        m_seen = 0;
        if (doc.is_object()) {
            std::size_t next = 0;  // the key the writer's order puts next: most lookups are one comparison
            for (const dom::key_value_pair field : dom::object(doc)) {
                const RunKey key = next < kKeys.size() && field.key == kKeys[next] ? RunKey(next) : runKeyOf(field.key);
                next = std::size_t(key) + 1;
                runField(key, field.value, run);
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
        for (const RunKey needed : { RunKey::Run, RunKey::Warmup, RunKey::GpuMs, RunKey::Polls, RunKey::Verified,
                 RunKey::Spans }) {
            if (!(m_seen & bit(needed)))
                throw Problem { std::string(kRunKeyNames[int(needed)]) + " missing" };
        }
    }

private:
    void runField(RunKey key, dom::element v, RunResult& r)
    {
        bool ok = true;
        switch (key) {
        case RunKey::Run: ok = toWhole(v, r.index); break;
        case RunKey::Warmup: ok = !v.get_bool().get(r.warmup); break;
        case RunKey::StartMs: ok = toDouble(v, r.startMs); break;
        case RunKey::GpuMs: ok = toDouble(v, r.gpuMs); break;
        case RunKey::Polls: ok = toWhole(v, r.pollIterations); break;
        case RunKey::WaitCpuMs: ok = toDouble(v, r.waitCpuMs); break;
        case RunKey::Expected: ok = toWhole(v, r.expectedValue); break;
        case RunKey::Verified: ok = !v.get_bool().get(r.verified); break;
        case RunKey::FirstWrongIndex: ok = toWhole(v, r.firstWrongIndex); break;
        case RunKey::FirstWrongValue: ok = toWhole(v, r.firstWrongValue); break;
        case RunKey::Spans:
        case RunKey::Traced:
            ok = v.is_array();
            if (ok)
                spans(dom::array(v), key == RunKey::Traced, key == RunKey::Traced ? r.traced : r.spans);
            break;
        default: return;  // a field this reader does not know, or one version 1 gave (in documents only)
        }
        if (!ok)
            throw Problem { std::string(kRunKeyNames[int(key)]) + " is not " + expectedOf(key) };
        m_seen |= bit(key);
    }

    void spans(dom::array list, bool traced, std::vector<Span>& out)
    {
        if (list.size() > kMaxSpansPerRun)
            throw Problem { std::string(traced ? "traced_spans" : "spans") + " holds more than " +
                std::to_string(kMaxSpansPerRun) + " spans: more than a run has" };
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
                    seen |= spanField(f, v, span, index, traced);
                }
            } else if (s.is_object()) {
                for (const dom::key_value_pair field : dom::object(s))
                    seen |= spanField(spanFieldOf(field.key), field.value, span, index, traced);
            } else {
                throw Problem { spanPlace(index, traced) + "it is not a list or an object" };
            }
            for (const SpanField needed : { SpanField::Kind, SpanField::BeginMs, SpanField::EndMs }) {
                if (!(seen & bit(needed)))
                    throw Problem { std::string(kSpanFieldNames[int(needed)]) + " missing in " +
                        (traced ? "traced span " : "span ") + std::to_string(index) };
            }
            out.push_back(span);
            ++index;
        }
    }

    static std::string spanPlace(std::size_t index, bool traced)
    {
        return std::string(traced ? "traced span " : "span ") + std::to_string(index) + ": ";
    }

    // The bit of the field read, 0 for one passed over.
    std::uint32_t spanField(SpanField f, dom::element v, Span& s, std::size_t index, bool traced)
    {
        bool ok = true;
        switch (f) {
        case SpanField::Kind:
        case SpanField::Call: {
            std::string_view name;
            if (v.get_string().get(name))
                throw Problem { spanPlace(index, traced) + kSpanFieldNames[int(f)] + " is not a name" };
            if (f == SpanField::Kind) {
                const auto kind = valueNamed<SpanKind>(name);
                if (!kind)
                    throw Problem { spanPlace(index, traced) + "kind '" + quotedValue(name) + "' is not " +
                        acceptedNames<SpanKind>() };
                s.kind = *kind;
            } else {
                const auto call = valueNamed<ApiCall>(name);
                if (!call)
                    throw Problem { spanPlace(index, traced) + "call '" + quotedValue(name) + "' is not " +
                        acceptedNames<ApiCall>() };
                s.call = *call;
            }
            break;
        }
        case SpanField::Device: ok = toWhole(v, s.device); break;
        case SpanField::Stream: ok = toWhole(v, s.stream); break;
        case SpanField::Chunk: ok = toWhole(v, s.chunk); break;
        case SpanField::Bytes: ok = toWhole(v, s.bytes); break;
        case SpanField::BeginMs: ok = toDouble(v, s.beginMs); break;
        case SpanField::EndMs: ok = toDouble(v, s.endMs); break;
        case SpanField::Unknown: return 0;
        }
        if (!ok)
            throw Problem { spanPlace(index, traced) + kSpanFieldNames[int(f)] + " is not " +
                (f == SpanField::BeginMs || f == SpanField::EndMs ? "a number" : "a whole number") };
        return bit(f);
    }

    const Layout& m_layout;
    std::uint32_t m_seen = 0;
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

bool RunParser::parse(std::string_view line, RunResult& run, std::string& error)
{
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
        RunReader(m_impl->layout).run(doc, run);
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
