// The baseline comparison: the statistics it rests on (the bootstrap interval of a difference of medians and the
// Mann-Whitney p-value, the latter against SciPy's figures kept in tests/data/baseline), its verdicts on invented
// series with known shifts, the configurations' differences, its three outputs, and the CLI's --baseline.
#include "cli/cli_app.hpp"
#include "engine/io/baseline_report.hpp"
#include "engine/io/csv/csv_report.hpp"
#include "engine/io/host_record_json.hpp"
#include "engine/io/result_file.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/model/baseline.hpp"
#include "engine/model/number_text.hpp"
#include "engine/model/shift_statistics.hpp"
#include "engine/model/statistics.hpp"
#include "engine/run/plan_advice.hpp"

#include "fake_backend.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace asyncscope {
namespace {

namespace fs = std::filesystem;

std::vector<double> sorted(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

// GPU times as a busy GPU gives them: around `median` ms with `noise` relative spread, a right tail of a few slow runs.
std::vector<double> gpuTimes(std::mt19937_64& rng, std::size_t n, double median, double noise)
{
    std::normal_distribution<double> body(median, median * noise);
    std::exponential_distribution<double> tail(1.0 / (median * noise * 3.0));
    std::uniform_real_distribution<double> pick(0.0, 1.0);
    std::vector<double> v(n);
    for (double& x : v)
        x = body(rng) + (pick(rng) < 0.03 ? tail(rng) : 0.0);
    return v;
}

Report seriesOf(const std::vector<double>& gpuMs, const PipelineConfig& config = {})
{
    Report r;
    r.host = "gpu-node";
    r.device.name = "NVIDIA H200";
    r.driverVersion = 13000;
    r.runtimeVersion = 13000;
    r.config = config;
    r.config.runs = static_cast<int>(gpuMs.size());
    r.config.warmupRuns = 1;
    RunResult warm;
    warm.index = 0;
    warm.warmup = true;
    warm.verified = true;
    warm.gpuMs = 50.0;  // a warm-up far off the others: it must be left out
    r.runs.push_back(warm);
    for (std::size_t i = 0; i < gpuMs.size(); ++i) {
        RunResult run;
        run.index = static_cast<int>(i) + 1;
        run.verified = true;
        run.gpuMs = gpuMs[i];
        run.startMs = static_cast<double>(i) * 3.0;
        run.pollIterations = static_cast<std::uint64_t>(gpuMs[i] * 1000.0);
        r.runs.push_back(run);
    }
    return r;
}

Verdict gpuVerdict(const BaselineComparison& c)
{
    const QuantityComparison* q = c.quantity("gpu_time_ms");
    EXPECT_NE(q, nullptr);
    return q ? q->verdict : Verdict::Unmeasured;
}

TEST(ShiftStatistics, MannWhitneyAgreesWithScipy)
{
    std::ifstream in(fs::path(ASYNCSCOPE_TEST_DATA) / "baseline" / "mann_whitney_reference.json");
    ASSERT_TRUE(in);
    const nlohmann::json reference = nlohmann::json::parse(in);
    ASSERT_GE(reference.at("cases").size(), 10u);
    for (const nlohmann::json& c : reference.at("cases")) {
        const std::vector<double> a = sorted(c.at("baseline").get<std::vector<double>>());
        const std::vector<double> b = sorted(c.at("current").get<std::vector<double>>());
        const double expected = c.at("p").get<double>();
        EXPECT_NEAR(mannWhitneyP(a, b), expected, 1e-9 * std::max(expected, 1e-3)) << c.at("name");
    }
}

TEST(ShiftStatistics, MannWhitneyOfIdenticalValuesIsOne)
{
    EXPECT_DOUBLE_EQ(mannWhitneyP({ 2.0, 2.0, 2.0 }, { 2.0, 2.0 }), 1.0);
    EXPECT_DOUBLE_EQ(mannWhitneyP({ 1.0 }, { 1.0 }), 1.0);
}

TEST(ShiftStatistics, MannWhitneyIsSymmetricInItsSamples)
{
    std::mt19937_64 rng(5);
    const auto a = sorted(gpuTimes(rng, 300, 2.5, 0.01));
    const auto b = sorted(gpuTimes(rng, 200, 2.51, 0.01));
    EXPECT_NEAR(mannWhitneyP(a, b), mannWhitneyP(b, a), 1e-12);
}

TEST(ShiftStatistics, MannWhitneyTakesNaNWithoutHanging)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double p = mannWhitneyP({ 1.0, 2.0, nan }, { 1.5, nan });
    EXPECT_GE(p, 0.0);
    EXPECT_LE(p, 1.0);
}

TEST(ShiftStatistics, TheSameSeedGivesTheSameInterval)
{
    std::mt19937_64 rng(7);
    const auto a = sorted(gpuTimes(rng, 1000, 2.5, 0.01));
    const auto b = sorted(gpuTimes(rng, 999, 2.5, 0.01));
    const MedianShift first = bootstrapMedianShift(a, b, 0.95, 4000, 42);
    const MedianShift again = bootstrapMedianShift(a, b, 0.95, 4000, 42);
    EXPECT_EQ(first.low, again.low);
    EXPECT_EQ(first.high, again.high);
    const MedianShift other = bootstrapMedianShift(a, b, 0.95, 4000, 43);
    EXPECT_NE(first.low, other.low);
    EXPECT_LT(first.low, first.difference);
    EXPECT_GT(first.high, first.difference);
}

// The direct draw of each resample's median is the bootstrap itself: its interval agrees with resampling the values
// one by one, for odd and even sizes, with ties.
TEST(ShiftStatistics, DirectDrawsAgreeWithResamplingValueByValue)
{
    for (const std::size_t n : { std::size_t(101), std::size_t(100), std::size_t(2), std::size_t(7) }) {
        std::mt19937_64 rng(n);
        std::vector<double> a = gpuTimes(rng, n, 2.5, 0.02);
        std::vector<double> b = gpuTimes(rng, n + 1, 2.52, 0.02);
        for (double& x : a)
            x = std::round(x * 1000.0) / 1000.0;  // ties
        a = sorted(a);
        b = sorted(b);
        const MedianShift direct = bootstrapMedianShift(a, b, 0.90, 20000, 9);

        std::vector<double> differences;
        std::vector<double> ra(a.size()), rb(b.size());
        for (int r = 0; r < 20000; ++r) {
            for (double& x : ra)
                x = a[std::uniform_int_distribution<std::size_t>(0, a.size() - 1)(rng)];
            for (double& x : rb)
                x = b[std::uniform_int_distribution<std::size_t>(0, b.size() - 1)(rng)];
            differences.push_back(summarize(rb).median - summarize(ra).median);
        }
        std::sort(differences.begin(), differences.end());
        const double low = differences[static_cast<std::size_t>(0.05 * differences.size())];
        const double high = differences[static_cast<std::size_t>(0.95 * differences.size())];
        const double width = high - low;
        EXPECT_NEAR(direct.low, low, 0.08 * width + 1e-9) << "n = " << n;
        EXPECT_NEAR(direct.high, high, 0.08 * width + 1e-9) << "n = " << n;
    }
}

TEST(ShiftStatistics, OneValueEachHasNoSpread)
{
    const MedianShift s = bootstrapMedianShift({ 2.0 }, { 3.0 }, 0.95, 100, 1);
    EXPECT_DOUBLE_EQ(s.difference, 1.0);
    EXPECT_DOUBLE_EQ(s.low, 1.0);
    EXPECT_DOUBLE_EQ(s.high, 1.0);
}

TEST(Baseline, OnePercentShiftAtOnePercentNoiseOverAThousandRunsIsSlower)
{
    std::mt19937_64 rng(2026);
    const Report a = seriesOf(gpuTimes(rng, 1000, 2.5, 0.01));
    const Report b = seriesOf(gpuTimes(rng, 1000, 2.525, 0.01));
    const BaselineComparison c = compareWithBaseline(a, b, {});
    const QuantityComparison* q = c.quantity("gpu_time_ms");
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(q->verdict, Verdict::Slower);
    EXPECT_NEAR(*q->differencePercent, 1.0, 0.25);
    EXPECT_GT(*q->lowPercent, 0.5);
    EXPECT_LT(q->p, 1e-6);
    EXPECT_EQ(q->baselineRuns, 1000u);  // the warm-up left out
    EXPECT_EQ(gpuVerdict(compareWithBaseline(b, a, {})), Verdict::Faster);
    EXPECT_NE(c.headline().find("GPU time slower by"), std::string::npos) << c.headline();
}

TEST(Baseline, NoShiftIsTheSameInAtLeast95PercentOfTrials)
{
    int same = 0;
    constexpr int kTrials = 200;
    for (int trial = 0; trial < kTrials; ++trial) {
        std::mt19937_64 rng(1000 + trial);
        BaselineSettings settings;
        settings.resamples = 2000;
        const BaselineComparison c = compareWithBaseline(seriesOf(gpuTimes(rng, 1000, 2.5, 0.01)),
            seriesOf(gpuTimes(rng, 1000, 2.5, 0.01)), settings);
        const Verdict v = gpuVerdict(c);
        same += v == Verdict::Same || v == Verdict::Small ? 1 : 0;
    }
    EXPECT_GE(same, kTrials * 95 / 100);
}

// Without the threshold for small differences, the test alone keeps false alarms near its 5 %.
TEST(Baseline, NoShiftIsToldFromNoiseRarelyWithoutTheThreshold)
{
    int told = 0;
    constexpr int kTrials = 200;
    for (int trial = 0; trial < kTrials; ++trial) {
        std::mt19937_64 rng(5000 + trial);
        BaselineSettings settings;
        settings.resamples = 2000;
        settings.minDifferencePercent = 0.0;
        const Verdict v = gpuVerdict(compareWithBaseline(seriesOf(gpuTimes(rng, 500, 2.5, 0.01)),
            seriesOf(gpuTimes(rng, 500, 2.5, 0.01)), settings));
        told += v == Verdict::Same ? 0 : 1;
    }
    EXPECT_LE(told, kTrials * 8 / 100);
}

TEST(Baseline, IntervalsCoverTheTrueShiftInAtLeast93PercentOfTrials)
{
    constexpr int kTrials = 400;
    constexpr double kShift = 0.02;  // ms, on a 2.5 ms median: 0.8 %
    int covered = 0;
    for (int trial = 0; trial < kTrials; ++trial) {
        std::mt19937_64 rng(9000 + trial);
        std::vector<double> a = gpuTimes(rng, 1000, 2.5, 0.01);
        std::vector<double> b = gpuTimes(rng, 1000, 2.5, 0.01);
        for (double& x : b)
            x += kShift;  // the same distribution moved: its median moves by exactly kShift
        const MedianShift s = bootstrapMedianShift(sorted(a), sorted(b), 0.95, 2000, 1);
        covered += s.low <= kShift && kShift <= s.high ? 1 : 0;
    }
    EXPECT_GE(covered, kTrials * 93 / 100) << covered << " of " << kTrials;
}

TEST(Baseline, SmallButCertainDifferencesCountAsTheSame)
{
    std::mt19937_64 rng(11);
    const Report a = seriesOf(gpuTimes(rng, 100000, 2.5, 0.01));
    const Report b = seriesOf(gpuTimes(rng, 100000, 2.5 * 1.002, 0.01));  // 0.2 %: told from noise at 10^5 runs
    BaselineSettings settings;
    settings.resamples = 1000;
    const BaselineComparison c = compareWithBaseline(a, b, settings);
    const QuantityComparison* q = c.quantity("gpu_time_ms");
    ASSERT_NE(q, nullptr);
    EXPECT_GT(q->low, 0.0);
    EXPECT_EQ(q->verdict, Verdict::Small);
    EXPECT_NE(verdictText(q->verdict, *q->differencePercent, q->sameUnderPercent).find("under 0.50 %"), std::string::npos);
    settings.minDifferencePercent = 0.1;
    EXPECT_EQ(gpuVerdict(compareWithBaseline(a, b, settings)), Verdict::Slower);
}

TEST(Baseline, CountsAreHigherOrLowerNotSlower)
{
    std::mt19937_64 rng(3);
    const BaselineComparison c = compareWithBaseline(seriesOf(gpuTimes(rng, 500, 2.5, 0.01)),
        seriesOf(gpuTimes(rng, 500, 2.6, 0.01)), {});
    const QuantityComparison* polls = c.quantity("poll_iterations");
    ASSERT_NE(polls, nullptr);
    EXPECT_EQ(polls->verdict, Verdict::Higher);
    EXPECT_EQ(directionOf("h2d_gbps", ValueKind::Rate), Direction::HigherIsBetter);
    EXPECT_EQ(directionOf("gpu_time_over_serial_bound", ValueKind::Ratio), Direction::HigherIsWorse);
}

TEST(Baseline, TheGateFailsOnlyWhenTheWholeIntervalIsBeyondIt)
{
    std::mt19937_64 rng(17);
    const Report a = seriesOf(gpuTimes(rng, 1000, 2.5, 0.01));
    const Report b = seriesOf(gpuTimes(rng, 1000, 2.55, 0.01));  // 2 % slower
    BaselineSettings settings;
    settings.maxSlowdownPercent = 1.0;
    EXPECT_TRUE(compareWithBaseline(a, b, settings).gateFailed());
    settings.maxSlowdownPercent = 2.0;  // the interval straddles 2 %
    const BaselineComparison straddles = compareWithBaseline(a, b, settings);
    const QuantityComparison* q = straddles.quantity("gpu_time_ms");
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(straddles.gateFailed(), *q->lowPercent > 2.0);
    settings.maxSlowdownPercent = 5.0;
    EXPECT_FALSE(compareWithBaseline(a, b, settings).gateFailed());
    settings.maxSlowdownPercent = 0.0;
    EXPECT_FALSE(compareWithBaseline(b, a, settings).gateFailed()) << "faster never fails";
    settings.gateKeys = { "poll_iterations" };  // neither better nor worse: never gated as slower
    EXPECT_FALSE(compareWithBaseline(a, b, settings).gateFailed());
}

TEST(Baseline, ConfigurationsAreComparedFirst)
{
    PipelineConfig pageable;
    pageable.hostMemory = HostMemory::Pageable;
    Report a = seriesOf({ 2.5, 2.6 });
    Report b = seriesOf({ 2.5, 2.6 }, pageable);
    b.host = "other-node";
    b.config.chunks = 16;
    b.config.streams = 4;
    const std::vector<ConfigDifference> d = configDifferences(a, b);
    EXPECT_TRUE(anyBlocking(d));
    const std::string text = differencesText(d);
    EXPECT_NE(text.find("host memory pinned → pageable"), std::string::npos) << text;
    EXPECT_NE(text.find("chunks 1 → 16"), std::string::npos) << text;
    EXPECT_EQ(text.find("host"), text.find("host memory")) << "the host is listed, not blocking: " << text;
    EXPECT_NE(differencesText(d, false).find("host gpu-node → other-node"), std::string::npos);

    // Only the host and the run count differ: the same configuration.
    Report c = seriesOf({ 2.5, 2.6, 2.7 });
    c.host = "other-node";
    EXPECT_FALSE(anyBlocking(configDifferences(a, c)));
    EXPECT_FALSE(compareWithBaseline(a, c, {}).acrossConfigurations);

    // The driver as NVML names it where both have it.
    MachineState nvml;
    nvml.source = "NVML, driver 580.95.05";
    a.machine = nvml;
    c.machine = nvml;
    c.machine->source = "NVML, driver 580.159.04";
    EXPECT_NE(differencesText(configDifferences(a, c)).find("driver 580.95.05 → 580.159.04"), std::string::npos);
    c.driverVersion = 12080;
    c.machine.reset();  // one without NVML: CUDA's driver version is what both have
    EXPECT_NE(differencesText(configDifferences(a, c)).find("driver CUDA 13.0 → CUDA 12.8"), std::string::npos);
}

TEST(Baseline, EveryOutputSaysWhenConfigurationsDiffer)
{
    PipelineConfig pageable;
    pageable.hostMemory = HostMemory::Pageable;
    std::mt19937_64 rng(23);
    const Report a = seriesOf(gpuTimes(rng, 200, 2.5, 0.01));
    const Report b = seriesOf(gpuTimes(rng, 200, 16.0, 0.01), pageable);
    const BaselineComparison c = compareWithBaseline(a, b, {});
    ASSERT_TRUE(c.acrossConfigurations);
    const BaselineSide sa = baselineSide("pinned.json", a, assessSeries(a));
    const BaselineSide sb = baselineSide("pageable.json", b, assessSeries(b));
    EXPECT_EQ(sa.measuredRuns, 200u);

    const std::string text = formatBaselineText(c, sa, sb);
    EXPECT_NE(text.find("ACROSS CONFIGURATIONS"), std::string::npos) << text;
    EXPECT_NE(text.find("slower"), std::string::npos) << text;
    EXPECT_NE(c.headline().find("across configurations: host memory pinned → pageable"), std::string::npos);

    std::ostringstream csv;
    writeBaselineCsv(csv, c, sa, sb);
    std::istringstream lines(csv.str());
    std::string header, gpu;
    std::getline(lines, header);
    std::getline(lines, gpu);
    EXPECT_EQ(header.rfind("Quantity,Key,Unit,Baseline,Current", 0), 0u);
    EXPECT_EQ(gpu.rfind("GPU time,gpu_time_ms,ms,", 0), 0u) << gpu;
    EXPECT_NE(gpu.find(",slower,"), std::string::npos) << gpu;
    EXPECT_NE(gpu.find("across configurations: host memory pinned → pageable"), std::string::npos) << gpu;

    std::ostringstream json;
    writeBaselineJson(json, c, sa, sb);
    const nlohmann::json j = nlohmann::json::parse(json.str());
    EXPECT_EQ(j.at("format"), "asyncscope-baseline-comparison");
    EXPECT_TRUE(j.at("configuration").at("across_configurations").get<bool>());
    EXPECT_EQ(j.at("configuration").at("differences").at(0).at("field"), "host memory");
    const nlohmann::json& q = j.at("quantities").at(0);
    EXPECT_EQ(q.at("key"), "gpu_time_ms");
    EXPECT_EQ(q.at("verdict"), "slower");
    EXPECT_GT(q.at("interval_percent").at(0).get<double>(), 500.0);
    EXPECT_LT(q.at("p_value").get<double>(), 1e-10);
    EXPECT_EQ(j.at("baseline").at("name"), "pinned.json");
}

TEST(Baseline, PValuesReadForPeople)
{
    EXPECT_EQ(pValueText(0.0312), "0.0312");
    EXPECT_EQ(pValueText(2.1e-9), "2.1e-09");
    EXPECT_EQ(pValueText(0.0), "< 1e-300");
}

// The CLI: files written by the engine's JSON writer, compared by asyncscope-cli --baseline.
class BaselineCli : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path() / ("asyncscope-baseline-" + std::to_string(::getpid()));
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    std::string write(const std::string& name, const Report& report)
    {
        const fs::path path = m_dir / name;
        std::ofstream out(path);
        writeJson(out, report, assessSeries(report));
        return path.string();
    }

