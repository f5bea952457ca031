// Hostile text in files that are read back: bytes that are not UTF-8, terminal escape sequences and screenfuls, in a
// CSV's cells, a host record's fields and a file's name. A merge and a baseline comparison read them; every JSON
// output is well-formed UTF-8 (U+FFFD for what was not), every text output and message shows control characters as
// "\x1b", and what is too long is cut with its count.
#include "cli/cli_app.hpp"

#include "engine/io/baseline_report.hpp"
#include "engine/io/host_record_json.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/side_by_side_report.hpp"
#include "engine/io/text_report.hpp"
#include "engine/model/series_summary.hpp"
#include "engine/run/plan_advice.hpp"

#include "fake_backend.hpp"
#include "fake_hosts.hpp"
#include "temp_dir.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace asyncscope;
using namespace asyncscope::testing;

namespace {

struct CliRun {
    int code = -1;
    std::string out;
    std::string err;
};

CliRun cli(std::vector<std::string> words)
{
    std::vector<const char*> args { "asyncscope-cli" };
    for (const std::string& w : words)
        args.push_back(w.c_str());
    auto options = parseCommandLine(static_cast<int>(args.size()), args.data());
    EXPECT_TRUE(options.ok()) << options.error().message();
    CliRun run;
    if (!options)
        return run;
    FakeBackend backend;
    std::atomic<bool> cancel { false };
    std::ostringstream out, err;
    run.code = runCli(*options, backend, cancel, out, err);
    run.out = out.str();
    run.err = err.str();
    return run;
}

// The CSV export of a series with a machine reading (tests/data/report_machine.csv), each `from` replaced by `to`.
std::string machineCsv(const std::vector<std::pair<std::string, std::string>>& replacements)
{
    std::ifstream in(std::string(ASYNCSCOPE_TEST_DATA) + "/report_machine.csv", std::ios::binary);
    std::string text { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
    for (const auto& [from, to] : replacements) {
        std::size_t at = 0;
        std::size_t replaced = 0;
        while ((at = text.find(from, at)) != std::string::npos) {
            text.replace(at, from.size(), to);
            at += to.size();
            ++replaced;
        }
        EXPECT_GT(replaced, 0u) << from;
    }
    return text;
}

std::string write(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

std::string writeRecord(const std::string& path, const HostReport& host)
{
    std::ostringstream out;
    writeHostRecordJson(out, host, assessHost(host));
    return write(path, out.str());
}

// The JSON `text` holds, parsed strictly (nlohmann refuses a string that is not UTF-8); null where it is not JSON.
nlohmann::json parsed(const std::string& text)
{
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        ADD_FAILURE() << "not JSON: " << e.what() << "\n" << text.substr(0, 2000);
        return nullptr;
    }
}

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// A text shows no control character raw that a terminal acts on: no ESC, no BEL, no C1 CSI.
::testing::AssertionResult noRawControls(const std::string& text)
{
    for (const char* raw : { "\x1b", "\x07", "\xc2\x9b" }) {
        if (text.find(raw) != std::string::npos)
            return ::testing::AssertionFailure()
                << "a raw control character at " << text.find(raw) << " in:\n" << text.substr(0, 4000);
    }
    return ::testing::AssertionSuccess();
}

// The longest line of `text`, in bytes.
std::size_t longestLine(const std::string& text)
{
    std::size_t longest = 0;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        longest = std::max(longest, line.size());
    return longest;
}

const std::string kHostileHost = "\x1b]0;pwned\x07\x1b[2J";

}  // namespace

TEST(HostileText, BytesThatAreNotUtf8InACsvMergeAsWellFormedJson)
{
    TempDir dir("hostile-text");
    const std::string bad = write(dir.file("bad.csv"),
        machineCsv({ { "NVIDIA H200", "NVIDIA \xff\xfe H200" }, { "0000:19:00.0", "0000:\xc3(00.0" } }));
    CliRun run;
    ASSERT_NO_THROW(run = cli({ "--merge", bad, "--format", "json" }));
    EXPECT_EQ(run.code, kExitOk) << run.err;
    EXPECT_EQ(run.err.find("internal error"), std::string::npos) << run.err;
    const nlohmann::json j = parsed(run.out);
    ASSERT_TRUE(j.is_object());
    const nlohmann::json& row = j.at("rows").at(0);
    EXPECT_EQ(row.at("name").get<std::string>(), std::string("NVIDIA ") + kReplacement + kReplacement + " H200");
    EXPECT_EQ(row.at("pci_bus_id").get<std::string>(), std::string("0000:") + kReplacement + "(00.0");
}

TEST(HostileText, BytesThatAreNotUtf8InACsvCompareAsWellFormedJson)
{
    TempDir dir("hostile-text");
    const std::string good = write(dir.file("good.csv"), machineCsv({}));
    // A second process on the GPU, named with bytes that are not UTF-8: the advice names it in its warning.
    const std::string bad = write(dir.file("bad.csv"),
        machineCsv({ { "NVIDIA H200", "NVIDIA \xff H200" },
            { "1000* asyncscope-cli", "1000* asyncscope-cli; 4321 other\xe2\x82" } }));
    for (const auto& pair : { std::pair { bad, bad }, std::pair { good, bad } }) {
        CliRun run;
        ASSERT_NO_THROW(run = cli({ "--baseline", pair.first, pair.second, "--allow-different", "--format", "json" }));
        EXPECT_EQ(run.code, kExitOk) << run.err;
        EXPECT_EQ(run.err.find("internal error"), std::string::npos) << run.err;
        const nlohmann::json j = parsed(run.out);
        ASSERT_TRUE(j.is_object());
        EXPECT_EQ(j.at("current").at("device").get<std::string>(), std::string("NVIDIA ") + kReplacement + " H200");
        EXPECT_NE(run.out.find(std::string("other") + kReplacement), std::string::npos) << run.out;
    }
}

TEST(HostileText, AFileNameThatIsNotUtf8MergesAndComparesAsWellFormedJson)
{
    TempDir dir("hostile-text");
    const std::string name = dir.file("run\xff.csv");
    write(name, machineCsv({}));
    CliRun merged;
    ASSERT_NO_THROW(merged = cli({ "--merge", name, "--format", "json" }));
    EXPECT_EQ(merged.code, kExitOk) << merged.err;
    const nlohmann::json j = parsed(merged.out);
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j.at("rows").at(0).at("host").get<std::string>(), std::string("run") + kReplacement + ".csv");

