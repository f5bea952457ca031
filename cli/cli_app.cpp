#include "cli/cli_app.hpp"

#include "cli/output_pattern.hpp"

#include "engine/host/host_name.hpp"
#include "engine/io/atomic_output_file.hpp"
#include "engine/io/baseline_report.hpp"
#include "engine/io/chrome_trace.hpp"
#include "engine/io/csv/csv_report.hpp"
#include "engine/io/host_record_json.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/result_file.hpp"
#include "engine/io/side_by_side_report.hpp"
#include "engine/io/text_report.hpp"
#include "engine/model/display_text.hpp"
#include "engine/model/number_text.hpp"
#include "engine/model/series_summary.hpp"
#include "engine/run/device_plan_runner.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <system_error>
#include <thread>

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
        out << "    " << d.topology.text() << '\n';
        if (!d.topology.note.empty())
            out << "    (" << d.topology.note << ")\n";
    }
}

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

// A host's record in the chosen format, showing `rows` (flagged against the whole host) in the table.
void writeHost(std::ostream& out, ReportFormat format, const HostReport& host, const std::vector<SideBySideRow>& rows)
{
    switch (format) {
    case ReportFormat::Text: out << formatHostReportText(host, rows); break;
    case ReportFormat::Csv: writeSideBySideCsv(out, rows); break;
    case ReportFormat::Json: writeHostRecordJson(out, host); break;
    }
}

// Writes the trace of what ran to `file`, opened before the plan started; a failed write is an Io error. With
// nothing to show, no file is left rather than an empty one.
Status writeTrace(AtomicOutputFile& file, bool series, const PlanReport& result)
{
    const bool ran = series ? !result.variants.front().report.runs.empty() : result.ranCount() > 0;
    if (!ran) {
        file.discard();
        return std::nullopt;
    }
    if (series)
        writeChromeTrace(file.stream(), result.variants.front().report);
    else
        writeChromeTrace(file.stream(), result);
    return file.commit("the trace");
}

// Where the report goes: standard output, or the files --output names, opened before anything runs. Each file gets
// its name only once finish() wrote it completely; one that is not finished (an early return, a process killed)
// leaves no file of that name.
class Outputs {
public:
    explicit Outputs(std::ostream& standard)
        : m_standard(standard)
    {
    }

    // Opens the file for `device` ("none" where no device ran; ignored by a pattern without %d).
    Status open(const std::string& pattern, const std::string& host, const std::string& device)
    {
        const std::string path = expandOutputPattern(pattern, host, device);
        m_paths[device] = path;
        if (m_files.count(path))
            return std::nullopt;
        auto file = AtomicOutputFile::open(path);
        if (!file)
            return file.error();
        m_files[path] = std::move(*file);
        return std::nullopt;
    }

    // The stream for `device`; standard output when no file was opened.
    std::ostream& at(const std::string& device)
    {
        if (m_files.empty())
            return m_standard;
        const auto named = m_paths.find(device);
        return m_files.at(named != m_paths.end() ? named->second : m_paths.begin()->second)->stream();
    }

    // Flushes everything; an Io error when a write failed, with the system's words for why where it gave them.
    Status finish()
    {
        m_standard.flush();
        Status failed;
        if (!m_standard)
            failed = makeError(ErrorKind::Io, "writing the report failed", "Check free disk space.");
        for (auto& [path, file] : m_files) {
            Status written = file->commit("the report");
            if (written && !failed)
                failed = std::move(written);
        }
        return failed;
    }

private:
    std::ostream& m_standard;
    std::map<std::string, std::string> m_paths;                        // device -> path
    std::map<std::string, std::unique_ptr<AtomicOutputFile>> m_files;  // path -> file
};

// This process's place in a Slurm job, for the records it writes.
std::optional<SlurmTask> slurmTaskHere()
{
    return slurmTaskOf(std::getenv("SLURM_JOB_ID"), std::getenv("SLURMD_NODENAME"), std::getenv("SLURM_PROCID"));
}

// Discovery failed: with --output the host's record still says so (%d is "none"), so that a fleet's merge shows the
// host; the exit status is the error's.
int reportDiscoveryFailure(const CliOptions& options, const Error& error, std::ostream& out, std::ostream& err)
{
    if (!options.outputPath.empty() && !options.listDevices) {
        Outputs outputs(out);
        HostReport host = hostError(shortHostName(), error);
        host.slurm = slurmTaskHere();
        Status failed = outputs.open(options.outputPath, host.host, kNoDevice);
        if (!failed) {
            writeHost(outputs.at(kNoDevice), options.format, host, sideBySideRows(host));
            failed = outputs.finish();
        }
        if (failed)
            reportFailure(*failed, err);
    }
    return reportFailure(error, err);
}

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

