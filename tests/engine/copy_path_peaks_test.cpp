// Each kind's bound from its own path's peak, without a GPU: the plan runners calibrate each (device, path) once and
// hand every variant its own path's peak (none for managed memory migrating on demand, none where the path is
// unsupported); the model's bounds per kind; the summary's figures named for the path; the path in JSON reports.
#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/text_report.hpp"
#include "engine/model/overlap_model.hpp"
#include "engine/model/series_summary.hpp"
#include "engine/run/device_plan_runner.hpp"
#include "engine/run/plan_advice.hpp"
#include "engine/run/plan_runner.hpp"

#include "fake_backend.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>

using namespace asyncscope;
using asyncscope::testing::FakeBackend;

namespace {

struct CountingSink final : PlanSink {
    std::vector<std::string> calibrationFailures;
    void calibrationFailed(const Error& error) override { calibrationFailures.push_back(error.message()); }
};

PipelineConfig small()
{
    PipelineConfig c;
    c.device = 1;
    c.runs = 2;
    c.warmupRuns = 0;
    c.elements = 1024;
    return c;
}

PlanReport runMemoryPlan(FakeBackend& backend, PlanSink& sink)
{
    const Platform platform = *backend.discover();
    auto plan = comparisonPlan(Comparison::Memory, small());
    EXPECT_TRUE(plan.ok());
    std::atomic<bool> cancel { false };
    return runPlan(backend, platform, *plan, cancel, sink);
}

const VariantResult* variantOf(const PlanReport& plan, HostMemory memory, CopyMechanism copy,
    ManagedMigration migration = ManagedMigration::Prefetch)
{
    for (const VariantResult& v : plan.variants) {
        const PipelineConfig& c = v.report.config;
        if (c.hostMemory == memory && (memory == HostMemory::Managed ? c.managedMigration == migration
                                                                      : c.copy == copy))
            return &v;
    }
    return nullptr;
}

// A summary whose median GPU time is `gpuMs`, with the figures `peak` gives a series of `config`.
SeriesSummary summaryOf(const PipelineConfig& config, const std::optional<CopyPeak>& peak, double gpuMs)
{
    SeriesSummary s;
    s.measuredRuns = 3;
    s.distributions.push_back(
        { std::string(keys::kGpuTime), "GPU time", ValueKind::Duration, summarize({ gpuMs, gpuMs, gpuMs }) });
    addSeriesFigures(s, config, peak, RunResult {});
    return s;
}

}  // namespace

TEST(CopyPathPeaks, EachVariantGetsThePeakOfItsOwnPathCalibratedOncePerPath)
{
    FakeBackend backend;
    CountingSink sink;
    const PlanReport result = runMemoryPlan(backend, sink);
    ASSERT_EQ(result.variants.size(), 8u);
    EXPECT_TRUE(sink.calibrationFailures.empty());

    auto peakOf = [&](HostMemory memory, CopyMechanism copy, ManagedMigration migration = ManagedMigration::Prefetch) {
        const VariantResult* v = variantOf(result, memory, copy, migration);
        EXPECT_NE(v, nullptr) << nameOf(memory);
        return v ? v->report.peak : std::nullopt;
    };
    const std::pair<HostMemory, CopyPath> copyEngine[] = { { HostMemory::Pageable, CopyPath::Pageable },
        { HostMemory::Pinned, CopyPath::Pinned }, { HostMemory::WriteCombined, CopyPath::WriteCombined },
        { HostMemory::Registered, CopyPath::Registered } };
    for (const auto& [memory, path] : copyEngine) {
        const auto peak = peakOf(memory, CopyMechanism::CopyEngine);
        ASSERT_TRUE(peak.has_value()) << nameOf(memory);
        EXPECT_EQ(peak->path, path);
        EXPECT_DOUBLE_EQ(peak->h2dGBps, FakeBackend::copyPeakValue(path).h2dGBps) << nameOf(memory);
        EXPECT_DOUBLE_EQ(peak->d2hGBps, FakeBackend::copyPeakValue(path).d2hGBps) << nameOf(memory);
    }
    // SM copies from pinned memory and the mapped kernel both take the SM peaks.
    const auto sm = peakOf(HostMemory::Pinned, CopyMechanism::Sm);
    ASSERT_TRUE(sm.has_value());
    EXPECT_EQ(sm->path, CopyPath::Sm);
    EXPECT_DOUBLE_EQ(sm->h2dGBps, FakeBackend::copyPeakValue(CopyPath::Sm).h2dGBps);
    const auto mapped = peakOf(HostMemory::Mapped, CopyMechanism::CopyEngine);
    ASSERT_TRUE(mapped.has_value());
    EXPECT_EQ(mapped->path, CopyPath::Sm);
    const auto prefetch = peakOf(HostMemory::Managed, CopyMechanism::CopyEngine, ManagedMigration::Prefetch);
    ASSERT_TRUE(prefetch.has_value());
    EXPECT_EQ(prefetch->path, CopyPath::ManagedPrefetch);
    EXPECT_DOUBLE_EQ(prefetch->d2hGBps, FakeBackend::copyPeakValue(CopyPath::ManagedPrefetch).d2hGBps);
    EXPECT_FALSE(peakOf(HostMemory::Managed, CopyMechanism::CopyEngine, ManagedMigration::OnDemand).has_value());

    // Six paths, each calibrated once for the device, though the SM path serves two variants.
    const auto calibrations = backend.calibrations();
    EXPECT_EQ(calibrations.size(), 6u);
    const std::set<std::pair<std::string, CopyPath>> distinct(calibrations.begin(), calibrations.end());
    EXPECT_EQ(distinct.size(), calibrations.size());
    for (const auto& [uuid, path] : calibrations)
        EXPECT_EQ(uuid, "GPU-fake-1") << nameOf(path);
}

