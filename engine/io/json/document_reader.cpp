// Formats 1 and 2, and a report of any version laid out otherwise than its writer did (indented all through, on one
// line, keys sorted): one pass of nlohmann's SAX parser over the whole document. The document's other fields become
// a small DOM, the runs are read one by one.
#include "engine/io/json/document_reader.hpp"

#include "engine/io/bounded_json.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/json/header_blocks.hpp"
#include "engine/io/json/run_parser.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iterator>
#include <limits>
#include <optional>
#include <string_view>

namespace asyncscope::json_read {

using nlohmann::json;
using namespace json_fields;
using json_header::BadField;
using json_header::formatVersion;
using json_header::layoutFrom;

namespace {

constexpr std::size_t kBlock = std::size_t(4) << 20;
// The header's blocks, whose lines a message names.
constexpr const char* kHeaderKeys[] = { "format", "format_version", "host", "device", "binding", "config",
    "calibration", "outcome", "fields", "runs" };

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

// The stream as the characters nlohmann's parser takes, a block at a time, counting and cancellable: at a cancel
// the input just ends.
class StreamSource {
public:
    StreamSource(std::istream& in, std::string first, ReadMeter& meter)
        : m_in(in)
        , m_buffer(std::move(first))
        , m_meter(meter)
        , m_total(m_buffer.size())
    {
        cutAtNul();
    }
    std::size_t total() const { return m_total; }  // the bytes read so far
    bool more() { return m_pos < m_buffer.size() || refill(); }
    char get() const { return m_buffer[m_pos]; }
    void next() { ++m_pos; }
    // Whether the parser has taken every byte there is: it stopped at the end of the input (or at a NUL byte).
    bool ended() const { return m_done || m_nulLine > 0; }
    // Where a NUL byte ended the input: "line 3, column 7"; empty where none did.
    std::string nulPlace() const
    {
        return m_nulLine > 0 ? "line " + std::to_string(m_nulLine) + ", column " + std::to_string(m_nulColumn)
                             : std::string();
    }

    // The line (counted from 1) of the last character the parser took.
    std::size_t line()
    {
        const std::size_t upTo = std::min(m_pos > 0 ? m_pos - 1 : 0, m_buffer.size());
        if (upTo > m_counted) {
            m_lines += std::size_t(std::count(m_buffer.begin() + std::ptrdiff_t(m_counted),
                m_buffer.begin() + std::ptrdiff_t(upTo), '\n'));
            m_counted = upTo;
        }
        // Nothing taken of this block yet: the last character taken ended the block before, a line break perhaps.
        return m_lines + (m_pos == 0 && m_blockEndedLine ? 0 : 1);
    }
    // Its column, counted from 1.
    std::size_t column() const
    {
        const std::size_t at = std::min(m_pos > 0 ? m_pos - 1 : 0, m_buffer.size());
        const std::size_t newline = at == 0 ? std::string::npos : m_buffer.rfind('\n', at - 1);
        if (newline != std::string::npos)
            return at - newline;
        return m_total - m_buffer.size() + at - m_lineStart + 1;
    }

private:
    bool refill()
    {
        if (m_done || m_nulLine > 0)
            return false;
        line();
        m_lines += std::size_t(std::count(m_buffer.begin() + std::ptrdiff_t(m_counted), m_buffer.end(), '\n'));
        if (const std::size_t newline = m_buffer.rfind('\n'); newline != std::string::npos)
            m_lineStart = m_total - m_buffer.size() + newline + 1;
        m_blockEndedLine = !m_buffer.empty() && m_buffer.back() == '\n';
        m_counted = 0;
        m_buffer.clear();
        m_pos = 0;
        const std::size_t got = readMore(m_in, m_buffer, kBlock);
        m_total += got;
        m_done = got == 0 || !m_meter.advance(got);
        if (!m_done)
            cutAtNul();
        return !m_done && !m_buffer.empty();
    }

    // The parser sees the input end where a NUL byte is (and the reader says why): nothing after it is read.
    void cutAtNul()
    {
        const std::size_t nul = m_buffer.find('\0');
        if (nul == std::string::npos)
            return;
        const std::size_t pos = m_pos;
        m_pos = nul + 1;
        m_nulLine = line();
        m_nulColumn = column();
        m_buffer.resize(nul);
        m_pos = pos;
    }

