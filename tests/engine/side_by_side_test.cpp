// GPUs side by side: flags against the host's median and the link, the text, CSV and JSON printers, and host records
// written and read back.
#include "engine/io/host_record_json.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/side_by_side_report.hpp"
#include "engine/run/device_plan_runner.hpp"
#include "engine/run/plan_advice.hpp"

#include "fake_hosts.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace asyncscope;
using asyncscope::testing::eightGpus;
using asyncscope::testing::FakeBackend;
using asyncscope::testing::noDriver;


TEST(SideBySide, FlagsTheSlowGpuAndTheOneBelowItsLink)
{
    const HostReport host = eightGpus("node1");
    const std::vector<SideBySideRow> rows = sideBySideRows(host);
    ASSERT_EQ(rows.size(), 8u);
    for (const SideBySideRow& r : rows) {
        EXPECT_EQ(r.host, "node1");
        EXPECT_EQ(r.runs, 5u);
        EXPECT_GT(r.gpuMs, 0.0);
        EXPECT_EQ(r.link.text(), r.device == 6 ? "Gen6 x16" : "Gen5 x16");
        const double expected = r.device == 3 ? 40.0 : 55.0;
        EXPECT_NEAR(r.h2dGBps, expected, 0.01 * expected) << r.device;
        EXPECT_NEAR(r.d2hGBps, expected, 0.01 * expected) << r.device;
        EXPECT_EQ(r.has(RowFlag::Slow), r.device == 3) << r.device;
        EXPECT_EQ(r.has(RowFlag::BelowLink), r.device == 3 || r.device == 6) << r.device;
        EXPECT_FALSE(r.has(RowFlag::SlowInSet));
        EXPECT_TRUE(r.error.empty()) << r.error;
    }
    EXPECT_EQ(rows[3].flagsText(), "below-link slow");
    EXPECT_EQ(rows[6].flagsText(), "below-link");
    EXPECT_NEAR(rows[0].linkGBps(), 63.015, 0.001);
}

TEST(SideBySide, SlowMeansTenPercentBelowTheMedianInEitherDirection)
{
    HostReport host;
    host.host = "h";
    for (int i = 0; i < 4; ++i) {
        DeviceResult& d = host.devices.emplace_back();
        d.device.index = i;
        d.device.topology.current = { "32.0 GT/s PCIe", 5, 16 };
    }
    std::vector<SideBySideRow> rows = sideBySideRows(host);  // nothing ran: no figures, no flags
    for (const SideBySideRow& r : rows)
        EXPECT_TRUE(r.flags.empty());

    EXPECT_DOUBLE_EQ(medianOf({ 1.0, 3.0, 2.0 }), 2.0);
    EXPECT_DOUBLE_EQ(medianOf({ 4.0, 1.0, 3.0, 2.0 }), 2.5);
    EXPECT_DOUBLE_EQ(medianOf({ 0.0, 0.0, 5.0 }), 5.0);  // unknown figures do not count
    EXPECT_DOUBLE_EQ(medianOf({}), 0.0);

    // Only D2H is slow on GPU 1; GPU 3 is 9 % below, not flagged; GPU 4's link is unknown: never below it.
    FakeBackend backend;
    backend.useHostOf(5);
    backend.devices[4].topology = {};
    PipelineConfig config;
    config.runs = 3;
    const auto run = [&](double gbps) {
        backend.copyGBps = { { 0, gbps } };
        DevicePlan plan;
        plan.devices = { 0 };
        plan.plan = seriesPlan(config);
        DevicePlanSink sink;
        std::atomic<bool> cancel { false };
        return runDevicePlan(backend, *backend.discover(), plan, cancel, sink).devices.front();
    };
    host.devices = { run(55.0), run(55.0), run(55.0), run(50.1), run(30.0) };
    for (int i = 0; i < 5; ++i)
        host.devices[std::size_t(i)].device = backend.devices[std::size_t(i)];
    // GPU 1: the fake's D2H takes what the GPU time leaves, so a longer GPU time makes a slower D2H alone.
    RunStore& slowed = host.devices[1].plan.variants.front().report.runs;
    for (std::size_t i = 0; i < slowed.size(); ++i) {
        slowed.update(i, [](RunResult& r) {
            for (Span& s : r.spans) {
                if (s.kind == SpanKind::D2H)
                    s.endMs = s.beginMs + s.ms() * 1.3;
            }
        });
    }
    rows = sideBySideRows(host);
    EXPECT_LT(rows[1].d2hGBps, 0.9 * rows[0].d2hGBps);
    EXPECT_NEAR(rows[1].h2dGBps, rows[0].h2dGBps, 0.01);
    EXPECT_TRUE(rows[1].has(RowFlag::Slow));
    EXPECT_FALSE(rows[3].has(RowFlag::Slow)) << rows[3].h2dGBps;
    EXPECT_TRUE(rows[4].has(RowFlag::Slow));
    EXPECT_FALSE(rows[4].has(RowFlag::BelowLink));  // 30 GB/s, but the link is unknown
    EXPECT_TRUE(rows[4].has(RowFlag::Slow));
    EXPECT_FALSE(rows[0].has(RowFlag::Slow));
    EXPECT_FALSE(rows[2].has(RowFlag::Slow));
}

