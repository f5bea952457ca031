#include "engine/io/json/run_lines.hpp"

#include "engine/io/input_file.hpp"
#include "engine/io/json/document_reader.hpp"
#include "engine/io/json/run_parser.hpp"
#include "engine/model/record_rules.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace asyncscope::json_read {

namespace {

constexpr std::size_t kBlockPerThread = std::size_t(4) << 20;
constexpr std::size_t kOneThreadBelow = std::size_t(256) << 10;  // a stretch too short to share out
constexpr std::string_view kListEnd = "\n  ]";
// The least a real run's line takes (its six spans alone take more), for the room reserved ahead.
constexpr std::size_t kLeastRunLineBytes = 128;
constexpr std::size_t kMostRunsReserved = std::size_t(1) << 28;

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// A stretch of whole lines parsed on one thread. It keeps no pointer into the text once parsed. Its first `count`
// runs are the stretch's; the runs after them are room left from an earlier stretch (runs and their span lists are
// reused block after block, so a big file's runs are not allocated, and their pages faulted in, one by one).
struct Part {
    const char* begin = nullptr;
    const char* end = nullptr;
    std::vector<RunResult> runs;
    std::vector<char> continues;      // runs[i] is a line going on with the spans of the run before it
    std::vector<std::size_t> lineOf;  // runs[i]'s line, counted from the part's first
    std::size_t count = 0;
    std::size_t lines = 0;       // lines read whole; at a problem, those before its line
    std::string error;           // empty when every line read
    bool unendedLine = false;    // the line at fault has no line break after it
};

// `run` as a new RunResult, keeping the room its span lists have.
void reuse(RunResult& run)
{
    std::vector<Span> spans = std::move(run.spans);
    std::vector<Span> traced = std::move(run.traced);
    spans.clear();
    traced.clear();
    run = RunResult {};
    run.spans = std::move(spans);
    run.traced = std::move(traced);
}

// The parser of long lines (kShortLineBytes or more; a run takes ~4 kB), one at a time: simdjson's buffers for a line
// take about 14 times the line and stay allocated in its parser, so a long line parsed on every helper at once could
// take several times the file.
struct LongLines {
    RunParser parser;
    std::mutex mutex;
};

// A run whose index is not above the run's before it (`before`): a series' runs come each once and in order (a file
// may hold some of them only, as `split` leaves it).
std::string outOfOrder(int index, int before)
{
    return "run is " + std::to_string(index) + "; accepted: more than " + std::to_string(before) +
        ", the run before it: each run once, in order";
}

void parsePart(Part& part, RunParser& parser, LongLines& longLines, LineShape shape)
{
    std::size_t lines = 1;
    for (const char* at = part.begin; (at = static_cast<const char*>(std::memchr(at, '\n', std::size_t(part.end - at))));
         ++at)
        ++lines;
    part.runs.reserve(lines);
    const char* p = part.begin;
    while (p < part.end) {
        const char* newline = static_cast<const char*>(std::memchr(p, '\n', std::size_t(part.end - p)));
        const char* lineEnd = newline ? newline : part.end;
        std::string_view line(p, std::size_t(lineEnd - p));
        const char* lineStart = p;
        p = newline ? newline + 1 : part.end;
        while (!line.empty() && isSpace(line.front()))
            line.remove_prefix(1);
        while (!line.empty() && isSpace(line.back()))
            line.remove_suffix(1);
        if (shape == LineShape::DocumentLines && !line.empty() && line.back() == ',')
            line.remove_suffix(1);  // the comma before the next run
        if (const std::size_t nul = line.find('\0'); nul != std::string_view::npos) {
            part.error = "column " + std::to_string(std::size_t(line.data() - lineStart) + nul + 1) + ": " + kNulByte;
            return;
        }
        if (!line.empty()) {
            if (part.count == part.runs.size())
                part.runs.emplace_back();
            RunResult& run = part.runs[part.count];
            reuse(run);
            bool parsed = false;
            bool continues = false;
            if (line.size() < kShortLineBytes) {
                parsed = parser.parse(line, run, part.error, continues);
            } else {
                std::lock_guard lock(longLines.mutex);
                parsed = longLines.parser.parse(line, run, part.error, continues);
            }
            if (!parsed) {
                part.unendedLine = newline == nullptr;
                return;
            }
            part.continues.resize(part.count + 1);
            part.lineOf.resize(part.count + 1);
            part.continues[part.count] = continues;
            part.lineOf[part.count] = part.lines;
            ++part.count;
        }
        ++part.lines;
    }
}

// The stream's bytes past the header, with the padding the parser needs after them.
class Buffer {
public:
    explicit Buffer(std::string_view text) { assign(text); }

