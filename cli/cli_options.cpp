#include "cli/cli_options.hpp"

#include "cli/output_pattern.hpp"

#include "engine/io/man_options.hpp"
#include "engine/io/result_file.hpp"
#include "engine/model/number_text.hpp"
#include "engine/model/record_rules.hpp"
#include "engine/model/size_parse.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace asyncscope {

namespace {

// Every floating-point option, checked before anything runs: CLI11 reads "inf" and "nan" as numbers, and a series
// would then never stop, or stop at once. The rules are the ones a record read back from a file meets.
Status checkFloatingOptions(const PipelineConfig& c)
{
    const FieldCheck checks[] = {
        std::isfinite(c.targetNoisePercent) && c.targetNoisePercent >= 0.0
            ? FieldCheck()
            : FieldProblem { "--noise-target", quotedNumber(c.targetNoisePercent), "a finite percentage, 0 or more" },
        checkDurationMs("--min-time", c.minGpuMs),
        std::isfinite(c.timeoutS) && c.timeoutS >= 0.0
            ? FieldCheck()
            : FieldProblem { "--timeout", quotedNumber(c.timeoutS), "a finite number of seconds, 0 or more" },
    };
    for (const FieldCheck& bad : checks) {
        if (bad)
            return makeError(ErrorKind::Usage,
                bad->field + " " + bad->found + " is not accepted: give " + bad->accepted,
                "See asyncscope-cli --help.");
    }
    return std::nullopt;
}

// The keys --gate accepts: the quantities measured once per run.
std::vector<std::string> gateableKeys()
{
    std::vector<std::string> keys;
    for (const RunMeasure& m : runMeasures())
        keys.emplace_back(m.key);
    return keys;
}

Status checkBaselineOptions(const CliOptions& options)
{
    const BaselineSettings& b = options.baselineSettings;
    if (b.maxSlowdownPercent && !(std::isfinite(*b.maxSlowdownPercent) && *b.maxSlowdownPercent >= 0.0))
        return makeError(ErrorKind::Usage,
            "--max-slowdown " + quotedNumber(*b.maxSlowdownPercent) + " is not accepted: give a finite percentage, 0 or more",
            "See asyncscope-cli --help.");
    if (!(std::isfinite(b.minDifferencePercent) && b.minDifferencePercent >= 0.0))
        return makeError(ErrorKind::Usage,
            "--min-difference " + quotedNumber(b.minDifferencePercent) +
                " is not accepted: give a finite percentage, 0 or more",
            "See asyncscope-cli --help.");
    if (options.baselineFiles.empty()) {
        const bool baselineOnly = b.maxSlowdownPercent || options.allowDifferent || !options.savePath.empty();
        if (baselineOnly)
            return makeError(ErrorKind::Usage, "--max-slowdown, --allow-different and --save go with --baseline",
                "Give --baseline FILE (the series to compare with).");
        return std::nullopt;
    }
    const char* conflict = !options.mergeFiles.empty() ? "--merge"
        : options.comparison                           ? "--compare"
        : options.listDevices                          ? "--list-devices"
        : options.devices.several()                    ? "--device with several devices"
                                                       : nullptr;
    if (conflict)
        return makeError(ErrorKind::Usage, std::string("--baseline compares one series and cannot go with ") + conflict,
            "Compare one series (or two saved ones) at a time.");
    if (namesDevice(options.outputPath))
        return makeError(ErrorKind::Usage, "--baseline writes one comparison: --output cannot name a file per device (%d)",
            "Leave %d out of the --output pattern.");
    if (options.baselineFiles.size() == 2 && !options.savePath.empty())
        return makeError(ErrorKind::Usage, "--save keeps a series this command runs, and two saved series run nothing",
            "Leave --save out, or give one --baseline file and run a series.");
    return std::nullopt;
}

// --runs N or --runs auto into the options; with auto, --blocks is the most blocks measured.
Status takeRuns(const std::string& runs, bool blocksGiven, CliOptions& options)
{
    PipelineConfig& c = options.config;
    if (runs.empty())
        return std::nullopt;
    if (runs != "auto") {
        CLI::detail::lexical_cast(runs, c.runs);
        return std::nullopt;
    }
    if (options.baselineFiles.size() != 1)
        return makeError(ErrorKind::Usage, "--runs auto measures until a comparison with one baseline is decided",
            "Give --baseline FILE with --runs auto, or a number of runs.");
    if (c.stopRule != StopRule::Fixed)
        return makeError(ErrorKind::Usage, "--runs auto has its own stop rule and cannot go with --stop noise");
    options.autoRuns = true;
    options.autoMostBlocks = blocksGiven ? c.blocks : 20;
    if (options.autoMostBlocks < 2 || options.autoMostBlocks > kMaxBlocks)
        return makeError(ErrorKind::Usage, "--blocks with --runs auto is the most blocks measured: from 2 to " +
                std::to_string(kMaxBlocks) + ", not " + std::to_string(options.autoMostBlocks));
    c.blocks = 1;  // one block a round
    return std::nullopt;
}

// What the command line gives as text or flags, before it is checked and put into CliOptions.
struct OptionText {
    std::string device = "best";
    bool allAtOnce = false;
    bool noBinding = false;
    bool noStages = false;
    std::string size;
    std::string hostMemory;
    std::string copy;
    std::string migration;
    std::string advice;
    std::string wait;
    std::string check;
    std::string order;
    std::string submission;
    std::string stop;
    std::string traceSource;
    std::string format;
    std::string compare;
    std::string sweepMin = "4KiB";
    std::string sweepMax = "1GiB";
    std::string gate;
    std::optional<double> maxSlowdown;
    std::string runs;  // a count, or "auto"; empty: the default (or the baseline's)
};

// The exit status, as --help's footer says it (the man page's EXIT STATUS says the same at length).
constexpr const char* kExitStatusText =
    "Exit status: 0 success (every run verified, and the --max-slowdown gate passed); 1 a run failed (a CUDA error, a "
    "wrong element) or the baseline gate failed (slower than --max-slowdown); 2 a usage error, configurations that "
    "differ (refused without --allow-different), or an input file that cannot be read or is refused (unreadable, cut "
    "short, not a report, too few measured runs to compare).";

// Every option with its help text, bound to `options` and `t`, its defaults taken from `options`: what --help
// prints, what the command line is parsed with, and what the man page lists (cliManOptions).
void defineOptions(CLI::App& app, CliOptions& options, OptionText& t)
{
    PipelineConfig& c = options.config;
    t.size = std::to_string(c.elements);
    t.hostMemory = nameOf(c.hostMemory);
    t.copy = nameOf(c.copy);
    t.migration = nameOf(c.managedMigration);
    t.advice = nameOf(c.managedAdvice);
    t.wait = nameOf(c.waitMode);
    t.check = nameOf(c.checkMode);
    t.order = nameOf(c.order);
    t.submission = nameOf(c.submission);
    t.stop = nameOf(c.stopRule);
    t.traceSource = nameOf(c.traceSource);
    t.format = nameOf(options.format);

    app.name("asyncscope-cli");
    app.description("AsyncScope: runs the asyncAPI pipeline (H2D copy, increment kernel, D2H copy) on a CUDA GPU and "
                    "reports GPU time against CPU submit time.");
    app.footer(kExitStatusText);
    // CLI11's -h,--help; --help-all prints every option group, as the window's --help-all does.
    app.set_help_all_flag("--help-all", "Print the full help, every option group, and exit");
    app.set_version_flag("--version", "asyncscope-cli " ASYNCSCOPE_VERSION);
    app.get_formatter()->column_width(30);
    app.option_defaults()->always_capture_default();


    app.add_flag("--list-devices", options.listDevices,
        "List CUDA devices with their PCI bus id, NUMA node, local CPUs and PCIe link, and exit");
    app.add_option("--device", t.device, "Device: best (the highest peak throughput), all, an index, or a list such as "
                                         "0,2,5. With all or a list the series runs on each device, one worker thread "
                                         "per device, and the report sets the GPUs side by side (comparisons run on "
                                         "one device)")
        ->type_name("best|all|N|N,M,...");
    app.add_flag("--all-at-once", t.allAtOnce, "With several devices: run them all at the same time (the report gives "
                                               "the host's aggregate bandwidth; contention shows) instead of one at a "
                                               "time");
    app.add_flag("--no-numa-binding", t.noBinding, "Leave each device's worker thread unbound instead of running it on "
                                                   "the GPU's local CPUs, with its host buffers from the GPU's NUMA "
                                                   "node");
    app.add_option("--size", t.size, "Elements (16777216) or bytes with a unit (64MiB, 4KiB, 1GB)")
        ->type_name("SIZE");
    app.add_option("--value", c.value, "Value the kernel adds to every element");
    app.add_option("--threads", c.threadsPerBlock, "Threads per block");
    app.add_option("--chunks", c.chunks, "Split the buffer into this many chunks, each copied in, incremented and "
                                         "copied back on its own (1: the classic pipeline)");
    app.add_option("--streams", c.streams, "Streams the chunks are spread over, round-robin (1 to --chunks)");
    app.add_option("--order", t.order, "Issue order: chunk (each chunk's H2D, kernel, D2H in turn) or stage (every "
                                       "H2D, then every kernel, then every D2H)")
        ->check(CLI::IsMember(allNames<IssueOrder>()));
    app.add_option("--submit", t.submission, "Submission: stream (a runtime call per operation), graph (the run "
                                             "captured once into a CUDA Graph, one launch per run) or batch (each "
                                             "stream's copies one way in one cudaMemcpyBatchAsync call, CUDA 12.8 and "
                                             "later)")
        ->check(CLI::IsMember(allNames<Submission>()));
    app.add_flag("--prefer-overlap", c.preferOverlap, "With --submit batch: ask the copies to overlap with compute "
                                                      "(cudaMemcpyFlagPreferOverlapWithCompute)");
    app.add_option("--runs", t.runs, "Measured runs (with --stop fixed); auto with one --baseline file: measure a "
                                     "block at a time (the baseline's runs per block each) until the comparison's "
                                     "verdict is decided, or --blocks blocks (20 unless given) have run")
        ->check(CLI::TypeValidator<int>() | CLI::IsMember({ "auto" }))
        ->default_str(std::to_string(c.runs))
        ->type_name("N|auto");
    app.add_option("--blocks", c.blocks, "Measure the series as this many blocks, the pipeline's buffers, streams and "
                                         "events made anew for each (with its own warm-up runs), so that a comparison "
                                         "holds the variation between them, not only between runs; the runs are "
                                         "shared out among the blocks");
    app.add_option("--warmup", c.warmupRuns, "Warm-up runs, shown but left out of statistics");
    app.add_option("--host-memory", t.hostMemory, "Host buffer: pinned (cudaMallocHost), pageable (malloc, staged by "
                                                  "the driver), write-combined (cudaHostAlloc write-combined), "
                                                  "registered (malloc then cudaHostRegister, timed on its own), mapped "
                                                  "(zero-copy: the kernel works on host memory, no copies) or managed "
                                                  "(cudaMallocManaged, see --managed-migration)")
        ->check(CLI::IsMember(allNames<HostMemory>()));
    app.add_option("--copy", t.copy, "Copy mechanism: ce (the copy engines, cudaMemcpyAsync) or sm (a copy kernel "
                                     "through the host buffer's mapped pointer)")
        ->check(CLI::IsMember(allNames<CopyMechanism>()));
    app.add_option("--managed-migration", t.migration, "With --host-memory managed: prefetch (cudaMemPrefetchAsync to "
                                                       "the GPU and back stand for the copies) or on-demand (the "
                                                       "kernel's page faults migrate the pages; no copies)")
        ->check(CLI::IsMember(allNames<ManagedMigration>()));
    app.add_option("--managed-advice", t.advice, "With --host-memory managed: cudaMemAdvise given once: none, "
                                                 "prefer-device, prefer-host (preferred location) or read-mostly")
        ->check(CLI::IsMember(allNames<ManagedAdvice>()));
    app.add_option("--wait", t.wait, "Wait: spin (poll cudaEventQuery, counting) or blocking (blocking-sync event)")
        ->check(CLI::IsMember(allNames<WaitMode>()));
    app.add_option("--check", t.check, "When each run's elements are checked: overlapped (while the next run executes) "
                                       "or serial (before the next run is submitted)")
        ->check(CLI::IsMember(allNames<CheckMode>()));
    app.add_option("--check-threads", c.checkThreads, "Threads that check a run's elements (0: one per core, up to 8, "
                                                      "leaving a core to the poll loop)");
    app.add_flag("--no-stages", t.noStages, "No events between stages (total GPU time only)");
    app.add_flag("--profile-range", c.profilerRange, "Wrap each submit in cudaProfilerStart/Stop for Nsight");
    app.add_option("--stop", t.stop, "Stop rule: fixed (--runs) or noise (until --noise-target)")
        ->check(CLI::IsMember(allNames<StopRule>()));
    app.add_option("--noise-target", c.targetNoisePercent, "Relative stddev of GPU time to stop at, in %");
    app.add_option("--min-runs", c.minRuns, "Fewest measured runs with --stop noise");
    app.add_option("--min-time", c.minGpuMs, "Least accumulated GPU time with --stop noise, in ms");
    app.add_option("--timeout", c.timeoutS, "Longest a --stop noise series runs, in s");
    app.add_option("--format", t.format, "Output: text, csv or json")->check(CLI::IsMember(allNames<ReportFormat>()));
    app.add_option("--output", options.outputPath, "Write the report to this file instead of standard output: %h "
                                                   "becomes the host's short name, %d the device index (a file per "
                                                   "device; 'none' when no device could run), %% a percent sign. "
                                                   "Missing parent folders are created. Where no device can run (no "
                                                   "driver, no GPU), the file still holds the host and the error")
        ->type_name("PATTERN");
    app.add_option("--trace", options.tracePath, "Also write the series or comparison to this file as a Chrome trace "
                                                 "(open it in Perfetto UI or chrome://tracing)")
        ->type_name("FILE");
    app.add_option("--trace-source", t.traceSource, "Where the trace's spans come from: events (CUDA events and the "
                                                    "host clock) or cupti (CUPTI records copies, kernels and runtime "
                                                    "calls on one clock; falls back to events, saying why)")
        ->check(CLI::IsMember(allNames<TraceSource>()));
    app.add_option("--compare", t.compare, "Run a comparison: host-memory (pinned vs pageable), wait (spin vs "
                                           "blocking), size (a sweep of powers of two), overlap (chunks 1 to 64 "
                                           "against 1, 2 and 4 streams), submit (stream calls against a CUDA Graph and "
                                           "a batch) or memory (pageable, pinned, write-combined, registered, pinned "
                                           "with the other copy mechanism, mapped, managed prefetch and on-demand, "
                                           "at --size: H2D/D2H GB/s, GPU time, CPU submit and wait time, registration "
                                           "cost, GPU time over the serial bound)")
        ->check(CLI::IsMember(runnableComparisonNames()));
    app.add_option("--sweep-min", t.sweepMin, "Smallest size of --compare size")->type_name("SIZE");
    app.add_option("--sweep-max", t.sweepMax, "Largest size of --compare size")->type_name("SIZE");
    app.add_flag("--try-advice", options.tryAdvice, "After the series, run the shape its advice suggests (--chunks, "
                                                    "--streams) on the same GPU and report both as an overlap "
                                                    "comparison, the model's prediction beside what the shape achieved");
    app.add_option("--merge", options.mergeFiles, "Run nothing: read these result files (JSON this CLI wrote: host "
                                                  "records, series reports, error records) and print one table, a "
                                                  "row per host and GPU, outliers marked against each host's median "
                                                  "and the median of all; --format and --output apply")
        ->expected(1, -1)
        ->default_str("")
        ->type_name("FILE");
    app.add_option("--expect-hosts", options.expectHosts, "With --merge: hosts that should have left a record, "
                                                          "separated by commas (a Slurm job's nodes): one with no "
                                                          "record among the files gets a row saying so, and the "
                                                          "exit status is 1")
        ->delimiter(',')
        ->default_str("")
        ->type_name("HOST");
    BaselineSettings& baseline = options.baselineSettings;
    app.add_option("--baseline", options.baselineFiles, "Compare with a saved series (any format this program "
                                                        "reads): with one file, run a series (its configuration "
                                                        "unless options say otherwise) and compare it with the file's; "
                                                        "with two, compare the second with the first and run nothing. "
                                                        "Each quantity's medians, difference, bootstrap interval, "
                                                        "Mann-Whitney p-value and verdict; --format and --output apply")
        ->expected(1, 2)
        ->default_str("")
        ->type_name("FILE [FILE]");
    app.add_flag("--allow-different", options.allowDifferent, "With --baseline: compare even where the "
                                                              "configurations differ (device, driver, size, shape, "
                                                              "memory …); every output says so");
    app.add_option("--max-slowdown", t.maxSlowdown, "With --baseline: exit 1 when a gated quantity is slower by more "
                                                    "than this many percent with its whole interval beyond it");
    app.add_option("--gate", t.gate, "With --max-slowdown: the quantities gated, as keys separated by commas (" +
                                       joinedText(gateableKeys()) + ")")
        ->default_str("gpu_time_ms")
        ->type_name("KEY,...");
    app.add_option("--min-difference", baseline.minDifferencePercent, "With --baseline: a difference smaller than "
                                                                      "this, in %, counts as the same even when it is "
                                                                      "told from noise");
    app.add_option("--bootstrap-seed", baseline.seed, "With --baseline: the bootstrap's seed (the same files and "
                                                      "seed give the same intervals)");
    app.add_option("--save", options.savePath, "With one --baseline file: also write the series this runs to this "
                                               "file as JSON (to keep as the next baseline)")
        ->type_name("FILE");
}

Result<CliOptions> parseWithDefaults(int argc, const char* const argv[], const PipelineConfig* defaults)
{
    CliOptions options;
    PipelineConfig& c = options.config;
    c.runs = 10;
    if (defaults) {
        c = *defaults;
        c.device = 0;  // the device is chosen as without a baseline: the best, or --device
    }
    CLI::App app;
    OptionText t;
    defineOptions(app, options, t);
    BaselineSettings& baseline = options.baselineSettings;

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        options.helpText = app.help();
        return options;
    } catch (const CLI::CallForAllHelp&) {
        options.helpText = app.help("", CLI::AppFormatMode::All);
        return options;
    } catch (const CLI::CallForVersion& e) {
        options.helpText = std::string(e.what()) + "\n";
        return options;
    } catch (const CLI::ParseError& e) {
        return makeError(ErrorKind::Usage, e.what(), "See asyncscope-cli --help.");
    }