// The row of a host or Slurm node that should have left a record and left none.
constexpr const char* kNoRecord = "no record: node failed (or was lost before writing)";

// An earlier record of the same Slurm job, host and GPU as `host`: two nodes with one host name, or a node measured
// twice. `sameHost` holds the places in `kept` of the job's earlier records of that host.
struct SharedGpu {
    std::string what;   // "GPU 0", or "error record" where neither record holds a GPU
    std::size_t first;  // the earlier record's place in `kept`
};
std::optional<SharedGpu> sharedGpu(
    const HostReport& host, const std::vector<HostReport>& kept, const std::vector<std::size_t>& sameHost)
{
    for (const std::size_t k : sameHost) {
        const HostReport& other = kept[k];
        for (const DeviceResult& a : host.devices) {
            for (const DeviceResult& b : other.devices) {
                if (a.device.index == b.device.index)
                    return SharedGpu { "GPU " + std::to_string(a.device.index), k };
            }
        }
        if (host.devices.empty() && other.devices.empty())
            return SharedGpu { "error record", k };
    }
    return std::nullopt;
}

// Every file of `paths` read, in their order, on as many threads as the machine has: a Slurm job of thousands of
// nodes leaves thousands of records.
std::vector<Result<HostReport>> readAll(const std::vector<std::string>& paths)
{
    std::vector<std::optional<Result<HostReport>>> read(paths.size());
    std::atomic<std::size_t> next { 0 };
    const auto work = [&paths, &read, &next] {
        for (std::size_t i = next++; i < paths.size(); i = next++)
            read[i].emplace(readResultFile(paths[i]));
    };
    const std::size_t helpers =
        std::min<std::size_t>(std::clamp(std::thread::hardware_concurrency(), 1u, 16u), paths.size() / 16 + 1) - 1;
    std::vector<std::thread> threads;
    for (std::size_t k = 0; k < helpers; ++k) {
        try {
            threads.emplace_back(work);
        } catch (const std::system_error&) {
            break;  // no thread to be had: fewer read at once
        }
    }
    work();
    for (std::thread& t : threads)
        t.join();
    std::vector<Result<HostReport>> all;
    all.reserve(paths.size());
    for (auto& r : read)
        all.push_back(std::move(*r));
    return all;
}

int runMerge(const CliOptions& options, std::ostream& out, std::ostream& err)
{
    std::vector<HostReport> hosts;
    std::vector<std::string> paths;
    std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> jobHosts;  // (job, host): places in hosts
    int code = kExitOk;
    std::vector<Result<HostReport>> read = readAll(options.mergeFiles);
    for (std::size_t i = 0; i < read.size(); ++i) {
        const std::string& path = options.mergeFiles[i];
        auto& host = read[i];
        if (!host) {
            err << "asyncscope-cli: cannot merge " << displayText(host.error().message()) << '\n';
            code = kExitUsage;  // a refused input, told apart from a node that left no record (1)
            continue;
        }
        if (host->slurm) {
            std::vector<std::size_t>& sameHost = jobHosts[{ host->slurm->job, host->host }];
            if (const auto shared = sharedGpu(*host, hosts, sameHost)) {
                const HostReport& first = hosts[shared->first];
                err << "asyncscope-cli: cannot merge " << displayText(path) << ": it holds host "
                    << cutText(host->host) << "'s " << shared->what << " from Slurm job " << cutText(host->slurm->job)
                    << " (task " << host->slurm->task << " on node " << cutText(host->slurm->node) << "), as "
                    << displayText(paths[shared->first]) << " does (task " << first.slurm->task << " on node "
                    << cutText(first.slurm->node)
                    << "): one job's records cannot share a host and GPU. Give each node a host name of its own; the "
                       "first record is kept.\n";
                code = kExitUsage;
                continue;
            }
            sameHost.push_back(hosts.size());
        }
        hosts.push_back(std::move(*host));
        paths.push_back(path);
    }
    std::set<std::string> recorded;  // the hosts and Slurm nodes that left a record
    for (const HostReport& h : hosts) {
        recorded.insert(h.host);
        if (h.slurm)
            recorded.insert(h.slurm->node);
    }
    for (const std::string& name : options.expectHosts) {
        if (recorded.count(name) == 0) {
            hosts.push_back(hostError(name, makeError(ErrorKind::Io, kNoRecord)));
            code = std::max(code, kExitFailure);
        }
    }
    if (hosts.empty()) {
        err << "asyncscope-cli: none of the " << options.mergeFiles.size() << " files could be read\n";
        return kExitUsage;
    }
    Outputs outputs(out);
    if (!options.outputPath.empty()) {
        if (auto failed = outputs.open(options.outputPath, shortHostName(), kNoDevice))
            return reportFailure(*failed, err);
    }
    const std::vector<SideBySideRow> rows = mergeRows(hosts);
    std::ostream& to = outputs.at(kNoDevice);
    switch (options.format) {
    case ReportFormat::Text: to << formatSideBySideText(rows, aggregatesOf(hosts)); break;
    case ReportFormat::Csv: writeSideBySideCsv(to, rows); break;
    case ReportFormat::Json: writeSideBySideJson(to, rows, aggregatesOf(hosts)); break;
    }
    if (auto failed = outputs.finish())
        return reportFailure(*failed, err);
    return code;
}

