// Saved reports as files: CSV or JSON by the file's suffix, each error naming the file.
#pragma once

#include "engine/io/read_control.hpp"
#include "engine/model/report.hpp"
#include "engine/run/plan.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>

namespace asyncscope {

// Reads a report written as CSV (.csv) or JSON (anything else). Errors begin with the file's name:
// "h200.csv: line 3, column 'Host Memory': 'bogus' is not pinned or pageable", "big.json: run 51234: end_ms missing
// in span 3" (ErrorKind::Io). A file whose runs would not fit the memory available now is refused before it is read
// (ErrorKind::TooLarge). `progress` hears the fraction of the file read, at most about a hundred times, on this
// thread; when `cancel` turns true the read stops with ErrorKind::Cancelled.
Result<Report> readReportFile(const std::string& path, const ReadProgress& progress = {},
    const std::atomic<bool>* cancel = nullptr);

// Reads a comparison (asyncscope-cli --compare … --format json, or the window's data export of one): every variant's
// report, checked as readReportFile checks a series', errors beginning with the file's name and naming the variant
// ("sizes.json: variant 3 (\"16.0 KiB\"): run 4 (line 80): …"). A file whose text and runs would not fit the memory
// available now is refused before it is read.
Result<PlanReport> readComparisonFile(const std::string& path, const ReadProgress& progress = {},
    const std::atomic<bool>* cancel = nullptr);

// About how much memory the report in a file of `fileBytes` takes once read (its runs and their spans take a little
// more than the file's compact lines).
std::uintmax_t memoryToRead(std::uintmax_t fileBytes);

// ErrorKind::TooLarge, naming `name`, when reading a file of `fileBytes` needs more than `availableBytes`.
Status checkFitsMemory(const std::string& name, std::uintmax_t fileBytes, std::uintmax_t availableBytes);

// The size of the file at `file`, named `name` in messages, when reading it fits in the host's free memory (a file
// under 1 MiB always does).
Result<std::uintmax_t> sizeThatFitsMemory(const std::filesystem::path& file, const std::string& name);

}  // namespace asyncscope
