// asyncscope-cli record: a program run under the recorder (engine/record/program_recorder), its iterations found
// (engine/record/iterations) and summarised as the built-in pipeline's series are. Or, with --from, a recording kept
// before, read again without running anything.
#include "cli/cli_record.hpp"

#include "cli/cli_app.hpp"
#include "cli/cli_commands.hpp"
#include "cli/cli_options.hpp"
#include "cli/cli_outputs.hpp"

#include "engine/host/nvml_probe.hpp"
#include "engine/io/atomic_output_file.hpp"
#include "engine/io/chrome_trace.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/result_file.hpp"
#include "engine/model/display_text.hpp"
#include "engine/model/number_text.hpp"
#include "engine/model/statistics.hpp"
#include "engine/record/iterations.hpp"
#include "engine/record/program_recorder.hpp"
#include "engine/record/program_report.hpp"
#include "engine/record/recording.hpp"
#include "engine/run/plan_advice.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace asyncscope {

namespace {

struct RecordOptions {
    std::vector<std::string> command;
    std::string from;       // a kept recording, read instead of running a program
    std::string keep;       // keep the recording here
    std::string iteration = "auto";
    std::string workingFolder;
    std::vector<std::string> environment;  // NAME=VALUE
    std::optional<double> duration;
    bool runs = false;      // print every run
    std::string output;     // the report (or with a baseline, the comparison) here
    std::string format = "json";
    std::string trace;      // a Chrome trace here
    std::string baseline;   // compare with the series (or recording report) saved here
    std::optional<double> maxSlowdown;
    bool allowDifferent = false;
    std::string save;       // with a baseline: also keep this recording's report here
    std::string process = "each";  // each, all or a PID
};

// The report's outputs: the report itself, its trace, or its comparison with a baseline (whose exit status is the
// gate's).
int writeOutputs(const RecordOptions& options, const Report& report, std::ostream& out, std::ostream& err)
{
    if (options.trace.empty() && options.output.empty() && options.baseline.empty())
        return kExitOk;  // nothing to write
    const Assessment assessed = assessSeries(report);
    if (!options.trace.empty()) {
        auto file = AtomicOutputFile::open(options.trace);
        if (!file)
            return reportFailure(file.error(), err);
        writeChromeTrace((*file)->stream(), report, assessed);
        if (auto failed = (*file)->commit("the trace"))
            return reportFailure(*failed, err);
    }
    const auto format = parseName<ReportFormat>(options.format);
    if (options.baseline.empty()) {
        if (options.output.empty())
            return kExitOk;
        auto file = AtomicOutputFile::open(options.output);
        if (!file)
            return reportFailure(file.error(), err);
        cli::writeSeries((*file)->stream(), *format, report, assessed);
        if (auto failed = (*file)->commit("the report"))
            return reportFailure(*failed, err);
        return kExitOk;
    }
    if (!options.save.empty()) {
        if (auto failed = cli::saveSeries(options.save, report, assessed))
            return reportFailure(*failed, err);
    }
    auto baseline = readSeriesFile(options.baseline);
    if (!baseline)
        return cli::refuseInput("cannot compare " + baseline.error().detail, err);
    const Assessment baselineAssessed = assessSeries(*baseline);
    CliOptions compared;
    compared.format = *format;
    compared.outputPath = options.output;
    compared.allowDifferent = options.allowDifferent;
    compared.baselineSettings.maxSlowdownPercent = options.maxSlowdown;
    return cli::writeBaselineComparison(compared, { *baseline, baselineAssessed, options.baseline },
        { report, assessed, "this recording" }, out, err);
}

std::string ms(double value)
{
    return fixedText(value, 4);
}

// One series' block: its runs' figures, every run where asked, its notes.
void printSummary(const ProgramSeries& series, const std::string& source, bool several, bool everyRun,
    std::ostream& out)
{
    const Report& report = series.report;
    const RunStore& runs = report.runs;
    const std::string how = report.program ? report.program->iterations : std::string();
    out << "Recorded " << displayText(source) << (several ? ", " + displayText(series.label) : std::string()) << ": "
        << runs.size() << " run(s), split by " << displayText(how) << "\n";
    if (runs.empty()) {
        out << "No iteration issued GPU work: nothing to time.\n";
    } else {
        // Read column by column: a long program's runs are many, each of many spans.
        std::vector<double> gpu, submit, wait;
        int streams = 0;
        for (std::size_t i = 0; i < runs.size(); ++i) {
            if (runs.warmup(i))  // set-up before its first kernel, said in the notes
                continue;
            gpu.push_back(runs.gpuMs(i));
            submit.push_back(runs.totalMs(i, SpanKind::Submit));
            wait.push_back(runs.totalMs(i, SpanKind::Wait));
            const RunStore::SpanView spans = runs.spans(i);
            for (std::size_t k = 0; k < spans.size(); ++k)
                if (onGpu(spans.kind(k)))
                    streams = std::max(streams, spans[k].stream + 1);
        }
        out << "                      median        min        p95        max  (ms)\n";
        for (const auto& [name, values] : { std::pair { "GPU time", &gpu }, std::pair { "CPU submit time", &submit },
                 std::pair { "host waits", &wait } }) {
            const Summary s = summarize(*values);
            char line[160];
            std::snprintf(line, sizeof line, "  %-16s %11s %10s %10s %10s\n", name, ms(s.median).c_str(),
                ms(s.min).c_str(), ms(s.p95).c_str(), ms(s.max).c_str());
            out << line;
        }
        out << "  streams used in a run: up to " << streams << "\n";
        const std::size_t threads = report.program ? report.program->threads.size() : 0;
        if (threads > 1)
            out << "  threads with runs: " << threads << "\n";
        if (everyRun) {
            out << "\n  run   start (ms)   GPU time   CPU submit   host waits   copies  kernels  thread\n";
            for (std::size_t i = 0; i < runs.size(); ++i) {
                const RunResult r = runs[i];
                std::size_t copies = 0, kernels = 0;
                for (const Span& s : r.spans) {
                    copies += s.kind == SpanKind::H2D || s.kind == SpanKind::D2H ? 1 : 0;
                    kernels += s.kind == SpanKind::Kernel ? 1 : 0;
                }
                const int lane = threadPlaceOf(r);
                const std::string thread = report.program && std::size_t(lane) < threads
                    ? std::to_string(report.program->threads[std::size_t(lane)].thread)
                    : std::string("-");
                char line[220];
                std::snprintf(line, sizeof line, "  %4d %12s %10s %12s %12s %8zu %8zu  %s\n", r.index,
                    ms(r.startMs).c_str(), ms(r.gpuMs).c_str(), ms(r.cpuSubmitMs()).c_str(), ms(r.waitMs()).c_str(),
                    copies, kernels, thread.c_str());
                out << line;
            }
        }
    }
    if (report.program)
        for (const std::string& note : report.program->notes)
            out << "Note: " << displayText(note) << "\n";
}

// The outputs of several series (a program's processes): the comparison as a report, its trace. A baseline compares
// one series.
int writeProcessOutputs(const RecordOptions& options, const PlanReport& plan, std::ostream& err)
{
    if (!options.baseline.empty())
        return reportFailure(makeError(ErrorKind::Usage,
                                 "--baseline compares one series, and the program ran GPU work in " +
                                     std::to_string(plan.variants.size()) + " processes",
                                 "Choose one with --process PID, or all of them as one series with --process all."),
            err);
    const std::vector<Assessment> assessed = assessPlan(plan);
    if (!options.trace.empty()) {
        auto file = AtomicOutputFile::open(options.trace);
        if (!file)
            return reportFailure(file.error(), err);
        writeChromeTrace((*file)->stream(), plan, assessed);
        if (auto failed = (*file)->commit("the trace"))
            return reportFailure(*failed, err);
    }
    if (options.output.empty())
        return kExitOk;
    auto file = AtomicOutputFile::open(options.output);
    if (!file)
        return reportFailure(file.error(), err);
    cli::writeComparison((*file)->stream(), *parseName<ReportFormat>(options.format), plan, assessed);
    if (auto failed = (*file)->commit("the report"))
        return reportFailure(*failed, err);
    return kExitOk;
}

}  // namespace

