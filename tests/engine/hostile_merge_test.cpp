// Hostile files given to a merge: a directory or a FIFO named as a record, records nested without bound, a compute
// capability that is not one, syntax errors; each costs only itself, with a message that names where and why.
#include "cli/cli_app.hpp"

#include "engine/io/host_record_json.hpp"
#include "engine/io/result_file.hpp"
#include "engine/run/plan_advice.hpp"

#include "fake_backend.hpp"
#include "temp_dir.hpp"
#include "fake_hosts.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace asyncscope;
using namespace asyncscope::testing;
namespace fs = std::filesystem;

namespace {

struct CliRun {
    int code = -1;
    std::string out;
    std::string err;
};

CliRun merge(std::vector<std::string> files, std::vector<std::string> more = {})
{
    std::vector<const char*> args { "asyncscope-cli", "--merge" };
    for (const std::string& f : files)
        args.push_back(f.c_str());
    for (const std::string& m : more)
        args.push_back(m.c_str());
    auto options = parseCommandLine(static_cast<int>(args.size()), args.data());
    EXPECT_TRUE(options.ok()) << options.error().message();
    FakeBackend backend;
    std::atomic<bool> cancel { false };
    std::ostringstream out, err;
    CliRun run;
    run.code = runCli(*options, backend, cancel, out, err);
    run.out = out.str();
    run.err = err.str();
    return run;
}

std::string goodRecord()
{
    std::ostringstream out;
    const HostReport host = twoGpus("good", 55.0);
    writeHostRecordJson(out, host, assessHost(host));
    return out.str();
}

// The good record with its first device's compute capability replaced.
std::string withComputeCapability(const std::string& capability)
{
    std::string text = goodRecord();
    const std::string from = "\"compute_capability\":\"9.0\"";
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos);
    return text.replace(at, from.size(), "\"compute_capability\":\"" + capability + "\"");
}

Result<HostReport> readText(const std::string& text)
{
    std::istringstream in(text);
    return readHostRecordJson(in);
}

}  // namespace

TEST(HostileMerge, ADirectoryNamedAsARecordCostsOnlyItself)
{
    TempDir dir("hostile");
    fs::create_directories(dir.file("x.json"));
    std::ofstream(dir.file("good.json")) << goodRecord();
    const CliRun run = merge({ dir.file("x.json"), dir.file("good.json") });
    EXPECT_EQ(run.code, kExitUsage);
    EXPECT_NE(run.err.find("cannot merge " + dir.file("x.json") + ": is a directory"), std::string::npos) << run.err;
    EXPECT_NE(run.out.find("\ngood  0"), std::string::npos) << run.out;
}

TEST(HostileMerge, AFifoNamedAsARecordIsRefusedWithoutBlocking)
{
    TempDir dir("hostile");
    const std::string fifo = dir.file("y.json");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto read = std::async(std::launch::async, [&] { return readResultFile(fifo); });
    if (read.wait_for(std::chrono::seconds(10)) == std::future_status::timeout) {
        ADD_FAILURE() << "reading a FIFO blocked";
        // Lets each blocked open go (a writer that comes and goes: the reader sees the end), until the read ends.
        while (read.wait_for(std::chrono::milliseconds(50)) == std::future_status::timeout) {
            const int writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
            if (writer >= 0)
                ::close(writer);
        }
    }
    const auto result = read.get();
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().message().find("y.json: is not a regular file (a FIFO)"), std::string::npos)
        << result.error().message();
}

TEST(HostileMerge, AComputeCapabilityThatIsNotOneIsRefusedAndTheOthersMerged)
{
    TempDir dir("hostile");
    std::ofstream(dir.file("x.json")) << withComputeCapability("x");
    std::ofstream(dir.file("good.json")) << goodRecord();
    const CliRun run = merge({ dir.file("x.json"), dir.file("good.json") });
    EXPECT_EQ(run.code, kExitUsage);
    EXPECT_NE(run.err.find("cannot merge " + dir.file("x.json") +
                  ": devices[0].device.compute_capability is x; accepted: a compute capability such as \"9.0\""),
        std::string::npos)
        << run.err;
    EXPECT_NE(run.out.find("\ngood  0"), std::string::npos) << run.out;
}

TEST(HostileMerge, AComputeCapabilityWithoutItsMinorIsRefusedNotReadAsAnother)
{
    const auto nine = readText(withComputeCapability("9"));
    ASSERT_FALSE(nine.ok()) << "read as " << nine->devices.front().device.computeCapability();
    EXPECT_NE(nine.error().message().find("compute_capability is 9; accepted"), std::string::npos)
        << nine.error().message();
    const auto good = readText(withComputeCapability("10.3"));
    ASSERT_TRUE(good.ok()) << good.error().message();
    EXPECT_EQ(good->devices.front().device.computeMajor, 10);
    EXPECT_EQ(good->devices.front().device.computeMinor, 3);
}