    struct Outcome {
        int code = -1;
        std::string out;
        std::string err;
    };
    Outcome run(std::vector<const char*> args)
    {
        args.insert(args.begin(), "asyncscope-cli");
        auto options = parseCommandLine(static_cast<int>(args.size()), args.data());
        Outcome o;
        if (!options) {
            std::ostringstream err;
            o.code = reportFailure(options.error(), err);
            o.err = err.str();
            return o;
        }
        std::atomic<bool> cancel { false };
        std::ostringstream out, err;
        o.code = runCli(*options, m_backend, cancel, out, err);
        o.out = out.str();
        o.err = err.str();
        return o;
    }

    fs::path m_dir;
    testing::FakeBackend m_backend;
};

TEST_F(BaselineCli, TwoSavedSeriesCompareAndTheGateSetsTheExitStatus)
{
    std::mt19937_64 rng(31);
    const std::string a = write("a.json", seriesOf(gpuTimes(rng, 500, 2.5, 0.01)));
    const std::string b = write("b.json", seriesOf(gpuTimes(rng, 500, 2.6, 0.01)));
    Outcome same = run({ "--baseline", a.c_str(), a.c_str() });
    EXPECT_EQ(same.code, kExitOk) << same.err;
    EXPECT_NE(same.out.find("verdict: GPU time same within noise"), std::string::npos) << same.out;

    Outcome slower = run({ "--baseline", a.c_str(), b.c_str(), "--max-slowdown", "2" });
    EXPECT_EQ(slower.code, kExitFailure);
    EXPECT_NE(slower.out.find("gate: FAILED"), std::string::npos) << slower.out;
    EXPECT_NE(slower.err.find("slower than the baseline by more than 2.00 %"), std::string::npos) << slower.err;

    Outcome allowed = run({ "--baseline", a.c_str(), b.c_str(), "--max-slowdown", "10", "--format", "json" });
    EXPECT_EQ(allowed.code, kExitOk) << allowed.err;
    EXPECT_FALSE(nlohmann::json::parse(allowed.out).at("gate").at("failed").get<bool>());
}