TEST(CopyPathPeaks, AnUnsupportedPathOnlyLeavesItsVariantsWithoutABound)
{
    FakeBackend backend;
    backend.unsupportedPaths = { CopyPath::Sm, CopyPath::ManagedPrefetch };
    CountingSink sink;
    const PlanReport result = runMemoryPlan(backend, sink);
    EXPECT_TRUE(sink.calibrationFailures.empty());  // not a failure: the device cannot take that path
    for (const VariantResult& v : result.variants) {
        const auto path = copyPathOf(v.report.config);
        const bool bound = path && *path != CopyPath::Sm && *path != CopyPath::ManagedPrefetch;
        EXPECT_EQ(v.report.peak.has_value(), bound) << v.label;
        EXPECT_TRUE(v.ran()) << v.label;  // the fake runs them all: only the bound is missing
    }
}

TEST(CopyPathPeaks, AFailedCalibrationIsReportedOncePerPath)
{
    FakeBackend backend;
    backend.calibrationError = makeError(ErrorKind::Cuda, "the copy failed");
    CountingSink sink;
    const PlanReport result = runMemoryPlan(backend, sink);
    EXPECT_EQ(sink.calibrationFailures.size(), 6u);
    EXPECT_EQ(backend.calibrations().size(), 6u);
    for (const VariantResult& v : result.variants)
        EXPECT_FALSE(v.report.peak.has_value()) << v.label;
}

TEST(CopyPathPeaks, AllAtOnceCalibratesEveryPathOfEveryDeviceUpFrontOneAtATime)
{
    FakeBackend backend;
    backend.calibrationDelay = std::chrono::milliseconds(1);
    const Platform platform = *backend.discover();
    DevicePlan plan;
    plan.devices = { 0, 1 };
    plan.mode = DeviceMode::AllAtOnce;
    plan.bindToLocalCpus = false;
    auto variants = comparisonPlan(Comparison::Memory, small());
    ASSERT_TRUE(variants.ok());
    plan.plan = *variants;
    std::atomic<bool> cancel { false };
    DevicePlanSink sink;
    const HostReport report = runDevicePlan(backend, platform, plan, cancel, sink);
    EXPECT_EQ(backend.mostActiveCalibrations.load(), 1);
    const auto calibrations = backend.calibrations();
    ASSERT_EQ(calibrations.size(), 12u);  // six paths on each device, none asked twice
    EXPECT_EQ(std::set(calibrations.begin(), calibrations.end()).size(), 12u);
    // Every device's six come before the other's: they were made up front, one device after the other.
    EXPECT_EQ(std::count_if(calibrations.begin(), calibrations.begin() + 6,
                  [&](const auto& c) { return c.first == calibrations.front().first; }),
        6);
    ASSERT_EQ(report.devices.size(), 2u);
    for (const DeviceResult& device : report.devices) {
        for (const VariantResult& v : device.plan.variants) {
            const auto path = copyPathOf(v.report.config);
            ASSERT_EQ(v.report.peak.has_value(), path.has_value()) << v.label;
            if (path) {
                EXPECT_EQ(v.report.peak->path, *path) << v.label;
            }
        }
    }
}

