// A recorded program as a report (engine/record/program_report): its program block written and read back in format
// 4, a hostile program block refused by field, the configuration check between programs and the pipeline, and the
// text that says elements were not checked.
#include "engine/io/chrome_trace.hpp"
#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/text_report.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/baseline.hpp"
#include "engine/record/program_report.hpp"
#include "fake_machine_probe.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <sstream>
#include <tuple>

namespace asyncscope {
namespace {

// A recording of `runs` iterations of a copy, a kernel and a copy on one stream, each ended by a stream synchronize.
std::string recordingText(int runs)
{
    std::ostringstream text;
    text << "asyncscope-record 1\nprocess 77 1 /opt/app/bin/app\n"
         << "device 77 0 9 0 150000000000 132 7 1980000 13000 0123456789abcdef0123456789abcdef NVIDIA H200\n";
    std::uint32_t correlation = 1;
    for (int i = 0; i < runs; ++i) {
        const std::uint64_t t = 1'000'000 + std::uint64_t(i) * 10'000'000;
        text << "api 77 7 " << correlation << ' ' << t << ' ' << t + 5'000 << " 0 1 cudaMemcpyAsync_v3020\n"
             << "api 77 7 " << correlation + 1 << ' ' << t + 6'000 << ' ' << t + 9'000 << " 0 1 cudaLaunchKernel_v7000\n"
             << "api 77 7 " << correlation + 2 << ' ' << t + 10'000 << ' ' << t + 14'000
             << " 0 1 cudaMemcpyAsync_v3020\n"
             << "copy 77 0 1 13 " << correlation << ' ' << t + 20'000 << ' ' << t + 1'220'000
             << " 1048576 1 2 3 0 1\n"
             << "kernel 77 0 1 13 " << correlation + 1 << ' ' << t + 1'221'000 << ' ' << t + 1'321'000
             << " 0 2048 512 _Z9incrementPii\n"
             << "copy 77 0 1 13 " << correlation + 2 << ' ' << t + 1'322'000 << ' ' << t + 2'522'000
             << " 1048576 2 3 2 0 1\n"
             << "api 77 7 " << correlation + 3 << ' ' << t + 15'000 << ' ' << t + 2'530'000
             << " 0 1 cudaStreamSynchronize_v3020\n";
        correlation += 4;
    }
    text << "exit 77\n";
    return text.str();
}

Report reportOf(int runs, std::vector<std::string> command = { "/opt/app/bin/app", "--steps", "it's" })
{
    std::istringstream in(recordingText(runs));
    auto recording = readRecording(in, "app.record");
    EXPECT_TRUE(recording.ok()) << (recording ? "" : recording.error().message());
    ProgramInfo program;
    program.command = std::move(command);
    program.workingFolder = "/work";
    return programReport(*recording, splitIterations(*recording, {}), program);
}

// The recording of `runs` iterations with its `clock` line: CUPTI's 1'000'000 ns (the first call) at `steadyNs`.
ProgramInfo programNamed(const std::string& name)
{
    ProgramInfo program;
    program.command = { name };
    return program;
}

Recording recordingWithClock(int runs, std::optional<std::int64_t> steadyNs)
{
    std::string text = recordingText(runs);
    if (steadyNs) {
        const std::size_t device = text.find("device ");
        text.insert(device, "clock 77 1000000 " + std::to_string(*steadyNs) + "\n");
    }
    std::istringstream in(text);
    auto recording = readRecording(in, "app.record");
    EXPECT_TRUE(recording.ok()) << (recording ? "" : recording.error().message());
    return recording ? *recording : Recording {};
}

std::string jsonOf(const Report& report)
{
    std::ostringstream out;
    writeJson(out, report, assessSeries(report));
    return out.str();
}

TEST(ProgramReport, TheProgramBlockAndTheRunsComeBack)
{
    Report report = reportOf(12);
    ASSERT_EQ(report.runs.size(), 12u);
    report.program->copies = { 3, 4096, 0.25, 2, 0.5, 7, 2 };
    EXPECT_EQ(report.device.name, "NVIDIA H200");
    EXPECT_EQ(report.device.uuid, "GPU-01234567-89ab-cdef-0123-456789abcdef");
    EXPECT_EQ(report.driverVersion, 13000);
    std::istringstream in(jsonOf(report));
    auto back = readJson(in);
    ASSERT_TRUE(back.ok()) << back.error().message();
    ASSERT_TRUE(back->program.has_value());
    EXPECT_EQ(back->program->command, report.program->command);
    EXPECT_EQ(back->program->workingFolder, "/work");
    EXPECT_EQ(back->program->iterations, "host synchronizations");
    const ProgramCopies& copies = back->program->copies;
    EXPECT_EQ(copies.pageable, 3u);
    EXPECT_EQ(copies.pageableBytes, 4096u);
    EXPECT_DOUBLE_EQ(copies.synchronousMs, 0.5);
    EXPECT_EQ(copies.defaultStream, std::optional<std::uint64_t>(7));
    EXPECT_EQ(copies.defaultStreamIterations, 2u);
    ASSERT_EQ(back->runs.size(), 12u);
    for (std::size_t i = 0; i < 12; ++i)
        EXPECT_DOUBLE_EQ(back->runs[i].gpuMs, report.runs[i].gpuMs);
    EXPECT_EQ(programLabel(*back->program), "app --steps 'it'\\''s'");  // what views name it by
    EXPECT_EQ(programLabel(*back->program, 8), "app --s…");  // 7 bytes and the ellipsis
    const std::string text = formatSummaryText(*back, assessSeries(*back));
    EXPECT_NE(text.find("program: /opt/app/bin/app --steps 'it'\\''s' (in /work)"), std::string::npos) << text;
    EXPECT_NE(text.find("elements are the program's to check"), std::string::npos) << text;
    EXPECT_EQ(text.find("verified"), std::string::npos) << text;
}

// Names as the spans give them, for the tests' comparisons.
std::vector<std::string> namesOf(const Report& report, const std::vector<Span>& spans)
{
    std::vector<std::string> names;
    for (const Span& s : spans)
        names.emplace_back(spanNameIn(*report.program, s.name));
    return names;
}

TEST(ProgramReport, KernelsAndCallsAreNamedAndTheNamesComeBack)
{
    const Report report = reportOf(3);
    ASSERT_EQ(report.runs.size(), 3u);
    const std::vector<std::string> calls { "cudaMemcpyAsync_v3020", "cudaLaunchKernel_v7000", "cudaMemcpyAsync_v3020",
        "cudaStreamSynchronize_v3020" };
    for (const std::string& name : calls)
        EXPECT_NE(std::find(report.program->names.begin(), report.program->names.end(), name),
            report.program->names.end()) << name;
    const RunResult run = report.runs[1];
    std::vector<std::string> kernels, apis;
    for (const Span& s : run.traced) {
        if (s.kind == SpanKind::Kernel)
            kernels.emplace_back(spanNameIn(*report.program, s.name));
        if (s.kind == SpanKind::Api)
            apis.emplace_back(spanNameIn(*report.program, s.name));
    }
    EXPECT_EQ(kernels, std::vector<std::string> { "_Z9incrementPii" });
    EXPECT_EQ(apis, calls);

    std::istringstream in(jsonOf(report));
    auto back = readJson(in);
    ASSERT_TRUE(back.ok()) << back.error().message();
    EXPECT_EQ(back->program->names, report.program->names);
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
        EXPECT_EQ(namesOf(*back, back->runs[i].traced), namesOf(report, report.runs[i].traced)) << "run " << i;
        EXPECT_EQ(namesOf(*back, back->runs[i].spans), namesOf(report, report.runs[i].spans)) << "run " << i;
    }
    // The trace shows a kernel by its name in the source and a call by its name without suffixes.
    std::ostringstream trace;
    writeChromeTrace(trace, report, assessSeries(report));
    EXPECT_NE(trace.str().find("\"increment(int*, int)\""), std::string::npos);
    EXPECT_NE(trace.str().find("\"cudaStreamSynchronize\""), std::string::npos);
}

TEST(ProgramReport, ASpanNamingNoNameOfTheProgramIsRefused)
{
    const std::string good = jsonOf(reportOf(3));
    const std::size_t from = good.find("\"names\":[");
    ASSERT_NE(from, std::string::npos);
    const std::size_t to = good.find(']', from) + 1;
    std::string fewer = good;
    fewer.replace(from, to - from, "\"names\":[\"k\"]");
    std::istringstream in(fewer);
    const auto read = readJson(in);
    ASSERT_FALSE(read.ok());
    EXPECT_NE(read.error().message().find("accepted: a place in program.names, which holds 1 name"), std::string::npos)
        << read.error().message();

    std::string none = good;
    none.replace(from, to - from, "\"names\":[\"\"]");
    std::istringstream empty(none);
    const auto unnamed = readJson(empty);
    ASSERT_FALSE(unnamed.ok());
    EXPECT_NE(unnamed.error().message().find("program.names[0] is empty"), std::string::npos)
        << unnamed.error().message();
}

TEST(ProgramReport, AHostileProgramBlockIsRefusedByField)
{
    const std::string good = jsonOf(reportOf(3));
    const std::string block = good.substr(good.find("\"program\":"), good.find(",\"device\":") - good.find("\"program\":"));
    struct Case {
        std::string program;
        std::string message;
    };
    const std::vector<Case> cases {
        { R"("program":{"command":"app","iterations":"x","exit_code":0,"signal":0,"stopped":false})",
            "program.command is \"app\"; accepted: a list of words" },
        { R"("program":{"command":[],"iterations":"x","exit_code":0,"signal":0,"stopped":false})",
            "program.command is no program" },
        { R"("program":{"command":["a",5],"iterations":"x","exit_code":0,"signal":0,"stopped":false})",
            "program.command[1] is 5; accepted: a text" },
        { R"("program":{"command":["a"],"iterations":"x","exit_code":300,"signal":0,"stopped":false})",
            "program.exit_code is 300" },
        { R"("program":{"command":["a"],"exit_code":0,"signal":0,"stopped":false})", "program.iterations is missing" },
        { R"("program":{"command":["a"],"iterations":")" + std::string(5000, 'x') +
                R"(","exit_code":0,"signal":0,"stopped":false})",
            "program.iterations" },
        { R"("program":{"command":["a"],"iterations":"x","exit_code":0,"signal":0,"stopped":false,"notes":[)" +
                [] {
                    std::string many;
                    for (int i = 0; i < 1001; ++i)
                        many += (i ? ",\"n\"" : "\"n\"");
                    return many;
                }() + "]}",
            "program.notes is a list of 1001; accepted: at most 1000 notes" },
        { R"("program":[1])", "program is" },
    };
    for (const Case& c : cases) {
        std::string text = good;
        text.replace(text.find(block), block.size(), c.program);
        std::istringstream in(text);
        auto read = readJson(in);
        ASSERT_FALSE(read.ok()) << c.program.substr(0, 120);
        EXPECT_NE(read.error().message().find(c.message), std::string::npos)
            << "expected '" << c.message << "' in: " << read.error().message();
    }
}

