#include "engine/record/recording.hpp"

#include "engine/record/iterations.hpp"

#include "engine/io/input_file.hpp"
#include "engine/model/display_text.hpp"
#include "engine/model/record_rules.hpp"
#include "engine/record/record_stream.hpp"

#include <array>
#include <cerrno>
#include <charconv>
#include <fstream>
#include <limits>
#include <optional>
#include <string_view>

namespace asyncscope {

namespace recording_detail {

// A record's layout: its numbers' names in order, then whether a name ends the line.
struct Layout {
    std::string_view type;
    std::vector<std::string_view> fields;
    bool named = false;
};

const std::array kLayouts {
    Layout { "process", { "PID", "PARENT" }, true },
    Layout { "clock", { "PID", "CUPTI_NS", "MONOTONIC_NS" }, false },
    Layout { "device", { "PID", "ID", "CC_MAJOR", "CC_MINOR", "MEMORY_BYTES", "SMS", "COPY_ENGINES", "CLOCK_KHZ",
                           "DRIVER", "UUID" }, true },
    Layout { "name", { "PID", "ID" }, true },
    Layout { "copy", { "PID", "DEVICE", "CONTEXT", "STREAM", "CORRELATION", "START", "END", "BYTES", "COPY_KIND",
                         "SRC_KIND", "DST_KIND", "GRAPH_NODE", "COPIES" }, false },
    Layout { "peer", { "PID", "SRC_DEVICE", "DST_DEVICE", "CONTEXT", "STREAM", "CORRELATION", "START", "END", "BYTES",
                         "COPY_KIND", "GRAPH_NODE" }, false },
    Layout { "set", { "PID", "DEVICE", "CONTEXT", "STREAM", "CORRELATION", "START", "END", "BYTES", "MEMORY_KIND",
                        "GRAPH_NODE" }, false },
    Layout { "kernel", { "PID", "DEVICE", "CONTEXT", "STREAM", "CORRELATION", "START", "END", "GRAPH_NODE", "BLOCKS",
                           "THREADS_PER_BLOCK" }, true },
    Layout { "sync", { "PID", "CONTEXT", "STREAM", "CORRELATION", "START", "END", "TYPE" }, false },
    Layout { "event", { "PID", "DEVICE", "CONTEXT", "STREAM", "CORRELATION", "TIMESTAMP" }, false },
    Layout { "stream", { "PID", "CONTEXT", "STREAM", "FLAG" }, false },
    Layout { "api", { "PID", "THREAD", "CORRELATION", "START", "END", "RETURN_VALUE", "CALLS" }, true },
    Layout { "mark", { "PID", "THREAD", "ID", "KIND", "TIMESTAMP" }, true },
    Layout { "dropped", { "PID", "COUNT" }, false },
    Layout { "note", { "PID" }, true },
    Layout { "signal", { "PID", "SIGNO" }, false },
    Layout { "exit", { "PID" }, false },
};

// The fields of the line being read, checked as they are taken.
class Line {
public:
    Line(const std::string& file, std::size_t number, const Layout& layout, std::vector<std::string_view> words,
        std::string_view name)
        : m_file(file), m_number(number), m_layout(layout), m_words(std::move(words)), m_name(name)
    {
    }

    Error wrong(std::string_view field, const std::string& why) const
    {
        return makeError(ErrorKind::Io,
            shownPath(m_file) + ": line " + std::to_string(m_number) + ": " + std::string(m_layout.type) + ": " +
                std::string(field) + " " + why,
            "A recording holds what asyncscope-cli record wrote; record the program again.");
    }

