#include "engine/io/report_file.hpp"

#include "engine/host/host_memory.hpp"
#include "engine/io/csv/csv_report.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/model/big_vector.hpp"
#include "engine/model/size_parse.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <new>
#include <system_error>

namespace asyncscope {

namespace {

constexpr std::uintmax_t kAlwaysFitsBytes = std::uintmax_t(1) << 20;  // a file this small is read without asking

}  // namespace

std::uintmax_t memoryToRead(std::uintmax_t fileBytes)
{
    // A run of the classic pipeline takes about 420 bytes once read (the run, six spans and their allocation); its
    // line takes about 470 in JSON format 4 (its fields named), 330 in format 3 and 320 in CSV. Half as much again
    // as the file, and room for the read's buffers (a block of lines per core and the runs parsed from it).
    return fileBytes + fileBytes / 2 + (std::uintmax_t(64) << 20);
}

Status checkFitsMemory(const std::string& name, std::uintmax_t fileBytes, std::uintmax_t availableBytes)
{
    const std::uintmax_t needed = memoryToRead(fileBytes);
    if (needed <= availableBytes)
        return std::nullopt;
    return makeError(ErrorKind::TooLarge,
        name + ": too big to open here: its " + formatBytes(fileBytes) + " need about " + formatBytes(needed) +
            " of memory once read, and " + formatBytes(availableBytes) + " are available",
        "Close other programs, or open a shorter series.");
}

Result<std::uintmax_t> sizeThatFitsMemory(const std::filesystem::path& file, const std::string& name)
{
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    if (ec)
        return makeError(ErrorKind::Io, name + ": cannot be read: " + ec.message());
    if (size < kAlwaysFitsBytes)
        return size;  // a merge of thousands of records does not ask the system thousands of times
    if (auto tooBig = checkFitsMemory(name, size, availableHostMemory()))
        return *tooBig;
    return size;
}

Result<Report> readReportFile(const std::string& path, const ReadProgress& progress, const std::atomic<bool>* cancel)
{
    // A directory, a FIFO or a device is refused before it is opened: opening a FIFO blocks until a writer comes.
    // (A file that is not there is said so below, by its name.)
    const std::filesystem::path file(path);
    const std::string name = shownPath(path);  // with its folder: files of one name in two folders differ
    std::error_code there;
    if (auto unreadable = checkReadableFile(path); unreadable && std::filesystem::exists(file, there))
        return *unreadable;
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return makeError(ErrorKind::Io, name + ": cannot be opened", "Check that the file exists and is readable.");
    const auto size = sizeThatFitsMemory(file, name);
    if (!size)
        return size.error();
    std::string suffix = file.extension().string();
    std::transform(suffix.begin(), suffix.end(), suffix.begin(), [](unsigned char c) { return std::tolower(c); });
    const ReadControl control { progress, cancel, *size };
    Result<Report> report = makeError(ErrorKind::Io, "cannot be read");
    const HugePageScope filledAtOnce;  // the series' columns, filled in one go: in huge pages where there are some
    try {
        report = suffix == ".csv" ? readCsv(in, control) : readJson(in, control);
    } catch (const std::bad_alloc&) {  // the file fitted the memory free when the read began; no longer
        return makeError(ErrorKind::TooLarge, name + ": there is not memory enough left to read it",
            "Close other programs, or open a shorter series.");
    } catch (const std::ios_base::failure&) {  // the file could not be read to its end (a disk error, say)
        return makeError(ErrorKind::Io, name + ": cannot be read to its end");
    }
    if (report)
        return report;
    Error error = report.error();
    error.detail = name + ": " + error.detail;
    return error;
}

}  // namespace asyncscope