TEST(ProgramReport, AProgramIsComparedWithTheSameProgramOnly)
{
    const Report a = reportOf(12);
    EXPECT_FALSE(anyBlocking(configDifferences(a, reportOf(20))));  // more runs: listed, not blocking
    const auto otherArguments = configDifferences(a, reportOf(12, { "/opt/app/bin/app", "--steps", "8" }));
    EXPECT_TRUE(anyBlocking(otherArguments));
    EXPECT_NE(differencesText(otherArguments).find("program"), std::string::npos) << differencesText(otherArguments);
    Report pipeline;
    pipeline.device = a.device;
    pipeline.driverVersion = a.driverVersion;
    const auto againstPipeline = configDifferences(pipeline, a);
    EXPECT_TRUE(anyBlocking(againstPipeline));
    EXPECT_NE(differencesText(againstPipeline).find("the built-in pipeline"), std::string::npos)
        << differencesText(againstPipeline);
}

// A CSV of a program's iterations says it is that program: read back, it is compared with that program only, never
// with the built-in pipeline as "the same" configuration.
TEST(ProgramReport, ACsvOfAProgramReadsBackAsThatProgram)
{
    Report a = reportOf(12, { "/opt/app/bin/app", "--steps", "it's", "", "a b" });
    a.program->iterations = "host synchronizations";
    a.program->exitCode = 3;
    std::ostringstream out;
    writeCsv(out, a);
    std::istringstream in(out.str());
    const auto read = readCsv(in);
    ASSERT_TRUE(read.ok()) << read.error().message();
    ASSERT_TRUE(read->program.has_value()) << "read back as the built-in pipeline";
    EXPECT_EQ(read->program->command, a.program->command);
    EXPECT_EQ(read->program->workingFolder, "/work");
    EXPECT_EQ(read->program->iterations, "host synchronizations");
    EXPECT_EQ(read->program->exitCode, 3);
    EXPECT_FALSE(anyBlocking(configDifferences(a, *read)));
    Report pipeline;
    pipeline.device = a.device;
    pipeline.driverVersion = a.driverVersion;
    const auto againstPipeline = configDifferences(pipeline, *read);
    EXPECT_TRUE(anyBlocking(againstPipeline)) << differencesText(againstPipeline);
    EXPECT_TRUE(anyBlocking(configDifferences(*read, reportOf(12, { "/opt/app/bin/app", "--steps", "8" }))));
}

