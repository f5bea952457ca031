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

namespace {

// A file checked and opened for reading: a regular file whose report fits the memory available, and its size.
struct OpenedFile {
    std::ifstream in;
    std::uintmax_t size = 0;
};

Result<OpenedFile> openChecked(const std::string& path, const std::string& name)
{
    // A directory, a FIFO or a device is refused before it is opened: opening a FIFO blocks until a writer comes.
    // (A file that is not there is said so below, by its name.)
    const std::filesystem::path file(path);
    std::error_code there;
    if (auto unreadable = checkReadableFile(path); unreadable && std::filesystem::exists(file, there))
        return *unreadable;
    OpenedFile opened { std::ifstream(file, std::ios::binary), 0 };
    if (!opened.in)
        return makeError(ErrorKind::Io, name + ": cannot be opened", "Check that the file exists and is readable.");
    const auto size = sizeThatFitsMemory(file, name);
    if (!size)
        return size.error();
    opened.size = *size;
    return opened;
}

// `read` of the opened file, its errors named for the file, running out of memory or a disk error among them.
template <class T, class Read>
Result<T> readNamed(const std::string& name, Read read)
{
    Result<T> result = makeError(ErrorKind::Io, "cannot be read");
    try {
        result = read();
    } catch (const std::bad_alloc&) {  // the file fitted the memory free when the read began; no longer
        return makeError(ErrorKind::TooLarge, name + ": there is not memory enough left to read it",
            "Close other programs, or open a shorter series.");
    } catch (const std::ios_base::failure&) {  // the file could not be read to its end (a disk error, say)
        return makeError(ErrorKind::Io, name + ": cannot be read to its end");
    }
    if (result)
        return result;
    Error error = result.error();
    error.detail = name + ": " + error.detail;
    return error;
}

}  // namespace

Result<Report> readReportFile(const std::string& path, const ReadProgress& progress, const std::atomic<bool>* cancel)
{
    const std::string name = shownPath(path);  // with its folder: files of one name in two folders differ
    auto opened = openChecked(path, name);
    if (!opened)
        return opened.error();
    std::string suffix = std::filesystem::path(path).extension().string();
    std::transform(suffix.begin(), suffix.end(), suffix.begin(), [](unsigned char c) { return std::tolower(c); });
    const ReadControl control { progress, cancel, opened->size };
    const HugePageScope filledAtOnce;  // the series' columns, filled in one go: in huge pages where there are some
    std::ifstream& in = opened->in;
    return readNamed<Report>(name, [&] { return suffix == ".csv" ? readCsv(in, control) : readJson(in, control); });
}

Result<PlanReport> readComparisonFile(
    const std::string& path, const ReadProgress& progress, const std::atomic<bool>* cancel)
{
    const std::string name = shownPath(path);
    auto opened = openChecked(path, name);
    if (!opened)
        return opened.error();
    // Its whole text is held while its variants are read: twice the file.
    if (opened->size >= kAlwaysFitsBytes) {
        if (auto tooBig = checkFitsMemory(name, 2 * opened->size, availableHostMemory()))
            return *tooBig;
    }
    const ReadControl control { progress, cancel, opened->size };
    std::ifstream& in = opened->in;
    return readNamed<PlanReport>(name, [&] { return readComparisonJson(in, control); });
}

}  // namespace asyncscope