    // Field `i` as a whole number of at most `max`; sets `failed` and returns 0 where it is not.
    std::uint64_t number(std::size_t i, std::uint64_t max, std::optional<Error>& failed) const
    {
        const std::string_view word = m_words[i];
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
        if (error != std::errc() || end != word.data() + word.size() || word.empty()) {
            if (!failed)
                failed = wrong(m_layout.fields[i], "is '" + cutText(word, 40) + "', not a whole number");
            return 0;
        }
        if (value > max) {
            if (!failed)
                failed = wrong(m_layout.fields[i], "is " + std::string(word) + ", above its limit of " +
                    std::to_string(max));
            return 0;
        }
        return value;
    }
    std::uint32_t small(std::size_t i, std::optional<Error>& failed) const
    {
        return std::uint32_t(number(i, std::numeric_limits<std::uint32_t>::max(), failed));
    }
    // A device's number: at most what a report's device index holds.
    std::uint32_t deviceId(std::size_t i, std::optional<Error>& failed) const
    {
        return std::uint32_t(number(i, std::uint64_t(std::numeric_limits<int>::max()), failed));
    }
    std::uint64_t big(std::size_t i, std::optional<Error>& failed) const
    {
        return number(i, std::numeric_limits<std::uint64_t>::max(), failed);
    }
    std::string_view word(std::size_t i) const { return m_words[i]; }
    std::string name() const { return std::string(m_name); }
    std::string_view rawName() const { return m_name; }

private:
    const std::string& m_file;
    std::size_t m_number;
    const Layout& m_layout;
    std::vector<std::string_view> m_words;
    std::string_view m_name;
};

// Splits `text` after its type: the layout's numbers, then the name (the rest, which may hold spaces, or be empty).
std::optional<Error> split(const std::string& file, std::size_t number, std::string_view text, const Layout*& layout,
    std::vector<std::string_view>& words, std::string_view& name)
{
    const auto fail = [&](const std::string& why) {
        return makeError(ErrorKind::Io, shownPath(file) + ": line " + std::to_string(number) + ": " + why,
            "A recording holds what asyncscope-cli record wrote; record the program again.");
    };
    const std::size_t space = text.find(' ');
    const std::string_view type = text.substr(0, space);
    layout = nullptr;
    for (const Layout& l : kLayouts)
        layout = l.type == type ? &l : layout;
    if (!layout)
        return fail("'" + cutText(type, 40) + "' is not a record of a recording (process, clock, device, name, copy, "
            "peer, set, kernel, sync, event, stream, api, mark, dropped, note, signal, exit)");
    std::string_view rest = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    words.clear();
    for (const std::string_view field : layout->fields) {
        if (rest.empty())
            return fail(std::string(type) + ": " + std::string(field) + " is missing");
        const std::size_t next = rest.find(' ');
        words.push_back(rest.substr(0, next));
        rest = next == std::string_view::npos ? std::string_view() : rest.substr(next + 1);
    }
    if (!layout->named && !rest.empty())
        return fail(std::string(type) + ": '" + cutText(rest, 40) + "' follows its last field");
    name = rest;
    return std::nullopt;
}

}  // namespace recording_detail

using recording_detail::Line;
using recording_detail::Layout;

RecordingReader::RecordingReader(std::string file, std::size_t budget) : m_file(std::move(file)), m_budget(budget) {}

Error RecordingReader::failure(const std::string& why) const
{
    return makeError(ErrorKind::Io, shownPath(m_file) + ": line " + std::to_string(m_number) + ": " + why,
        "A recording holds what asyncscope-cli record wrote; record the program again.");
}

std::string_view RecordingReader::nameOf(const Line& line, std::uint32_t pid, std::optional<Error>& failed)
{
    const std::string_view field = line.rawName();
    if (m_version == record::kInlineNamesVersion)
        return m_recording.names->intern(field);
    if (!field.empty() && field.front() == ':')
        return m_recording.names->intern(field.substr(1));
    std::uint32_t id = 0;
    const auto [end, error] = std::from_chars(field.data() + std::min<std::size_t>(1, field.size()),
        field.data() + field.size(), id);
    if (field.size() < 2 || field.front() != '=' || error != std::errc() || end != field.data() + field.size()) {
        if (!failed)
            failed = line.wrong("NAME", "is '" + cutText(field, 40) + "', neither =ID nor :TEXT");
        return {};
    }
    const auto found = m_nameIds.find(key(pid, id));
    if (found == m_nameIds.end()) {
        if (!failed)
            failed = line.wrong("NAME", "refers to name " + std::to_string(id) + ", which no earlier name line of "
                "process " + std::to_string(pid) + " gives");
        return {};
    }
    return found->second;
}

std::size_t RecordingReader::held() const
{
    const Recording& r = m_recording;
    return r.operations.size() + r.calls.size() + r.syncs.size() + r.events.size() + r.marks.size() + m_nameIds.size();
}

void RecordingReader::seen(std::uint32_t pid, std::uint64_t ns)
{
    std::uint64_t& latest = m_recording.latestNs[pid];
    latest = std::max(latest, ns);
}

bool RecordingReader::line(std::string_view text)
{
    if (m_failed)
        return false;
    ++m_number;
    m_failed = text.size() >= record::kMaxLineBytes
        ? failure("longer than " + std::to_string(record::kMaxLineBytes) + " bytes: not a line of a recording")
        : parse(text);
    // Every so many records, the iterations that are over are split off and their records let go.
    if (m_splitter && !m_failed && m_sinceSplit >= m_splitEvery) {
        m_splitter->take(m_recording, false);
        m_sinceSplit = 0;
    }
    return !m_failed;
}

std::optional<Error> RecordingReader::parse(std::string_view text)
{
    static const std::string magic = std::string(record::kMagic) + " ";  // not made anew for every line
    if (m_number == 1) {
        for (const int version : { record::kInlineNamesVersion, record::kVersion })
            if (text == magic + std::to_string(version))
                m_version = version;
        if (m_version == 0)
            return failure(text.rfind(record::kMagic, 0) == 0
                    ? "'" + cutText(text, 60) + "' is a recording of another version: this AsyncScope reads versions " +
                        std::to_string(record::kInlineNamesVersion) + " to " + std::to_string(record::kVersion)
                    : "is not a recording: it begins '" + cutText(text, 60) + "', not '" + magic +
                        std::to_string(record::kVersion) + "'");
        return std::nullopt;
    }
    if (text.rfind(magic, 0) == 0) {  // each process's stream begins so, and all in one version
        if (text != magic + std::to_string(m_version))
            return failure("'" + cutText(text, 60) + "' follows a stream of version " + std::to_string(m_version) +
                ": the processes of one recording write one version");
        return std::nullopt;
    }
    const Layout* layout = nullptr;
    std::string_view name;
    if (auto failed = recording_detail::split(m_file, m_number, text, layout, m_words, name))
        return failed;
    // Past the budget, the records of GPU work and calls are counted, not kept: what came before stays readable, and
    // the processes' ends are still read.
    const std::string_view kind = layout->type;
    const bool bulky = kind == "name" || kind == "copy" || kind == "peer" || kind == "set" || kind == "kernel" ||
        kind == "sync" ||
        kind == "event" || kind == "api" || kind == "mark";
    if (bulky && held() >= m_budget) {
        ++m_recording.unkept;
        return std::nullopt;
    }
    m_sinceSplit += bulky ? 1 : 0;
    const Line line(m_file, m_number, *layout, m_words, name);
    std::optional<Error> failed;
    const std::string_view type = layout->type;
    if (type == "process") {
        if (m_recording.processes.size() >= kMaxProgramProcesses)  // as many as a report's program block holds
            return line.wrong("PID", "begins process " + std::to_string(kMaxProgramProcesses + 1) + ": a recording "
                "holds at most " + std::to_string(kMaxProgramProcesses) + " processes");
        m_recording.processes.push_back({ line.small(0, failed), line.small(1, failed), line.name(), false, 0, {} });
    } else if (type == "clock") {
        const std::uint32_t pid = line.small(0, failed);
        // Both clocks count ns since boot or so: each below 2^62 keeps their difference in range.
        const std::uint64_t limit = std::uint64_t(1) << 62;
        const std::uint64_t cupti = line.number(1, limit, failed), steady = line.number(2, limit, failed);
        for (RecordedProcess& p : m_recording.processes)
            if (p.pid == pid && !failed)
                p.steadyMinusCuptiNs = std::int64_t(steady) - std::int64_t(cupti);
    } else if (type == "device") {
        // Within what a report's device record takes (record_rules.hpp), so that what is written of it reads back.
        const std::uint64_t anInt = std::uint64_t(std::numeric_limits<int>::max());
        const std::uint64_t ccPart = kMaxComputeCapabilityPart;
        RecordedDevice d { line.small(0, failed), line.deviceId(1, failed),
            std::uint32_t(line.number(2, ccPart, failed)), std::uint32_t(line.number(3, ccPart, failed)),
            line.number(4, std::uint64_t(std::numeric_limits<std::int64_t>::max()), failed),
            std::uint32_t(line.number(5, anInt, failed)), std::uint32_t(line.number(6, anInt, failed)),
            std::uint32_t(line.number(7, anInt, failed)), std::uint32_t(line.number(8, anInt, failed)),
            std::string(line.word(9)), line.name() };
        if (!failed && (d.uuid.size() != 32 || d.uuid.find_first_not_of("0123456789abcdef") != std::string::npos))
            return line.wrong("UUID", "is '" + cutText(d.uuid, 40) + "', not 32 hex digits");
        if (!failed && d.name.size() > kMaxNameBytes)
            return line.wrong("NAME", "is " + std::to_string(d.name.size()) + " bytes long, above a device name's " +
                std::to_string(kMaxNameBytes));
        m_recording.devices.push_back(std::move(d));
    } else if (type == "name") {
        if (m_version == record::kInlineNamesVersion)
            return line.wrong("ID", "is given in a recording of version 1, which writes names in full");
        const std::uint32_t pid = line.small(0, failed), id = line.small(1, failed);
        if (failed)
            return failed;
        if (id == 0)
            return line.wrong("ID", "is 0: IDs count from 1");
        const std::string_view name = m_recording.names->intern(line.rawName());
        const auto [at, fresh] = m_nameIds.emplace(key(pid, id), name);
        if (!fresh && at->second != name)
            return line.wrong("ID", std::to_string(id) + " was given to another name before: '" +
                cutText(at->second, 60) + "'");
    } else if (type == "copy" || type == "set" || type == "kernel") {
        RecordedOperation op;
        op.kind = type == "copy" ? OperationKind::Copy : type == "set" ? OperationKind::Set : OperationKind::Kernel;
        op.pid = line.small(0, failed);
        op.device = line.deviceId(1, failed);
        op.context = line.small(2, failed);
        op.stream = line.small(3, failed);
        op.correlation = line.small(4, failed);
        op.start = line.big(5, failed);
        op.end = line.big(6, failed);
        op.dstDevice = op.device;
        if (op.kind == OperationKind::Copy) {
            op.bytes = line.number(7, kMaxCopyBytes, failed);
            op.copyKind = line.small(8, failed);
            op.srcKind = line.small(9, failed);
            op.dstKind = line.small(10, failed);
            op.graphNode = line.big(11, failed);
            op.copies = line.big(12, failed);
        } else if (op.kind == OperationKind::Set) {
            op.bytes = line.number(7, kMaxCopyBytes, failed);
            op.dstKind = line.small(8, failed);
            op.graphNode = line.big(9, failed);
        } else {
            op.graphNode = line.big(7, failed);
            op.blocks = line.big(8, failed);
            op.threadsPerBlock = line.big(9, failed);
            op.name = nameOf(line, op.pid, failed);
        }
        if (!failed) {
            ++m_recording.operationCounts[{ op.pid, op.device }];
            seen(op.pid, op.end);
        }
        m_recording.operations.push_back(std::move(op));
    } else if (type == "peer") {
        RecordedOperation op;
        op.kind = OperationKind::Copy;
        op.pid = line.small(0, failed);
        op.device = line.deviceId(1, failed);
        op.dstDevice = line.deviceId(2, failed);
        op.context = line.small(3, failed);
        op.stream = line.small(4, failed);
        op.correlation = line.small(5, failed);
        op.start = line.big(6, failed);
        op.end = line.big(7, failed);
        op.bytes = line.number(8, kMaxCopyBytes, failed);
        op.copyKind = line.small(9, failed);
        op.graphNode = line.big(10, failed);
        if (!failed) {
            ++m_recording.operationCounts[{ op.pid, op.device }];
            seen(op.pid, op.end);
        }
        m_recording.operations.push_back(std::move(op));
    } else if (type == "sync") {
        m_recording.syncs.push_back({ line.small(0, failed), line.small(1, failed), line.small(2, failed),
            line.small(3, failed), line.big(4, failed), line.big(5, failed), line.small(6, failed) });
        seen(m_recording.syncs.back().pid, m_recording.syncs.back().end);
    } else if (type == "event") {
        m_recording.events.push_back({ line.small(0, failed), line.deviceId(1, failed), line.small(2, failed),
            line.small(3, failed), line.small(4, failed), line.big(5, failed) });
        seen(m_recording.events.back().pid, m_recording.events.back().timestamp);
    } else if (type == "stream") {
        RecordedStream st { line.small(0, failed), line.small(1, failed), line.small(2, failed),
            line.small(3, failed) };
        if (!failed && st.flag > kNullStreamFlag)
            return line.wrong("FLAG", "is " + std::to_string(st.flag) + ", not 0 to 3 (CUpti_ActivityStreamFlag)");
        m_recording.streams.push_back(st);
    } else if (type == "api") {
        const std::uint32_t pid = line.small(0, failed);
        m_recording.calls.push_back({ pid, line.small(1, failed), line.small(2, failed), line.big(3, failed),
            line.big(4, failed), line.small(5, failed), line.big(6, failed), nameOf(line, pid, failed) });
        if (!failed && m_recording.calls.back().calls == 0)
            return line.wrong("CALLS", "is 0: a line stands for at least one call");
        seen(pid, m_recording.calls.back().end);
    } else if (type == "mark") {
        const std::string_view kind = line.word(3);
        if (kind != "start" && kind != "end" && kind != "instant")
            return line.wrong("KIND", "is '" + cutText(kind, 40) + "', not start, end or instant");
        const std::uint32_t pid = line.small(0, failed);
        m_recording.marks.push_back({ pid, line.small(1, failed), line.small(2, failed),
            kind == "start" ? MarkKind::Start : kind == "end" ? MarkKind::End : MarkKind::Instant,
            line.big(4, failed), nameOf(line, pid, failed) });
        seen(pid, m_recording.marks.back().timestamp);
    } else if (type == "dropped") {
        line.small(0, failed);
        const std::uint64_t count = line.big(1, failed);
        m_recording.dropped = count > std::numeric_limits<std::uint64_t>::max() - m_recording.dropped
            ? std::numeric_limits<std::uint64_t>::max()
            : m_recording.dropped + count;
    } else if (type == "note") {
        line.small(0, failed);
        if (m_recording.notes.size() < 1000)
            m_recording.notes.push_back(line.name());
    } else if (type == "signal") {
        const std::uint32_t pid = line.small(0, failed);
        const std::uint32_t signo = line.small(1, failed);
        if (!failed && (signo < 1 || signo > 64))
            return line.wrong("SIGNO", "is " + std::to_string(signo) + ", not a signal (1 to 64)");
        for (RecordedProcess& p : m_recording.processes)
            if (p.pid == pid && !failed)
                p.signal = int(signo);
    } else {  // exit
        const std::uint32_t pid = line.small(0, failed);
        for (RecordedProcess& p : m_recording.processes)
            p.exited = p.exited || p.pid == pid;
    }
    return failed;
}

Result<Recording> RecordingReader::finish()
{
    if (m_failed)
        return *m_failed;
    if (m_number == 0)
        return makeError(ErrorKind::Io, shownPath(m_file) + " is empty: not a recording",
            "A program that never initialised CUDA leaves no recording.");
    if (m_splitter)
        m_splitter->take(m_recording, true);
    return std::move(m_recording);
}

Result<Recording> readRecording(std::istream& in, const std::string& file, IterationSplitter* splitter)
{
    RecordingReader reader(file);
    reader.splitAsRead(splitter);
    std::vector<char> buffer(record::kMaxLineBytes + 1);
    while (in.getline(buffer.data(), std::streamsize(buffer.size()))) {
        if (!reader.line(std::string_view(buffer.data(), std::size_t(in.gcount()) - (in.eof() ? 0 : 1))))
            return reader.finish();
    }
    if (in.bad())
        return makeError(ErrorKind::Io, shownPath(file) + ": reading failed after line " +
            std::to_string(reader.lines()));
    if (!in.eof())  // getline stopped on a line longer than any the recorder writes
        reader.line(std::string_view(buffer.data(), record::kMaxLineBytes));
    return reader.finish();
}

Result<Recording> readRecordingFile(const std::string& path, IterationSplitter* splitter)
{
    if (Status unreadable = checkReadableFile(path))
        return *unreadable;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorKind::Io, shownPath(path) + ": cannot be opened: " + systemErrorText(errno));
    return readRecording(in, path, splitter);
}

}  // namespace asyncscope