    std::istream& m_in;
    std::string m_buffer;
    std::size_t m_pos = 0;
    ReadMeter& m_meter;
    std::size_t m_total;
    bool m_done = false;
    std::size_t m_lines = 0;      // line breaks before m_counted
    std::size_t m_counted = 0;    // where in the buffer they are counted to
    std::size_t m_lineStart = 0;  // where the line the buffer begins in began, in the stream
    bool m_blockEndedLine = false;  // the block before ended with a line break
    std::size_t m_nulLine = 0;      // where a NUL byte is, from 1; 0 where none is
    std::size_t m_nulColumn = 0;
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

// The runs read, and those that gave version 1's durations in place of spans (their spans are laid out once the
// device and the size are known).
struct ReadRuns {
    std::vector<RunResult> runs;
    std::vector<std::pair<std::size_t, SerialDurations>> durations;
    std::vector<std::size_t> lines;  // each run's last line, where the runs came before the configuration
};

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
        m_syntax = true;
        const std::string line = std::to_string(m_source.line());
        const std::string run = std::to_string(m_out.runs.size());
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

    // ---- what it read
    ReadRuns& result() { return m_out; }
    const json& header() const { return m_header; }
    bool sawRuns() const { return m_sawRuns; }
    bool failed() const { return !m_error.empty(); }
    // What is wrong, with its place: "run 3 (line 12): gpu_time_ms is -1; accepted: …".
    const std::string& error() const { return m_error; }
    // Runs or spans given as arrays before the document said what their fields are.
    bool assumedFields() const { return m_assumedFields; }
    // Where the header's block `key` begins: "line 4"; the document's first line for one it does not hold.
    std::string whereOf(std::string_view key) const
    {
        const auto at = std::find_if(m_keyLines.begin(), m_keyLines.end(),
            [key](const auto& k) { return k.first == key; });
        return "line " + std::to_string(at == m_keyLines.end() ? std::size_t(1) : at->second);
    }
    // The configuration the runs were checked against as they were read, where the header came before them.
    bool checkedRuns() const { return m_config.has_value(); }

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
        return atRun || inRun() ? "run " + std::to_string(m_out.runs.size()) + " (" + line + ")" : line;
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

    // A problem with the run that has just ended.
    bool failAtRun(std::string text) { return fail(std::move(text), true); }