TEST(CopyPathPeaks, TheZeroCopyBoundIsTheLongestOfTheLinksDirections)
{
    const std::size_t bytes = 1000000000;  // 1 GB: at 50 GB/s, 20 ms
    // Both directions at once slower than either alone: 2 GB at 80 GB/s = 25 ms.
    EXPECT_DOUBLE_EQ(zeroCopyBoundMs(bytes, CopyPeak { 50.0, 40.0, 0, false, 80.0, CopyPath::Sm }), 25.0);
    // Both at once as fast as the two alone: the slower direction, 1 GB at 40 GB/s.
    EXPECT_DOUBLE_EQ(zeroCopyBoundMs(bytes, CopyPeak { 50.0, 40.0, 0, false, 100.0, CopyPath::Sm }), 25.0);
    EXPECT_DOUBLE_EQ(zeroCopyBoundMs(bytes, CopyPeak { 50.0, 40.0, 0, false, 200.0, CopyPath::Sm }), 25.0);
    EXPECT_DOUBLE_EQ(zeroCopyBoundMs(bytes, CopyPeak { 50.0, 50.0, 0, false, 0.0, CopyPath::Sm }), 20.0);  // unknown
    EXPECT_DOUBLE_EQ(zeroCopyBoundMs(bytes, CopyPeak { 50.0, 50.0, 0, false, 50.0, CopyPath::Sm }), 40.0);
    EXPECT_DOUBLE_EQ(zeroCopyBoundMs(bytes, CopyPeak {}), 0.0);
}

TEST(CopyPathPeaks, EachKindTakesTheBoundOfHowItMovesItsBytes)
{
    PipelineConfig c;
    c.elements = 250000000;  // 1 GB
    const CopyPeak peak { 50.0, 25.0, 0, false, 60.0, CopyPath::Pinned };
    for (HostMemory memory : { HostMemory::Pinned, HostMemory::Pageable, HostMemory::WriteCombined,
             HostMemory::Registered }) {
        c.hostMemory = memory;
        EXPECT_DOUBLE_EQ(linkBoundMs(c, peak), 20.0 + 40.0) << nameOf(memory);
        EXPECT_DOUBLE_EQ(modelledBoundMs(c, peak, 1.0), 61.0) << nameOf(memory);
    }
    c.hostMemory = HostMemory::Pinned;
    c.copy = CopyMechanism::Sm;
    EXPECT_DOUBLE_EQ(linkBoundMs(c, peak), 60.0);  // SM copies still copy one way, then the other
    c.copy = CopyMechanism::CopyEngine;
    c.hostMemory = HostMemory::Managed;
    c.managedMigration = ManagedMigration::Prefetch;
    EXPECT_DOUBLE_EQ(linkBoundMs(c, peak), 60.0);
    c.chunks = 4;
    c.streams = 2;
    EXPECT_DOUBLE_EQ(modelledBoundMs(c, peak, 0.0), overlapBoundMs(c.bytes(), 4, 2, peak, 0.0));
    c.managedMigration = ManagedMigration::OnDemand;
    EXPECT_DOUBLE_EQ(linkBoundMs(c, peak), 0.0);  // pages move on faults: no bound
    EXPECT_DOUBLE_EQ(modelledBoundMs(c, peak, 1.0), 0.0);
    c.hostMemory = HostMemory::Mapped;
    EXPECT_DOUBLE_EQ(linkBoundMs(c, peak), zeroCopyBoundMs(c.bytes(), peak));
    EXPECT_DOUBLE_EQ(linkBoundMs(c, peak), 40.0);  // the slower direction: 1 GB at 25 GB/s
    // However it is chunked, and whatever the kernel's own time: the kernel is the transfer.
    EXPECT_DOUBLE_EQ(modelledBoundMs(c, peak, 70.0), 40.0);
}

