#include "cli/cli_commands.hpp"

#include "cli/cli_outputs.hpp"
#include "cli/cli_try_advice.hpp"
#include "cli/output_pattern.hpp"

#include "engine/host/host_name.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/text_report.hpp"
#include "engine/model/series_summary.hpp"
#include "engine/run/plan_advice.hpp"
#include "engine/run/device_plan_runner.hpp"

#include <future>
#include <map>
#include <memory>
#include <mutex>

namespace asyncscope::cli {

namespace {

// Progress of a device plan. With one device, a series in text format prints each run as it arrives, after a header
// printed with the first run (so a series that cannot start prints its error alone), and a comparison prints a line
// per variant on `err` as it ends. With several devices each device says on `err` where it runs and how it went.
// Calls come from the devices' worker threads, several at once when they run at once.
class CliSink final : public DevicePlanSink {
public:
    CliSink(std::ostream* runText, std::ostream& err, std::size_t planned, bool severalDevices)
        : m_runText(runText)
        , m_err(err)
        , m_planned(planned)
        , m_several(severalDevices)
    {
    }

    void deviceStarting(const DeviceInfo& device, const CpuBinding& binding) override
    {
        std::lock_guard lock(m_mutex);
        m_bindings[device.index] = binding;
        if (m_several)
            m_err << "[GPU " << device.index << "] " << device.name << ", PCI " << device.pciBusId << ": "
                  << device.topology.text() << "; worker thread " << binding.text() << '\n';
    }

    void variantStarting(int device, std::size_t, const VariantResult& variant) override
    {
        std::lock_guard lock(m_mutex);
        m_current[device] = variant.report;
    }

    void runAvailable(int device, std::size_t, const RunResult& run) override
    {
        if (!m_runText)
            return;
        std::lock_guard lock(m_mutex);
        if (!m_headerShown) {
            const Report& r = m_current[device];
            *m_runText << formatDeviceText(r.device, r.driverVersion, r.runtimeVersion) << "  "
                       << r.device.topology.text() << "\n  worker thread " << m_bindings[device].text() << '\n'
                       << formatConfigText(r.config);
            m_headerShown = true;
        }
        *m_runText << formatRunText(run) << std::flush;
    }

    void variantEnded(int device, std::size_t index, const VariantResult& v) override
    {
        if (m_planned < 2 && !m_several)
            return;
        std::lock_guard lock(m_mutex);
        if (m_several)
            m_err << "[GPU " << device << "] ";
        if (m_planned > 1)
            m_err << "[" << index + 1 << "/" << m_planned << "] " << v.label << ": ";
        if (v.notRun) {
            m_err << "not run: " << v.notRun->message() << '\n';
            return;
        }
        if (v.failure && v.report.runs.empty()) {
            m_err << v.failure->message() << '\n';
            return;
        }
        const SeriesSummary s = summarizeSeries(v.report);
        m_err << "median GPU time " << s.median(keys::kGpuTime) << " ms, CPU submit time "
              << s.median(keys::kCpuSubmit) << " ms";
        if (m_several && s.figure(keys::kH2dRate))
            m_err << ", H2D " << s.value(keys::kH2dRate) << " GB/s, D2H " << s.value(keys::kD2hRate) << " GB/s";
        if (const Figure* registration = s.figure("host_register_ms"))
            m_err << ", host registration " << registration->value << " ms";
        m_err << (v.failure ? "; " + v.failure->message() : std::string()) << '\n';
    }

