// The readers' fuzz tests: each reader of a file a user, a script or a broken disk can hand the program (saved
// series in JSON formats 1 to 4 and CSV, comparisons, the records --merge reads, the copy-peak cache, the record
// streams `asyncscope-cli record --from` reads) takes mutated
// real files (tests/data: files recorded on an H200 and the earlier formats) for a bounded time; see fuzz_loop.hpp
// for what fails a test. Run under ASan and UBSan by the `fuzz` preset; ASYNCSCOPE_FUZZ_SECONDS,
// ASYNCSCOPE_FUZZ_INPUTS and ASYNCSCOPE_FUZZ_SEED change the budget and the inputs; ASYNCSCOPE_FUZZ_KEEP=DIR keeps
// the findings' inputs there.
#include "fuzz_loop.hpp"

#include "engine/io/copy_peak_cache.hpp"
#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/report_file.hpp"
#include "engine/io/result_file.hpp"
#include "engine/record/program_report.hpp"
#include "engine/run/plan_advice.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

using namespace asyncscope;
namespace fs = std::filesystem;

namespace {

constexpr double kSecondsEach = 20.0;  // six readers here and the settings: about two and a half minutes in all

const fs::path kData = ASYNCSCOPE_TEST_DATA;

template <class T>
std::optional<std::string> messageOf(const Result<T>& result)
{
    if (result)
        return std::nullopt;
    return result.error().message();
}

void expectNothingFound(const fuzz::Target& target)
{
    ASSERT_FALSE(target.seeds.empty()) << "no seed files for " << target.name;
    const fuzz::Tally tally = fuzz::run(target, fuzz::budgetFromEnvironment(kSecondsEach));
    std::printf("%s", fuzz::describe(target, tally).c_str());
    EXPECT_GT(tally.inputs, 0u);
    EXPECT_TRUE(tally.findings.empty()) << tally.findings.size() << " findings; the first: " << tally.findings.front();
}

std::vector<fs::path> seedsOf(std::initializer_list<std::pair<fs::path, std::vector<std::string>>> folders)
{
    std::vector<fs::path> seeds;
    for (const auto& [folder, suffixes] : folders) {
        for (const fs::path& file : fuzz::filesIn(folder, suffixes))
            seeds.push_back(file);
    }
    return seeds;
}

}  // namespace

TEST(Fuzz, JsonReports)
{
    fuzz::Target target;
    target.name = "json-report";
    target.fileName = "input.json";
    target.seeds = seedsOf({ { kData, { ".json" } },
        { kData / "h200", { "series.json", "chunked.json", "stage.json", "cupti.json", "machine.json" } },
        { kData / "regressions", { ".json" } }, { kData / "recordings", { ".json" } } });
    target.read = [](const std::string& path) { return messageOf(readReportFile(path)); };
    expectNothingFound(target);
}

TEST(Fuzz, CsvReports)
{
    fuzz::Target target;
    target.name = "csv-report";
    target.fileName = "input.csv";
    target.seeds = seedsOf({ { kData, { ".csv" } }, { kData / "h200", { ".csv" } }, { kData / "regressions", { ".csv" } } });
    target.read = [](const std::string& path) { return messageOf(readReportFile(path)); };
    expectNothingFound(target);
}

TEST(Fuzz, MergedResultFiles)
{
    fuzz::Target target;
    target.name = "result-file";
    target.fileName = "input.json";
    target.seeds = seedsOf({ { kData, { ".host.json" } },
        { kData / "h200", { ".host.json", "series.json", "compare-wait.json" } },
        { kData / "regressions", { ".host.json" } } });
    target.read = [](const std::string& path) { return messageOf(readResultFile(path)); };
    expectNothingFound(target);
}

TEST(Fuzz, Comparisons)
{
    fuzz::Target target;
    target.name = "comparison";
    target.fileName = "input.json";
    target.seeds = seedsOf({ { kData / "h200", { "compare-wait.json", "compare-size.json" } } });
    target.read = [](const std::string& path) { return messageOf(readComparisonFile(path)); };
    expectNothingFound(target);
}

TEST(Fuzz, CopyPeakCache)
{
    fuzz::Target target;
    target.name = "copy-peak-cache";
    target.fileName = "copy-peaks.json";
    target.seeds = seedsOf({ { kData, { ".cache.json" } }, { kData / "h200", { ".cache.json" } },
        { kData / "regressions", { ".cache.json" } } });
    target.read = [](const std::string& path) { return messageOf(readCopyPeakCache(path)); };
    expectNothingFound(target);
}

// What the tool writes of `series` (JSON format 4, CSV, a comparison of processes), read back by its own readers:
// a refusal is a finding. Where no series has a run the recorder writes nothing (it says nothing issued GPU work).
void readBackEveryOutput(std::vector<ProgramSeries> series)
{
    if (std::all_of(series.begin(), series.end(), [](const ProgramSeries& s) { return s.report.runs.empty(); }))
        return;
    const auto refused = [](const char* what, const auto& read) {
        if (!read)
            throw std::logic_error(std::string("the ") + what + " written of an accepted recording is refused: " +
                read.error().message());
    };
    for (const ProgramSeries& one : series) {
        std::stringstream json;
        writeJson(json, one.report, assessSeries(one.report));
        refused("JSON report", readJson(json));
        std::stringstream csv;
        writeCsv(csv, one.report);
        refused("CSV report", readCsv(csv));
    }
    if (series.size() > 1) {
        const PlanReport plan = processComparison(std::move(series));
        std::stringstream json;
        writeComparisonJson(json, plan, assessPlan(plan));
        refused("comparison of processes", readComparisonJson(json));
    }
}

TEST(Fuzz, Recordings)
{
    // A record stream is read, split into iterations both ways and made a report, as `record --from` does: the
    // splitting and the report take whatever the reader lets through, and every file written of it reads back.
    fuzz::Target target;
    target.name = "recording";
    target.fileName = "input.record";
    target.seeds = seedsOf({ { kData / "recordings", { ".record" } } });
    target.read = [](const std::string& path) -> std::optional<std::string> {
        Result<Recording> recording = readRecordingFile(path);
        if (!recording)
            return recording.error().message();
        for (IterationRule::By by : { IterationRule::By::Auto, IterationRule::By::Sync }) {
            IterationRule rule;
            rule.by = by;
            const RecordedRuns split = splitIterations(*recording, rule);
            for (const RunResult& run : split.runs) {
                // A run made of what the reader let through has times a chart can draw: an exception is a finding.
                if (!std::isfinite(run.gpuMs) || run.gpuMs < 0.0 || !std::isfinite(run.cpuSubmitMs()))
                    throw std::logic_error("run " + std::to_string(run.index) + ": GPU time " +
                        std::to_string(run.gpuMs) + " ms, CPU submit " + std::to_string(run.cpuSubmitMs()) + " ms");
            }
            ProgramInfo program;
            program.command = { "input" };
            programEndFrom(*recording, program);
            Result<std::vector<ProgramSeries>> series = programSeries(*recording, rule, ProcessChoice {}, program);
            if (series)
                readBackEveryOutput(std::move(*series));
        }
        return std::nullopt;
    };
    expectNothingFound(target);
}