int runRecordCommand(int argc, const char* const argv[], const std::atomic<bool>& stop, std::ostream& out,
    std::ostream& err)
{
    RecordOptions options;
    CLI::App app { "Records a CUDA program's GPU work through CUPTI and shows its iterations as runs.",
        "asyncscope-cli record" };
    app.add_option("--from", options.from, "Run nothing: read a recording kept with --keep");
    app.add_option("--keep", options.keep, "Keep the recording (the record stream) in this file");
    app.add_option("--iteration", options.iteration,
        "How iterations are found: nvtx:NAME (each NVTX range NAME), nvtx (the outermost repeated range), sync "
        "(host synchronizations end them) or auto (nvtx where a range repeats, else sync)")
        ->capture_default_str();
    app.add_option("--cwd", options.workingFolder, "Run the program in this folder");
    app.add_option("--env", options.environment, "Set NAME=VALUE in the program's environment (repeatable)");
    app.add_option("--duration", options.duration, "Stop the program after this many seconds, keeping its recording")
        ->check(CLI::PositiveNumber);
    app.add_option("--process", options.process,
        "Which processes' runs (a program that forks or starts ranks has several): each (a series each, the report "
        "a comparison of them), all (one series of every process's runs) or a PID")
        ->capture_default_str();
    app.add_flag("--runs", options.runs, "Also print every run");
    app.add_option("--output", options.output,
        "Write the report here (with --baseline: the comparison); the window opens it as a series");
    app.add_option("--format", options.format, "The report's format: json (format 4), csv or text")
        ->check(CLI::IsMember({ "json", "csv", "text" }))
        ->capture_default_str();
    app.add_option("--trace", options.trace, "Also write a Chrome trace (Perfetto UI, chrome://tracing) here");
    app.add_option("--baseline", options.baseline,
        "Compare the iterations with a report saved before (asyncscope-cli record --output)");
    app.add_option("--max-slowdown", options.maxSlowdown,
        "With --baseline: fail (exit 1) when the GPU time is slower by more than this many percent")
        ->check(CLI::NonNegativeNumber);
    app.add_flag("--allow-different", options.allowDifferent,
        "With --baseline: compare across programs, arguments, devices or drivers");
    app.add_option("--save", options.save, "With --baseline: also keep this recording's report (JSON) here");
    app.add_option("command", options.command, "The program and its arguments, after --");
    app.footer("Exit status: 0 when the program exited with 0 and its report was written (and the --max-slowdown gate "
               "passed); 1 when no iteration issued GPU work, the report could not be written or the gate failed; 2 "
               "on a usage error or a --from recording that cannot be read or is refused; 4 when the program exited "
               "with another status or was killed by a signal (its report is written all the same, and no gate "
               "passes on it).");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return kExitOk;
    } catch (const CLI::ParseError& e) {
        return reportFailure(makeError(ErrorKind::Usage, e.what()), err);
    }
    if (options.baseline.empty() && (options.maxSlowdown || options.allowDifferent || !options.save.empty()))
        return reportFailure(makeError(ErrorKind::Usage, "--max-slowdown, --allow-different and --save go with --baseline",
            "Give --baseline FILE (a report saved with asyncscope-cli record --output)."), err);
    auto rule = parseIterationRule(options.iteration);
    if (!rule)
        return reportFailure(rule.error(), err);
    auto choice = parseProcessChoice(options.process);
    if (!choice)
        return reportFailure(choice.error(), err);
    if (options.from.empty() == options.command.empty())
        return reportFailure(makeError(ErrorKind::Usage,
            options.from.empty() ? "no program to record" : "--from reads a recording: it runs no program",
            "Give the program after --: asyncscope-cli record -- ./app arguments…"), err);

    ProgramInfo program;
    IterationSplitter splitter(*rule);  // the iterations split off as the records come
    std::unique_ptr<ProgramMachine> machine;  // the machine's state while the program runs; none for --from
    std::optional<Result<Recording>> read;  // the recording, read as the program ran or from the file --from names
    std::string source = options.from.empty() ? std::string() : shownPath(options.from);
    std::optional<RecordOutcome> outcome;  // how the program ran; none for --from
    if (options.from.empty()) {
        RecordRequest request;
        request.command = options.command;
        request.workingFolder = options.workingFolder;
        for (const std::string& e : options.environment) {
            const std::size_t equals = e.find('=');
            if (equals == std::string::npos || equals == 0)
                return reportFailure(makeError(ErrorKind::Usage, "--env '" + cutText(e, 80) + "' is not NAME=VALUE"),
                    err);
            request.environment.emplace_back(e.substr(0, equals), e.substr(equals + 1));
        }
        request.durationSeconds = options.duration;
        request.recordingPath = options.keep;  // read as it comes: kept in a file only where asked
        machine = std::make_unique<ProgramMachine>([] { return std::make_unique<NvmlProbe>(); });
        auto recorded = recordForReport(request, *machine, splitter, stop);
        if (!recorded)
            return reportFailure(recorded.error(), err);
        source = recorded->shown;
        program = std::move(recorded->program);
        read.emplace(std::move(recorded->recording));
        outcome = recorded->outcome;
        err << "asyncscope-cli: " << displayText(endText(source, recorded->outcome)) << "\n";
    } else {
        read.emplace(readRecordingFile(options.from, &splitter));
    }
    if (!*read)
        return options.from.empty() ? reportFailure(read->error(), err) : cli::refuseInput(read->error().message(), err);
    const Recording& recording = **read;
    if (program.command.empty())  // a kept recording: its first process is the program
        program = keptProgram(recording, options.from);
    auto series = programSeries(recording, splitter, *choice, program, machine.get());
    if (!series)
        return reportFailure(series.error(), err);
    for (const ProgramSeries& one : *series)
        printSummary(one, source, series->size() > 1, options.runs, out);
    if (series->empty())
        out << "Recorded " << displayText(source) << ": no process issued GPU work: nothing to time.\n";
    if (!options.keep.empty() && options.from.empty())
        out << "Recording kept in " << displayText(shownPath(options.keep)) << "\n";
    // The program's own failure outranks everything else: its figures are no measurement to pass a gate with.
    const int failed = programFailed(program) ? kExitProgramFailed : kExitOk;
    if (failed != kExitOk)
        err << "asyncscope-cli: " << displayText(source) << " failed (" <<
            (program.signal != 0 ? "signal " + std::to_string(program.signal)
                                 : "exit status " + std::to_string(program.exitCode))
            << "): exit status " << kExitProgramFailed << (series->empty() ? "" : ", its report written all the same")
            << "\n";
    if (series->empty() || std::all_of(series->begin(), series->end(),
                               [](const ProgramSeries& s) { return s.report.runs.empty(); })) {
        err << "asyncscope-cli: " << displayText(source) << ": no iteration issued GPU work that was recorded\n";
        return failed != kExitOk ? failed : kExitFailure;
    }
    const int written = series->size() == 1 ? writeOutputs(options, series->front().report, out, err)
                                            : writeProcessOutputs(options, processComparison(std::move(*series)), err);
    if (outcome && written == kExitOk)
        err << "asyncscope-cli: " << readyText(*outcome) << "\n";
    return failed != kExitOk && written != kExitUsage ? failed : written;
}

}  // namespace asyncscope