TEST(SideBySide, PrintsATableCsvAndJson)
{
    const HostReport host = eightGpus("node1", DeviceMode::AllAtOnce);
    const std::vector<SideBySideRow> rows = sideBySideRows(host);
    const std::string text = formatSideBySideText(rows, aggregatesOf({ host }));
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);
    EXPECT_NE(line.find("H2D GB/s"), std::string::npos) << text;
    EXPECT_NE(line.find("link GB/s"), std::string::npos) << text;
    int gpuLines = 0;
    while (std::getline(lines, line)) {
        if (line.rfind("node1 ", 0) == 0) {
            ++gpuLines;
            if (line.find("0000:03:00.0") != std::string::npos) {
                EXPECT_NE(line.find("below-link slow"), std::string::npos) << line;
            }
        }
    }
    EXPECT_EQ(gpuLines, 8) << text;
    EXPECT_NE(text.find("node1: all at once, 8 GPUs copied"), std::string::npos) << text;
    EXPECT_NE(text.find("flags: slow = H2D or D2H at least 10 % below the host's median"), std::string::npos);

    std::ostringstream csv;
    writeSideBySideCsv(csv, rows);
    std::istringstream csvLines(csv.str());
    std::vector<std::string> all;
    while (std::getline(csvLines, line))
        all.push_back(line);
    ASSERT_EQ(all.size(), 9u) << csv.str();
    EXPECT_EQ(all[0].rfind("Host,Device,Name,PCI Bus Id,NUMA Node,Link,Max Link,Link GB/s,", 0), 0u) << all[0];
    EXPECT_EQ(all[4].rfind("node1,3,Fake H200,0000:03:00.0,0,Gen5 x16,Gen5 x16,63.015,", 0), 0u) << all[4];
    EXPECT_NE(all[4].find(",below-link slow,"), std::string::npos) << all[4];

    std::ostringstream json;
    writeSideBySideJson(json, rows, aggregatesOf({ host }));
    const auto j = nlohmann::json::parse(json.str());
    EXPECT_EQ(j.at("format"), "asyncscope-side-by-side");
    ASSERT_EQ(j.at("rows").size(), 8u);
    EXPECT_EQ(j.at("rows")[3].at("flags"), nlohmann::json({ "below-link", "slow" }));
    EXPECT_EQ(j.at("rows")[0].at("flags"), nlohmann::json::array());
    EXPECT_NEAR(j.at("rows")[3].at("h2d_gbps").get<double>(), 40.0, 0.5);
    EXPECT_EQ(j.at("aggregates")[0].at("devices"), 8);
    EXPECT_GT(j.at("aggregates")[0].at("gbps").get<double>(), 0.0);
}