    const char* data() const { return m_text.data(); }
    std::size_t size() const { return m_size; }
    std::string_view view() const { return { m_text.data(), m_size }; }

    void assign(std::string_view text)
    {
        m_text.resize(text.size() + kLinePadding);
        if (!text.empty())  // an empty view may hold no pointer at all, which memcpy must not be given
            std::memcpy(m_text.data(), text.data(), text.size());
        m_size = text.size();
    }
    std::size_t readMore(std::istream& in, std::size_t bytes)
    {
        m_text.resize(m_size);  // the padding goes after what comes
        const std::size_t got = asyncscope::readMore(in, m_text, bytes);
        m_size += got;
        m_text.resize(m_size + kLinePadding);
        return got;
    }

private:
    std::string m_text;
    std::size_t m_size = 0;
};

// The blocks go through a pipeline: while the helpers parse one, this thread stores the runs of the one before
// into the report (in order, as the store takes them) and reads the one after.
class LineReader {
public:
    LineReader(std::istream& in, ReadMeter& meter, const json_fields::Layout& layout, const PipelineConfig& config,
        LineShape shape, std::size_t firstLine)
        : m_in(in)
        , m_meter(meter)
        , m_shape(shape)
        , m_line(firstLine)
        , m_threads(runLineThreads())
        , m_longLines { RunParser(layout, config), {} }
    {
        for (std::size_t k = 0; k < m_threads; ++k)
            m_parsers.emplace_back(layout, config);
    }