// The configurations differ where the user did not allow it: the differences, and what to do.
Error differentConfigurations(const std::vector<ConfigDifference>& differences)
{
    return makeError(ErrorKind::Usage,
        "the series to compare differ in their configuration: " + differencesText(differences),
        "Compare series of one configuration, or give --allow-different to compare across them (every output then "
        "says so).");
}

// A series that cannot be compared, or a file that cannot be read: refused input, told apart from a failed gate.
int refuseInput(const std::string& why, std::ostream& err)
{
    err << "asyncscope-cli: error: " << why << '\n';
    return kExitUsage;
}

// Writes the comparison of `current` with `baseline` where --output says, and returns the exit status: 1 when the
// gate failed; 2 when the configurations differ and that was not allowed, when a series holds too few measured runs
// to compare, or when a gate was asked for and none of its quantities is in both series.
int writeBaselineComparison(const CliOptions& options, const Report& baseline, const std::string& baselineName,
    const Report& current, const std::string& currentName, std::ostream& out, std::ostream& err)
{
    for (const auto& [series, name] : { std::pair { &baseline, "the baseline " + baselineName },
             std::pair { &current, currentName == "this run" ? std::string("this run") : currentName } }) {
        if (auto few = tooFewRunsToCompare(*series, name))
            return refuseInput(*few, err);
    }
    const SeriesSummary baselineSummary = summarizeSeries(baseline);
    const SeriesSummary currentSummary = summarizeSeries(current);
    const BaselineComparison c =
        compareWithBaseline(baseline, baselineSummary, current, currentSummary, options.baselineSettings);
    if (c.acrossConfigurations && !options.allowDifferent)
        return reportFailure(differentConfigurations(c.differences), err);
    Outputs outputs(out);
    if (!options.outputPath.empty()) {
        if (auto failed = outputs.open(options.outputPath, shortHostName(), kNoDevice))
            return reportFailure(*failed, err);
    }
    const BaselineSide a = baselineSide(baselineName, baseline, baselineSummary);
    const BaselineSide b = baselineSide(currentName, current, currentSummary);
    std::ostream& to = outputs.at(kNoDevice);
    switch (options.format) {
    case ReportFormat::Text: to << formatBaselineText(c, a, b); break;
    case ReportFormat::Csv: writeBaselineCsv(to, c, a, b); break;
    case ReportFormat::Json: writeBaselineJson(to, c, a, b); break;
    }
    if (auto failed = outputs.finish())
        return reportFailure(*failed, err);
    const bool gated = std::any_of(c.quantities.begin(), c.quantities.end(),
        [](const QuantityComparison& q) { return q.gated && q.distribution; });
    if (options.baselineSettings.maxSlowdownPercent && !gated)
        return refuseInput("none of the gated quantities (" + joinedText(options.baselineSettings.gateKeys) +
                ") was measured in both series: the gate can neither pass nor fail",
            err);
    if (c.gateFailed()) {
        err << "asyncscope-cli: slower than the baseline by more than "
            << fixedText(*options.baselineSettings.maxSlowdownPercent, 2) << " %: " << c.headline() << '\n';
        return kExitFailure;
    }
    return kExitOk;
}

// Two saved series: nothing runs.
int runBaselineFiles(const CliOptions& options, std::ostream& out, std::ostream& err)
{
    std::vector<Report> reports;
    for (const std::string& path : options.baselineFiles) {
        auto report = readSeriesFile(path);
        if (!report) {
            reportFailure(makeError(report.error().kind, "cannot compare " + report.error().detail,
                              report.error().advice),
                err);
            return kExitUsage;  // refused input, told apart from a failed gate (1)
        }
        reports.push_back(std::move(*report));
    }
    return writeBaselineComparison(options, reports[0], options.baselineFiles[0], reports[1],
        options.baselineFiles[1], out, err);
}

