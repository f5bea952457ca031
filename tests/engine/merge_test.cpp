// Merges of result files: host records, error records and series reports of earlier versions in one table, hosts
// in several files, and files that are not results.
#include "engine/io/host_record_json.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/result_file.hpp"
#include "engine/io/side_by_side_report.hpp"
#include "engine/run/plan_advice.hpp"

#include "classic_runs.hpp"
#include "fake_hosts.hpp"

#include "temp_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace asyncscope;
using namespace asyncscope::testing;
namespace fs = std::filesystem;

namespace {

void writeRecord(const std::string& path, const HostReport& host)
{
    std::ofstream out(path);
    writeHostRecordJson(out, host, assessHost(host));
}

}  // namespace

TEST(Merge, TwoHostsAndAnErrorRecordInOneTable)
{
    TempDir dir("merge");
    writeRecord(dir.file("a.json"), twoGpus("a", 55.0));
    writeRecord(dir.file("b.json"), twoGpus("b", 45.0));  // both slow against the set, neither against its host
    writeRecord(dir.file("c-none.json"), hostError("c", noDriver()));
    // A series report of the release before hosts were recorded: its file's name stands for the host.
    Report old = classicReport(20);
    {
        std::ofstream out(dir.file("old-h200.json"));
        writeJson(out, old, assessSeries(old));
    }
    std::vector<HostReport> hosts;
    for (const char* name : { "a.json", "b.json", "c-none.json", "old-h200.json" }) {
        auto host = readResultFile(dir.file(name));
        ASSERT_TRUE(host.ok()) << host.error().message();
        hosts.push_back(std::move(*host));
    }
    const std::vector<SideBySideRow> rows = mergeRows(hosts);
    ASSERT_EQ(rows.size(), 6u);
    EXPECT_EQ(rows[0].host, "a");
    EXPECT_EQ(rows[2].host, "b");
    for (int i : { 0, 1 })
        EXPECT_TRUE(rows[std::size_t(i)].flags.empty()) << rows[std::size_t(i)].flagsText();
    for (int i : { 2, 3 }) {
        EXPECT_TRUE(rows[std::size_t(i)].has(RowFlag::SlowInSet));
        EXPECT_FALSE(rows[std::size_t(i)].has(RowFlag::Slow));
    }
    EXPECT_EQ(rows[4].host, "c");
    EXPECT_EQ(rows[4].device, -1);
    EXPECT_EQ(rows[4].errorKind, "no-driver");
    EXPECT_EQ(rows[5].host, "old-h200.json");
    EXPECT_EQ(rows[5].name, "NVIDIA H200");
    EXPECT_EQ(rows[5].pciBusId, "0000:19:00.0");
    EXPECT_EQ(rows[5].runs, 19u);

    const std::string table = formatSideBySideText(rows);
    EXPECT_NE(table.find("slow-in-set"), std::string::npos) << table;
    const auto line = table.find("\nc ");
    ASSERT_NE(line, std::string::npos) << table;
    EXPECT_EQ(table.find("error: no-driver", line), table.find_first_not_of(" -", line + 2)) << table;
}

TEST(Merge, OneHostInSeveralFilesIsOneHost)
{
    // Records written one per device: a host's median is over all its files.
    HostReport host = eightGpus("node1");
    std::vector<HostReport> perDevice;
    for (DeviceResult& d : host.devices) {
        HostReport one = host;
        one.devices = { d };
        perDevice.push_back(one);
    }
    const auto rows = mergeRows(perDevice);
    ASSERT_EQ(rows.size(), 8u);
    EXPECT_TRUE(rows[3].has(RowFlag::Slow));
    EXPECT_TRUE(rows[3].has(RowFlag::SlowInSet));
    EXPECT_FALSE(rows[0].has(RowFlag::Slow));
}

TEST(Merge, FilesThatAreNotResultsAreNamed)
{
    TempDir dir("merge");
    const auto missing = readResultFile(dir.file("missing.json"));
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().message().rfind(dir.file("missing.json") + ": does not exist", 0), 0u)
        << missing.error().message();

    {
        std::ofstream out(dir.file("compare.json"));
        PlanReport plan;
        plan.comparison = Comparison::Wait;
        writeComparisonJson(out, plan, assessPlan(plan));
    }
    const auto comparison = readResultFile(dir.file("compare.json"));
    ASSERT_FALSE(comparison.ok());
    EXPECT_NE(comparison.error().message().find("compare.json: a comparison of several variants, which a merge does not take"),
        std::string::npos);

    std::ofstream(dir.file("junk.json")) << "not json at all";
    const auto junk = readResultFile(dir.file("junk.json"));
    ASSERT_FALSE(junk.ok());
    EXPECT_EQ(junk.error().message().rfind(dir.file("junk.json") + ": ", 0), 0u) << junk.error().message();
}