TEST(CopyPathPeaks, SummaryFiguresNameThePathUnderStableKeys)
{
    PipelineConfig c;
    c.elements = 250000000;  // 1 GB
    c.hostMemory = HostMemory::Pageable;
    const SeriesSummary pageable = summaryOf(c, FakeBackend::copyPeakValue(CopyPath::Pageable), 300.0);
    ASSERT_NE(pageable.figure("peak_h2d_gbps"), nullptr);
    EXPECT_EQ(pageable.figure("peak_h2d_gbps")->name, "Host peak H2D, pageable");
    EXPECT_EQ(pageable.figure("peak_d2h_gbps")->name, "Host peak D2H, pageable");
    EXPECT_EQ(pageable.figure("peak_bidirectional_gbps")->name, "Host peak both directions, pageable");
    EXPECT_DOUBLE_EQ(pageable.value("peak_h2d_gbps"), 7.0);
    EXPECT_DOUBLE_EQ(pageable.value("serial_bound_ms"), 1e9 / 7e6 + 1e9 / 13e6);
    EXPECT_EQ(pageable.figure("serial_bound_ms")->name, "Serial PCIe bound");

    c.hostMemory = HostMemory::Mapped;
    const CopyPeak sm = FakeBackend::copyPeakValue(CopyPath::Sm);  // 50, 52, both at once 90
    const SeriesSummary mapped = summaryOf(c, sm, 30.0);
    EXPECT_EQ(mapped.figure("peak_h2d_gbps")->name, "Host peak H2D, SM copies");
    ASSERT_NE(mapped.figure("serial_bound_ms"), nullptr);
    EXPECT_EQ(mapped.figure("serial_bound_ms")->name, "Zero-copy PCIe bound");
    EXPECT_DOUBLE_EQ(mapped.value("serial_bound_ms"), 2e9 / 90e6);
    EXPECT_DOUBLE_EQ(mapped.value("gpu_time_over_serial_bound"), 30.0 / (2e9 / 90e6));
    EXPECT_EQ(mapped.figure("gpu_time_over_serial_bound")->name, "GPU time / zero-copy bound");
    EXPECT_DOUBLE_EQ(mapped.value(keys::kModelled), 2e9 / 90e6);

    c.hostMemory = HostMemory::Managed;
    c.managedMigration = ManagedMigration::Prefetch;
    const SeriesSummary prefetch = summaryOf(c, FakeBackend::copyPeakValue(CopyPath::ManagedPrefetch), 150.0);
    EXPECT_EQ(prefetch.figure("peak_d2h_gbps")->name, "Host peak D2H, managed prefetch");
    EXPECT_DOUBLE_EQ(prefetch.value("serial_bound_ms"), 1e9 / 48e6 + 1e9 / 10e6);

    c.managedMigration = ManagedMigration::OnDemand;
    const SeriesSummary onDemand = summaryOf(c, std::nullopt, 150.0);
    EXPECT_EQ(onDemand.figure("peak_h2d_gbps"), nullptr);
    EXPECT_EQ(onDemand.figure("serial_bound_ms"), nullptr);
    EXPECT_EQ(onDemand.figure(keys::kModelled), nullptr);
    // Even handed a peak (a report edited by hand), on-demand migration gets no bound.
    const SeriesSummary handed = summaryOf(c, FakeBackend::copyPeakValue(CopyPath::Pinned), 150.0);
    EXPECT_EQ(handed.figure("serial_bound_ms"), nullptr);
    EXPECT_EQ(handed.figure(keys::kModelled), nullptr);
}

TEST(CopyPathPeaks, AComparisonColumnTakesTheWordsItsVariantsNamesShare)
{
    PipelineConfig c;
    c.hostMemory = HostMemory::Pinned;
    const SeriesSummary pinned = summaryOf(c, FakeBackend::copyPeakValue(CopyPath::Pinned), 3.0);
    c.hostMemory = HostMemory::Mapped;
    const SeriesSummary mapped = summaryOf(c, FakeBackend::copyPeakValue(CopyPath::Sm), 3.0);
    c.hostMemory = HostMemory::Registered;
    const SeriesSummary registered = summaryOf(c, FakeBackend::copyPeakValue(CopyPath::Registered), 3.0);
    auto nameOfColumn = [](const std::vector<Column>& columns, std::string_view key) {
        for (const Column& column : columns) {
            if (column.key == key)
                return column.name;
        }
        return std::string("no column ") + std::string(key);
    };
    const auto mixed = comparisonColumns({ pinned, mapped, registered });
    EXPECT_EQ(nameOfColumn(mixed, "peak_h2d_gbps"), "Host peak H2D");
    EXPECT_EQ(nameOfColumn(mixed, "peak_bidirectional_gbps"), "Host peak both directions");
    EXPECT_EQ(nameOfColumn(mixed, "serial_bound_ms"), "PCIe bound");
    EXPECT_EQ(nameOfColumn(mixed, "gpu_time_over_serial_bound"), "GPU time / bound");
    // One path throughout: the names as they are.
    const auto same = comparisonColumns({ pinned, pinned });
    EXPECT_EQ(nameOfColumn(same, "peak_h2d_gbps"), "Host peak H2D, pinned");
    EXPECT_EQ(nameOfColumn(same, "serial_bound_ms"), "Serial PCIe bound");
}

