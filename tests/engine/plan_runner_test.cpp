// The plan runner, with the fake backend: order, what is handed to the sink, variants that cannot run, failures and
// cancel.
#include "engine/run/plan_runner.hpp"

#include "fake_backend.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

// Records every call in order, as "start 0", "run 0.3", "end 0 ran" …
struct RecordingSink final : PlanSink {
    std::vector<std::string> calls;
    std::atomic<bool>* cancelAfterRuns = nullptr;
    int runsBeforeCancel = 0;
    int runs = 0;

    void variantStarting(std::size_t i, const VariantResult& v) override
    {
        calls.push_back("start " + std::to_string(i) + " " + v.report.device.name);
    }
    void runAvailable(std::size_t i, const RunResult& r) override
    {
        calls.push_back("run " + std::to_string(i) + "." + std::to_string(r.index));
        if (cancelAfterRuns && ++runs == runsBeforeCancel)
            cancelAfterRuns->store(true);
    }
    void variantEnded(std::size_t i, const VariantResult& v) override
    {
        calls.push_back("end " + std::to_string(i) + (v.notRun ? " not run" : v.failure ? " failed" : " ran"));
    }
    void calibrationFailed(const Error&) override { calls.push_back("no calibration"); }
};

PipelineConfig small()
{
    PipelineConfig c;
    c.device = 1;
    c.runs = 2;
    c.warmupRuns = 1;
    c.elements = 1024;
    return c;
}

}  // namespace

TEST(PlanRunner, RunsVariantsInOrderAndHandsEveryRunToTheSink)
{
    FakeBackend backend;
    const Platform platform = *backend.discover();
    auto plan = comparisonPlan(Comparison::Wait, small());
    ASSERT_TRUE(plan.ok());
    std::atomic<bool> cancel { false };
    RecordingSink sink;
    const PlanReport result = runPlan(backend, platform, *plan, cancel, sink);
    EXPECT_TRUE(result.complete());
    EXPECT_EQ(result.ranCount(), 2u);
    const std::vector<std::string> expected { "start 0 Fake Big GPU", "run 0.0", "run 0.1", "run 0.2", "end 0 ran",
        "start 1 Fake Big GPU", "run 1.0", "run 1.1", "run 1.2", "end 1 ran" };
    EXPECT_EQ(sink.calls, expected);
    EXPECT_EQ(result.variants[1].report.config.waitMode, WaitMode::Blocking);
    EXPECT_EQ(result.variants[1].label, "blocking");
    ASSERT_TRUE(result.variants[0].report.peak.has_value());  // calibrated
    ASSERT_TRUE(result.variants[0].report.outcome.has_value());
    EXPECT_EQ(result.variants[0].report.device.uuid, "GPU-fake-1");
}

TEST(PlanRunner, AVariantTooLargeIsRecordedAndTheOthersStillRun)
{
    FakeBackend backend;
    backend.hostBytes = (std::size_t(1) << 20) - 1;  // two buffers of 256 KiB fit, of 512 KiB do not
    const Platform platform = *backend.discover();
    auto plan = comparisonPlan(Comparison::Size, small(), 256 << 10, 1 << 30);
    ASSERT_TRUE(plan.ok());
    // 1 GiB also exceeds nothing on the device (80 GiB); add one that exceeds the device too.
    Variant huge { "100 GiB", small() };
    huge.config.elements = (std::size_t(100) << 30) / sizeof(int);
    plan->variants.push_back(huge);
    std::atomic<bool> cancel { false };
    RecordingSink sink;
    const PlanReport result = runPlan(backend, platform, *plan, cancel, sink);
    EXPECT_TRUE(result.complete());
    EXPECT_EQ(result.variants.size(), plan->variants.size());
    EXPECT_EQ(result.ranCount(), 1u);
    ASSERT_TRUE(result.variants[1].notRun.has_value());
    EXPECT_EQ(result.variants[1].notRun->kind, ErrorKind::TooLarge);
    EXPECT_NE(result.variants[1].notRun->message().find("host memory"), std::string::npos);
    ASSERT_TRUE(result.variants.back().notRun.has_value());
    EXPECT_NE(result.variants.back().notRun->message().find("Fake Big GPU has 80.0 GiB in all"), std::string::npos)
        << result.variants.back().notRun->message();
    EXPECT_NE(result.notRunText().find("ran 1 of " + std::to_string(plan->variants.size()) + " variants"),
        std::string::npos);
}