    auto selection = parseDeviceSelection(t.device);
    if (!selection)
        return selection.error();
    options.devices = *selection;
    options.deviceGiven = options.devices.kind != DeviceSelection::Kind::Best;
    if (!options.devices.indices.empty())
        c.device = options.devices.indices.front();
    options.deviceMode = t.allAtOnce ? DeviceMode::AllAtOnce : DeviceMode::OneAtATime;
    options.numaBinding = !t.noBinding;
    auto elements = parseElementCount(t.size);
    if (!elements)
        return elements.error();
    c.elements = *elements;
    c.hostMemory = *parseName<HostMemory>(t.hostMemory);
    c.copy = *parseName<CopyMechanism>(t.copy);
    c.managedMigration = *parseName<ManagedMigration>(t.migration);
    c.managedAdvice = *parseName<ManagedAdvice>(t.advice);
    c.waitMode = *parseName<WaitMode>(t.wait);
    c.checkMode = *parseName<CheckMode>(t.check);
    c.order = *parseName<IssueOrder>(t.order);
    c.submission = *parseName<Submission>(t.submission);
    c.stopRule = *parseName<StopRule>(t.stop);
    c.traceSource = *parseName<TraceSource>(t.traceSource);
    if (t.noStages)
        c.stageEvents = false;
    options.format = *parseName<ReportFormat>(t.format);
    if (auto bad = takeRuns(t.runs, app.count("--blocks") > 0, options))
        return *bad;
    if (!t.compare.empty())
        options.comparison = parseRunnableComparison(t.compare);
    for (auto [text, bytes] : { std::pair { &t.sweepMin, &options.sweepMinBytes }, std::pair { &t.sweepMax, &options.sweepMaxBytes } }) {
        auto elements = parseElementCount(*text);
        if (!elements)
            return elements.error();
        *bytes = *elements * sizeof(int);
    }
    if (auto invalid = checkFloatingOptions(c))
        return *invalid;
    baseline.maxSlowdownPercent = t.maxSlowdown;
    if (!t.gate.empty()) {
        baseline.gateKeys.clear();
        const std::vector<std::string> known = gateableKeys();
        std::size_t from = 0;
        while (from <= t.gate.size()) {
            const std::size_t comma = std::min(t.gate.find(',', from), t.gate.size());
            const std::string key = t.gate.substr(from, comma - from);
            if (std::find(known.begin(), known.end(), key) == known.end())
                return makeError(ErrorKind::Usage, "--gate names '" + key + "', which is not a quantity of every run",
                    "Give keys from: " + joinedText(known) + ".");
            baseline.gateKeys.push_back(key);
            from = comma + 1;
        }
    }
    if (auto invalid = checkBaselineOptions(options))
        return *invalid;
    if (auto invalid = validate(c))
        return *invalid;
    if (auto bad = checkConfig(c))  // what a record of this run must meet when read back
        return makeError(ErrorKind::Usage,
            bad->field + " is " + quotedValue(bad->found) + "; accepted: " + bad->accepted,
            "See asyncscope-cli --help.");
    // A single series whose memory, copy mechanism and submission cannot go together; a comparison sets its own.
    if (!options.comparison && options.mergeFiles.empty()) {
        if (auto unsupported = checkCombination(c))
            return makeError(ErrorKind::Usage, "this series cannot run: " + unsupported->detail,
                unsupported->advice + " See asyncscope-cli --help.");
    }
    if (auto bad = checkOutputPattern(options.outputPath))
        return *bad;
    if (!options.expectHosts.empty() && options.mergeFiles.empty())
        return makeError(ErrorKind::Usage, "--expect-hosts goes with --merge", "Give the records to merge with --merge.");
    if (!options.mergeFiles.empty() && namesDevice(options.outputPath))
        return makeError(ErrorKind::Usage, "--merge writes one table: --output cannot name a file per device (%d)",
            "Leave %d out of the --output pattern.");
    if (options.devices.several() && options.comparison)
        return makeError(ErrorKind::Usage, "comparisons run on one device, and --device names several",
            "Give --device best or one index with --compare.");
    if (options.devices.several() && !options.tracePath.empty())
        return makeError(ErrorKind::Usage, "--trace writes one device's series, and --device names several",
            "Give --device best or one index with --trace.");
    if (options.tryAdvice) {
        const char* conflict = !options.mergeFiles.empty() ? "--merge"
            : options.comparison                           ? "--compare"
            : !options.baselineFiles.empty()               ? "--baseline"
            : options.devices.several()                    ? "--device with several devices"
                                                           : nullptr;
        if (conflict)
            return makeError(ErrorKind::Usage,
                std::string("--try-advice runs one series and the shape its advice suggests: it cannot go with ") +
                    conflict,
                "Run one series on one device with --try-advice.");
    }
    return options;
}

}  // namespace

