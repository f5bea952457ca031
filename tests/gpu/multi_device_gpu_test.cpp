// Every GPU of the host through the device plan runner and asyncscope-cli --device all, one at a time and all at
// once: every element of every run of every device checked. Skips, printing the engine's reason, without a GPU.
#include "cli/cli_app.hpp"

#include "engine/cuda/cuda_backend.hpp"
#include "engine/run/device_plan_runner.hpp"
#include "engine/run/side_by_side.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>

using namespace asyncscope;

namespace {

class AllGpus : public ::testing::TestWithParam<DeviceMode> {
protected:
    void SetUp() override
    {
        auto discovered = backend.discover();
        if (!discovered)
            GTEST_SKIP() << "no GPU: " << discovered.error().message();
        platform = *discovered;
    }

    CudaBackend backend;
    Platform platform;
};

}  // namespace

TEST_P(AllGpus, EveryRunOfEveryDeviceVerifies)
{
    PipelineConfig config;
    config.elements = 1000003;  // not a multiple of the block: the tail must be incremented too
    config.runs = 20;
    config.warmupRuns = 2;
    DevicePlan plan;
    for (const DeviceInfo& d : platform.devices)
        plan.devices.push_back(d.index);
    plan.mode = GetParam();
    plan.plan = seriesPlan(config);
    DevicePlanSink sink;
    std::atomic<bool> cancel { false };
    const HostReport report = runDevicePlan(backend, platform, plan, cancel, sink);
    ASSERT_EQ(report.devices.size(), platform.devices.size());
    EXPECT_EQ(report.failure(), nullptr) << report.failure()->message();
    for (const DeviceResult& d : report.devices) {
        std::cout << "GPU " << d.device.index << " " << d.device.pciBusId << ": " << d.device.topology.text()
                  << "; " << d.binding.text() << '\n';
        ASSERT_TRUE(d.plan.complete()) << d.device.index;
        const Report& r = d.plan.variants.front().report;
        EXPECT_EQ(r.config.device, d.device.index);
        ASSERT_EQ(r.runs.size(), 22u);
        for (const RunResult& run : r.runs) {
            EXPECT_TRUE(run.verified) << "GPU " << d.device.index << " run " << run.index << ": element "
                                      << run.firstWrongIndex << " is " << run.firstWrongValue << ", expected "
                                      << run.expectedValue;
            EXPECT_GT(run.gpuMs, 0.0);
            EXPECT_NE(run.hostClockNs, 0);
            for (const Span& s : run.spans)
                EXPECT_EQ(s.device, d.device.index);
        }
    }
    const auto rows = sideBySideRows(report);
    for (const SideBySideRow& row : rows) {
        EXPECT_GT(row.h2dGBps, 0.0) << row.device;
        EXPECT_GT(row.d2hGBps, 0.0) << row.device;
        std::cout << "GPU " << row.device << ": H2D " << row.h2dGBps << " GB/s, D2H " << row.d2hGBps
                  << " GB/s, link " << row.link.text() << " " << row.linkGBps() << " GB/s, flags '"
                  << row.flagsText() << "'\n";
    }
    if (GetParam() == DeviceMode::AllAtOnce) {
        ASSERT_TRUE(report.aggregate.has_value());
        EXPECT_EQ(report.aggregate->devices, int(platform.devices.size()));
        EXPECT_GT(report.aggregate->overlapMs, 0.0);
        EXPECT_GT(report.aggregate->gbps, 0.0);
        std::cout << "aggregate " << report.aggregate->gbps << " GB/s over " << report.aggregate->overlapMs
                  << " ms\n";
    }
}

TEST_P(AllGpus, TheCliWritesEveryDevicesRecord)
{
    std::vector<const char*> args { "asyncscope-cli", "--device", "all", "--runs", "10", "--size", "16MiB",
        "--format", "json" };
    if (GetParam() == DeviceMode::AllAtOnce)
        args.push_back("--all-at-once");
    const auto options = parseCommandLine(int(args.size()), args.data());
    ASSERT_TRUE(options.ok()) << options.error().message();
    std::ostringstream out, err;
    std::atomic<bool> cancel { false };
    EXPECT_EQ(runCli(*options, backend, cancel, out, err), kExitOk) << err.str();
    const auto record = nlohmann::json::parse(out.str());
    EXPECT_EQ(record.at("mode"), nameOf(GetParam()));
    ASSERT_EQ(record.at("devices").size(), platform.devices.size());
    for (const auto& d : record.at("devices")) {
        const auto& report = d.at("variants")[0].at("report");
        EXPECT_EQ(report.at("summary").at("verified_runs"), 11);
        EXPECT_EQ(report.at("runs").size(), 11u);
    }
}

INSTANTIATE_TEST_SUITE_P(Modes, AllGpus, ::testing::Values(DeviceMode::OneAtATime, DeviceMode::AllAtOnce),
    [](const ::testing::TestParamInfo<DeviceMode>& info) {
        return info.param == DeviceMode::AllAtOnce ? std::string("AllAtOnce") : std::string("OneAtATime");
    });