TEST_F(BaselineCli, DifferentConfigurationsNeedConsent)
{
    PipelineConfig chunked;
    chunked.chunks = 16;
    chunked.streams = 4;
    const std::string a = write("a.json", seriesOf({ 2.5, 2.51, 2.49, 2.5, 2.52 }));
    const std::string b = write("b.json", seriesOf({ 1.5, 1.51, 1.49, 1.5, 1.52 }, chunked));
    Outcome refused = run({ "--baseline", a.c_str(), b.c_str() });
    EXPECT_EQ(refused.code, kExitUsage);
    EXPECT_NE(refused.err.find("chunks 1 → 16; streams 1 → 4"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("--allow-different"), std::string::npos) << refused.err;
    EXPECT_TRUE(refused.out.empty());

    Outcome allowed = run({ "--baseline", a.c_str(), b.c_str(), "--allow-different", "--format", "csv" });
    EXPECT_EQ(allowed.code, kExitOk) << allowed.err;
    EXPECT_NE(allowed.out.find("across configurations: chunks 1 → 16"), std::string::npos) << allowed.out;
}

TEST_F(BaselineCli, OneFileRunsItsConfigurationUnlessTheCommandLineSaysOtherwise)
{
    PipelineConfig chunked;
    chunked.chunks = 8;
    chunked.streams = 2;
    chunked.elements = 1 << 20;
    Report saved = seriesOf({ 0.2, 0.21, 0.19, 0.2, 0.2 }, chunked);
    saved.device.name = "Fake Big GPU";  // what the fake backend's best device is called
    const std::string a = write("a.json", saved);

    auto args = std::vector<const char*> { "asyncscope-cli", "--baseline", a.c_str() };
    auto options = parseCommandLine(static_cast<int>(args.size()), args.data());
    ASSERT_TRUE(options.ok()) << options.error().message();
    EXPECT_EQ(options->config.chunks, 8);
    EXPECT_EQ(options->config.streams, 2);
    EXPECT_EQ(options->config.elements, std::size_t(1) << 20);
    EXPECT_EQ(options->config.runs, 5);
    ASSERT_TRUE(options->baseline);

    args.push_back("--streams");
    args.push_back("1");
    options = parseCommandLine(static_cast<int>(args.size()), args.data());
    ASSERT_TRUE(options.ok());
    EXPECT_EQ(options->config.streams, 1);
    EXPECT_EQ(options->config.chunks, 8);

    // The run is compared with the file, and kept with --save.
    const std::string kept = (m_dir / "kept.json").string();
    Outcome ran = run({ "--baseline", a.c_str(), "--runs", "20", "--save", kept.c_str() });
    EXPECT_EQ(ran.code, kExitOk) << ran.err;
    EXPECT_NE(ran.out.find("current:  this run: Fake Big GPU"), std::string::npos) << ran.out;
    EXPECT_NE(ran.out.find("GPU time (ms)"), std::string::npos) << ran.out;
    EXPECT_TRUE(fs::exists(kept));

    // A device the baseline did not run on is a different configuration, refused before anything runs.
    const int before = m_backend.seriesStarted;
    Outcome other = run({ "--baseline", a.c_str(), "--device", "0" });
    EXPECT_EQ(other.code, kExitUsage);
    EXPECT_NE(other.err.find("device Fake Big GPU → Fake Small GPU"), std::string::npos) << other.err;
    EXPECT_EQ(m_backend.seriesStarted, before);
}

// Every kind of file that holds one series compares: the four JSON formats, CSV, and a host's record of one GPU; a
// file against itself is the same within noise, and the H200's CSV against its JSON too.
TEST_F(BaselineCli, EveryFormatThatHoldsASeriesCompares)
{
    const fs::path data = ASYNCSCOPE_TEST_DATA;
    for (const fs::path& file : { data / "report_v1.json", data / "report_v2.json", data / "report_v3_every_field.json",
             data / "report_v4_machine.json", data / "report_machine.csv", data / "h200" / "h200-series.csv",
             data / "h200" / "h200-host-record.host.json" }) {
        const std::string path = file.string();
        Outcome self = run({ "--baseline", path.c_str(), path.c_str() });
        const auto series = readSeriesFile(path);
        ASSERT_TRUE(series.ok()) << series.error().message();
        if (measuredRunsOf(*series) < kMinComparedRuns) {  // the older formats' samples hold a run or two
            EXPECT_EQ(self.code, kExitUsage) << path;
            EXPECT_NE(self.err.find("a comparison needs at least 5 measured runs"), std::string::npos) << self.err;
            continue;
        }
        EXPECT_EQ(self.code, kExitOk) << path << ": " << self.err;
        EXPECT_NE(self.out.find("configuration: the same"), std::string::npos) << path << ":\n" << self.out;
        EXPECT_NE(self.out.find("verdict: GPU time same within noise"), std::string::npos) << path << ":\n" << self.out;
    }
    // The H200's JSON series written again as CSV: the same runs, whatever the format.
    const std::string json = (data / "h200" / "h200-series.json").string();
    const std::string csv = (m_dir / "h200-series.csv").string();
    {
        std::ofstream out(csv);
        writeCsv(out, *readSeriesFile(json));
    }
    Outcome formats = run({ "--baseline", csv.c_str(), json.c_str(), "--format", "json" });
    ASSERT_EQ(formats.code, kExitOk) << formats.err;
    const nlohmann::json j = nlohmann::json::parse(formats.out);
    EXPECT_NEAR(j.at("quantities").at(0).at("difference").get<double>(), 0.0, 1e-6);
    EXPECT_EQ(j.at("quantities").at(0).at("verdict"), "same");
    EXPECT_TRUE(j.at("configuration").at("same").get<bool>());

    // An older file records no driver or host: that is no difference.
    const std::string v1 = (data / "report_v1.json").string();
    Report current = *readSeriesFile(v1);
    current.host = "gpu-node";
    current.driverVersion = 13000;
    EXPECT_FALSE(anyBlocking(configDifferences(*readSeriesFile(v1), current)));
}

TEST_F(BaselineCli, FilesThatHoldNoSingleSeriesAreRefusedSayingWhatToCompare)
{
    const fs::path data = ASYNCSCOPE_TEST_DATA;
    const std::string series = (data / "h200" / "h200-series.json").string();
    const std::pair<fs::path, const char*> refused[] = {
        { data / "h200" / "h200-compare-wait.json", "h200-compare-wait.json: a comparison of several variants" },
        { data / "machine_record.host.json", "machine_record.host.json: a comparison of several variants" },
        { data / "h200" / "h200-error-record.host.json", "h200-error-record.host.json: a record of a host where nothing ran" },
        { data / "h200" / "h200-merged.side-by-side.json", "h200-merged.side-by-side.json: a merged table" },
        { data / "h200", "h200: is a directory" },
    };
    for (const auto& [file, message] : refused) {
        const std::string path = file.string();
        Outcome o = run({ "--baseline", path.c_str(), series.c_str() });
        EXPECT_EQ(o.code, kExitUsage) << path;
        EXPECT_NE(o.err.find(message), std::string::npos) << o.err;
        EXPECT_TRUE(o.out.empty());
    }
    // A host record of several GPUs: which ones it holds, and how to write one.
    HostReport host;
    host.host = "node7";
    for (int gpu = 0; gpu < 2; ++gpu) {
        DeviceResult d;
        d.device.index = gpu;
        d.device.name = "NVIDIA H200";
        VariantResult v;
        v.report = seriesOf({ 2.5, 2.6 });
        d.plan.variants.push_back(v);
        d.plan.planned = 1;
        host.devices.push_back(d);
    }
    const std::string record = (m_dir / "node7.host.json").string();
    {
        std::ofstream out(record);
        writeHostRecordJson(out, host, assessHost(host));
    }
    Outcome several = run({ "--baseline", record.c_str(), series.c_str() });
    EXPECT_EQ(several.code, kExitUsage);
    EXPECT_NE(several.err.find("holds the series of 2 GPUs (0, 1)"), std::string::npos) << several.err;
}

// A slowdown with a cause of its own: the H200 series recorded beside another process is slower, and the comparison
// says what its advice warns of; the clean baseline has no warning to show.
TEST_F(BaselineCli, TheAdvicesWarningsExplainASlowdown)
{
    const fs::path data = ASYNCSCOPE_TEST_DATA;
    const std::string clean = (data / "h200" / "h200-series.json").string();
    const std::string shared = (data / "h200" / "h200-machine.json").string();
    Outcome text = run({ "--baseline", clean.c_str(), shared.c_str() });
    EXPECT_EQ(text.code, kExitOk) << text.err;
    EXPECT_NE(text.out.find("verdict: GPU time slower by"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("the current series' advice warns (" + shared + "):"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("[severe] Another process on the GPU"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("the baseline series' advice warns"), std::string::npos) << text.out;

    Outcome json = run({ "--baseline", clean.c_str(), shared.c_str(), "--format", "json" });
    const nlohmann::json j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j.at("current").at("warnings").at(0).at("rule"), "interference");
    EXPECT_TRUE(j.at("baseline").at("warnings").empty());
}

TEST_F(BaselineCli, UsageErrorsSayWhatGoesWithWhat)
{
    const std::string a = write("a.json", seriesOf({ 2.5, 2.6, 2.5, 2.6, 2.5 }));
    EXPECT_EQ(run({ "--max-slowdown", "2" }).code, kExitUsage);
    Outcome gate = run({ "--baseline", a.c_str(), a.c_str(), "--gate", "gpu_time_ms,bogus" });
    EXPECT_EQ(gate.code, kExitUsage);
    EXPECT_NE(gate.err.find("'bogus'"), std::string::npos) << gate.err;
    EXPECT_EQ(run({ "--baseline", a.c_str(), a.c_str(), "--compare", "wait" }).code, kExitUsage);
    EXPECT_EQ(run({ "--baseline", a.c_str(), a.c_str(), "--max-slowdown", "nan" }).code, kExitUsage);
    EXPECT_EQ(run({ "--baseline", a.c_str(), a.c_str(), a.c_str() }).code, kExitUsage);
    Outcome missing = run({ "--baseline", (m_dir / "none.json").c_str() });
    EXPECT_EQ(missing.code, kExitUsage);  // refused input: told apart from a failed gate
    EXPECT_NE(missing.err.find("cannot read the baseline " + (m_dir / "none.json").string()), std::string::npos)
        << missing.err;
    Outcome missingPair = run({ "--baseline", a.c_str(), (m_dir / "none.json").c_str() });
    EXPECT_EQ(missingPair.code, kExitUsage);
    EXPECT_NE(missingPair.err.find("cannot compare " + (m_dir / "none.json").string()), std::string::npos)
        << missingPair.err;
}

// The gate never passes on nothing: a series of warm-ups alone, or of fewer runs than a test can tell anything from,
// is refused (exit 2) naming which side; and so is a gate none of whose quantities both series measured.
TEST_F(BaselineCli, TheGateRefusesSeriesWithTooFewMeasuredRuns)
{
    std::mt19937_64 rng(41);
    const std::string good = write("good.json", seriesOf(gpuTimes(rng, 200, 2.5, 0.01)));
    Report warmups = seriesOf({});
    for (int i = 1; i < 4; ++i) {
        RunResult warm = warmups.runs[0];
        warm.index = i;
        warmups.runs.push_back(warm);
    }
    warmups.config.runs = 5;  // the runs it was to measure: none came
    const std::string onlyWarmups = write("warmups.json", warmups);
    Outcome current = run({ "--baseline", good.c_str(), onlyWarmups.c_str(), "--max-slowdown", "2" });
    EXPECT_EQ(current.code, kExitUsage);
    EXPECT_NE(current.err.find(onlyWarmups + " holds 0 measured runs (and 4 warm-ups): a comparison needs at least 5"),
        std::string::npos)
        << current.err;
    EXPECT_TRUE(current.out.empty()) << current.out;

    const std::string one = write("one.json", seriesOf({ 2.5 }));
    Outcome baseline = run({ "--baseline", one.c_str(), good.c_str(), "--max-slowdown", "2" });
    EXPECT_EQ(baseline.code, kExitUsage);
    EXPECT_NE(baseline.err.find("the baseline " + one + " holds 1 measured run (and 1 warm-up)"), std::string::npos)
        << baseline.err;
    // One file: refused before anything runs, and so is a run too short to compare.
    Outcome beforeRunning = run({ "--baseline", one.c_str() });
    EXPECT_EQ(beforeRunning.code, kExitUsage);
    EXPECT_EQ(m_backend.seriesStarted.load(), 0);
    Outcome tooShort = run({ "--baseline", good.c_str(), "--runs", "4", "--allow-different" });
    EXPECT_EQ(tooShort.code, kExitUsage);
    EXPECT_NE(tooShort.err.find("--runs 4 measures too few runs to compare"), std::string::npos) << tooShort.err;
    EXPECT_EQ(m_backend.seriesStarted.load(), 0);

    const std::string five = write("five.json", seriesOf({ 2.5, 2.51, 2.49, 2.5, 2.52 }));
    EXPECT_EQ(run({ "--baseline", five.c_str(), five.c_str() }).code, kExitOk);

    // No stage was timed in these series: a gate on one has nothing to look at.
    Outcome nothing = run({ "--baseline", good.c_str(), good.c_str(), "--max-slowdown", "2", "--gate", "h2d_ms" });
    EXPECT_EQ(nothing.code, kExitUsage);
    EXPECT_NE(nothing.err.find("none of the gated quantities (h2d_ms) was measured in both series"),
        std::string::npos)
        << nothing.err;
}

// --max-slowdown below --min-difference: the gate follows the README's rule (slower by more than P % with the whole
// interval beyond P fails), both ways of it; verdicts and the gate judge the figure as it is printed.
TEST(Baseline, AGateBelowTheMinimumDifferenceStillFails)
{
    std::mt19937_64 rng(23);
    const Report a = seriesOf(gpuTimes(rng, 100000, 2.5, 0.01));
    const Report b = seriesOf(gpuTimes(rng, 100000, 2.5 * 1.004, 0.01));  // +0.4 %, certain at 10^5 runs
    BaselineSettings settings;
    settings.resamples = 1000;
    settings.maxSlowdownPercent = 0.1;
    const BaselineComparison strict = compareWithBaseline(a, b, settings);
    const QuantityComparison* q = strict.quantity("gpu_time_ms");
    ASSERT_NE(q, nullptr);
    ASSERT_GT(*q->lowPercent, 0.2);
    EXPECT_EQ(q->verdict, Verdict::Slower);
    EXPECT_TRUE(strict.gateFailed());
    EXPECT_DOUBLE_EQ(q->sameUnderPercent, 0.1);
    // CPU submit time is not gated: it keeps --min-difference.
    for (const QuantityComparison& other : strict.quantities) {
        if (!other.gated) {
            EXPECT_DOUBLE_EQ(other.sameUnderPercent, 0.5) << other.key;
        }
    }

    settings.maxSlowdownPercent = 2.0;  // above --min-difference: +0.4 % is the same, and passes
    const BaselineComparison loose = compareWithBaseline(a, b, settings);
    EXPECT_EQ(gpuVerdict(loose), Verdict::Small);
    EXPECT_FALSE(loose.gateFailed());
    const QuantityComparison* l = loose.quantity("gpu_time_ms");
    EXPECT_NE(verdictText(l->verdict, *l->differencePercent, l->sameUnderPercent).find("under 0.50 %"),
        std::string::npos);
}

TEST(Baseline, VerdictsJudgeThePercentAsPrinted)
{
    // A pure shift of 0.4996 on medians of about 100.1: +0.4991 %, printed "+0.50 %".
    std::vector<double> base, shifted;
    for (int i = 0; i < 200; ++i) {
        base.push_back(100.0 + 0.001 * i);
        shifted.push_back(100.0 + 0.001 * i + 0.4996);
    }
    BaselineSettings settings;
    settings.resamples = 1000;
    const BaselineComparison c = compareWithBaseline(seriesOf(base), seriesOf(shifted), settings);
    const QuantityComparison* q = c.quantity("gpu_time_ms");
    ASSERT_NE(q, nullptr);
    ASSERT_LT(*q->differencePercent, 0.5);
    EXPECT_EQ(signedPercentText(*q->differencePercent), "+0.50 %");
    EXPECT_EQ(q->verdict, Verdict::Slower) << verdictText(q->verdict, *q->differencePercent, q->sameUnderPercent);
}

TEST(Baseline, TooFewRunsToCompareNamesTheSeries)
{
    EXPECT_TRUE(tooFewRunsToCompare(seriesOf({ 1, 2, 3, 4, 5 }), "a").value_or("").empty());
    EXPECT_EQ(tooFewRunsToCompare(seriesOf({ 1, 2, 3, 4 }), "the baseline a.json").value_or(""),
        "the baseline a.json holds 4 measured runs (and 1 warm-up): a comparison needs at least 5 measured runs in "
        "each series");
}

}  // namespace
}  // namespace asyncscope