// The commands commandText writes read back word for word; a text it does not write is refused.
TEST(ProgramReport, ACommandReadsBackAsItsWords)
{
    for (const std::vector<std::string>& words : std::vector<std::vector<std::string>> {
             { "./app" }, { "/opt/a b/app", "--name=it's", "", "'", "x'y'z", "\\n" }, { "a", "b,c", "%@+" } }) {
        const auto back = commandWords(commandText(words));
        ASSERT_TRUE(back.has_value()) << commandText(words);
        EXPECT_EQ(*back, words) << commandText(words);
    }
    for (const char* text : { "", " app", "app ", "app  x", "'app", "app\"x", "a\\b", "app;rm", "app 'x" })
        EXPECT_FALSE(commandWords(text).has_value()) << text;
}

// A program's column in a CSV that does not hold what the writer writes is refused, naming the line and the column.
TEST(ProgramReport, AProgramColumnNotAsWrittenIsRefused)
{
    std::ostringstream out;
    writeCsv(out, reportOf(6));
    const std::string text = out.str();
    const std::size_t at = text.find("/opt/app/bin/app --steps");
    ASSERT_NE(at, std::string::npos);
    for (const auto& [from, to, words] : std::vector<std::tuple<std::string, std::string, std::string>> {
             { "/opt/app/bin/app --steps", "/opt/app/bin/app --st;eps", "column 'Program'" },
             { "/opt/app/bin/app --steps", "/opt/app/bin/app  --steps", "column 'Program'" },
             { ",/work,", ",,", "" } }) {
        std::string spoilt = text;
        for (std::size_t p = spoilt.find(from); p != std::string::npos; p = spoilt.find(from, p + to.size()))
            spoilt.replace(p, from.size(), to);
        std::istringstream in(spoilt);
        const auto read = readCsv(in);
        if (words.empty()) {  // no working folder: where the recorder ran
            ASSERT_TRUE(read.ok()) << read.error().message();
            EXPECT_TRUE(read->program->workingFolder.empty());
            continue;
        }
        ASSERT_FALSE(read.ok());
        EXPECT_NE(read.error().message().find("line 2, " + words), std::string::npos) << read.error().message();
    }
    // A program's own column without a program: not a row the writer writes.
    std::ostringstream pipelineOut;
    Report pipeline = reportOf(6);
    pipeline.program.reset();
    writeCsv(pipelineOut, pipeline);
    std::string spoilt = pipelineOut.str();
    const std::size_t header = spoilt.find('\n');
    const std::size_t column = spoilt.substr(0, header).find("Working Folder");
    ASSERT_NE(column, std::string::npos);
    const std::size_t commas = std::size_t(std::count(spoilt.begin(), spoilt.begin() + std::ptrdiff_t(column), ','));
    std::size_t cell = header + 1;
    for (std::size_t k = 0; k < commas; ++k)
        cell = spoilt.find(',', cell) + 1;
    spoilt.insert(cell, "/elsewhere");
    std::istringstream in(spoilt);
    const auto read = readCsv(in);
    ASSERT_FALSE(read.ok());
    EXPECT_NE(read.error().message().find("column 'Working Folder': '/elsewhere' is not"), std::string::npos)
        << read.error().message();
}

