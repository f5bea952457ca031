#include "engine/io/csv/csv_report.hpp"

#include "engine/io/csv/csv_columns.hpp"
#include "engine/io/csv/csv_text.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/json/header_blocks.hpp"

#include "engine/model/display_text.hpp"
#include "engine/model/record_rules.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

using namespace csv;

namespace {

// Splits one CSV line into fields; empty when a quote is left open. For the header: once a file.
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

// Splits the rows: each field a view into the line, or, for a quoted field with a doubled quote in it, into a
// string of its own. The strings are kept from row to row, so a row costs no allocation.
class RowSplitter {
public:
    // False when a quote is left open.
    bool split(std::string_view line)
    {
        m_fields.clear();
        m_unquoted = 0;
        std::size_t i = 0;
        for (;;) {
            const std::size_t fieldBegin = i;
            if (i < line.size() && line[i] == '"') {
                // A quoted field: up to the quote that is not doubled.
                const std::size_t begin = i + 1;
                std::size_t at = begin;
                bool doubled = false;
                for (;;) {
                    at = line.find('"', at);
                    if (at == std::string_view::npos)
                        return false;
                    if (at + 1 < line.size() && line[at + 1] == '"') {
                        doubled = true;
                        at += 2;
                        continue;
                    }
                    break;
                }
                i = at + 1;
                if (i < line.size() && line[i] != ',')
                    return rest(line.substr(fieldBegin));  // text after the closing quote
                m_fields.push_back(doubled ? unquote(line.substr(begin, at - begin)) : line.substr(begin, at - begin));
                if (i == line.size())
                    return true;
                ++i;
                continue;
            }
            const std::size_t comma = line.find(',', i);
            const std::size_t length = comma == std::string_view::npos ? std::string_view::npos : comma - i;
            const std::string_view field = line.substr(i, length);
            if (field.find('"') != std::string_view::npos)
                return rest(line.substr(fieldBegin));  // a quote inside an unquoted field
            m_fields.push_back(field);
            if (comma == std::string_view::npos)
                return true;
            i = comma + 1;
        }
    }
    const std::vector<std::string_view>& fields() const { return m_fields; }

private:
    // The rest of a line that no exporter writes, split as the header is (a quote opens or closes quoting anywhere).
    bool rest(std::string_view line)
    {
        auto fields = splitLine(line);
        if (!fields)
            return false;
        for (const std::string& f : *fields)
            m_fields.push_back(scratch() = f);
        return true;
    }

    std::string& scratch()
    {
        if (m_unquoted == m_strings.size())
            m_strings.push_back(std::make_unique<std::string>());
        return *m_strings[m_unquoted++];
    }
    std::string_view unquote(std::string_view quoted)
    {
        std::string& out = scratch();
        out.clear();
        for (std::size_t i = 0; i < quoted.size(); ++i) {
            out += quoted[i];
            if (quoted[i] == '"')
                ++i;  // the second of a doubled quote
        }
        return out;
    }

    std::vector<std::string_view> m_fields;
    std::vector<std::unique_ptr<std::string>> m_strings;  // stable: a view into one outlives growth of the list
    std::size_t m_unquoted = 0;
};

// Two readings alike but for when they were taken.
bool sameReading(const MachineSample& a, const MachineSample& b)
{
    auto pids = [](const MachineSample& s) {
        std::vector<std::pair<std::uint32_t, std::string>> list;
        if (s.processes)
            for (const GpuProcess& p : *s.processes)
                list.emplace_back(p.pid, p.name);
        return list;
    };
    return a.smClockMHz == b.smClockMHz && a.smClockMaxMHz == b.smClockMaxMHz && a.memoryClockMHz == b.memoryClockMHz
        && a.memoryClockMaxMHz == b.memoryClockMaxMHz && a.clockReasons == b.clockReasons
        && a.temperatureC == b.temperatureC && a.powerW == b.powerW && a.linkGeneration == b.linkGeneration
        && a.linkWidth == b.linkWidth && a.linkGenerationMax == b.linkGenerationMax && a.linkWidthMax == b.linkWidthMax
        && a.processes.has_value() == b.processes.has_value() && pids(a) == pids(b);
}

// The longest line read: a row holds about 40 fields, the longest a device name of kMaxNameBytes.
constexpr std::size_t kMaxCsvLineBytes = std::size_t(64) << 10;

}  // namespace

