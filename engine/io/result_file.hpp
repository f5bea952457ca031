// Result files as a merge reads them: a host's record (several devices, or the error that kept a host from running),
// or a single-device series report of any format version, each as one host's record.
#pragma once

#include "engine/io/read_control.hpp"
#include "engine/model/error.hpp"
#include "engine/model/report.hpp"
#include "engine/run/device_plan.hpp"

#include <atomic>
#include <string>

namespace asyncscope {

// Reads the file at `path`. A series report becomes a host's record of one device, its host the one it names (the
// file's name for reports from before hosts were recorded). A comparison is refused: a merge puts devices side by
// side, not variants. Errors begin with the file's name, as readReportFile's do: "x.json: is a directory" (only a
// regular file is opened). Never throws: whatever a reader below raises becomes the file's error, so a bad file
// among good ones costs only itself.
Result<HostReport> readResultFile(const std::string& path);

// One series from a file of any kind readResultFile reads: a series report (JSON 1-4, CSV), or a host's record that
// holds one device's series. A comparison, a merged table, a host record of several devices' series or of an error,
// and a file without runs are refused, each saying what to compare instead. Errors begin with the file's name.
// `progress` and `cancel` reach a series report's reader as readReportFile takes them (a host's record is read whole).
Result<Report> readSeriesFile(
    const std::string& path, const ReadProgress& progress = {}, const std::atomic<bool>* cancel = nullptr);

// Whether the file at `path` is a comparison of several variants (its JSON's top-level "format" says so): what
// readComparisonFile reads. False for anything else, a file that cannot be read among them.
bool isComparisonFile(const std::string& path);

}  // namespace asyncscope