// A copy or a set of more bytes than any memory holds is refused where the recording gives it: the bytes of a run's
// copies, and of all the program's pageable copies, are added up and must not wrap past 2^64.
TEST(ProgramReport, ACopyOfMoreBytesThanAnyMemoryIsRefused)
{
    std::string text = recordingText(2);
    const std::size_t at = text.find(" 1048576 1 2 3 0 1");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 8, " 18446744073709551615");
    std::istringstream in(text);
    const auto recording = readRecording(in, "app.record");
    ASSERT_FALSE(recording.ok());
    EXPECT_NE(recording.error().message().find("18446744073709551615, above its limit of 70368744177664"),
        std::string::npos)
        << recording.error().message();
    EXPECT_EQ(addCounts(~std::uint64_t(0) - 1, 5), ~std::uint64_t(0));
    EXPECT_EQ(addCounts(2, 5), 7u);
}

TEST(ProgramReport, FiguresComeFromTheProgramsOwnCopies)
{
    const Report report = reportOf(12);
    const Assessment assessed = assessSeries(report);
    const double gpuMs = assessed.summary.median("gpu_time_ms");
    bool found = false;
    for (const Figure& f : assessed.summary.figures) {
        if (f.key == "copy_gbps") {
            found = true;
            EXPECT_NEAR(f.value, 2.0 * 1048576 / (gpuMs * 1e6), 1e-9);  // 1 MiB each way, not the pipeline's 64 MiB
        }
        EXPECT_NE(f.key, "kernel_effective_gbps");  // a program's kernels carry no bytes
    }
    EXPECT_TRUE(found);
}

}  // namespace
}  // namespace asyncscope

