// asyncscope-cli record: records a CUDA program's GPU work and shows its iterations as runs (cli_record.cpp).
#pragma once

#include <atomic>
#include <ostream>

namespace asyncscope {

// `argv[0]` is "record"; the rest are its options and, after --, the program and its arguments. The exit status as
// the CLI's (cli_app.hpp): 0 when runs were found, 1 when the program left none, 2 on a usage error or refused input.
int runRecordCommand(int argc, const char* const argv[], const std::atomic<bool>& stop, std::ostream& out,
    std::ostream& err);

}  // namespace asyncscope