    CliRun compared;
    ASSERT_NO_THROW(compared = cli({ "--baseline", name, name, "--format", "json" }));
    EXPECT_EQ(compared.code, kExitOk) << compared.err;
    const nlohmann::json c = parsed(compared.out);
    ASSERT_TRUE(c.is_object());
    EXPECT_NE(c.at("baseline").at("name").get<std::string>().find(std::string("run") + kReplacement + ".csv"),
        std::string::npos);
}

TEST(HostileText, EveryJsonWriterWritesTextThatIsNotUtf8)
{
    // Texts made in code, not read: the writers' own guard replaces what is not UTF-8.
    HostReport host = twoGpus("host\xff", 55.0);
    host.devices[0].device.name = "GPU \xc3";
    host.devices[0].plan.variants[0].report.device.name = "GPU \xc3";
    std::ostringstream record;
    ASSERT_NO_THROW(writeHostRecordJson(record, host, assessHost(host)));
    EXPECT_TRUE(parsed(record.str()).is_object());

    std::ostringstream series;
    const Report& report = host.devices[0].plan.variants[0].report;
    const Assessment assessed = assessSeries(report);
    ASSERT_NO_THROW(writeJson(series, report, assessed));
    EXPECT_NE(series.str().find(std::string("GPU ") + kReplacement), std::string::npos);

    std::ostringstream table;
    ASSERT_NO_THROW(writeSideBySideJson(table, sideBySideRows(host), aggregatesOf({ host })));
    EXPECT_TRUE(parsed(table.str()).is_object());

    const BaselineComparison c =
        compareWithBaseline(report, assessed.summary, report, assessed.summary, BaselineSettings {});
    std::ostringstream comparison;
    ASSERT_NO_THROW(writeBaselineJson(comparison, c, baselineSide("a\xff.json", report, assessed),
        baselineSide("b.json", report, assessed)));
    EXPECT_TRUE(parsed(comparison.str()).is_object());
}