namespace asyncscope {
namespace {

TEST(ProgramReport, TheMachineWhileItRanIsItsOwnGpusStateAndNamesAnotherProcess)
{
    testing::FakeMachineProbe probe;
    DeviceInfo h200;
    h200.uuid = "GPU-01234567-89ab-cdef-0123-456789abcdef";  // the recording's device
    DeviceInfo other;
    other.uuid = "GPU-ffffffff-0000-0000-0000-000000000000";
    probe.gpus = { other, h200 };
    probe.reading = testing::cleanReading(77);  // the program's own context
    probe.addProcess(9000, "trainer");
    const std::int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch()).count();
    ProgramMachine machine(&probe);
    machine.start();
    machine.stop();
    EXPECT_GE(probe.samples.load(), 4);  // both GPUs: the processes before, the first and the last reading

    const Recording recording = recordingWithClock(12, now);
    ProgramInfo program;
    program.command = { "/opt/app/bin/app" };
    const Report report = programReport(recording, splitIterations(recording, {}), program, &machine);
    ASSERT_TRUE(report.machine.has_value());
    ASSERT_TRUE(report.machine->read()) << report.machine->unavailable;
    EXPECT_EQ(report.machine->selfPid, std::optional<std::uint32_t>(77));
    ASSERT_GE(report.machine->samples.size(), 2u);
    EXPECT_GE(report.machine->samples.front().atMs, 0.0);  // taken after the first run's start, on its clock
    EXPECT_LT(report.machine->samples.front().atMs, 60'000.0);
    const Advice advice = assessSeries(report).advice;
    const auto interference = std::find_if(advice.findings.begin(), advice.findings.end(),
        [](const Finding& f) { return f.rule == rules::kInterference; });
    ASSERT_NE(interference, advice.findings.end());
    EXPECT_NE(interference->evidence.find("PID 9000 (trainer"), std::string::npos) << interference->evidence;
    EXPECT_EQ(interference->evidence.find("PID 77 "), std::string::npos) << interference->evidence;
}

TEST(ProgramReport, TheProbeIsOpenedBesideTheProgramsStartNotBeforeIt)
{
    // start() returns while the probe is still being opened (NVML's start): the program is not held back by it.
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<bool> opened { false };
    DeviceInfo h200;
    h200.uuid = "GPU-01234567-89ab-cdef-0123-456789abcdef";
    ProgramMachine machine([&]() -> std::unique_ptr<MachineProbe> {
        released.wait();
        auto probe = std::make_unique<testing::FakeMachineProbe>();
        probe->gpus = { h200 };
        probe->reading = testing::cleanReading(77);
        opened = true;
        return probe;
    });
    machine.start();
    EXPECT_FALSE(opened.load());
    release.set_value();
    machine.stop();  // waits for the opening, then takes the last reading
    EXPECT_TRUE(opened.load());
    const std::int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch()).count();
    const Recording recording = recordingWithClock(3, now);
    const Report report = programReport(recording, splitIterations(recording, {}), programNamed("app"), &machine);
    ASSERT_TRUE(report.machine.has_value());
    ASSERT_TRUE(report.machine->read()) << report.machine->unavailable;
    EXPECT_GE(report.machine->samples.size(), 2u);

