// What reading a hostile file may cost: at most four times the file and 64 MiB, whatever it holds. Members no reader
// needs (a list of millions of empty objects, megabytes of numbers under a key of another program) are read past
// without being built; a block a reader needs that holds more than AsyncScope ever writes is refused, naming the file.
// Each file is read in a child process whose peak resident memory the kernel reports (wait4), so that the figure is
// the reader's alone and a reader that dies (std::bad_alloc while a half-built tree is destroyed) fails the test.
#include "engine/io/input_file.hpp"
#include "engine/io/report_file.hpp"
#include "engine/io/result_file.hpp"
#include "engine/record/program_report.hpp"
#include "engine/record/recording.hpp"

#include "temp_dir.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace asyncscope;

namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;

std::string fixture(const std::string& name)
{
    std::ifstream in(std::string(ASYNCSCOPE_TEST_DATA) + "/" + name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// This process's resident memory now, in bytes.
std::size_t residentBytes()
{
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * std::size_t(::sysconf(_SC_PAGESIZE));
}

struct ChildRead {
    bool exited = false;   // the reader returned (no crash, no abort)
    bool refused = false;  // it returned an error
    std::string message;   // the error's first 4 KiB
    std::size_t peakBytes = 0;  // the child's peak resident memory above what it began with
};

// Runs `read` in a child process: whether it returned, its refusal, and the memory it took at its peak.
ChildRead readInChild(const std::function<std::optional<std::string>()>& read)
{
    int pipeEnds[2];
    EXPECT_EQ(::pipe(pipeEnds), 0);
    const std::size_t before = residentBytes();
    const pid_t child = ::fork();
    if (child == 0) {
        ::close(pipeEnds[0]);
        const std::optional<std::string> refusal = read();
        const std::string report = (refusal ? "R" + refusal->substr(0, 4096) : std::string("A"));
        [[maybe_unused]] const auto written = ::write(pipeEnds[1], report.data(), report.size());
        ::_exit(0);
    }
    ::close(pipeEnds[1]);
    std::string report;
    char chunk[4096];
    for (ssize_t got; (got = ::read(pipeEnds[0], chunk, sizeof chunk)) > 0;)
        report.append(chunk, std::size_t(got));
    ::close(pipeEnds[0]);
    int status = 0;
    struct rusage usage {};
    ::wait4(child, &status, 0, &usage);
    ChildRead out;
    out.exited = WIFEXITED(status) && WEXITSTATUS(status) == 0 && !report.empty();
    out.refused = !report.empty() && report[0] == 'R';
    out.message = report.empty() ? std::string() : report.substr(1);
    const std::size_t peak = std::size_t(usage.ru_maxrss) * 1024;
    out.peakBytes = peak > before ? peak - before : 0;
    return out;
}

void write(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary);
    out.write(text.data(), std::streamsize(text.size()));
}

// `count` copies of `item` joined by commas, in a list.
std::string listOf(const std::string& item, std::size_t count)
{
    std::string list = "[";
    list.reserve(count * (item.size() + 1) + 2);
    for (std::size_t i = 0; i < count; ++i)
        list += item + ",";
    list.back() = ']';
    return list;
}

void expectWithinBounds(const ChildRead& read, std::size_t fileBytes)
{
    EXPECT_TRUE(read.exited) << "the reader died";
    EXPECT_LE(read.peakBytes, 4 * fileBytes + 64 * kMiB)
        << read.peakBytes / kMiB << " MiB for a file of " << fileBytes / kMiB << " MiB";
}

}  // namespace

// A list of 4 million empty objects under a key no reader needs (once: a 100 MB file of 33 million took 3.7 GB and
// died in std::bad_alloc): on one line as format 4's header would be, laid out as a document, and in a host record.
TEST(ReaderMemory, AHugeMemberNoReaderNeedsIsReadPast)
{
    asyncscope::testing::TempDir dir("reader-memory");
    const std::string junk = listOf("{}", std::size_t(4) << 20);
    const std::pair<const char*, std::string> files[] = {
        { "one_line.json", "{\"format\":\"asyncscope-report\",\"format_version\":4,\"junk\":" + junk + "}\n" },
        { "document.json", "{\n  \"format\": \"asyncscope-report\",\n  \"junk\": " + junk + ",\n  \"runs\": []\n}\n" },
        { "record.host.json", "{\"format\":\"asyncscope-host\",\"format_version\":1,\"junk\":" + junk + "}\n" },
    };
    for (const auto& [name, text] : files) {
        SCOPED_TRACE(name);
        const std::string path = dir.file(name);
        write(path, text);
        for (const bool merge : { false, true }) {
            const ChildRead read = readInChild([&]() -> std::optional<std::string> {
                if (merge) {
                    auto host = readResultFile(path);
                    return host ? std::nullopt : std::optional(host.error().message());
                }
                auto report = readReportFile(path);
                return report ? std::nullopt : std::optional(report.error().message());
            });
            expectWithinBounds(read, text.size());
            EXPECT_TRUE(read.refused);  // it holds no device, no configuration, no runs
            EXPECT_EQ(read.message.rfind(shownPath(path) + ": ", 0), 0u) << read.message.substr(0, 300);
        }
    }
}