// Writes the series this command ran to --save as a JSON report.
Status saveSeries(const std::string& path, const Report& report)
{
    auto file = AtomicOutputFile::open(path);
    if (!file)
        return file.error();
    writeJson((*file)->stream(), report);
    return (*file)->commit("the series");
}

}  // namespace

std::optional<SlurmTask> slurmTaskOf(const char* job, const char* node, const char* task)
{
    if (!job || !*job || !node || !*node)
        return std::nullopt;
    SlurmTask t;
    t.job = job;
    t.node = node;
    char* end = nullptr;
    const long id = task ? std::strtol(task, &end, 10) : 0;
    t.task = task && end != task && *end == '\0' && id >= 0 && id <= 10'000'000 ? int(id) : 0;
    return t;
}

int reportFailure(const Error& error, std::ostream& err)
{
    // A kind of host memory, copy or submission this device or runtime cannot run is a request to change, as a size
    // that does not fit is.
    const bool request = isRequestError(error.kind) || error.kind == ErrorKind::Unsupported;
    // A message may name what a file gives (its name, a host): control characters are shown escaped.
    err << "asyncscope-cli: " << (request ? "error: " : "") << displayText(error.message()) << '\n';
    return request ? kExitUsage : kExitFailure;
}

int runCli(const CliOptions& options, Backend& backend, const std::atomic<bool>& cancel, std::ostream& out,
    std::ostream& err, MachineProbe* machine)
{
    if (!options.mergeFiles.empty())
        return runMerge(options, out, err);
    if (options.baselineFiles.size() == 2)
        return runBaselineFiles(options, out, err);

    auto platform = backend.discover();
    if (!platform)
        return reportDiscoveryFailure(options, platform.error(), out, err);
    if (options.listDevices) {
        listDevices(*platform, out);
        out.flush();
        return out ? kExitOk : reportFailure(makeError(ErrorKind::Io, "writing the device list failed"), err);
    }

    auto devices = resolveDevices(options.devices, *platform);
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
        planned.device = platform->devices.at(static_cast<std::size_t>(config.device));
        planned.driverVersion = platform->driverVersion;
        planned.runtimeVersion = platform->runtimeVersion;
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
    HostReport result = runDevicePlan(backend, *platform, devicePlan, cancel, sink, runner);
    result.slurm = slurmTaskHere();

    // Whatever ran is reported, also after an error or a cancel.
    std::vector<const DeviceResult*> ran;
    for (const DeviceResult& d : result.devices)
        ran.push_back(&d);
    Status traceFailed;
    if (options.baseline) {
        const Report& ran = result.devices.front().plan.variants.front().report;
        if (trace)
            traceFailed = writeTrace(*trace, true, result.devices.front().plan);
        if (ran.runs.empty())
            return verdict({ &result.devices.front() }, true, false, err);
        if (!options.savePath.empty()) {
            if (auto failed = saveSeries(options.savePath, ran))
                return reportFailure(*failed, err);
        }
        const int compared =
            writeBaselineComparison(options, *options.baseline, options.baselineFiles.front(), ran, "this run", out, err);
        const int ranCode = verdict({ &result.devices.front() }, true, false, err);
        return ranCode != kExitOk ? ranCode : compared != kExitOk ? compared : traceFailed ? reportFailure(*traceFailed, err) : kExitOk;
    }
    if (!several) {
        const PlanReport& only = result.devices.front().plan;
        std::ostream& to = outputs.at(std::to_string(devices->front()));
        if (series && !only.variants.front().report.runs.empty())
            writeSeries(to, options.format, only.variants.front().report);
        else if (!series && only.ranCount() > 0)
            writeComparison(to, options.format, only);
        if (trace)
            traceFailed = writeTrace(*trace, series, only);
    } else {
        const std::vector<SideBySideRow> rows = sideBySideRows(result);
        if (namesDevice(options.outputPath)) {
            for (std::size_t i = 0; i < result.devices.size(); ++i) {
                HostReport one = result;
                one.devices = { result.devices[i] };
                writeHost(outputs.at(std::to_string(result.devices[i].device.index)), options.format, one, { rows[i] });
            }
        } else {
            writeHost(outputs.at(std::to_string(devices->front())), options.format, result, rows);
        }
    }
    const Status writeFailed = outputs.finish();
    // A trace that could not be written is said at once; how the runs went still decides first.
    const int traceCode = traceFailed ? reportFailure(*traceFailed, err) : kExitOk;
    if (writeFailed)
        return reportFailure(*writeFailed, err);
    const int code = verdict(ran, series, several, err);
    return code != kExitOk ? code : traceCode;
}

}  // namespace asyncscope