Result<Report> readCsv(std::istream& in, const ReadControl& control)
{
    ReadMeter meter(control);
    if (!meter.advance(0))
        return makeError(ErrorKind::Cancelled, "reading was cancelled");
    std::string buffer;
    std::size_t pos = 0;  // where the next line begins in `buffer`
    bool ended = false;
    bool lastLineEnded = true;  // the line given last ended with a line break (not with the file)
    enum class Got { Line, End, Cancelled, TooLong };
    // The next line, without its end. A line is never longer than kMaxCsvLineBytes: the buffer holds at most that
    // and a block, so a file of NULs or one endless line is refused after a block, not read whole.
    auto nextLine = [&](std::string_view& line) -> Got {
        for (;;) {
            const std::size_t end = buffer.find('\n', pos);
            if (end != std::string::npos || (ended && pos < buffer.size())) {
                const std::size_t stop = end == std::string::npos ? buffer.size() : end;
                if (stop - pos > kMaxCsvLineBytes)
                    return Got::TooLong;
                line = std::string_view(buffer).substr(pos, stop - pos);
                if (!line.empty() && line.back() == '\r')
                    line.remove_suffix(1);
                lastLineEnded = end != std::string::npos;
                pos = stop + 1;
                return Got::Line;
            }
            if (ended)
                return Got::End;
            if (buffer.size() - pos > kMaxCsvLineBytes)
                return Got::TooLong;
            buffer.erase(0, pos);
            pos = 0;
            const std::size_t got = readMore(in, buffer, kBlock);
            ended = got == 0;
            if (!meter.advance(got))
                return Got::Cancelled;
        }
    };
    const auto tooLong = [](std::size_t lineNumber) {
        return makeError(ErrorKind::Io,
            "line " + std::to_string(lineNumber) + " is longer than " + std::to_string(kMaxCsvLineBytes / 1024) +
                " KiB, which no row of an AsyncScope run export is: it is not one");
    };
    const auto rowError = [](std::size_t lineNumber, const FieldProblem& p) {
        return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) + ": " + p.field + " is " +
                (p.found.empty() ? std::string("empty") : quotedValue(p.found)) + "; accepted: " + p.accepted);
    };

    // The header first: the body is not read before the header shows the file is an export of ours.
    std::string_view line;
    Got got = nextLine(line);
    if (got == Got::Cancelled)
        return makeError(ErrorKind::Cancelled, "reading was cancelled");
    if (got == Got::TooLong)
        return tooLong(1);
    if (got == Got::End)
        return makeError(ErrorKind::Io, "the file is empty");
    if (line.substr(0, 3) == "\xEF\xBB\xBF")  // a byte-order mark, as spreadsheets write
        line.remove_prefix(3);
    // The file ends inside its header: no column can be trusted, and no run follows.
    if (!lastLineEnded)
        return makeError(ErrorKind::Io, "line 1 is cut short: the file ends inside the header, before any run");
    const auto header = splitLine(line);
    if (!header)
        return makeError(ErrorKind::Io, "line 1 has an unterminated quote");

    // Where each readable column sits in this file.
    struct Found {
        const CsvColumn* column;
        std::size_t at;
        std::string last;  // a device or configuration column: its text on the row read before
        bool read = false;
    };
    std::vector<Found> found;
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
        found.push_back({ &column, at, {} });
    }

    Report report;
    if (control.totalBytes > 0 && line.size() > 0)
        report.runs.reserve(std::size_t(std::min<std::uintmax_t>(control.totalBytes / (line.size() + 1), 1u << 28)));
    RowSplitter splitter;
    std::string repaired;    // a cell made well-formed UTF-8
    std::size_t firstRow = 0;  // the line of the first row, whose device and configuration every row has
    for (std::size_t lineNumber = 2;; ++lineNumber) {
        got = nextLine(line);
        if (got == Got::Cancelled)
            return makeError(ErrorKind::Cancelled, "reading was cancelled");
        if (got == Got::TooLong)
            return tooLong(lineNumber);
        if (got == Got::End)
            break;
        if (line.empty())
            continue;
        if (firstRow == 0)
            firstRow = lineNumber;
        if (!splitter.split(line)) {
            if (!lastLineEnded)
                return makeError(ErrorKind::Io,
                    "line " + std::to_string(lineNumber) + " is cut short: the file ends inside a quoted field");
            return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) + " has an unterminated quote");
        }
        const auto& fields = splitter.fields();
        if (fields.size() < header->size() && !lastLineEnded)
            return makeError(ErrorKind::Io,
                "line " + std::to_string(lineNumber) + " is cut short: the file ends after " +
                    std::to_string(fields.size()) + " of the header's " + std::to_string(header->size()) + " fields");
        if (fields.size() != header->size())
            return makeError(ErrorKind::Io,
                "line " + std::to_string(lineNumber) + " has " + std::to_string(fields.size()) +
                    " fields, the header " +
                    std::to_string(header->size()));
        Row row;
        bool fixedRead = false;
        for (Found& f : found) {
            std::string_view text = fields[f.at];
            if (!f.column->perRun) {
                if (f.read && text == f.last)
                    continue;  // as on the first row: read already
                if (f.read)  // one series a file: a row of another device or configuration is not one of its runs
                    return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) + ", column '" +
                            f.column->name + "': '" + quotedValue(text) + "' is not '" + quotedValue(f.last) +
                            "', as on line " + std::to_string(firstRow) + "; accepted: the device and the "
                            "configuration of the first row on every row (a file holds one series)");
                f.last = text;
                f.read = true;
                fixedRead = true;
            }
            // A text the file gives is taken as well-formed UTF-8 (U+FFFD for each byte that is not), so that every
            // writer of it can write it: JSON refuses anything else.
            if (!isValidUtf8(text)) {
                repaired = validUtf8(text);
                text = repaired;
            }
            if (!f.column->read(text, report, row)) {
                const std::string problem = std::string("column '") + f.column->name + "': '" + quotedValue(text) +
                    "' is not " + (f.column->accepted.empty() ? std::string("a valid value") : f.column->accepted);
                if (!lastLineEnded)  // the file ends inside this row: what it holds is what was cut
                    return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) +
                            " is cut short: the file ends inside the row, a value not whole (" + problem + ")");
                return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) + ", " + problem);
            }
        }
        if (fixedRead) {  // the device or the configuration read anew: held to the rules every reader applies
            if (auto bad = checkDevice(report.device))
                return rowError(lineNumber, *bad);
            if (auto bad = checkConfig(report.config))
                return rowError(lineNumber, *bad);
            if (report.outcome) {
                if (auto bad = checkHostRegistration(*report.outcome, {}))
                    return rowError(lineNumber, *bad);
            }
        }
        if (!lastLineEnded)  // every value whole, but the writer ends every row with a line break
            return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) +
                    " is cut short: the file ends inside the row, with no line break after its last value");
        if (row.machineRead) {
            // A reading where the row's cells differ from the row before's: one per reading the series took, at most.
            if (!report.machine)
                report.machine.emplace();
            auto& samples = report.machine->samples;
            row.machine.atMs = row.run.startMs;
            if (samples.empty() || !sameReading(samples.back(), row.machine)) {
                if (samples.size() >= kMaxMachineSamplesRead)
                    return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) + ": more than "
                            + std::to_string(kMaxMachineSamplesRead) + " different readings of the machine");
                samples.push_back(row.machine);
            }
        }
        row.durations.bytes = report.config.bytes();
        row.run.spans = serialSpans(report.device.index, row.durations);
        if (auto bad = checkRun(row.run, report.config)) {
            if (!lastLineEnded)
                return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) +
                        " is cut short: the file ends inside the row, a value not whole (" + bad->field + " is " +
                        (bad->found.empty() ? std::string("empty") : quotedValue(bad->found)) + ")");
            return rowError(lineNumber, *bad);
        }
        if (!report.runs.empty() && row.run.index <= report.runs.index(report.runs.size() - 1))
            return makeError(ErrorKind::Io, "line " + std::to_string(lineNumber) + ", column 'Run': '" +
                    std::to_string(row.run.index) + "' is not more than " +
                    std::to_string(report.runs.index(report.runs.size() - 1)) +
                    ", the run before it; accepted: each run once, in order");
        if (!report.runs.empty()) {
            if (auto bad = checkBlockOrder(row.run.block, report.runs.block(report.runs.size() - 1)))
                return rowError(lineNumber, *bad);
        }
        report.runs.push_back(row.run);
    }
    if (report.runs.empty())
        return makeError(ErrorKind::Io, "the CSV has a header but no runs");
    report.config.runs = 0;
    report.config.warmupRuns = 0;
    for (std::size_t i = 0; i < report.runs.size(); ++i)
        ++(report.runs.warmup(i) ? report.config.warmupRuns : report.config.runs);
    if (report.outcome)  // made by the registration's columns: the file says nothing more of how the series ended
        report.outcome->measuredRuns = report.config.runs;
    return report;
}

}  // namespace asyncscope