TEST(CopyPathPeaks, JsonReportsKeepThePathAndOldOnesReadAsPinned)
{
    Report r;
    r.device.name = "Test GPU";
    r.device.uuid = "GPU-1";
    r.config.elements = 1024;
    r.config.hostMemory = HostMemory::Mapped;
    r.peak = FakeBackend::copyPeakValue(CopyPath::Sm);
    std::ostringstream out;
    writeJsonDocument(out, r, assessSeries(r));
    const std::string written = out.str();
    EXPECT_NE(written.find("\"path\": \"sm\""), std::string::npos) << written;
    auto read = [](const std::string& text) {
        std::istringstream in(text);
        return readJson(in);
    };
    const auto back = read(written);
    ASSERT_TRUE(back.ok()) << back.error().message();
    ASSERT_TRUE(back->peak.has_value());
    EXPECT_EQ(back->peak->path, CopyPath::Sm);
    EXPECT_DOUBLE_EQ(back->peak->h2dGBps, 50.0);

    std::string old = written;
    old.erase(old.find(",\n    \"path\": \"sm\""), std::string(",\n    \"path\": \"sm\"").size());
    const auto older = read(old);
    ASSERT_TRUE(older.ok()) << older.error().message() << "\n" << old;
    EXPECT_EQ(older->peak->path, CopyPath::Pinned);

    std::string unknown = written;
    unknown.replace(unknown.find("\"path\": \"sm\""), std::string("\"path\": \"sm\"").size(), "\"path\": \"warp\"");
    const auto refused = read(unknown);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message().find("calibration.path is 'warp'; accepted: pinned, pageable, write-combined, "
                                             "registered, sm or managed-prefetch"),
        std::string::npos)
        << refused.error().message();
}

TEST(CopyPathPeaks, TheTextReportSaysWhatThePeakMoved)
{
    Report r;
    r.device.name = "Test GPU";
    r.config.elements = 1024;
    r.config.hostMemory = HostMemory::Mapped;
    r.peak = FakeBackend::copyPeakValue(CopyPath::Sm);
    RunResult run;
    run.gpuMs = 1.0;
    run.verified = true;
    r.runs.push_back(run);
    const std::string text = formatSummaryText(r, assessSeries(r));
    EXPECT_NE(text.find("(host peak from SM copies through mapped memory of 256.0 MiB, cached; zero-copy bound"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("Host peak H2D, SM copies"), std::string::npos) << text;
}

TEST(CopyPathPeaks, TheComparisonCsvNamesEachRowsPeakPath)
{
    FakeBackend backend;
    CountingSink sink;
    const PlanReport result = runMemoryPlan(backend, sink);
    std::ostringstream out;
    writeComparisonCsv(out, result, assessPlan(result));
    std::istringstream csv(out.str());
    std::vector<std::string> rows;
    for (std::string line; std::getline(csv, line);)
        rows.push_back(line);
    ASSERT_EQ(rows.size(), result.variants.size() + 1) << out.str();
    // The variants' peaks come from different paths: the columns take the words their names share.
    EXPECT_NE(rows[0].find(",Host peak H2D (GB/s),"), std::string::npos) << rows[0];
    EXPECT_NE(rows[0].find(",PCIe bound (ms),"), std::string::npos) << rows[0];
    EXPECT_NE(rows[0].find(",Peak Path,Verified,Not Run"), std::string::npos) << rows[0];
    for (std::size_t i = 0; i < result.variants.size(); ++i) {
        const auto path = copyPathOf(result.variants[i].report.config);
        const std::string want = path ? std::string(",") + nameOf(*path) + ",1," : std::string(",,1,");
        EXPECT_NE(rows[i + 1].find(want), std::string::npos) << want << " in " << rows[i + 1];
    }
}