TEST(HostileText, EscapesInARecordNeverReachTheMergesText)
{
    TempDir dir("hostile-text");
    HostReport host = twoGpus(kHostileHost, 55.0);
    host.devices[0].device.name = "GPU \x1b[31mred\x1b[0m";
    host.devices[0].device.pciBusId = "0000:\x1b[2J";
    const std::string record = writeRecord(dir.file("esc.host.json"), host);
    // A CSV's host is its file's name.
    const std::string csv = write(dir.file("esc\x1b]0;pwned\x07.csv"),
        machineCsv({ { "NVIDIA H200", "H200\x1b[5m" }, { "0000:19:00.0", "0000:\xc2\x9b" "2J" } }));
    for (const char* format : { "text", "csv" }) {
        const CliRun run = cli({ "--merge", record, csv, "--format", format });
        EXPECT_EQ(run.code, kExitOk) << run.err;
        EXPECT_TRUE(noRawControls(run.out)) << format;
        EXPECT_TRUE(noRawControls(run.err)) << format;
        EXPECT_NE(run.out.find("\\x1b]0;pwned\\x07\\x1b[2J"), std::string::npos) << run.out;
        EXPECT_NE(run.out.find("GPU \\x1b[31mred\\x1b[0m"), std::string::npos) << run.out;
        EXPECT_NE(run.out.find("0000:\\x1b[2J"), std::string::npos) << run.out;
        EXPECT_NE(run.out.find("esc\\x1b]0;pwned\\x07.csv"), std::string::npos) << run.out;
        EXPECT_NE(run.out.find("H200\\x1b[5m"), std::string::npos) << run.out;
        EXPECT_NE(run.out.find("0000:\\x9b2J"), std::string::npos) << run.out;
    }
    // The JSON keeps them, as JSON's escapes ("\u001b"; a C1 control is well-formed UTF-8 there, and data).
    const CliRun json = cli({ "--merge", record, csv, "--format", "json" });
    EXPECT_EQ(json.code, kExitOk) << json.err;
    EXPECT_EQ(json.out.find_first_of("\x1b\x07"), std::string::npos);
    EXPECT_EQ(parsed(json.out).at("rows").at(0).at("host").get<std::string>(), kHostileHost);
}

TEST(HostileText, EscapesInASeriesNeverReachTheComparisonsTextNorItsMessages)
{
    TempDir dir("hostile-text");
    const std::string good = write(dir.file("good.csv"), machineCsv({}));
    const std::string esc = write(dir.file("esc\x1b[2J.csv"),
        machineCsv({ { "NVIDIA H200", "H200\x1b]0;pwned\x07" },
            { "1000* asyncscope-cli", "1000* asyncscope-cli; 4321 other\x1b[2J" } }));
    // Refused: the devices differ, and the message names them.
    const CliRun refused = cli({ "--baseline", good, esc });
    EXPECT_EQ(refused.code, kExitUsage);
    EXPECT_TRUE(noRawControls(refused.err));
    EXPECT_NE(refused.err.find("H200\\x1b]0;pwned\\x07"), std::string::npos) << refused.err;

    for (const char* format : { "text", "csv" }) {
        const CliRun allowed = cli({ "--baseline", good, esc, "--allow-different", "--format", format });
        EXPECT_EQ(allowed.code, kExitOk) << allowed.err;
        EXPECT_TRUE(noRawControls(allowed.out)) << format;
        EXPECT_TRUE(noRawControls(allowed.err)) << format;
        EXPECT_NE(allowed.out.find("H200\\x1b]0;pwned\\x07"), std::string::npos) << allowed.out;
        EXPECT_NE(allowed.out.find("esc\\x1b[2J.csv"), std::string::npos) << allowed.out;
    }
    const CliRun text = cli({ "--baseline", esc, esc });
    EXPECT_TRUE(noRawControls(text.out));
    EXPECT_NE(text.out.find("other\\x1b[2J"), std::string::npos) << text.out;  // the advice's warning
}