    ProgramMachine none([] { return std::unique_ptr<MachineProbe>(); });  // no probe could be made
    none.start();
    none.stop();
    EXPECT_NE(none.stateOf(h200.uuid, recording, splitIterations(recording, {})).unavailable.find("no probe"),
        std::string::npos);
}

TEST(ProgramReport, AMachineStateThatCannotBePlacedSaysWhy)
{
    testing::FakeMachineProbe probe;
    DeviceInfo h200;
    h200.uuid = "GPU-01234567-89ab-cdef-0123-456789abcdef";
    probe.gpus = { h200 };
    ProgramMachine machine(&probe);
    machine.start();
    machine.stop();
    const Recording noClock = recordingWithClock(3, std::nullopt);
    Report report = programReport(noClock, splitIterations(noClock, {}), programNamed("app"), &machine);
    ASSERT_TRUE(report.machine.has_value());
    EXPECT_NE(report.machine->unavailable.find("no clock line"), std::string::npos) << report.machine->unavailable;

    report = programReport(noClock, splitIterations(noClock, {}), programNamed("app"));  // from a kept file
    EXPECT_NE(report.machine->unavailable.find("kept recording"), std::string::npos) << report.machine->unavailable;
    const Advice advice = assessSeries(report).advice;
    EXPECT_TRUE(std::any_of(advice.notChecked.begin(), advice.notChecked.end(),
        [](const NotChecked& n) { return n.rule == rules::kInterference && n.why.find("kept recording") != std::string::npos; }));

    testing::FakeMachineProbe elsewhere;  // the driver lists other GPUs only
    ProgramMachine other(&elsewhere);
    other.start();
    other.stop();
    const Recording clocked = recordingWithClock(3, 5);
    report = programReport(clocked, splitIterations(clocked, {}), programNamed("app"), &other);
    EXPECT_NE(report.machine->unavailable.find("does not list the GPU the program ran on"), std::string::npos)
        << report.machine->unavailable;
}

TEST(ProgramReport, TheProgramsPidIsItsOwnOrTheOneThatCameWithIt)
{
    MachineSample before = testing::cleanReading(5);
    MachineSample with = before;
    with.processes->push_back({ 123456, 0, "" });  // the driver numbers PIDs in another namespace
    EXPECT_EQ(programPid({ before, with }, 77, std::set<std::uint32_t> { 5 }), std::optional<std::uint32_t>(123456));
    EXPECT_EQ(programPid({ before, with }, 5, std::set<std::uint32_t> { 5 }), std::optional<std::uint32_t>(5));
    with.processes->push_back({ 123457, 0, "" });  // two came: which is the program's cannot be told
    EXPECT_EQ(programPid({ before, with }, 77, std::set<std::uint32_t> { 5 }), std::nullopt);
    EXPECT_EQ(programPid({ with }, 77, std::nullopt), std::nullopt);
}

}  // namespace
}  // namespace asyncscope
