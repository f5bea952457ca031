// A program's recording as values: the record stream (engine/record/record_stream.hpp) read back, from the recorder's
// socket as it was kept in a file, or from a file kept as test data. The reader treats the file as hostile: every
// line bounded and checked field by field, an error naming the file, the line and the field.
#pragma once

#include "engine/model/error.hpp"

#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <unordered_map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

struct RecordedProcess {
    std::uint32_t pid = 0;
    std::uint32_t parent = 0;
    std::string executable;
    bool exited = false;  // its `exit` line came: it ended normally, every record handed over
    int signal = 0;       // the fatal signal its `signal` line named (its records handed over first); 0: none came
    // The host's CLOCK_MONOTONIC (the recorder's steady clock) minus CUPTI's clock, ns, from its `clock` line; empty
    // where the recording has none (recorded before the line was written).
    std::optional<std::int64_t> steadyMinusCuptiNs;
};

struct RecordedDevice {
    std::uint32_t pid = 0;
    std::uint32_t id = 0;
    std::uint32_t ccMajor = 0, ccMinor = 0;
    std::uint64_t memoryBytes = 0;
    std::uint32_t multiprocessors = 0, copyEngines = 0, clockKHz = 0;
    std::uint32_t driverVersion = 0;  // 0: unknown
    std::string uuid;                 // 32 hex digits
    std::string name;
};

// A copy, a memset or a kernel on the GPU, with the runtime call that issued it (pid and correlation id).
// CUPTI's memory kinds: 0 unknown, 1 pageable, 2 pinned, 3 device, 4 array, 5 managed, 6 device static, 7 managed
// static. A copy between devices (a `peer` line) runs from `device` to `dstDevice`; its memory kinds are not sent (0).
enum class OperationKind { Copy, Set, Kernel };
struct RecordedOperation {
    OperationKind kind = OperationKind::Kernel;
    std::uint32_t pid = 0, device = 0, context = 0, stream = 0, correlation = 0;
    std::uint32_t dstDevice = 0;  // the device a copy writes to: `device` but for a copy between devices
    std::uint64_t start = 0, end = 0;  // CUPTI's clock, ns
    std::uint64_t bytes = 0;           // copies and memsets
    std::uint32_t copyKind = 0;        // CUpti_ActivityMemcpyKind: 1 H2D, 2 D2H, 8 D2D, 10 P2P …
    std::uint32_t srcKind = 0, dstKind = 0;  // a copy's memory kinds; a memset's memory in dstKind
    std::uint64_t graphNode = 0;
    std::uint64_t copies = 1;                 // copies a batch record stands for
    std::uint64_t blocks = 0, threadsPerBlock = 0;  // a kernel's launch
    std::string_view name;                    // a kernel's (as compiled: mangled), in the recording's names
};

// A CUDA runtime call, or driver call, on the CPU.
struct RecordedCall {
    std::uint32_t pid = 0, thread = 0, correlation = 0;
    std::uint64_t start = 0, end = 0;
    std::uint32_t returnValue = 0;
    std::uint64_t calls = 1;  // back-to-back calls of the same name and result it stands for (a poll loop): start is
                              // the first's, end the last's
    std::string_view name;  // a runtime call's "cudaMemcpyAsync_v3020", a driver call's "cuMemcpyHtoDAsync_v2"
};

// A wait the GPU or the host made: CUpti_ActivitySynchronizationType 1 event synchronize, 2 stream wait event,
// 3 stream synchronize, 4 context synchronize.
struct RecordedSync {
    std::uint32_t pid = 0, context = 0, stream = 0, correlation = 0;
    std::uint64_t start = 0, end = 0;
    std::uint32_t type = 0;
};

// A CUDA event the program recorded (cudaEventRecord), where the GPU passed it: the program's own timing points.
struct RecordedEvent {
    std::uint32_t pid = 0, device = 0, context = 0, stream = 0, correlation = 0;
    std::uint64_t timestamp = 0;  // CUPTI's clock, ns
};

// A stream of a context as the program made it: CUpti_ActivityStreamFlag 1 blocking (cudaStreamCreate), 2 non-blocking
// (cudaStreamNonBlocking), 3 the NULL stream: the legacy default stream, which waits for every blocking stream of its
// context and makes them wait for it (or, for calls of a per-thread default stream build, that thread's own).
inline constexpr std::uint32_t kNullStreamFlag = 3;
inline constexpr std::uint32_t kNonBlockingStreamFlag = 2;
struct RecordedStream {
    std::uint32_t pid = 0, context = 0, stream = 0, flag = 0;
};

// An NVTX marker: a range's start or end (paired by pid and id), or an instant.
enum class MarkKind { Start, End, Instant };
struct RecordedMark {
    std::uint32_t pid = 0, thread = 0, id = 0;
    MarkKind kind = MarkKind::Instant;
    std::uint64_t timestamp = 0;
    std::string_view name;  // on a start or an instant; an end's is empty
};

