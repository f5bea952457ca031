// asyncscope-cli on several devices: --device lists and all, both modes, --output patterns, the record a host
// without a driver still writes, --merge, and cancel; driven with the fake backend.
#include "cli/cli_app.hpp"
#include "cli/output_pattern.hpp"

#include "engine/host/host_name.hpp"
#include "engine/io/host_record_json.hpp"
#include "engine/run/plan_advice.hpp"

#include "fake_hosts.hpp"

#include "temp_dir.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace asyncscope;
using namespace asyncscope::testing;
namespace fs = std::filesystem;

namespace {

Result<CliOptions> parse(std::vector<const char*> args)
{
    args.insert(args.begin(), "asyncscope-cli");
    return parseCommandLine(static_cast<int>(args.size()), args.data());
}

struct CliRun {
    int code = -1;
    std::string out;
    std::string err;
};

CliRun runWith(Backend& backend, std::vector<const char*> args, const std::atomic<bool>* cancelFrom = nullptr)
{
    auto options = parse(args);
    EXPECT_TRUE(options.ok()) << options.error().message();
    std::atomic<bool> cancel { false };
    std::ostringstream out, err;
    CliRun run;
    run.code = runCli(*options, backend, cancelFrom ? *cancelFrom : cancel, out, err);
    run.out = out.str();
    run.err = err.str();
    return run;
}

nlohmann::json readJsonFile(const std::string& path)
{
    std::ifstream in(path);
    return nlohmann::json::parse(in, nullptr, false);
}

// Eight GPUs, GPU 3 copying at 40 GB/s against the others' 55.
void eightWithOneSlow(FakeBackend& backend)
{
    backend.useHostOf(8);
    backend.copyGBps[3] = 40.0;
}

}  // namespace

TEST(CliDevices, DeviceTakesBestAllAnIndexOrAList)
{
    auto options = parse({});
    ASSERT_TRUE(options.ok());
    EXPECT_EQ(options->devices.kind, DeviceSelection::Kind::Best);
    EXPECT_FALSE(options->deviceGiven);

    options = parse({ "--device", "all" });
    ASSERT_TRUE(options.ok());
    EXPECT_EQ(options->devices.kind, DeviceSelection::Kind::All);
    EXPECT_TRUE(options->devices.several());
    EXPECT_EQ(options->deviceMode, DeviceMode::OneAtATime);
    EXPECT_TRUE(options->numaBinding);

    options = parse({ "--device", "0,2,5", "--all-at-once", "--no-numa-binding" });
    ASSERT_TRUE(options.ok()) << options.error().message();
    EXPECT_EQ(options->devices.indices, (std::vector<int> { 0, 2, 5 }));
    EXPECT_EQ(options->config.device, 0);
    EXPECT_EQ(options->deviceMode, DeviceMode::AllAtOnce);
    EXPECT_FALSE(options->numaBinding);

    options = parse({ "--device=4" });
    ASSERT_TRUE(options.ok());
    EXPECT_FALSE(options->devices.several());
    EXPECT_EQ(options->config.device, 4);
}

TEST(CliDevices, BadDeviceListsAreUsageErrorsThatSayWhy)
{
    const std::pair<std::vector<const char*>, const char*> cases[] = {
        { { "--device", "0,,2" }, "'0,,2' is not a device choice: an index is missing" },
        { { "--device", "1,x" }, "'x' is not a device index" },
        { { "--device", "first" }, "'first' is not a device index" },
        { { "--device", "2,2" }, "device 2 is named twice" },
        { { "--device", "all", "--compare", "wait" }, "comparisons run on one device" },
        { { "--device", "0,1", "--trace", "t.json" }, "--trace writes one device's series" },
        { { "--output", "r/%h-%x.json" }, "'%x' is not a placeholder" },
        { { "--output", "r/50%" }, "'%' is not a placeholder" },
        { { "--merge", "a.json", "--output", "m-%d.csv" }, "--merge writes one table" },
    };
    for (const auto& [args, why] : cases) {
        const auto options = parse(args);
        ASSERT_FALSE(options.ok()) << why;
        EXPECT_EQ(options.error().kind, ErrorKind::Usage);
        EXPECT_NE(options.error().message().find(why), std::string::npos) << options.error().message();
    }
}

TEST(CliDevices, ADeviceTheHostLacksIsNamed)
{
    FakeBackend backend;
    eightWithOneSlow(backend);
    const CliRun run = runWith(backend, { "--device", "0,2,9", "--runs", "2" });
    EXPECT_EQ(run.code, kExitUsage);
    EXPECT_NE(run.err.find("asyncscope-cli: error: device 9 does not exist; this host has 8 (0 to 7)"),
        std::string::npos)
        << run.err;
    EXPECT_EQ(backend.seriesStarted.load(), 0);
}