Result<CliOptions> parseCommandLine(int argc, const char* const argv[])
{
    auto options = parseWithDefaults(argc, argv, nullptr);
    if (!options || options->helpText || options->baselineFiles.size() != 1)
        return options;
    auto baseline = readSeriesFile(options->baselineFiles.front());
    if (!baseline)
        return makeError(ErrorKind::Usage, "cannot read the baseline " + baseline.error().detail,  // exit 2: refused
            baseline.error().advice);
    // Read a second time over the baseline's configuration: what the command line gives still wins.
    auto over = parseWithDefaults(argc, argv, &baseline->config);
    if (!over)
        return over;
    over->baseline = std::make_shared<const Report>(std::move(*baseline));
    if (over->autoRuns) {  // each block as many runs as a block of the baseline
        const std::size_t blocks = std::max<std::size_t>(1, blocksOf(*over->baseline));
        over->config.runs = int(std::max(kMinComparedRuns, measuredRunsOf(*over->baseline) / blocks));
    }
    return over;
}

std::vector<ManOption> cliManOptions()
{
    CliOptions options;
    options.config.runs = 10;  // as parseCommandLine's defaults
    CLI::App app;
    OptionText t;
    defineOptions(app, options, t);
    std::vector<ManOption> listed;
    for (const CLI::Option* opt : app.get_options()) {
        ManOption m;
        for (const std::string& name : opt->get_snames())
            m.names.push_back("-" + name);
        for (const std::string& name : opt->get_lnames())
            m.names.push_back("--" + name);
        m.description = opt->get_description();
        if (opt->get_type_size() != 0) {
            // CLI11 names a choice "TEXT:{chunk,stage}": the page gives the choices, chunk|stage.
            std::string type = opt->get_type_name();
            const std::size_t open = type.find(":{");
            if (open != std::string::npos && type.back() == '}') {
                type = type.substr(open + 2, type.size() - open - 3);
                std::replace(type.begin(), type.end(), ',', '|');
            }
            m.value = type;
            if (opt->get_expected_max() == CLI::detail::expected_max_vector_size)
                m.value += " ...";
            m.defaultValue = opt->get_default_str();
        }
        listed.push_back(std::move(m));
    }
    return listed;
}

}  // namespace asyncscope