TEST(HostileMerge, DeepNestingIsRefusedWithItsPlaceAndNoRecursion)
{
    // Half a million lists within each other: once a SIGSEGV in a recursive dump() of the value.
    const std::size_t depth = 500000;
    const std::string nested = std::string(depth, '[') + std::string(depth, ']');
    for (const std::string& text : {
             R"({"format": "asyncscope-host", "format_version": )" + nested + "}",
             R"({"format": "asyncscope-host", "format_version": 1, "host": "h", "devices": [{"device": {"index": 0,
                 "name": "G"}, "variants": [{"report": {"runs": )" + nested + "}}]}]}" }) {
        const auto read = readText(text);
        ASSERT_FALSE(read.ok());
        const std::string message = read.error().message();
        EXPECT_NE(message.find("nested deeper than 64"), std::string::npos) << message.substr(0, 300);
        EXPECT_LT(message.size(), 400u);
    }
    const auto report = readText(R"({"format": "asyncscope-host", "format_version": 1, "host": "h", "devices": [
        {"device": {"index": 0, "name": "G"}, "variants": [{"report": {"runs": )" + nested + "}}]}]}");
    EXPECT_EQ(report.error().message().rfind("devices[…].variants[…].report.runs: ", 0), 0u);
}

TEST(HostileMerge, AListOfAMillionObjectsIsReadInOnePass)
{
    // Built through the parse callback, each object ending in a list had the list searched for a value to drop: a
    // million of them took hours. Read in one pass, the record is refused once the list holds more than any record
    // does, before it takes more memory than a few times its text.
    std::string devices;
    devices.reserve(3000000);
    for (int i = 0; i < 1000000; ++i)
        devices += i ? ",{}" : "{}";
    const auto read =
        readText(R"({"format": "asyncscope-host", "format_version": 1, "host": "h", "devices": [)" + devices + "]}");
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().message().rfind("devices is larger than AsyncScope writes (over ", 0), 0u)
        << read.error().message();
    // A hundred of them: the first device is named.
    devices.resize(299);
    const auto fewer =
        readText(R"({"format": "asyncscope-host", "format_version": 1, "host": "h", "devices": [)" + devices + "]}");
    ASSERT_FALSE(fewer.ok());
    EXPECT_EQ(fewer.error().message(), "devices[0].device is missing");
}

// A record's device and binding are read by the same rows as a report header's (device_json.cpp): every field
// checked where it is read, the problem named by its field.
TEST(HostileMerge, TheDeviceAndTheBindingAreCheckedFieldByField)
{
    const auto record = [](const std::string& device) {
        return readText(R"({"format": "asyncscope-host", "format_version": 1, "host": "h", "devices": [)" + device +
            "]}");
    };
    const std::string cpus(300, 'c');
    const auto topology = record(R"({"device": {"index": 0, "name": "G", "topology": {"local_cpus": ")" + cpus +
        R"("}}, "variants": []})");
    ASSERT_FALSE(topology.ok());
    EXPECT_EQ(topology.error().message().rfind("devices[0].device.topology.local_cpus is cccc", 0), 0u)
        << topology.error().message();
    EXPECT_NE(topology.error().message().find("; accepted: at most 256 bytes"), std::string::npos)
        << topology.error().message();
    const auto index = record(R"({"device": {"index": -1, "name": "G"}, "variants": []})");
    ASSERT_FALSE(index.ok());
    EXPECT_EQ(index.error().message(), "devices[0].device.index is -1; accepted: a whole number from 0 to 2147483647");
    const auto why = record(R"({"device": {"index": 0, "name": "G"}, "binding": {"bound": false, "why": ")" +
        std::string(5000, 'w') + R"("}, "variants": []})");
    ASSERT_FALSE(why.ok());
    EXPECT_EQ(why.error().message().rfind("devices[0].binding.why is wwww", 0), 0u) << why.error().message();
    const auto text = record(R"({"device": {"index": 0, "name": "G"}, "binding": {"bound": true, "text": 5},
        "variants": []})");
    ASSERT_FALSE(text.ok());
    EXPECT_EQ(text.error().message(), "devices[0].binding.text is 5; accepted: text");
    const auto bound = record(R"({"device": {"index": 0, "name": "G"}, "binding": {}, "variants": []})");
    ASSERT_FALSE(bound.ok());
    EXPECT_EQ(bound.error().message(), "devices[0].binding.bound is missing");
}