TEST(CliDevices, PlaceholdersNameTheHostAndTheDevice)
{
    EXPECT_EQ(expandOutputPattern("results/%h-%d.json", "node17", "3"), "results/node17-3.json");
    EXPECT_EQ(expandOutputPattern("%h/%d/100%%.csv", "n", kNoDevice), "n/none/100%.csv");
    EXPECT_EQ(expandOutputPattern("plain.json", "n", "0"), "plain.json");
    EXPECT_TRUE(namesDevice("r/%h-%d.json"));
    EXPECT_FALSE(namesDevice("r/%h.json"));
    EXPECT_FALSE(namesDevice("r/%%d.json"));  // a percent sign, then a d
    EXPECT_FALSE(checkOutputPattern("a%%b%h%d").has_value());
}

TEST(CliDevices, AllDevicesOneAtATimeSideBySideFlagsTheSlowOne)
{
    FakeBackend backend;
    eightWithOneSlow(backend);
    const CliRun run = runWith(backend, { "--device", "all", "--runs", "3" });
    EXPECT_EQ(run.code, kExitOk) << run.err;
    EXPECT_EQ(backend.seriesStarted.load(), 8);
    EXPECT_EQ(backend.mostActiveSeries.load(), 1);
    EXPECT_NE(run.out.find(": 8 GPUs, one at a time"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("H2D GB/s"), std::string::npos) << run.out;
    // Every GPU's row; GPU 3's flagged slow (and below its link), no other.
    std::istringstream lines(run.out);
    std::string line;
    int rows = 0;
    while (std::getline(lines, line)) {
        if (line.find("Fake H200  0000:") == std::string::npos)
            continue;
        ++rows;
        EXPECT_EQ(line.find("slow") != std::string::npos, line.find("0000:03:00.0") != std::string::npos) << line;
    }
    EXPECT_EQ(rows, 8) << run.out;
    // Progress on standard error: where each GPU sits and its worker thread's binding.
    EXPECT_NE(run.err.find("[GPU 3] Fake H200, PCI 0000:03:00.0: NUMA node 0, CPUs 0-31, link Gen5 x16"),
        std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find("worker thread bound to CPUs"), std::string::npos) << run.err;
}

TEST(CliDevices, AllAtOnceRunsEveryDeviceTogetherAndGivesTheAggregate)
{
    FakeBackend backend;
    eightWithOneSlow(backend);
    backend.runDelay = std::chrono::milliseconds(3);
    const CliRun run = runWith(backend, { "--device", "all", "--all-at-once", "--runs", "5", "--format", "json" });
    EXPECT_EQ(run.code, kExitOk) << run.err;
    EXPECT_EQ(backend.mostActiveSeries.load(), 8);
    const auto record = nlohmann::json::parse(run.out);
    EXPECT_EQ(record.at("format"), "asyncscope-host");
    EXPECT_EQ(record.at("host"), shortHostName());
    EXPECT_EQ(record.at("mode"), "all-at-once");
    ASSERT_EQ(record.at("devices").size(), 8u);
    EXPECT_EQ(record.at("aggregate").at("devices"), 8);
    EXPECT_GT(record.at("aggregate").at("gbps").get<double>(), 0.0);
    for (const auto& d : record.at("devices")) {
        const auto& report = d.at("variants")[0].at("report");
        EXPECT_EQ(report.at("host"), shortHostName());
        EXPECT_EQ(report.at("runs").size(), 6u);
        EXPECT_TRUE(d.at("binding").contains("text"));
    }

    const CliRun csv = runWith(backend, { "--device", "1,3", "--all-at-once", "--runs", "2", "--format", "csv" });
    EXPECT_EQ(csv.code, kExitOk) << csv.err;
    EXPECT_EQ(csv.out.rfind("Host,Device,Name,", 0), 0u) << csv.out;
    EXPECT_NE(csv.out.find(",3,Fake H200,0000:03:00.0,"), std::string::npos) << csv.out;
}

TEST(CliDevices, OutputWithADeviceWritesAFilePerDeviceInFoldersItCreates)
{
    TempDir dir("cli");
    FakeBackend backend;
    eightWithOneSlow(backend);
    const std::string pattern = dir.file("deep/er/%h-%d.json");
    const CliRun run = runWith(backend, { "--device", "0,3,5", "--runs", "2", "--format", "json", "--output",
                                            pattern.c_str(), "--no-numa-binding" });
    EXPECT_EQ(run.code, kExitOk) << run.err;
    EXPECT_TRUE(run.out.empty()) << run.out;
    for (const int device : { 0, 3, 5 }) {
        const std::string name = shortHostName() + "-" + std::to_string(device) + ".json";
        const auto record = readJsonFile(dir.file("deep/er/" + name));
        ASSERT_FALSE(record.is_discarded()) << device;
        ASSERT_EQ(record.at("devices").size(), 1u);
        EXPECT_EQ(record.at("devices")[0].at("device").at("index"), device);
        EXPECT_EQ(record.at("devices")[0].at("binding").at("text"), "not bound: binding turned off");
    }
    EXPECT_FALSE(fs::exists(dir.file("deep/er/" + shortHostName() + "-1.json")));

    // Without %d: one file with every device.
    const std::string one = dir.file("all-%h.txt");
    const CliRun together = runWith(backend, { "--device", "all", "--runs", "2", "--output", one.c_str() });
    EXPECT_EQ(together.code, kExitOk) << together.err;
    std::ifstream in(dir.file("all-" + shortHostName() + ".txt"));
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find(": 8 GPUs, one at a time"), std::string::npos) << text;
}