TEST(HostileText, AFileThatCannotBeMergedIsNamedWithItsEscapesShown)
{
    TempDir dir("hostile-text");
    const std::string broken = write(dir.file("x\x1b]0;pwned\x07.json"), "{ \"format\": ");
    const std::string good = writeRecord(dir.file("good.host.json"), twoGpus("good", 55.0));
    const CliRun run = cli({ "--merge", broken, good });
    EXPECT_NE(run.code, kExitOk);
    EXPECT_TRUE(noRawControls(run.err));
    EXPECT_NE(run.err.find("cannot merge "), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("x\\x1b]0;pwned\\x07.json: "), std::string::npos) << run.err;

    const CliRun compared = cli({ "--baseline", broken, good });
    EXPECT_NE(compared.code, kExitOk);
    EXPECT_TRUE(noRawControls(compared.err));
    EXPECT_NE(compared.err.find("x\\x1b]0;pwned\\x07.json"), std::string::npos) << compared.err;
}

TEST(HostileText, AHundredKilobyteErrorMessageIsCutWithItsCount)
{
    TempDir dir("hostile-text");
    const std::string record =
        writeRecord(dir.file("big.host.json"), hostError("big", makeError(ErrorKind::NoDriver, std::string(100189, 'x'))));
    const CliRun run = cli({ "--merge", record });
    EXPECT_EQ(run.code, kExitOk) << run.err;
    EXPECT_NE(run.out.find("x… (100 189 characters)"), std::string::npos) << run.out.substr(0, 2000);
    EXPECT_LT(longestLine(run.out), 1000u);

    // A comparison names the host's error too.
    const CliRun compared = cli({ "--baseline", record, record });
    EXPECT_NE(compared.code, kExitOk);
    EXPECT_NE(compared.err.find("x… (100 189 characters)"), std::string::npos) << compared.err.substr(0, 2000);
    EXPECT_LT(compared.err.size(), 2000u);
}

TEST(HostileText, ARecordOfAThousandGpusIsListedCut)
{
    TempDir dir("hostile-text");
    HostReport host = twoGpus("many", 55.0);
    const std::vector<DeviceResult> two = host.devices;
    host.devices.clear();
    for (int i = 0; i < 1000; ++i) {
        host.devices.push_back(two[std::size_t(i % 2)]);
        host.devices.back().device.index = i;
    }
    const std::string record = writeRecord(dir.file("many.host.json"), host);
    const CliRun run = cli({ "--baseline", record, record });
    EXPECT_NE(run.code, kExitOk);
    EXPECT_NE(run.err.find("the series of 1000 GPUs (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, … and 990 more)"),
        std::string::npos) << run.err.substr(0, 2000);
    EXPECT_LT(run.err.size(), 1000u);
}

TEST(HostileText, AThousandOtherProcessesAreListedCut)
{
    MachineState machine;
    machine.source = "NVML\x1b[2J";
    machine.selfPid = 1;
    MachineSample sample;
    sample.processes.emplace();
    for (std::uint32_t pid = 1; pid <= 1001; ++pid)
        sample.processes->push_back({ pid, 0, "p" });
    machine.samples.push_back(sample);
    const std::string text = formatMachineText(machine);
    EXPECT_TRUE(noRawControls(text));
    EXPECT_NE(text.find("NVML\\x1b[2J"), std::string::npos) << text;
    EXPECT_NE(text.find("PID 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, … and 990 more"), std::string::npos) << text;
    EXPECT_LT(text.size(), 1000u);
}