TEST(HostileMerge, SyntaxErrorsGiveTheLineAndColumnAndNoLibraryText)
{
    const auto broken = readText("{\n  \"format\": \"asyncscope-host\",\n  \"host\" \"x\"\n}");
    ASSERT_FALSE(broken.ok());
    EXPECT_NE(broken.error().message().find("line 3, column 12: not JSON (near '  \"host\" \"x\"')"), std::string::npos)
        << broken.error().message();
    const std::string good = goodRecord();
    const auto cut = readText(good.substr(0, good.size() / 2));
    ASSERT_FALSE(cut.ok());
    EXPECT_NE(cut.error().message().find("cut short"), std::string::npos) << cut.error().message();
    const auto wrongType = readText(R"({"format": "asyncscope-host", "format_version": 1, "host": "x",
        "driver_version": "13000", "devices": []})");
    ASSERT_FALSE(wrongType.ok());
    EXPECT_EQ(wrongType.error().message().find("json.exception"), std::string::npos) << wrongType.error().message();
    EXPECT_NE(wrongType.error().message().find("driver_version is \"13000\"; accepted: a whole number"),
        std::string::npos)
        << wrongType.error().message();
}

TEST(HostileMerge, FormatVersionsAreExactWholeNumbers)
{
    for (const char* version : { "4294967297", "-1", "1.5", "\"1\"" }) {
        const auto read = readText(std::string(R"({"format": "asyncscope-host", "format_version": )") + version +
            R"(, "host": "x", "devices": []})");
        ASSERT_FALSE(read.ok()) << version;
        EXPECT_EQ(read.error().message().rfind("format_version is ", 0), 0u) << read.error().message();
    }
}

TEST(HostileMerge, CountsAreBounded)
{
    std::string text = goodRecord();
    const std::string planned = "\"planned\": 1";
    const auto at = text.find(planned);
    ASSERT_NE(at, std::string::npos);
    const auto read = readText(text.replace(at, planned.size(), "\"planned\": 1000000000000"));
    ASSERT_FALSE(read.ok());
    EXPECT_NE(read.error().message().find("devices[0].planned is 1000000000000; accepted: a whole number from 1 to 64"),
        std::string::npos)
        << read.error().message();
}

