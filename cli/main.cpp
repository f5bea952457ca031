// asyncscope-cli: the engine from a terminal. Exit 0 when every run verified, 1 on a CUDA error or a wrong
// element, 2 on a usage error.
#include "cli/cli_options.hpp"

#include "engine/backend.hpp"
#include "engine/csv_report.hpp"
#include "engine/json_report.hpp"
#include "engine/text_report.hpp"

#include <atomic>
#include <csignal>
#include <fstream>
#include <iostream>

namespace {

using namespace asyncscope;

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

std::atomic<bool> g_cancel { false };
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler sets this flag");

extern "C" void onInterrupt(int)
{
    g_cancel.store(true);
}

int fail(const Error& error)
{
    std::cerr << "asyncscope-cli: " << (error.kind == ErrorKind::Usage ? "error: " : "") << error.message() << '\n';
    return error.kind == ErrorKind::Usage ? kExitUsage : kExitFailure;
}

void listDevices(const Platform& platform, std::ostream& out)
{
    const auto best = chooseDefaultDevice(platform.devices);
    for (const DeviceInfo& d : platform.devices) {
        out << formatDeviceText(d, platform.driverVersion, platform.runtimeVersion);
        out << "    UUID " << d.uuid << ", clock " << d.clockKHz / 1000 << " MHz"
            << (best && *best == d.index ? ", default" : "") << (d.computeProhibited ? ", compute prohibited" : "")
            << '\n';
    }
}

int run(const CliOptions& options)
{
    CudaBackend backend;
    auto platform = backend.discover();
    if (!platform)
        return fail(platform.error());
    if (options.listDevices) {
        listDevices(*platform, std::cout);
        return kExitOk;
    }

    Report report;
    report.config = options.config;
    report.driverVersion = platform->driverVersion;
    report.runtimeVersion = platform->runtimeVersion;
    if (!options.deviceGiven) {
        const auto best = chooseDefaultDevice(platform->devices);
        if (!best)
            return fail(makeError(ErrorKind::NoDevice, "every CUDA device is in compute-prohibited mode",
                "Ask the administrator to change the compute mode (nvidia-smi -c)."));
        report.config.device = *best;
    }
    auto device = findDevice(*platform, report.config.device);
    if (!device)
        return fail(device.error());
    report.device = *device;

    std::ofstream file;
    if (!options.outputPath.empty()) {
        file.open(options.outputPath);
        if (!file)
            return fail(makeError(ErrorKind::Io, "cannot write '" + options.outputPath + "'",
                "Choose a path in a folder that exists and that you may write to."));
    }
    std::ostream& out = options.outputPath.empty() ? std::cout : file;

    const bool text = options.format == ReportFormat::Text;
    std::signal(SIGINT, onInterrupt);
    auto outcome = backend.run(report.config, g_cancel, [&](const RunResult& result) {
        if (text && report.runs.empty())  // a series that cannot start prints its error alone
            out << formatDeviceText(report.device, report.driverVersion, report.runtimeVersion)
                << formatConfigText(report.config);
        report.runs.push_back(result);
        if (text)
            out << formatRunText(result, report.config.value) << std::flush;
    });
    std::signal(SIGINT, SIG_DFL);
    if (outcome)
        report.outcome = *outcome;

    // Whatever ran is reported, also after an error or a cancel.
    if (!report.runs.empty()) {
        switch (options.format) {
        case ReportFormat::Text: out << formatSummaryText(report); break;
        case ReportFormat::Csv: writeCsv(out, report); break;
        case ReportFormat::Json: writeJson(out, report); break;
        }
        out.flush();
        if (!out)
            return fail(makeError(ErrorKind::Io, "writing the report failed", "Check free disk space."));
    }
    if (!outcome)
        return fail(outcome.error());
    for (const RunResult& result : report.runs) {
        if (!result.verified) {
            std::cerr << "asyncscope-cli: run " << result.index << " returned a wrong element: index "
                      << result.firstWrongIndex << " is " << result.firstWrongValue << ", expected "
                      << report.config.value << '\n';
            return kExitFailure;
        }
    }
    return kExitOk;
}

}  // namespace

int main(int argc, char* argv[])
{
    auto options = parseCommandLine(argc, argv);
    if (!options)
        return fail(options.error());
    if (options->helpText) {
        std::cout << *options->helpText;
        return kExitOk;
    }
    return run(*options);
}