// A good series with a header key of another program holding 16 MB of numbers: read, at bounded cost (once 34 times
// its file).
TEST(ReaderMemory, AGoodSeriesWithAHugeForeignKeyReads)
{
    asyncscope::testing::TempDir dir("reader-memory");
    const std::string series = fixture("h200/h200-series.json");
    const std::string extra = ",\"other_tool\":" + listOf("1", std::size_t(8) << 20) + "}";
    const std::size_t headerEnd = series.find('\n') - 1;  // the header's closing brace
    const std::string text = series.substr(0, headerEnd) + extra + series.substr(headerEnd + 1);
    const std::string path = dir.file("extra-key.json");
    write(path, text);
    const ChildRead read = readInChild([&]() -> std::optional<std::string> {
        auto report = readReportFile(path);
        if (!report)
            return report.error().message();
        if (report->runs.size() != 21)
            return "read " + std::to_string(report->runs.size()) + " runs, not 21";
        return std::nullopt;
    });
    expectWithinBounds(read, text.size());
    EXPECT_FALSE(read.refused) << read.message;
}

// A block a reader needs, holding far more than AsyncScope writes there: refused by name before it costs more.
TEST(ReaderMemory, ABlockThatHoldsMoreThanAsyncScopeWritesIsRefused)
{
    asyncscope::testing::TempDir dir("reader-memory");
    const std::string series = fixture("h200/h200-series.json");
    const std::string machine = "\"machine\":{\"samples\":" + listOf("{}", std::size_t(8) << 20) + "},";
    const std::size_t at = series.find("\"device\":");
    const std::string text = series.substr(0, at) + machine + series.substr(at);
    const std::string path = dir.file("machine.json");
    write(path, text);
    const ChildRead read = readInChild([&]() -> std::optional<std::string> {
        auto report = readReportFile(path);
        return report ? std::nullopt : std::optional(report.error().message());
    });
    expectWithinBounds(read, text.size());
    ASSERT_TRUE(read.refused);
    EXPECT_NE(read.message.find("line 1: machine.samples is larger than AsyncScope writes"), std::string::npos)
        << read.message.substr(0, 300);
}

// Recordings as `record --from` reads them (split as they are read, each process a series): iterations of two
// processes, each with a thread that calls during the other's waits; a million notes; more processes than a report
// holds. Each within four times its file and 64 MiB.
TEST(ReaderMemory, RecordingsAreReadWithinTheSameBound)
{
    asyncscope::testing::TempDir dir("reader-memory");
    std::string processes;
    for (int pid : { 7, 8 })
        processes += "process " + std::to_string(pid) + " 1 /bin/app\nclock " + std::to_string(pid) +
            " 1000000000 5000\ndevice " + std::to_string(pid) +
            " 0 9 0 85017493504 132 3 1980000 13000 f31abc149048f8a7084e603ef0e1c33b NVIDIA H100\nname " +
            std::to_string(pid) + " 1 cudaLaunchKernel_v7000\nname " + std::to_string(pid) + " 2 _Z1kv\nname " +
            std::to_string(pid) + " 3 cudaStreamSynchronize_v3020\nname " + std::to_string(pid) +
            " 4 cudaGetLastError_v3020\n";
    std::string iterations;
    std::uint64_t t = 2'000'000'000, c = 10;
    for (int i = 0; i < 100000; ++i, t += 1100) {
        for (const std::string pid : { "7", "8" }) {
            const auto at = [&](std::uint64_t ns) { return std::to_string(t + ns); };
            iterations += "kernel " + pid + " 0 1 13 " + std::to_string(c) + " " + at(600) + " " + at(900) +
                " 0 1 1 =2\napi " + pid + " 99 " + std::to_string(c) + " " + at(0) + " " + at(500) + " 0 1 =1\n";
            ++c;
            iterations += "api " + pid + " 98 " + std::to_string(c++) + " " + at(520) + " " + at(540) + " 0 1 =4\n";
            iterations += "sync " + pid + " 1 13 " + std::to_string(c) + " " + at(600) + " " + at(950) + " 3\napi " +
                pid + " 99 " + std::to_string(c) + " " + at(520) + " " + at(1000) + " 0 1 =3\n";
            ++c;
        }
    }
    std::string notes, ranks;
    for (int i = 0; i < 1000000; ++i)
        notes += "note 7 n\n";
    for (int pid = 1; pid <= 5000; ++pid)
        ranks += "process " + std::to_string(pid) + " 1 /bin/rank\n";
    const std::string magic = "asyncscope-record 2\n";
    const std::pair<const char*, std::string> files[] = {
        { "iterations.record", magic + processes + iterations + "exit 7\nexit 8\n" },
        { "notes.record", magic + processes + notes + "exit 7\n" },
        { "ranks.record", magic + ranks },
    };
    for (const auto& [name, text] : files) {
        SCOPED_TRACE(name);
        const std::string path = dir.file(name);
        write(path, text);
        const ChildRead read = readInChild([&]() -> std::optional<std::string> {
            IterationSplitter splitter(IterationRule {});
            auto recording = readRecordingFile(path, &splitter);
            if (!recording)
                return recording.error().message();
            ProgramInfo program;
            program.command = { "app" };
            auto series = programSeries(*recording, splitter, ProcessChoice {}, program);
            return series ? std::nullopt : std::optional(series.error().message());
        });
        expectWithinBounds(read, text.size());
        EXPECT_EQ(read.refused, std::string(name) == "ranks.record") << read.message.substr(0, 300);
    }
}