    Status read(std::string rest, Report& report)
    {
        Buffer buffer(rest);
        Buffer next(std::string_view {});
        bool atEnd = false;
        if (auto problem = fill(buffer, atEnd))
            return problem;
        std::vector<Part> parsed;  // the block before, parsed, its runs not yet stored
        bool parsedEndsFile = false;
        for (;;) {
            const std::string_view text = buffer.view();
            std::size_t listEnd = std::string_view::npos;
            if (m_shape == LineShape::DocumentLines) {
                listEnd = text.rfind(kListEnd.substr(1), 0) == 0 ? 0 : text.find(kListEnd);
                if (listEnd != std::string_view::npos && listEnd > 0)
                    ++listEnd;  // at the line's start
            }
            const std::size_t lastNewline = text.rfind('\n');
            std::size_t cut = listEnd != std::string_view::npos ? listEnd
                : lastNewline == std::string_view::npos        ? 0
                                                               : lastNewline + 1;
            if (atEnd && listEnd == std::string_view::npos && m_shape == LineShape::JsonLines)
                cut = text.size();  // the last line, without a line break after it
            if (cut == 0 && !atEnd) {
                if (buffer.size() > kMaxLineBytes)
                    return makeError(ErrorKind::Io, "line " + std::to_string(m_line + linesIn(parsed)) +
                            " is longer than " + std::to_string(kMaxLineBytes >> 20) + " MiB: it is not a run");
                if (auto problem = fill(buffer, atEnd))
                    return problem;
                continue;
            }

            // Parse this block on the helpers; meanwhile store the block before and read the next. A stretch too
            // short to share out is parsed here (a thread costs more than a small record's runs).
            std::vector<Part> parts = split(buffer.data(), buffer.data() + cut);
            std::vector<std::thread> helpers;
            if (parts.size() == 1) {
                parsePart(parts.front(), m_parsers.front(), m_longLines, m_shape);
            } else {
                for (std::size_t k = 0; k < parts.size(); ++k)
                    helpers.emplace_back(
                        parsePart, std::ref(parts[k]), std::ref(m_parsers[k]), std::ref(m_longLines), m_shape);
            }
            Status problem = store(parsed, parsedEndsFile, report);
            const bool more = !problem && !atEnd && listEnd == std::string_view::npos;
            if (more) {
                next.assign(text.substr(cut));
                problem = fill(next, atEnd);
            }
            for (std::thread& t : helpers)
                t.join();
            if (problem)
                return problem;
            parsed = std::move(parts);
            parsedEndsFile = atEnd && cut == text.size();
            if (more) {
                std::swap(buffer, next);
                continue;
            }

            if (auto last = store(parsed, parsedEndsFile, report))
                return last;
            if (m_pending)
                report.runs.push_back(m_last);
            if (listEnd != std::string_view::npos)
                return checkTail(std::string(text.substr(listEnd + kListEnd.size() - 1)));
            if (m_shape == LineShape::JsonLines)
                return std::nullopt;
            const bool partial = text.substr(cut).find_first_not_of(" \t\r\n") != std::string_view::npos;
            return makeError(ErrorKind::Io, partial || m_runs == 0
                    ? "the file ends inside run " + std::to_string(m_runs) + " (line " + std::to_string(m_line) +
                        "): it is cut short"
                    : "the file ends after run " + std::to_string(m_runs - 1) + " (line " +
                        std::to_string(m_line - 1) + "), before the list of runs is closed: it is cut short");
        }
    }

private:
    // Reads a block more onto `buffer`; `atEnd` once the stream has no more.
    Status fill(Buffer& buffer, bool& atEnd)
    {
        if (atEnd)
            return std::nullopt;
        const std::size_t got = buffer.readMore(m_in, kBlockPerThread * m_threads);
        if (!m_meter.advance(got))
            return cancelled();
        atEnd = got == 0;
        return std::nullopt;
    }

    static std::size_t linesIn(const std::vector<Part>& parts)
    {
        std::size_t lines = 0;
        for (const Part& p : parts)
            lines += p.lines;
        return lines;
    }

    // Whole lines cut into near equal shares where a line ends.
    std::vector<Part> split(const char* begin, const char* end)
    {
        const std::size_t size = std::size_t(end - begin);
        const std::size_t shares = size < kOneThreadBelow ? 1 : m_threads;
        std::vector<Part> parts;
        const char* from = begin;
        for (std::size_t k = 1; k <= shares && from < end; ++k) {
            const char* to = end;
            if (k < shares) {
                const std::size_t share = std::size_t(end - from) / (shares - k + 1);
                const void* newline = std::memchr(from + share, '\n', std::size_t(end - from) - share);
                to = newline ? static_cast<const char*>(newline) + 1 : end;
            }
            Part part;
            if (!m_spare.empty()) {
                part.runs = std::move(m_spare.back());
                m_spare.pop_back();
            }
            part.begin = from;
            part.end = to;
            parts.push_back(std::move(part));
            from = to;
        }
        return parts;
    }

