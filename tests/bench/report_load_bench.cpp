// Benchmark (not a test): how long a big series takes to save and to open. Builds a series of the classic pipeline
// (six spans a run, as the CLI records it), writes it as JSON (format 4, JSON Lines) and as CSV with the engine's
// writers into a temporary folder, reads both back as the app does, and prints the seconds of every step, the file
// sizes and the read rate. Then reads each FILE given the same way (a report of an earlier format, say format 3 as
// an earlier release wrote it).
// Usage: asyncscope_bench_report_load [runs [FILE...]]   (1000000 runs by default)
// With ASYNCSCOPE_BENCH_KEEP=DIR in the environment the two files are written into DIR and kept there (to time the
// app opening them).
#include "classic_runs.hpp"

#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/report_file.hpp"
#include "engine/model/advice.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace asyncscope;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// This process's resident memory now, in MB, from /proc/self/status (0 where there is none).
double residentMegabytes()
{
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmRSS:") {
            double kilobytes = 0.0;
            status >> kilobytes;
            return kilobytes / 1024.0;
        }
        status.ignore(1 << 12, '\n');
    }
    return 0.0;
}

bool write(const fs::path& path, const Report& report, ReportFormat format)
{
    std::ofstream out(path, std::ios::binary);
    format == ReportFormat::Csv ? writeCsv(out, report) : writeJson(out, report, assessSeries(report));
    out.flush();
    return bool(out);
}

}  // namespace

int main(int argc, char** argv)
{
    const long runs = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1000000;
    if (runs < 1) {
        std::fprintf(stderr, "usage: asyncscope_bench_report_load [runs]\n");
        return 2;
    }
    const char* keep = std::getenv("ASYNCSCOPE_BENCH_KEEP");
    const fs::path dir = keep && *keep ? fs::path(keep)
                                       : fs::temp_directory_path() / ("asyncscope-bench-" + std::to_string(::getpid()));
    fs::create_directories(dir);

    const double residentBefore = residentMegabytes();
    auto start = Clock::now();
    const Report report = testing::classicReport(std::size_t(runs));
    std::printf("%ld runs built in %.2f s, resident memory %.0f MB more\n", runs, secondsSince(start),
        residentMegabytes() - residentBefore);

    int status = 0;
    for (const ReportFormat format : { ReportFormat::Json, ReportFormat::Csv }) {
        const fs::path path = dir / (std::string("series.") + nameOf(format));
        start = Clock::now();
        if (!write(path, report, format)) {
            std::fprintf(stderr, "cannot write %s\n", path.c_str());
            status = 1;
            continue;
        }
        const double writeS = secondsSince(start);
        const double megabytes = double(fs::file_size(path)) / 1e6;
        int calls = 0;
        start = Clock::now();
        const auto read = readReportFile(path.string(), [&calls](double) { ++calls; });
        const double readS = secondsSince(start);
        if (!read) {
            std::fprintf(stderr, "%s\n", read.error().message().c_str());
            status = 1;
        } else if (read->runs.size() != report.runs.size()) {
            std::fprintf(stderr, "%s: %zu runs read of %zu\n", path.c_str(), read->runs.size(), report.runs.size());
            status = 1;
        }
        std::printf("%-4s %8.1f MB  write %6.2f s  read %6.2f s  (%.0f MB/s, %d progress calls)\n", nameOf(format),
            megabytes, writeS, readS, megabytes / readS, calls);
    }
    if (!keep || !*keep)
        fs::remove_all(dir);
    for (int i = 2; i < argc; ++i) {
        const fs::path path = argv[i];
        int calls = 0;
        start = Clock::now();
        const auto read = readReportFile(path.string(), [&calls](double) { ++calls; });
        const double readS = secondsSince(start);
        if (!read) {
            std::fprintf(stderr, "%s\n", read.error().message().c_str());
            status = 1;
            continue;
        }
        const double megabytes = double(fs::file_size(path)) / 1e6;
        std::printf("%s: %zu runs, %.1f MB  read %6.2f s  (%.0f MB/s, %d progress calls)\n", path.filename().c_str(),
            read->runs.size(), megabytes, readS, megabytes / readS, calls);
    }
    return status;
}