TEST(HostRecord, RoundTripsEveryDeviceAndTheAggregate)
{
    const HostReport host = eightGpus("node1", DeviceMode::AllAtOnce);
    std::stringstream file;
    writeHostRecordJson(file, host, assessHost(host));
    const auto back = readHostRecordJson(file);
    ASSERT_TRUE(back.ok()) << back.error().message();
    EXPECT_EQ(back->host, "node1");
    EXPECT_EQ(back->mode, DeviceMode::AllAtOnce);
    EXPECT_FALSE(back->comparison.has_value());
    ASSERT_EQ(back->devices.size(), 8u);
    ASSERT_TRUE(back->aggregate.has_value());
    EXPECT_DOUBLE_EQ(back->aggregate->gbps, host.aggregate->gbps);
    EXPECT_EQ(back->aggregate->bytes, host.aggregate->bytes);
    for (std::size_t i = 0; i < 8; ++i) {
        const DeviceResult& d = back->devices[i];
        EXPECT_EQ(d.device.index, int(i));
        EXPECT_EQ(d.device.topology.current.text(), i == 6 ? "Gen6 x16" : "Gen5 x16");
        EXPECT_EQ(d.binding.text(), "not bound: binding turned off");
        ASSERT_EQ(d.plan.variants.size(), 1u);
        EXPECT_EQ(d.plan.variants[0].report.runs.size(), host.devices[i].plan.variants[0].report.runs.size());
        EXPECT_EQ(d.plan.variants[0].report.host, host.devices[i].plan.variants[0].report.host);
    }
    const auto rows = sideBySideRows(*back), original = sideBySideRows(host);
    ASSERT_EQ(rows.size(), original.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_DOUBLE_EQ(rows[i].h2dGBps, original[i].h2dGBps);
        EXPECT_EQ(rows[i].flags, original[i].flags);
    }
}

TEST(HostRecord, AnErrorRecordCarriesTheHostAndTheError)
{
    std::stringstream file;
    const HostReport failed = hostError("node3", noDriver());
    writeHostRecordJson(file, failed, assessHost(failed));
    const auto j = nlohmann::json::parse(file.str());
    EXPECT_EQ(j.at("host"), "node3");
    EXPECT_EQ(j.at("error").at("kind"), "no-driver");
    EXPECT_NE(j.at("error").at("message").get<std::string>().find("cudaErrorInsufficientDriver"), std::string::npos);
    EXPECT_TRUE(j.at("devices").empty());

    file.seekg(0);
    const auto back = readHostRecordJson(file);
    ASSERT_TRUE(back.ok()) << back.error().message();
    ASSERT_TRUE(back->error.has_value());
    EXPECT_EQ(back->error->message(), noDriver().message());
    const auto rows = sideBySideRows(*back);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].device, -1);
    EXPECT_EQ(rows[0].errorKind, "no-driver");
    const std::string table = formatSideBySideText(rows);
    const auto line = table.find("\nnode3 ");
    ASSERT_NE(line, std::string::npos) << table;
    EXPECT_EQ(table.find("error: no-driver: cudaGetDeviceCount failed", line),
        table.find_first_not_of(" -", line + 6)) << table;
}

TEST(HostRecord, ABrokenRecordNamesWhatIsWrong)
{
    std::istringstream notJson("{ \"format\": \"asyncscope-host\", ");
    EXPECT_NE(readHostRecordJson(notJson).error().message().find("cut short: it ends at line 1"), std::string::npos);
    std::istringstream newer(R"({"format": "asyncscope-host", "format_version": 9, "host": "x", "devices": []})");
    EXPECT_NE(
        readHostRecordJson(newer).error().message().find("format_version is 9; accepted: a whole number from 1 to 1"),
        std::string::npos);
    std::istringstream badMode(
        R"({"format": "asyncscope-host", "format_version": 1, "host": "x", "mode": "sideways", "devices": []})");
    EXPECT_NE(readHostRecordJson(badMode).error().message().find(
                  "mode is \"sideways\"; accepted: one-at-a-time or all-at-once"),
        std::string::npos);
    std::istringstream badReport(R"({"format": "asyncscope-host", "format_version": 1, "host": "x", "devices": [
        {"device": {"index": 0, "name": "G"}, "variants": [{"label": "l", "report": {"format": "asyncscope-report"}}]}]})");
    const auto bad = readHostRecordJson(badReport);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message().find("devices[0].variants[0].report: "), std::string::npos)
        << bad.error().message();
}
