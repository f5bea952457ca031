#include "engine/io/report_file.hpp"

#include "engine/io/csv_report.hpp"
#include "engine/io/json_report.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace asyncscope {

Result<Report> readReportFile(const std::string& path)
{
    const std::filesystem::path file(path);
    const std::string name = file.filename().string();
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return makeError(ErrorKind::Io, name + ": cannot be opened", "Check that the file exists and is readable.");
    std::string suffix = file.extension().string();
    std::transform(suffix.begin(), suffix.end(), suffix.begin(), [](unsigned char c) { return std::tolower(c); });
    auto report = suffix == ".csv" ? readCsv(in) : readJson(in);
    if (report)
        return report;
    Error error = report.error();
    error.detail = name + ": " + error.detail;
    return error;
}

}  // namespace asyncscope
