// Hostile CSV files: the header checked before the body, a file of NULs or one endless line refused after a block
// instead of read whole, every row's values held to the rules of every reader, a last row cut short said so.
#include "engine/io/csv/csv_report.hpp"
#include "engine/io/result_file.hpp"

#include "classic_runs.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <streambuf>

#include <unistd.h>

using namespace asyncscope;
using namespace asyncscope::testing;

namespace {

// An input of `size` NUL bytes made on demand, counting what was taken from it.
class Nuls : public std::streambuf {
public:
    explicit Nuls(std::uint64_t size) : m_left(size), m_block(std::size_t(1) << 16, '\0') {}
    std::uint64_t served = 0;

protected:
    int_type underflow() override
    {
        if (m_left == 0)
            return traits_type::eof();
        const std::size_t n = std::size_t(std::min<std::uint64_t>(m_left, m_block.size()));
        m_left -= n;
        served += n;
        setg(m_block.data(), m_block.data(), m_block.data() + n);
        return traits_type::to_int_type(m_block[0]);
    }

private:
    std::uint64_t m_left;
    std::string m_block;
};

std::vector<std::string> goodLines()
{
    std::ostringstream out;
    writeCsv(out, classicReport(3));
    std::vector<std::string> lines;
    std::istringstream in(out.str());
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// The good file with `column` of data row `row` (1: the first after the header) set to `value`.
std::string withValue(int row, const std::string& column, const std::string& value)
{
    std::vector<std::string> lines = goodLines();
    std::vector<std::string> header;
    std::istringstream names(lines[0]);
    for (std::string name; std::getline(names, name, ',');)
        header.push_back(name);
    const auto at = std::size_t(std::find(header.begin(), header.end(), column) - header.begin());
    EXPECT_LT(at, header.size()) << column;
    std::vector<std::string> fields;
    std::istringstream values(lines[std::size_t(row)] + ",");
    for (std::string field; std::getline(values, field, ',');)
        fields.push_back(field);
    fields[at] = value;
    std::string text;
    for (std::size_t i = 0; i < fields.size(); ++i)
        text += (i ? "," : "") + fields[i];
    lines[std::size_t(row)] = text;
    std::string all;
    for (const std::string& line : lines)
        all += line + "\n";
    return all;
}

std::string failure(const std::string& text)
{
    std::istringstream in(text);
    const auto report = readCsv(in);
    EXPECT_FALSE(report.ok()) << text.substr(0, 200);
    return report.ok() ? std::string() : report.error().message();
}

}  // namespace

TEST(CsvRead, AFileOfNulsIsRefusedAfterABlockNotReadWhole)
{
    Nuls nuls(std::uint64_t(256) << 20);
    std::istream in(&nuls);
    const auto report = readCsv(in);
    ASSERT_FALSE(report.ok());
    EXPECT_NE(report.error().message().find("line 1 is longer than 64 KiB"), std::string::npos)
        << report.error().message();
    EXPECT_LE(nuls.served, std::uint64_t(8) << 20);
}

TEST(CsvRead, ASparseTwoGigabyteFileIsRefusedByItsHeader)
{
    const auto path = std::filesystem::path(::testing::TempDir()) / "asyncscope-sparse.csv";
    {
        std::ofstream(path).put('\0');
    }
    std::filesystem::resize_file(path, std::uintmax_t(2) << 30);
    const auto read = readResultFile(path.string());
    std::filesystem::remove(path);
    ASSERT_FALSE(read.ok());
    // Where the memory for a file that size is lacking, it is refused as too large before a byte is read.
    const bool refused = read.error().message().find("line 1 is longer than 64 KiB") != std::string::npos ||
        read.error().kind == ErrorKind::TooLarge;
    EXPECT_TRUE(refused) << read.error().message();
}

TEST(CsvRead, EveryRowsValuesAreHeldToTheRules)
{
    EXPECT_NE(failure(withValue(2, "GPU Time (ms)", "-1"))
                  .find("line 3, column 'GPU Time (ms)': '-1' is not a finite number of ms, 0 or more"),
        std::string::npos);
    EXPECT_NE(failure(withValue(1, "Wait CPU Time (ms)", "nan")).find("line 2, column 'Wait CPU Time (ms)': 'nan'"),
        std::string::npos);
    EXPECT_NE(failure(withValue(1, "H2D Time (ms)", "inf")).find("line 2, column 'H2D Time (ms)': 'inf'"),
        std::string::npos);
    EXPECT_NE(failure(withValue(1, "Compute Capability", "9"))
                  .find("line 2, column 'Compute Capability': '9' is not a compute capability such as \"9.0\""),
        std::string::npos);
    EXPECT_NE(failure(withValue(1, "Streams", "0"))
                  .find("line 2: config is one the CLI refuses (streams must be between 1"),
        std::string::npos);
    EXPECT_NE(failure(withValue(3, "First Wrong Index", "-5")).find("line 4: first_wrong_index is -5"),
        std::string::npos);
    EXPECT_NE(failure(withValue(1, "Device", std::string(300, 'N'))).find("line 2: device.name is NNN"),
        std::string::npos);
    EXPECT_NE(failure(withValue(1, "Run", "-3")).find("line 2: run is -3"), std::string::npos);
    // A bad value is quoted cut, not whole.
    EXPECT_LT(failure(withValue(1, "GPU Time (ms)", std::string(100000, '7') + "x")).size(), 400u);
    // And the good file still reads.
    const std::string good = withValue(1, "GPU Time (ms)", "2.5");
    std::istringstream in(good);
    const auto report = readCsv(in);
    ASSERT_TRUE(report.ok()) << report.error().message();
    EXPECT_EQ(report->runs.size(), 3u);
}

TEST(CsvRead, ALastRowCutShortIsSaidSo)
{
    std::string text = withValue(1, "GPU Time (ms)", "2.5");
    text.resize(text.size() - 40);  // the last row loses its last fields and its line break
    EXPECT_NE(failure(text).find("line 4 is cut short: the file ends after"), std::string::npos) << failure(text);
    const auto quote = goodLines();
    EXPECT_NE(failure(quote[0] + "\n" + quote[1] + "\n0,\"NVIDIA H2").find("line 3 is cut short"), std::string::npos);
}

TEST(CsvRead, EachRowCarriesTheMachinesReadingAtItsStart_AndReadsBackAsReadings)
{
    using namespace asyncscope;
    Report report = asyncscope::testing::classicReport(12);
    MachineState m;
    m.source = "NVML, driver 580.159.04";
    m.selfPid = 1000;
    for (int k = 0; k < 3; ++k) {
        MachineSample s;
        s.atMs = -1.0 + 10.0 * k;  // runs start 2.6 ms apart: a reading every four runs or so
        s.smClockMHz = 1980;
        s.smClockMaxMHz = 1980;
        s.clockReasons = k == 1 ? clock_reasons::kSwPowerCap : 0;
        s.powerW = 120.25 + k;
        s.linkGeneration = 5;
        s.linkWidth = 16;
        s.linkGenerationMax = 5;
        s.linkWidthMax = 16;
        s.processes = std::vector<GpuProcess> { { 1000, 0, "asyncscope-cli" } };
        if (k == 2)
            s.processes->push_back({ 4321, 0, "other;app" });
        m.samples.push_back(s);
    }
    report.machine = m;
    std::ostringstream out;
    writeCsv(out, report);
    const std::string text = out.str();
    EXPECT_NE(text.find("\"1000* asyncscope-cli; 4321 other,app\""), std::string::npos) << text;
    EXPECT_NE(text.find("NVML, driver 580.159.04"), std::string::npos);
    std::istringstream in(text);
    const auto back = readCsv(in);
    ASSERT_TRUE(back.ok()) << back.error().message();
    ASSERT_TRUE(back->machine.has_value());
    EXPECT_EQ(back->machine->source, "NVML, driver 580.159.04");
    EXPECT_EQ(back->machine->selfPid, 1000u);
    // One reading per change, at the first run that saw it.
    ASSERT_EQ(back->machine->samples.size(), 3u);
    EXPECT_EQ(back->machine->samples[1].clockReasons, clock_reasons::kSwPowerCap);
    EXPECT_EQ(back->machine->samples[2].processes->size(), 2u);
    EXPECT_EQ(back->machine->samples[2].processes->at(1).name, "other,app");
    EXPECT_EQ(back->machine->samples[0].powerW, 120.25);

    // Hostile cells are refused with the column's name.
    std::string bad = text;
    bad.replace(bad.find("\"1000* asyncscope-cli; 4321 other,app\""), 38, "\"x* y\"");
    std::istringstream badIn(bad);
    const auto refused = readCsv(badIn);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().detail.find("column 'GPU Processes'"), std::string::npos) << refused.error().detail;

    // A file without the columns (before the machine was read) has no machine.
    std::ostringstream plain;
    writeCsv(plain, asyncscope::testing::classicReport(3));
    std::istringstream plainIn(plain.str());
    const auto none = readCsv(plainIn);
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->machine.has_value());
}
