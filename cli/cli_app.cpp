#include "cli/cli_app.hpp"

#include "engine/io/chrome_trace.hpp"
#include "engine/io/csv_report.hpp"
#include "engine/io/json_report.hpp"
#include "engine/io/text_report.hpp"
#include "engine/model/series_summary.hpp"
#include "engine/run/plan_runner.hpp"

#include <filesystem>
#include <fstream>

namespace asyncscope {

namespace {

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

// A single series in text format prints each run as it arrives, after a header printed with the first run (so a
// series that cannot start prints its error alone). A comparison prints a line per variant on `err` as it ends.
class CliSink final : public PlanSink {
public:
    CliSink(std::ostream* runText, std::ostream& err, std::size_t planned)
        : m_runText(runText)
        , m_err(err)
        , m_planned(planned)
    {
    }

    void runAvailable(std::size_t, const RunResult& run) override
    {
        if (!m_runText)
            return;
        if (!m_headerShown) {
            *m_runText << formatDeviceText(m_current.device, m_current.driverVersion, m_current.runtimeVersion)
                       << formatConfigText(m_current.config);
            m_headerShown = true;
        }
        *m_runText << formatRunText(run) << std::flush;
    }

    void variantStarting(std::size_t, const VariantResult& variant) override { m_current = variant.report; }

    void variantEnded(std::size_t index, const VariantResult& v) override
    {
        if (m_planned < 2)
            return;
        m_err << "[" << index + 1 << "/" << m_planned << "] " << v.label << ": ";
        if (v.notRun) {
            m_err << "not run: " << v.notRun->message() << '\n';
            return;
        }
        const SeriesSummary s = summarizeSeries(v.report);
        m_err << "median GPU time " << s.median(keys::kGpuTime) << " ms, CPU submit time " << s.median(keys::kCpuSubmit)
              << " ms\n";
    }

    void calibrationFailed(const Error& error) override
    {
        m_err << "asyncscope-cli: no copy calibration: " << error.message() << '\n';
    }

private:
    std::ostream* m_runText;
    std::ostream& m_err;
    std::size_t m_planned;
    Report m_current;
    bool m_headerShown = false;
};

void writeSeries(std::ostream& out, ReportFormat format, const Report& report)
{
    switch (format) {
    case ReportFormat::Text: out << formatSummaryText(report); break;
    case ReportFormat::Csv: writeCsv(out, report); break;
    case ReportFormat::Json: writeJson(out, report); break;
    }
}

void writeComparison(std::ostream& out, ReportFormat format, const PlanReport& plan)
{
    switch (format) {
    case ReportFormat::Text: out << formatComparisonText(plan); break;
    case ReportFormat::Csv: writeComparisonCsv(out, plan); break;
    case ReportFormat::Json: writeComparisonJson(out, plan); break;
    }
}

// Writes the trace of what ran to `file`, opened before the plan started; a failed write is an Io error. With
// nothing to show, the file is removed rather than left empty.
Status writeTrace(std::ofstream& file, const std::string& path, bool series, const PlanReport& result)
{
    const bool ran = series ? !result.variants.front().report.runs.empty() : result.ranCount() > 0;
    if (!ran) {
        file.close();
        std::error_code ignored;
        std::filesystem::remove(path, ignored);
        return std::nullopt;
    }
    if (series)
        writeChromeTrace(file, result.variants.front().report);
    else
        writeChromeTrace(file, result);
    file.close();
    if (!file)
        return makeError(ErrorKind::Io, "writing the trace to '" + path + "' failed", "Check free disk space.");
    return std::nullopt;
}

}  // namespace

int reportFailure(const Error& error, std::ostream& err)
{
    err << "asyncscope-cli: " << (isRequestError(error.kind) ? "error: " : "") << error.message() << '\n';
    return isRequestError(error.kind) ? kExitUsage : kExitFailure;
}

int runCli(const CliOptions& options, Backend& backend, const std::atomic<bool>& cancel, std::ostream& out,
    std::ostream& err)
{
    auto platform = backend.discover();
    if (!platform)
        return reportFailure(platform.error(), err);
    if (options.listDevices) {
        listDevices(*platform, out);
        out.flush();
        return out ? kExitOk : reportFailure(makeError(ErrorKind::Io, "writing the device list failed"), err);
    }

    PipelineConfig config = options.config;
    if (!options.deviceGiven) {
        const auto best = chooseDefaultDevice(platform->devices);
        if (!best)
            return reportFailure(makeError(ErrorKind::NoDevice, "every CUDA device is in compute-prohibited mode",
                                     "Ask the administrator to change the compute mode (nvidia-smi -c)."),
                err);
        config.device = *best;
    }
    auto plan = options.comparison
        ? comparisonPlan(*options.comparison, config, options.sweepMinBytes, options.sweepMaxBytes)
        : Result<Plan>(seriesPlan(config));
    if (!plan)
        return reportFailure(plan.error(), err);

    // The trace's file is opened before anything runs: a path that cannot be written costs no series.
    std::ofstream trace;
    if (!options.tracePath.empty()) {
        trace.open(options.tracePath, std::ios::binary | std::ios::trunc);
        if (!trace)
            return reportFailure(makeError(ErrorKind::Usage, "cannot write the trace to '" + options.tracePath + "'",
                                     "Choose a path in a folder that exists and that you may write to."),
                err);
    }

    const bool series = !options.comparison;
    CliSink sink(series && options.format == ReportFormat::Text ? &out : nullptr, err, plan->variants.size());
    const PlanReport result = runPlan(backend, *platform, *plan, cancel, sink);

    // Whatever ran is reported, also after an error or a cancel.
    if (series) {
        const VariantResult& only = result.variants.front();
        if (!only.report.runs.empty())
            writeSeries(out, options.format, only.report);
    } else if (result.ranCount() > 0) {
        writeComparison(out, options.format, result);
    }
    out.flush();
    const Status traceFailed = trace.is_open() ? writeTrace(trace, options.tracePath, series, result) : std::nullopt;
    // A trace that could not be written is said at once; how the runs went still decides first.
    const int traceCode = traceFailed ? reportFailure(*traceFailed, err) : kExitOk;
    if (!out)
        return reportFailure(makeError(ErrorKind::Io, "writing the report failed", "Check free disk space."), err);

    if (const Error* failure = result.failure())
        return reportFailure(*failure, err);
    if (result.ranCount() == 0)
        return reportFailure(*result.variants.front().notRun, err);
    if (!series && result.ranCount() < result.planned)
        err << "asyncscope-cli: " << result.notRunText() << '\n';
    int code = kExitOk;
    for (const VariantResult& v : result.variants) {
        for (const RunResult& run : v.report.runs) {
            if (!run.verified) {
                err << "asyncscope-cli: " << (series ? "" : v.label + ": ") << formatWrongElement(run) << '\n';
                code = kExitFailure;
                break;
            }
        }
    }
    return code != kExitOk ? code : traceCode;
}

}  // namespace asyncscope
