// A program recorded through CUPTI (asyncscope-cli record, File › Record a program…): what ran, how its iterations
// were found and how it ended. A report that holds one is of that program's iterations, not of the built-in pipeline:
// its configuration block says only how many runs there are, and no element was checked by AsyncScope.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

// What the iterations' copies were, over all of them: what the advice reads that the runs' spans do not say.
struct ProgramCopies {
    std::uint64_t pageable = 0;       // copies to or from pageable host memory (staged by the driver)
    std::uint64_t pageableBytes = 0;
    double pageableMs = 0.0;          // their time on the GPU
    std::uint64_t synchronous = 0;    // calls that return only when their copy or set is done (cudaMemcpy, cudaMemset…)
    double synchronousMs = 0.0;       // the host's time in them
    // Operations on the legacy default stream in iterations that also used a blocking stream of the same program:
    // each waited for those streams, and they for it. Empty where the recording does not say which stream is the
    // default one (recorded before stream records were kept).
    std::optional<std::uint64_t> defaultStream;
    std::uint64_t defaultStreamIterations = 0;  // the iterations they were in
};

// A host thread of the program that made runs: a lane of the timeline, its runs' CPU spans on it.
struct ProgramThread {
    std::uint32_t pid = 0;
    std::uint32_t thread = 0;  // as CUPTI numbers it
    std::uint64_t runs = 0;
};

// A process of the program that CUDA was initialised in (the program, a child it forked, a rank a script started).
struct ProgramProcess {
    std::uint32_t pid = 0;
    std::uint32_t parent = 0;
    std::string executable;
    bool exited = false;  // it ended normally, every record handed over
    int signal = 0;       // the fatal signal it died on, where the recording says so
};

struct ProgramInfo {
    std::vector<std::string> command;  // the program's path as it was found, then its arguments
    std::string workingFolder;         // empty: where the recorder ran
    std::string iterations;            // how they were found: "host synchronizations", "NVTX range 'step'"
    int exitCode = 0;                  // -1 where a signal ended it
    int signal = 0;                    // the signal that ended it; 0 where it exited
    bool stopped = false;              // the recorder stopped it (a duration, Ctrl+C)
    std::vector<std::string> notes;    // what the runs leave out or could not tell
    ProgramCopies copies;
    std::vector<ProgramProcess> processes;  // the processes recorded; the report's runs are of `pids`
    std::vector<std::uint32_t> pids;        // the processes whose runs the report holds (empty: unknown, older files)
    std::vector<ProgramThread> threads;     // a run's CPU spans' stream is its thread's place here (empty: older files)
    std::uint64_t droppedRecords = 0;       // records CUPTI dropped for want of buffer room
    // The names the runs' spans give by number (Span::name): kernels' as compiled (mangled), calls' as CUPTI names
    // them ("cudaMemcpy_v3020"). Empty: none named (older files, the built-in pipeline).
    std::vector<std::string> names;
};

// What a reader takes: arguments and notes beyond these are refused (a command line is at most a few MB on Linux).
inline constexpr std::size_t kMaxProgramArguments = 4096;
inline constexpr std::size_t kMaxProgramNotes = 1000;
inline constexpr std::size_t kMaxProgramProcesses = 4096;
inline constexpr std::size_t kMaxProgramThreads = 4096;
inline constexpr std::size_t kMaxProgramNames = 65536;  // a name past these is not kept: its spans have none
// The name span `name` gives (Span::name), or an empty view where it gives none or one past the list.
std::string_view spanNameIn(const ProgramInfo& program, std::uint32_t name);

// "./app --size 4" as a shell would take it back: each word quoted where it needs to be.
std::string commandText(const std::vector<std::string>& command);
// The words of a command as commandText wrote them: words parted by one space, each plain (letters, digits and
// -_./=:,+%@) or quoted in single quotes, a quote inside written '\''. Nothing for a text commandText does not write
// (a quote left open, two spaces, a character outside quotes that it would have quoted) or for more than `most` words.
std::optional<std::vector<std::string>> commandWords(std::string_view text, std::size_t most = kMaxProgramArguments);
// What a view names the program by: its file name and arguments ("async --size 4"), cut to `most` bytes with "…".
std::string programLabel(const ProgramInfo& program, std::size_t most = 60);

}  // namespace asyncscope