TEST(CliDevices, WithoutADriverTheHostStillWritesItsRecord)
{
    TempDir dir("cli");
    FakeBackend backend;
    backend.discoveryError = noDriver();
    const std::string pattern = dir.file("results/%h-%d.json");
    const CliRun run = runWith(backend, { "--device", "all", "--format", "json", "--output", pattern.c_str() });
    EXPECT_EQ(run.code, kExitFailure);
    EXPECT_NE(run.err.find("cudaErrorInsufficientDriver"), std::string::npos) << run.err;
    const std::string file = dir.file("results/" + shortHostName() + "-none.json");
    const auto record = readJsonFile(file);
    ASSERT_FALSE(record.is_discarded()) << file;
    EXPECT_EQ(record.at("host"), shortHostName());
    EXPECT_EQ(record.at("error").at("kind"), "no-driver");
    EXPECT_NE(record.at("error").at("message").get<std::string>().find("cudaErrorInsufficientDriver"),
        std::string::npos);
    EXPECT_TRUE(record.at("devices").empty());

    // CSV and text say the same.
    const std::string csvFile = dir.file("r-%d.csv");
    EXPECT_EQ(runWith(backend, { "--format", "csv", "--output", csvFile.c_str() }).code, kExitFailure);
    std::ifstream csv(dir.file("r-none.csv"));
    std::string header, row;
    std::getline(csv, header);
    std::getline(csv, row);
    EXPECT_EQ(row.rfind(shortHostName() + ",,", 0), 0u) << row;
    EXPECT_NE(row.find(",no-driver,"), std::string::npos) << row;
}

TEST(CliDevices, MergeOfTwoRecordsAndAnErrorRecordPrintsOneTable)
{
    TempDir dir("cli");
    for (const auto& [name, host] : { std::pair { "a.json", twoGpus("a", 55.0) },
             std::pair { "b.json", twoGpus("b", 45.0) }, std::pair { "c.json", hostError("c", noDriver()) } }) {
        std::ofstream out(dir.file(name));
        writeHostRecordJson(out, host, assessHost(host));
    }
    const std::string a = dir.file("a.json"), b = dir.file("b.json"), c = dir.file("c.json");
    FakeBackend backend;
    backend.discoveryError = noDriver();  // a merge needs no GPU
    const CliRun text = runWith(backend, { "--merge", a.c_str(), b.c_str(), c.c_str() });
    EXPECT_EQ(text.code, kExitOk) << text.err;
    EXPECT_TRUE(text.err.empty()) << text.err;
    std::istringstream lines(text.out);
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line.rfind("host  GPU  name", 0), 0u) << text.out;
    std::vector<std::string> rows;
    while (std::getline(lines, line))
        rows.push_back(line);
    ASSERT_GE(rows.size(), 5u) << text.out;
    EXPECT_EQ(rows[0].rfind("a     0", 0), 0u) << text.out;
    EXPECT_EQ(rows[2].find("slow-in-set") != std::string::npos, true) << rows[2];
    EXPECT_EQ(rows[0].find("slow"), std::string::npos) << rows[0];
    EXPECT_NE(rows[4].find("error: no-driver: cudaGetDeviceCount failed"), std::string::npos) << rows[4];
    // Each row names the file it was read from, at its end.
    for (const auto& [row, file] : { std::pair { 0, a }, std::pair { 1, a }, std::pair { 2, b }, std::pair { 3, b } })
        EXPECT_EQ(rows[std::size_t(row)].substr(rows[std::size_t(row)].size() - file.size()), file) << text.out;
    EXPECT_NE(rows[4].find("(" + c + ")"), std::string::npos) << rows[4];

    const CliRun csv = runWith(backend, { "--merge", a.c_str(), b.c_str(), c.c_str(), "--format", "csv" });
    EXPECT_EQ(csv.code, kExitOk);
    EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 6) << csv.out;
    EXPECT_NE(csv.out.find(",Error,File\n"), std::string::npos) << csv.out;
    EXPECT_NE(csv.out.find("," + b + "\n"), std::string::npos) << csv.out;
    const CliRun json = runWith(backend, { "--merge", a.c_str(), c.c_str(), "--format", "json" });
    EXPECT_EQ(json.code, kExitOk);
    const auto j = nlohmann::json::parse(json.out);
    ASSERT_EQ(j.at("rows").size(), 3u);
    EXPECT_EQ(j.at("rows")[2].at("error").at("kind"), "no-driver");
    EXPECT_EQ(j.at("rows")[0].at("file"), a);
    EXPECT_EQ(j.at("rows")[2].at("file"), c);
}