TEST(HostileMerge, OnlyBadFilesExitNonzero)
{
    TempDir dir("hostile");
    std::ofstream(dir.file("bad.json")) << "{\"format\": \"asyncscope-host\", \"devi";
    const CliRun run = merge({ dir.file("bad.json") });
    EXPECT_EQ(run.code, kExitUsage);
    EXPECT_NE(run.err.find("cannot merge " + dir.file("bad.json") + ": cut short"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("none of the 1 files could be read"), std::string::npos) << run.err;
}

TEST(HostileMerge, AReportThatIsNotAnObjectIsRefusedByItsPlace)
{
    // A report is read from its own text in the record; a value of another kind in its place is named.
    for (const char* value : { "5", "\"text\"", "[1, 2]", "null" }) {
        const auto read = readText(std::string(R"({"format": "asyncscope-host", "format_version": 1, "host": "h",
            "devices": [{"device": {"index": 0, "name": "G"}, "variants": [{"label": "l", "report": )") + value +
            "}]}]}");
        ASSERT_FALSE(read.ok()) << value;
        EXPECT_EQ(read.error().message().rfind("devices[0].variants[0].report is ", 0), 0u) << read.error().message();
        EXPECT_NE(read.error().message().find("; accepted: an object"), std::string::npos) << read.error().message();
    }
    // And a good record's reports read back whole, every run.
    const auto good = readText(goodRecord());
    ASSERT_TRUE(good.ok()) << good.error().message();
    ASSERT_EQ(good->devices.size(), 2u);
    EXPECT_EQ(good->devices[1].plan.variants.front().report.runs.size(),
        twoGpus("good", 55.0).devices[1].plan.variants.front().report.runs.size());
}

// Records written by tasks of a Slurm job say which job, node and task wrote them; a merge refuses a second record
// of one host and GPU from one job (two nodes with one host name, or a node measured twice), keeping the first and
// naming both.
TEST(SlurmRecords, TheJobNodeAndTaskRoundTripAndSharedGpusAreRefused)
{
    TempDir dir("slurm");
    HostReport a = twoGpus("node", 55.0);
    a.slurm = SlurmTask { "4242", "n1", 0 };
    HostReport b = twoGpus("node", 54.0);  // one host name on two Slurm nodes
    b.slurm = SlurmTask { "4242", "n2", 1 };
    HostReport c = twoGpus("node", 53.0);  // the same host in another job: a table of both is fine
    c.slurm = SlurmTask { "4243", "n1", 0 };
    for (const auto& [name, host] : { std::pair { "a.json", &a }, std::pair { "b.json", &b }, std::pair { "c.json", &c } }) {
        std::ofstream out(dir.file(name));
        writeHostRecordJson(out, *host, assessHost(*host));
    }
    const auto read = readResultFile(dir.file("b.json"));
    ASSERT_TRUE(read.ok()) << read.error().message();
    ASSERT_TRUE(read->slurm);
    EXPECT_EQ(read->slurm->job, "4242");
    EXPECT_EQ(read->slurm->node, "n2");
    EXPECT_EQ(read->slurm->task, 1);

    const CliRun run = merge({ dir.file("a.json"), dir.file("b.json"), dir.file("c.json") });
    EXPECT_EQ(run.code, kExitUsage);
    EXPECT_NE(run.err.find("cannot merge " + dir.file("b.json") + ": it holds host node's GPU 0 from Slurm job 4242 "
                           "(task 1 on node n2), as " + dir.file("a.json") + " does (task 0 on node n1)"),
        std::string::npos)
        << run.err;
    // Job 4242's first record and job 4243's: two GPUs each; the second record of job 4242 is left out.
    std::istringstream lines(run.out);
    int rows = 0;
    for (std::string line; std::getline(lines, line);)
        rows += line.rfind("node ", 0) == 0 ? 1 : 0;
    EXPECT_EQ(rows, 4) << run.out;
}

TEST(SlurmRecords, ASlurmBlockOutOfItsRulesIsRefusedNamingTheField)
{
    HostReport host = twoGpus("node", 55.0);
    host.slurm = SlurmTask { "7", "n1", 3 };
    std::ostringstream out;
    writeHostRecordJson(out, host, assessHost(host));
    const std::string good = out.str();
    const std::pair<std::string, std::string> bad[] = {
        { "\"task\": 3", "\"task\": -1" },
        { "\"task\": 3", "\"task\": \"3\"" },
        { "\"node\": \"n1\"", "\"node\": \"" + std::string(300, 'x') + "\"" },
        { "\"job\": \"7\",", "" },
    };
    const char* fields[] = { "slurm.task", "slurm.task", "slurm.node", "slurm.job" };
    for (std::size_t i = 0; i < std::size(bad); ++i) {
        std::string text = good;
        const auto at = text.find(bad[i].first);
        ASSERT_NE(at, std::string::npos) << bad[i].first << " in " << good.substr(0, 400);
        const auto read = readText(text.replace(at, bad[i].first.size(), bad[i].second));
        ASSERT_FALSE(read.ok()) << bad[i].second;
        EXPECT_NE(read.error().message().find(fields[i]), std::string::npos) << read.error().message();
    }
    EXPECT_TRUE(slurmTaskOf("12", "n3", "2"));
    EXPECT_EQ(slurmTaskOf("12", "n3", "2")->task, 2);
    EXPECT_FALSE(slurmTaskOf(nullptr, "n3", "2"));
    EXPECT_FALSE(slurmTaskOf("12", "", "2"));
    EXPECT_EQ(slurmTaskOf("12", "n3", "x")->task, 0);
}

namespace {

// The record Slurm job 9's task 0 leaves on node `node`: two GPUs.
void writeNodeRecord(const std::string& path, const std::string& node)
{
    HostReport host = twoGpus(node, 55.0);
    host.slurm = SlurmTask { "9", node, 0 };
    std::ofstream out(path);
    writeHostRecordJson(out, host, assessHost(host));
}

}  // namespace

TEST(SlurmRecords, AnExpectedHostWithoutARecordGetsItsRow)
{
    TempDir dir("expect");
    writeNodeRecord(dir.file("a.json"), "n1");
    const CliRun all = merge({ dir.file("a.json") }, { "--expect-hosts", "n1" });
    EXPECT_EQ(all.code, kExitOk) << all.err;
    const CliRun lost = merge({ dir.file("a.json") }, { "--expect-hosts", "n1,n2,n3", "--format", "csv" });
    EXPECT_EQ(lost.code, kExitFailure);  // a node lost: 1, as a run that failed
    for (const char* node : { "n2", "n3" })
        EXPECT_NE(lost.out.find(std::string(node) + ",,,,,,,,,,,,,,io,no record: node failed (or was lost before writing)"),
            std::string::npos)
            << lost.out;
}

// A CI job tells a broken file (2) from a node that left no record (1): a refused file wins, as a usage error does.
TEST(SlurmRecords, ARefusedFileExitsTwoALostNodeOne)
{
    TempDir dir("expect");
    writeNodeRecord(dir.file("a.json"), "n1");
    std::ofstream(dir.file("empty.json")) << "";
    EXPECT_EQ(merge({ dir.file("a.json") }, { "--expect-hosts", "n1,n2" }).code, kExitFailure);
    EXPECT_EQ(merge({ dir.file("a.json"), dir.file("empty.json") }).code, kExitUsage);
    EXPECT_EQ(merge({ dir.file("a.json"), dir.file("empty.json") }, { "--expect-hosts", "n1,n2" }).code, kExitUsage);
}
