// asyncscope-cli: the engine from a terminal. Exit 0 when every run verified, 1 on a CUDA error or a wrong
// element, 2 on a usage error.
#include "cli/cli_options.hpp"

#include "engine/backend.hpp"
#include "engine/comparison.hpp"
#include "engine/csv_report.hpp"
#include "engine/json_report.hpp"
#include "engine/statistics.hpp"
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

// Runs one series into `report` (whose device and config are set). In text format each run is printed as it
// arrives, after a header that is printed with the first run, so a series that cannot start prints its error alone.
Status runSeriesInto(Backend& backend, Report& report, std::ostream* textOut)
{
    auto outcome = backend.run(report.config, g_cancel, [&](const RunResult& result) {
        if (textOut && report.runs.empty())
            *textOut << formatDeviceText(report.device, report.driverVersion, report.runtimeVersion)
                     << formatConfigText(report.config);
        report.runs.push_back(result);
        if (textOut)
            *textOut << formatRunText(result) << std::flush;
    });
    if (!outcome)
        return outcome.error();
    report.outcome = *outcome;
    return std::nullopt;
}

int firstWrongRun(const Report& report)
{
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

int runComparison(Backend& backend, const CliOptions& options, const Report& base, std::ostream& out)
{
    auto variants = makeVariants(*options.comparison, base.config, options.sweepMinBytes, options.sweepMaxBytes);
    if (!variants)
        return fail(variants.error());
    ComparisonReport comparison;
    comparison.comparison = *options.comparison;
    Status failure;
    for (std::size_t i = 0; i < variants->size() && !failure; ++i) {
        Report report = base;
        report.config = (*variants)[i].config;
        failure = runSeriesInto(backend, report, nullptr);
        if (!report.runs.empty()) {
            const SeriesSummary s = summarizeRuns(report.runs, report.config.bytes());
            std::cerr << "[" << i + 1 << "/" << variants->size() << "] " << (*variants)[i].label << ": median GPU "
                      << s.gpuMs.median << " ms, CPU submit " << s.cpuSubmitMs.median << " ms\n";
            comparison.labels.push_back((*variants)[i].label);
            comparison.reports.push_back(std::move(report));
        }
    }
    switch (options.format) {
    case ReportFormat::Text: out << formatComparisonText(comparison); break;
    case ReportFormat::Csv: writeComparisonCsv(out, comparison); break;
    case ReportFormat::Json: writeComparisonJson(out, comparison); break;
    }
    out.flush();
    if (failure)
        return fail(*failure);
    for (const Report& report : comparison.reports) {
        if (firstWrongRun(report) != kExitOk)
            return kExitFailure;
    }
    return kExitOk;
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

    std::signal(SIGINT, onInterrupt);
    if (auto peak = backend.copyPeak(report.device))
        report.peak = *peak;
    else if (peak.error().kind == ErrorKind::Usage)
        return fail(peak.error());
    else
        std::cerr << "asyncscope-cli: no copy calibration: " << peak.error().message() << '\n';

    if (options.comparison) {
        const int code = runComparison(backend, options, report, out);
        std::signal(SIGINT, SIG_DFL);
        return code;
    }

    const Status failure = runSeriesInto(backend, report, options.format == ReportFormat::Text ? &out : nullptr);
    std::signal(SIGINT, SIG_DFL);

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
    if (failure)
        return fail(*failure);
    return firstWrongRun(report);
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
