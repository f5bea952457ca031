// Saved reports as files: CSV or JSON by the file's suffix, each error naming the file.
#pragma once

#include "engine/model/report.hpp"

#include <string>

namespace asyncscope {

// Reads a report written as CSV (.csv) or JSON (anything else). Errors are ErrorKind::Io and begin with the file's
// name: "h200.csv: line 3, column 'Host Memory': 'bogus' is not pinned or pageable".
Result<Report> readReportFile(const std::string& path);

}  // namespace asyncscope