    void calibrationFailed(int device, const Error& error) override
    {
        std::lock_guard lock(m_mutex);
        m_err << "asyncscope-cli: " << (m_several ? "GPU " + std::to_string(device) + ": " : std::string())
              << "no copy calibration: " << error.message() << '\n';
    }

private:
    std::mutex m_mutex;
    std::ostream* m_runText;
    std::ostream& m_err;
    std::size_t m_planned;
    bool m_several;
    std::map<int, Report> m_current;
    std::map<int, CpuBinding> m_bindings;
    bool m_headerShown = false;
};

// The exit status of what ran on one device (or every device): its failure, all variants not run, a wrong element.
int verdict(const std::vector<const DeviceResult*>& devices, bool series, bool several, std::ostream& err)
{
    for (const DeviceResult* d : devices) {
        if (const Error* failure = d->plan.failure()) {
            Error e = *failure;
            if (several)
                e.detail = "GPU " + std::to_string(d->device.index) + ": " + e.detail;
            return reportFailure(e, err);
        }
    }
    int code = kExitOk;
    std::size_t ran = 0;
    for (const DeviceResult* d : devices) {
        const PlanReport& plan = d->plan;
        ran += plan.ranCount();
        const std::string prefix = several ? "GPU " + std::to_string(d->device.index) + ": " : std::string();
        if (plan.ranCount() > 0 && plan.ranCount() < plan.planned)
            err << "asyncscope-cli: " << prefix << plan.notRunText() << '\n';
        else if (plan.ranCount() == 0 && several && !plan.variants.empty() && plan.variants.front().notRun)
            err << "asyncscope-cli: " << prefix << "not run: " << plan.variants.front().notRun->message() << '\n';
        for (const VariantResult& v : plan.variants) {
            for (std::size_t i = 0; i < v.report.runs.size(); ++i) {
                if (!v.report.runs.verified(i)) {
                    err << "asyncscope-cli: " << prefix << (series ? "" : v.label + ": ")
                        << formatWrongElement(v.report.runs[i]) << '\n';
                    code = kExitFailure;
                    break;
                }
            }
        }
    }
    if (ran == 0) {
        for (const DeviceResult* d : devices) {
            if (!d->plan.variants.empty() && d->plan.variants.front().notRun)
                return reportFailure(*d->plan.variants.front().notRun, err);
        }
    }
    return code;
}

}  // namespace

int runPlan(const CliOptions& options, Backend& backend, const Platform& platform, const std::atomic<bool>& cancel,
    std::ostream& out, std::ostream& err, MachineProbe* machine)
{
    auto devices = resolveDevices(options.devices, platform);
    if (!devices)
        return reportDiscoveryFailure(options, devices.error(), out, err);
    PipelineConfig config = options.config;
    config.device = devices->front();
    auto plan = options.comparison
        ? comparisonPlan(*options.comparison, config, options.sweepMinBytes, options.sweepMaxBytes)
        : Result<Plan>(seriesPlan(config));
    if (!plan)
        return reportFailure(plan.error(), err);
    const bool several = options.devices.several();
    const bool series = !options.comparison;
    if (options.baseline) {
        // The configurations are compared before anything runs: a refused comparison costs no series.
        Report planned;
        planned.host = shortHostName();
        planned.device = platform.devices.at(static_cast<std::size_t>(config.device));
        planned.driverVersion = platform.driverVersion;
        planned.runtimeVersion = platform.runtimeVersion;
        planned.config = config;
        const std::vector<ConfigDifference> differences = configDifferences(*options.baseline, planned);
        if (anyBlocking(differences) && !options.allowDifferent)
            return reportFailure(differentConfigurations(differences), err);
        // A comparison that could not be made costs no series either.
        if (auto few = tooFewRunsToCompare(*options.baseline, "the baseline " + options.baselineFiles.front()))
            return refuseInput(*few, err);
        if (config.stopRule == StopRule::Fixed && std::size_t(config.runs) < kMinComparedRuns)
            return refuseInput("--runs " + std::to_string(config.runs) + " measures too few runs to compare: a "
                    "comparison needs at least " + std::to_string(kMinComparedRuns) + " measured runs in each series",
                err);
        for (const std::string& path : { options.outputPath, options.savePath }) {
            if (!path.empty()) {
                if (auto unusable = checkWritableFile(path))
                    return reportFailure(*unusable, err);
            }
        }
    }

    // Files are opened before anything runs: a path that cannot be written costs no series.
    Outputs outputs(out);
    const std::string host = shortHostName();
    if (!options.outputPath.empty() && !options.baseline) {
        for (const int device : *devices) {
            if (auto failed = outputs.open(options.outputPath, host, std::to_string(device)))
                return reportFailure(*failed, err);
        }
    }
    std::unique_ptr<AtomicOutputFile> trace;
    if (!options.tracePath.empty()) {
        if (auto unusable = checkWritableFile(options.tracePath))
            return reportFailure(*unusable, err);
        auto opened = AtomicOutputFile::open(options.tracePath, AtomicOutputFile::MissingFolders::Refuse);
        if (!opened)
            return reportFailure(makeError(ErrorKind::Usage, "cannot write the trace to '" + options.tracePath + "'",
                                     "Choose a path in a folder that exists and that you may write to."),
                err);
        trace = std::move(*opened);
    }

    DevicePlan devicePlan;
    devicePlan.devices = *devices;
    devicePlan.mode = options.deviceMode;
    devicePlan.bindToLocalCpus = options.numaBinding;
    devicePlan.plan = *plan;
    const bool runText = !several && series && options.format == ReportFormat::Text && !options.baseline;
    CliSink sink(runText ? &outputs.at(std::to_string(devices->front())) : nullptr, err, plan->variants.size(),
        several);
    RunnerOptions runner;
    runner.machine = machine;
    HostReport result = options.autoRuns
        ? runUntilDecided(options, backend, platform, devicePlan, cancel, sink, runner, err)
        : runDevicePlan(backend, platform, devicePlan, cancel, sink, runner);
    result.slurm = slurmTaskHere();

    // Whatever ran is reported, also after an error or a cancel.
    std::vector<const DeviceResult*> ran;
    for (const DeviceResult& d : result.devices)
        ran.push_back(&d);
    Status traceFailed;
    if (options.baseline) {
        const Report& ran = result.devices.front().plan.variants.front().report;
        if (ran.runs.empty()) {
            if (trace)
                traceFailed = writeTrace(*trace, true, result.devices.front().plan, {});
            return verdict({ &result.devices.front() }, true, false, err);
        }
        // The baseline assessed beside the series that ran.
        auto baselineAssessed =
            std::async(std::launch::async, [&options] { return assessSeries(*options.baseline); });
        const std::vector<Assessment> assessed = assessPlan(result.devices.front().plan);
        if (trace)
            traceFailed = writeTrace(*trace, true, result.devices.front().plan, assessed);
        if (!options.savePath.empty()) {
            if (auto failed = saveSeries(options.savePath, ran, assessed.front()))
                return reportFailure(*failed, err);
        }
        const Assessment baseline = baselineAssessed.get();
        const int compared = writeBaselineComparison(options,
            { *options.baseline, baseline, options.baselineFiles.front() }, { ran, assessed.front(), "this run" },
            out, err);
        const int ranCode = verdict({ &result.devices.front() }, true, false, err);
        return ranCode != kExitOk ? ranCode : compared != kExitOk ? compared : traceFailed ? reportFailure(*traceFailed, err) : kExitOk;
    }
    std::vector<std::vector<Assessment>> assessed = assessHost(result);
    Status triedFailed;
    if (options.tryAdvice && series && !several && !result.devices.front().plan.variants.front().report.runs.empty()
        && !result.devices.front().plan.failure())
        triedFailed = tryAdvice(backend, platform, cancel, runner, result.devices.front().plan, assessed.front(), err);
    if (!several) {
        const PlanReport& only = result.devices.front().plan;
        std::ostream& to = outputs.at(std::to_string(devices->front()));
        if (only.comparison)  // --try-advice: the series and the advised shape
            writeComparison(to, options.format, only, assessed.front());
        else if (series && !only.variants.front().report.runs.empty())
            writeSeries(to, options.format, only.variants.front().report, assessed.front().front());
        else if (!series && only.ranCount() > 0)
            writeComparison(to, options.format, only, assessed.front());
        if (trace)
            traceFailed = writeTrace(*trace, series && !only.comparison, only, assessed.front());
    } else {
        const std::vector<SideBySideRow> rows = sideBySideRows(result);
        if (namesDevice(options.outputPath)) {
            for (std::size_t i = 0; i < result.devices.size(); ++i) {
                HostReport one = result;
                one.devices = { result.devices[i] };
                writeHost(outputs.at(std::to_string(result.devices[i].device.index)), options.format, one,
                    { assessed[i] }, { rows[i] });
            }
        } else {
            writeHost(outputs.at(std::to_string(devices->front())), options.format, result, assessed, rows);
        }
    }
    const Status writeFailed = outputs.finish();
    // A trace that could not be written is said at once; how the runs went still decides first.
    const int traceCode = traceFailed ? reportFailure(*traceFailed, err) : kExitOk;
    if (writeFailed)
        return reportFailure(*writeFailed, err);
    const int code = verdict(ran, series, several, err);
    if (code == kExitOk && triedFailed)
        return reportFailure(*triedFailed, err);
    return code != kExitOk ? code : traceCode;
}

}  // namespace asyncscope::cli