TEST(PlanRunner, AFailureStopsThePlanAndKeepsWhatRan)
{
    FakeBackend backend;
    Platform platform = *backend.discover();
    auto plan = comparisonPlan(Comparison::HostMemory, small());
    ASSERT_TRUE(plan.ok());
    plan->variants[1].config.device = 7;  // not on this machine
    std::atomic<bool> cancel { false };
    RecordingSink sink;
    const PlanReport result = runPlan(backend, platform, *plan, cancel, sink);
    EXPECT_FALSE(result.complete());
    ASSERT_NE(result.failure(), nullptr);
    EXPECT_EQ(result.failure()->kind, ErrorKind::Usage);
    EXPECT_EQ(result.variants[0].report.runs.size(), 3u);
    EXPECT_EQ(sink.calls.back(), "end 1 failed");
}

TEST(PlanRunner, CancelStopsWithinAVariantAndKeepsItsRuns)
{
    FakeBackend backend;
    const Platform platform = *backend.discover();
    PipelineConfig config = small();
    config.runs = 1000;
    auto plan = comparisonPlan(Comparison::Wait, config);
    ASSERT_TRUE(plan.ok());
    std::atomic<bool> cancel { false };
    RecordingSink sink;
    sink.cancelAfterRuns = &cancel;
    sink.runsBeforeCancel = 5;
    const PlanReport result = runPlan(backend, platform, *plan, cancel, sink);
    ASSERT_NE(result.failure(), nullptr);
    EXPECT_EQ(result.failure()->kind, ErrorKind::Cancelled);
    EXPECT_EQ(result.variants.size(), 1u);  // the second variant never started
    EXPECT_EQ(result.variants[0].report.runs.size(), 5u);
}

TEST(PlanRunner, ComparisonPlansAreValidatedAndEmptyRangesRefused)
{
    PipelineConfig config = small();
    EXPECT_FALSE(comparisonPlan(Comparison::Size, config, 1 << 20, 1 << 10).ok());
    config.runs = 0;
    const auto invalid = comparisonPlan(Comparison::Wait, config);
    ASSERT_FALSE(invalid.ok());
    EXPECT_EQ(invalid.error().kind, ErrorKind::Usage);
    const Plan series = seriesPlan(small());
    EXPECT_FALSE(series.comparison.has_value());
    ASSERT_EQ(series.variants.size(), 1u);
    EXPECT_EQ(series.variants[0].label, "4.0 KiB");
}

TEST(PlanRunner, WithoutKeepingRunsEveryRunGoesToTheSinkAndNoneIsKept)
{
    FakeBackend backend;
    const Platform platform = *backend.discover();
    auto plan = comparisonPlan(Comparison::Wait, small());
    ASSERT_TRUE(plan.ok());
    std::atomic<bool> cancel { false };
    RecordingSink sink;
    RunnerOptions options;
    options.keepRuns = false;
    const PlanReport result = runPlan(backend, platform, *plan, cancel, sink, options);
    EXPECT_TRUE(result.complete());
    EXPECT_EQ(result.ranCount(), 2u);
    const auto isRun = [](const std::string& call) { return call.rfind("run ", 0) == 0; };
    EXPECT_EQ(std::count_if(sink.calls.begin(), sink.calls.end(), isRun), 6);
    for (const VariantResult& v : result.variants) {
        EXPECT_TRUE(v.report.runs.empty());
        EXPECT_TRUE(v.report.outcome.has_value());  // the series' end is kept all the same
    }
}