    // The field a list or an object nested too deep lies in.
    bool tooDeep()
    {
        std::string field = m_rootKey;
        if (inRun())
            field = m_key == RunKey::Unknown ? m_unknownKey : kRunKeyNames[int(m_key)];
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
            return fail(std::string(kRunKeyNames[int(m_key)]) + " is not " + expectedOf(m_key));
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
        case Ctx::RunArray: return endRun();
        case Ctx::SpanArray:
        case Ctx::SpanObject: return endSpan();
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
        // Before the runs: is it a report, and one this version reads? Its span fields, where it named them.
        const json_header::WhereOf where = [this](std::string_view key) { return whereOf(key); };
        if (m_header.contains("format") && m_header.at("format") != kReportFormatName) {
            const FieldProblem problem = json_read::notAReport(quotedJson(m_header.at("format")));
            m_error = fieldError("", whereOf("format"), problem).detail;
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

    bool scalar(const Scalar& v)
    {
        if (m_stack.empty()) {
            json value = v.toJson();
            return notAnObject(quotedJson(value));
        }
        switch (m_stack.back()) {
        case Ctx::Root:
            if (m_runsNext)
                return fail("'runs' is not a list of runs");
            if (readBlock(m_domKey))
                m_header[m_domKey] = v.toJson();
            return true;
        case Ctx::Dom: {
            if (!spend(TreeCost::value + (v.type == Scalar::String ? TreeCost::text(v.s->size()) : 0)))
                return false;
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
            return fail(std::string(kRunKeyNames[int(m_key)]) + " is not " + expectedOf(m_key));
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
            for (const auto& [key, ms] : { std::pair { RunKey::CpuSubmitMs, m_v1.submitMs },
                     std::pair { RunKey::WaitMs, m_v1.waitMs }, std::pair { RunKey::H2dMs, m_v1.h2dMs },
                     std::pair { RunKey::KernelMs, m_v1.kernelMs }, std::pair { RunKey::D2hMs, m_v1.d2hMs } }) {
                if (m_seen & bit(key)) {
                    if (auto bad = checkDurationMs(kRunKeyNames[int(key)], ms))
                        return failField(*bad, true);
                }
            }
            m_out.durations.emplace_back(m_out.runs.size(), m_v1);
        } else {
            return missing("spans");
        }
        if (m_config) {
            if (auto bad = checkRun(m_run, *m_config))
                return failField(*bad, true);
        } else {
            m_out.lines.push_back(m_source.line());
        }
        m_out.runs.push_back(std::move(m_run));
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
                    return fail(spanPlace() + "kind '" + quotedValue(*v.s) + "' is not " + acceptedNames<SpanKind>());
                m_span.kind = *kind;
            } else {
                const auto call = parseName<ApiCall>(*v.s);
                if (!call)
                    return fail(spanPlace() + "call '" + quotedValue(*v.s) + "' is not " + acceptedNames<ApiCall>());
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
        if (m_spanIndex >= kMaxSpansPerRun)
            return fail(std::string(m_traced ? "traced_spans" : "spans") + " holds more than " +
                std::to_string(kMaxSpansPerRun) + " spans: more than a run has");
        (m_traced ? m_tracedSpans : m_spans).push_back(m_span);
        ++m_spanIndex;
        return true;
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

    // The run and the span being read.
    RunResult m_run;
    std::uint32_t m_seen = 0;
    SerialDurations m_v1;
    RunKey m_key = RunKey::Unknown;
    std::string m_unknownKey;  // the name of the run's field m_key does not know
    std::size_t m_runPosition = 0;
    std::vector<Span> m_spans, m_tracedSpans;
    Span m_span;
    std::uint32_t m_spanSeen = 0;
    std::size_t m_spanPosition = 0;
    std::size_t m_spanIndex = 0;
    SpanField m_spanKey = SpanField::Unknown;
    bool m_traced = false;

    ReadRuns m_out;

    std::string m_error;  // with its place
    bool m_syntax = false;
};

// Lays out the spans of the runs that gave version 1's durations, now that the device and the size are known.
void layOutDurations(const Report& report, ReadRuns& read)
{
    for (auto& [at, d] : read.durations) {
        d.bytes = report.config.bytes();
        read.runs[at].spans = serialSpans(report.device.index, d);
    }
}

}  // namespace

Result<Report> readDocument(std::istream& in, std::string first, ReadMeter& meter)
{
    StreamSource source(in, std::move(first), meter);
    ReportSax sax(source);
    json::sax_parse(SourceIterator(&source), SourceIterator(), &sax);
    if (meter.cancelled())
        return cancelled();
    if (const std::string nul = source.nulPlace(); !nul.empty())
        return makeError(ErrorKind::Io, nul + ": " + kNulByte);
    if (sax.failed())
        return makeError(ErrorKind::Io, sax.error());
    const json& header = sax.header();
    if (!header.contains("format"))
        return fieldError("", "line 1", notAReport("missing"));
    if (header.at("format") != kReportFormatName)
        return fieldError("", sax.whereOf("format"), notAReport(quotedJson(header.at("format"))));
    auto read = json_header::readHeader(header, [&sax](std::string_view key) { return sax.whereOf(key); });
    if (!read)
        return read;
    if (!sax.sawRuns())
        return fieldError("", "", { "runs", "missing", "a list of runs" });
    if (sax.assumedFields() && header.contains("fields"))
        return makeError(ErrorKind::Io, sax.whereOf("fields") +
                ": \"fields\" comes after the runs it describes; it must come before");
    ReadRuns& runs = sax.result();
    if (!sax.checkedRuns()) {
        for (std::size_t i = 0; i < runs.runs.size(); ++i) {
            if (auto bad = checkRun(runs.runs[i], read->config))
                return fieldError("", "run " + std::to_string(i) + " (line " + std::to_string(runs.lines[i]) + ")",
                    *bad);
        }
    }
    layOutDurations(*read, runs);
    read->runs.reserve(runs.runs.size());
    for (RunResult& run : runs.runs)
        read->runs.push_back(std::move(run));
    return read;
}

std::optional<std::string> nulByteAt(std::string_view text, std::size_t firstLine)
{
    const std::size_t at = text.find('\0');
    if (at == std::string_view::npos)
        return std::nullopt;
    const std::string_view before = text.substr(0, at);
    const std::size_t lineStart = before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
    return "line " + std::to_string(firstLine + std::size_t(std::count(before.begin(), before.end(), '\n'))) +
        ", column " + std::to_string(at - lineStart + 1);
}

Error cancelled()
{
    return makeError(ErrorKind::Cancelled, "reading was cancelled");
}

FieldProblem notAReport(std::string found)
{
    return { "format", std::move(found), std::string("\"") + kReportFormatName + "\": an AsyncScope report" };
}

}  // namespace asyncscope::json_read
