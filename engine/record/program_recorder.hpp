// Runs a program under the recorder: the program asked for and nothing else, started with the injection library in
// its CUDA_INJECTION64_PATH, its NVTX ranges sent to CUPTI (NVTX_INJECTION64_PATH) and the recorder's socket named in
// its environment; its own output passes through (or goes to a file named). Every process of the program that initialises CUDA connects to
// the socket, and its lines are kept, whole, in the recording file as they come. The recording ends when the program
// has exited and its processes have closed their connections (or 2 s after it exited, for children left running),
// or when it is stopped: the duration asked for, or the `stop` flag (Ctrl+C, which reaches the program too: it runs
// in the recorder's process group), sends it SIGINT, then SIGTERM after 5 s and SIGKILL after 5 more; what was
// recorded until then is kept. A connection is taken only from the program's own processes (the program and its
// descendants, run by the recorder's user); any other is closed at once and counted. A program whose environment
// already names another injection library (CUDA_INJECTION64_PATH, NVTX_INJECTION64_PATH) is refused before it runs:
// a process takes one, and the recorder's would silently put the other tool's out.
#pragma once

#include "engine/model/error.hpp"
#include "engine/record/recording.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace asyncscope {

struct RecordRequest {
    std::vector<std::string> command;  // the program (found on PATH where it names no folder) and its arguments
    std::string workingFolder;         // empty: the recorder's
    std::vector<std::pair<std::string, std::string>> environment;  // set for the program, over the recorder's own
    std::string injectionLibrary;      // libasyncscope-inject.so's path
    std::string cuptiLibrary;          // the CUPTI library's path
    std::string recordingPath;         // where the record stream is kept; empty: not kept (read through `live`)
    std::optional<double> durationSeconds;  // stop the program after this long
    std::string outputPath;            // where the program's output and errors go; empty: the recorder's own
};

struct RecordOutcome {
    std::string program;        // the program's path, as found
    int exitCode = -1;          // its exit status; -1 where a signal ended it
    int signal = 0;             // the signal that ended it; 0 where it exited
    bool stopped = false;       // the recorder stopped it (Ctrl+C or the duration)
    bool connected = false;     // at least one of its processes connected: CUDA was initialised, the library loaded
    double wallSeconds = 0.0;   // from its start to its exit
    // When it exited, on the steady clock (ns since its epoch; 0 where it was not seen to exit), and how long after
    // that its last process closed its connection: what the report's time after the program's end starts from.
    std::int64_t exitedSteadyNs = 0;
    double handOverSeconds = 0.0;
    std::uint64_t bytes = 0;    // the recording's size
    std::uint32_t refusedConnections = 0;  // connections from processes not the program's, closed unread
    std::vector<std::uint32_t> pids;       // the process of each connection taken, in the order they came
};

// The program's path: `name` where it names a folder, else the first match on PATH; an Io or Usage error naming it
// where it is not there, not a regular file, or not executable.
Result<std::string> findProgram(const std::string& name, const std::string& workingFolder = {});

// The injection library and the CUPTI library to name: ASYNCSCOPE_INJECTION where set, else beside the executable
// (the build's and the portable bundle's lib folder) and the installed lib/asyncscope folder; CUPTI as the trace
// source finds it, resolved to its path.
Result<std::string> findInjectionLibrary();
Result<std::string> findCuptiLibrary();

// Runs the program and keeps its recording. Errors: the program cannot be found or started, the socket or the file
// cannot be made, the environment names another injection library (a Usage error, before anything runs). A program
// that fails or crashes is no error: the outcome says how it ended. Each line kept is also given to `live`, where one
// is given, so that the recording is read as it comes.
Result<RecordOutcome> recordProgram(const RecordRequest& request, const std::atomic<bool>& stop,
    RecordingReader* live = nullptr);

}  // namespace asyncscope