TEST(CliDevices, AMergeNamesTheFilesItCannotReadAndStillPrintsTheOthers)
{
    TempDir dir("cli");
    {
        std::ofstream out(dir.file("a.json"));
        const HostReport host = twoGpus("a", 55.0);
        writeHostRecordJson(out, host, assessHost(host));
    }
    std::ofstream(dir.file("broken.json")) << "{\"format\": \"asyncscope-host\", \"devi";
    const std::string a = dir.file("a.json"), broken = dir.file("broken.json"), missing = dir.file("gone.json");
    FakeBackend backend;
    const CliRun run = runWith(backend, { "--merge", a.c_str(), broken.c_str(), missing.c_str() });
    EXPECT_EQ(run.code, kExitUsage);  // refused input
    EXPECT_NE(run.err.find("asyncscope-cli: cannot merge " + broken + ": "), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("asyncscope-cli: cannot merge " + missing + ": does not exist"), std::string::npos)
        << run.err;
    EXPECT_NE(run.out.find("\na     0"), std::string::npos) << run.out;

    const CliRun none = runWith(backend, { "--merge", missing.c_str() });
    EXPECT_EQ(none.code, kExitUsage);
    EXPECT_TRUE(none.out.empty());
    EXPECT_NE(none.err.find("none of the 1 files could be read"), std::string::npos) << none.err;
}

TEST(CliDevices, ListDevicesSaysWhereEachGpuSits)
{
    FakeBackend backend;
    backend.useHostOf(2);
    backend.devices[1].topology = {};
    backend.devices[1].topology.note = "no /sys/bus/pci/devices/0000:01:00.0 (a container or a VM may hide it)";
    const CliRun run = runWith(backend, { "--list-devices" });
    EXPECT_EQ(run.code, kExitOk);
    EXPECT_NE(run.out.find("PCI 0000:00:00.0"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("    NUMA node 0, CPUs 0-31, link Gen5 x16 (max Gen5 x16, 63.0 GB/s per direction)\n"),
        std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("    NUMA node unknown, CPUs unknown, link unknown\n    (no /sys/bus/pci/devices/"),
        std::string::npos)
        << run.out;
}

TEST(CliDevices, CancelStopsEveryDeviceAndKeepsWhatRan)
{
    FakeBackend backend;
    backend.useHostOf(4);
    backend.runDelay = std::chrono::milliseconds(5);
    std::atomic<bool> cancel { false };
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        cancel = true;
    });
    const CliRun run = runWith(backend, { "--device", "all", "--all-at-once", "--runs", "100000", "--format", "json" },
        &cancel);
    stopper.join();
    EXPECT_EQ(run.code, kExitFailure);
    EXPECT_NE(run.err.find("cancelled"), std::string::npos) << run.err;
    const auto record = nlohmann::json::parse(run.out);
    ASSERT_EQ(record.at("devices").size(), 4u);
    for (const auto& d : record.at("devices")) {
        const auto& v = d.at("variants")[0];
        EXPECT_EQ(v.at("failure").at("kind"), "cancelled");
        EXPECT_FALSE(v.at("report").at("runs").empty());
    }
}

TEST(CliDevices, OneDeviceKeepsTheSeriesReportAndSaysWhereItRan)
{
    FakeBackend backend;
    backend.useHostOf(2);
    const CliRun run = runWith(backend, { "--device", "1", "--runs", "2" });
    EXPECT_EQ(run.code, kExitOk) << run.err;
    EXPECT_EQ(run.out.rfind("device 1: Fake H200", 0), 0u) << run.out;
    EXPECT_NE(run.out.find("\n  NUMA node 0, CPUs 0-31, link Gen5 x16"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("\n  worker thread bound to CPUs"), std::string::npos) << run.out;
    const CliRun json = runWith(backend, { "--device", "1", "--runs", "2", "--format", "json" });
    const auto report = nlohmann::json::parse(json.out.substr(0, json.out.find('\n')));  // line 1: the header
    EXPECT_EQ(report.at("format"), "asyncscope-report");
    EXPECT_EQ(report.at("host"), shortHostName());
    EXPECT_TRUE(report.at("binding").at("bound").get<bool>());
    EXPECT_EQ(report.at("device").at("topology").at("current_link").at("generation"), 5);
}
