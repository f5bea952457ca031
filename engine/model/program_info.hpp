// A program recorded through CUPTI (asyncscope-cli record, File › Record a program…): what ran, how its iterations
// were found and how it ended. A report that holds one is of that program's iterations, not of the built-in pipeline:
// its configuration block says only how many runs there are, and no element was checked by AsyncScope.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace asyncscope {

struct ProgramInfo {
    std::vector<std::string> command;  // the program's path as it was found, then its arguments
    std::string workingFolder;         // empty: where the recorder ran
    std::string iterations;            // how they were found: "host synchronizations", "NVTX range 'step'"
    int exitCode = 0;                  // -1 where a signal ended it
    int signal = 0;                    // the signal that ended it; 0 where it exited
    bool stopped = false;              // the recorder stopped it (a duration, Ctrl+C)
    std::vector<std::string> notes;    // what the runs leave out or could not tell
};

// What a reader takes: arguments and notes beyond these are refused (a command line is at most a few MB on Linux).
inline constexpr std::size_t kMaxProgramArguments = 4096;
inline constexpr std::size_t kMaxProgramNotes = 1000;

// "./app --size 4" as a shell would take it back: each word quoted where it needs to be.
std::string commandText(const std::vector<std::string>& command);

}  // namespace asyncscope
