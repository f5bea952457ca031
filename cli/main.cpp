// asyncscope-cli: the engine from a terminal. Exit 0 when every run verified (and a baseline gate passed), 1 on a CUDA
// error, a wrong element or a failed gate, 2 on a usage error or refused input (cli_app.hpp's kExit… values).
#include "cli/cli_app.hpp"
#include "cli/cli_options.hpp"
#include "cli/cli_record.hpp"

#include "engine/cuda/cuda_backend.hpp"
#include "engine/host/nvml_probe.hpp"

#include <atomic>
#include <csignal>
#include <exception>
#include <iostream>
#include <string_view>

namespace {

std::atomic<bool> g_cancel { false };
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler sets this flag");

extern "C" void onInterrupt(int)
{
    g_cancel.store(true);
}

}  // namespace

int main(int argc, char* argv[])
{
    using namespace asyncscope;
    if (argc > 1 && std::string_view(argv[1]) == "record") {
        // Ctrl+C reaches the program recorded as well; the recorder keeps what it recorded until it ends.
        std::signal(SIGINT, onInterrupt);
        int code = kExitFailure;
        try {
            code = runRecordCommand(argc - 1, argv + 1, g_cancel, std::cout, std::cerr);
        } catch (const std::exception&) {
            std::cerr << "asyncscope-cli: stopped on an unexpected internal error\n";
        }
        std::signal(SIGINT, SIG_DFL);
        return code;
    }
    auto options = parseCommandLine(argc, argv);
    if (!options)
        return reportFailure(options.error(), std::cerr);
    if (options->helpText) {
        std::cout << *options->helpText;
        return kExitOk;
    }
    CudaBackend backend;
    std::signal(SIGINT, onInterrupt);  // Ctrl+C cancels every device between polls; what ran is still printed
    int code = kExitFailure;
    try {
        NvmlProbe machine;  // clocks, the PCIe link and other processes on the GPU, for the advice
        code = runCli(*options, backend, g_cancel, std::cout, std::cerr, &machine);
    } catch (const std::exception&) {
        // Every reader and writer answers with an error value; this is the last guard, so that nothing aborts.
        std::cerr << "asyncscope-cli: stopped on an unexpected internal error\n";
    }
    std::signal(SIGINT, SIG_DFL);
    return code;
}