// The names a recording gives many times over (a call's, a kernel's, a range's), each kept once: a call's record
// then holds a view of its name, not a copy. Shared by the copies of a recording, so that their views stay valid.
class NamePool {
public:
    std::string_view intern(std::string_view name)
    {
        const auto found = m_names.find(name);
        if (found != m_names.end())
            return found->first;
        auto kept = std::make_unique<std::string>(name);
        const std::string_view view(*kept);
        m_names.emplace(view, std::move(kept));
        return view;
    }
    std::size_t size() const { return m_names.size(); }

private:
    std::unordered_map<std::string_view, std::unique_ptr<std::string>> m_names;
};

struct Recording {
    // What the records' names view: valid while any copy of the recording lives.
    std::shared_ptr<NamePool> names = std::make_shared<NamePool>();
    std::vector<RecordedProcess> processes;
    std::vector<RecordedDevice> devices;
    std::vector<RecordedOperation> operations;
    std::vector<RecordedCall> calls;
    std::vector<RecordedSync> syncs;
    std::vector<RecordedEvent> events;
    std::vector<RecordedStream> streams;  // empty in recordings made before stream lines were written
    std::vector<RecordedMark> marks;
    std::vector<std::string> notes;  // what the injection library said went wrong ("CUPTI could not be loaded …")
    std::uint64_t dropped = 0;       // records CUPTI dropped for want of buffer room
    std::uint64_t unkept = 0;        // records past kMaxRecordedRecords, counted and not kept
    // Counted as the records are read, and kept when a splitter has taken the records out (IterationSplitter):
    // the GPU operations of each (pid, device), and the latest time any record of each process gives.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> operationCounts;
    std::map<std::uint32_t, std::uint64_t> latestNs;
};

class IterationSplitter;

// At most this many records of GPU work, calls and marks are held at once (about 6 GB of them; a splitter lets those
// of each iteration go once it is split off): those past it are counted (Recording::unkept) rather than read until
// memory ends, and the runs end where the budget did.
inline constexpr std::size_t kMaxRecordedRecords = std::size_t(64) << 20;

// Reads a record stream; `name` is what errors call it ("app.record"). Errors name the line and the field: "app.record:
// line 12: copy: END is '12x', not a whole number". Records of one process come after its `process` line; a
// stream may hold several processes' lines, interleaved line by line.
// With `splitter`, the iterations are split as the lines are read (RecordingReader::splitAsRead).
Result<Recording> readRecording(std::istream& in, const std::string& name, IterationSplitter* splitter = nullptr);
Result<Recording> readRecordingFile(const std::string& path, IterationSplitter* splitter = nullptr);

// The same reading a line at a time, as the recorder receives the stream, so that the recording is read by the time
// the program ends.
namespace recording_detail {
class Line;
}

class RecordingReader {
public:
    // `budget`: the records of GPU work, calls and marks kept (kMaxRecordedRecords but in tests).
    explicit RecordingReader(std::string name, std::size_t budget = kMaxRecordedRecords);
    // Gives the recording to `splitter` every `every` records, and at finish(): what it takes out (the records of
    // iterations it has split off) is no longer in the recording.
    void splitAsRead(IterationSplitter* splitter, std::size_t every = std::size_t(1) << 18)
    {
        m_splitter = splitter;
        m_splitEvery = every;
    }
    // The records of GPU work, calls, marks and names held now.
    std::size_t held() const;
    // One line, without its newline; false once a line has been refused (what follows is not read).
    bool line(std::string_view text);
    std::size_t lines() const { return m_number; }
    // The recording, or the first line refused.
    Result<Recording> finish();

private:
    std::optional<Error> parse(std::string_view text);
    Error failure(const std::string& why) const;
    // A NAME field: in full (version 1, or ":TEXT"), or the name an earlier `name` line of the process gave ("=ID").
    std::string_view nameOf(const recording_detail::Line& line, std::uint32_t pid, std::optional<Error>& failed);
    static std::uint64_t key(std::uint32_t pid, std::uint32_t id) { return std::uint64_t(pid) << 32 | id; }
    void seen(std::uint32_t pid, std::uint64_t ns);

    std::string m_file;
    Recording m_recording;
    std::vector<std::string_view> m_words;
    std::size_t m_number = 0, m_budget = kMaxRecordedRecords;
    std::optional<Error> m_failed;
    int m_version = 0;  // the stream's, from its first line
    IterationSplitter* m_splitter = nullptr;
    std::size_t m_splitEvery = 0;
    std::size_t m_sinceSplit = 0;  // records kept since the splitter last took
    std::unordered_map<std::uint64_t, std::string_view> m_nameIds;  // (pid, id): the name a `name` line gave
};

}  // namespace asyncscope