    // The runs of parsed parts into the report, in order, or the first problem. `endsFile`: their last line ends
    // the file.
    Status store(std::vector<Part>& parts, bool endsFile, Report& report)
    {
        for (std::size_t k = 0; k < parts.size(); ++k) {
            Part& part = parts[k];
            for (std::size_t i = 0; i < part.count; ++i) {
                const RunResult& run = part.runs[i];
                if (part.continues[i]) {
                    // More spans of the run before: it is stored once its last line is read.
                    if (!m_pending || run.index != m_last.index)
                        return makeError(ErrorKind::Io, "line " + std::to_string(m_line + part.lineOf[i]) +
                                ": it goes on with the spans of run " + std::to_string(run.index) + ", but the " +
                                (m_pending ? "run before it is run " + std::to_string(m_last.index)
                                           : std::string("runs have not begun")) +
                                "; accepted: such a line right after its run's line (or another such line)");
                    m_last.spans.insert(m_last.spans.end(), run.spans.begin(), run.spans.end());
                    m_last.traced.insert(m_last.traced.end(), run.traced.begin(), run.traced.end());
                    continue;
                }
                if (m_pending && run.index <= m_last.index)
                    return makeError(ErrorKind::Io, "run " + std::to_string(m_runs) + " (line " +
                            std::to_string(m_line + part.lineOf[i]) + "): " + outOfOrder(run.index, m_last.index));
                if (m_pending) {
                    if (auto bad = checkBlockOrder(run.block, m_last.block))
                        return fieldError("", "run " + std::to_string(m_runs) + " (line " +
                                std::to_string(m_line + part.lineOf[i]) + ")", *bad);
                    report.runs.push_back(m_last);
                }
                m_last = run;  // a copy into the room the last run's spans had
                m_pending = true;
                ++m_runs;
            }
            if (!part.error.empty()) {  // at the line after the part's runs read
                if (endsFile && k + 1 == parts.size() && part.unendedLine)
                    return makeError(ErrorKind::Io, "the file ends inside run " + std::to_string(m_runs) + " (line " +
                            std::to_string(m_line + part.lines) + "): it is cut short");
                return makeError(ErrorKind::Io, "run " + std::to_string(m_runs) + " (line " +
                        std::to_string(m_line + part.lines) + "): " + part.error);
            }
            m_line += part.lines;
            m_spare.push_back(std::move(part.runs));  // room for a part of the next block
        }
        parts.clear();
        return std::nullopt;
    }

    // After the list of runs only the document's closing brace may follow.
    Status checkTail(std::string tail)
    {
        while (tail.size() < (std::size_t(1) << 20) && readMore(m_in, tail, 1 << 16) > 0) {
        }
        const auto first = tail.find_first_not_of(" \t\r\n");
        const auto last = tail.find_last_not_of(" \t\r\n");
        if (first == std::string::npos)
            return makeError(ErrorKind::Io, "the file ends after the runs (line " + std::to_string(m_line) +
                    "), before the closing brace: it is cut short");
        if (first != last || tail[first] != '}') {
            const std::size_t line =
                m_line + std::size_t(std::count(tail.begin(), tail.begin() + std::ptrdiff_t(first), '\n'));
            return makeError(ErrorKind::Io, "line " + std::to_string(line) + ": after the list of runs is " +
                    quotedValue(std::string_view(tail).substr(first, last - first + 1)) +
                    "; accepted: only the closing brace");
        }
        return std::nullopt;
    }

    std::istream& m_in;
    ReadMeter& m_meter;
    LineShape m_shape;
    std::size_t m_line;  // of the first line whose runs are not stored yet
    std::size_t m_runs = 0;  // runs read, m_last among them
    // The last run read, not stored yet while lines of more of its spans may follow.
    RunResult m_last;
    bool m_pending = false;
    std::size_t m_threads;
    std::vector<RunParser> m_parsers;  // one a helper
    LongLines m_longLines;
    std::vector<std::vector<RunResult>> m_spare;  // the runs of stored parts, reused by the parts to come
};

}  // namespace

std::size_t runsToReserve(std::uintmax_t fileBytes, std::size_t firstLineBytes)
{
    const std::uintmax_t runs = fileBytes / std::max(firstLineBytes, kLeastRunLineBytes) + 16;
    return std::size_t(std::min<std::uintmax_t>(runs, kMostRunsReserved));
}

std::size_t runLineThreads()
{
    // Asked once: the system reads a file each time (a merge reads thousands of small reports).
    static const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
    return threads;
}

Status readRunLines(std::istream& in, ReadMeter& meter, const json_fields::Layout& layout, LineShape shape,
    std::string rest, std::size_t firstLine, Report& report)
{
    return LineReader(in, meter, layout, report.config, shape, firstLine).read(std::move(rest), report);
}

}  // namespace asyncscope::json_read
