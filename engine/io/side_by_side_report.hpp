// Devices side by side as text (a table), CSV (a row per GPU) and JSON; and a host's record as text: each device's
// summary, then the table and the aggregate bandwidth.
#pragma once

#include "engine/model/advice.hpp"
#include "engine/run/device_plan.hpp"
#include "engine/run/side_by_side.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace asyncscope {

// A table with a line per GPU (host, GPU, name, bus id, NUMA node, link, its nominal GB/s, H2D and D2H GB/s, GPU
// time, flags; "-" where unknown), a host with an error on a line saying so; then each host's aggregate bandwidth
// and, where any GPU is flagged, what the flags mean.
std::string formatSideBySideText(const std::vector<SideBySideRow>& rows,
    const std::vector<HostAggregate>& aggregates = {});

// One row per GPU or failed host; empty cells where unknown. Columns: Host, Device, Name, PCI Bus Id, NUMA Node,
// Link, Max Link, Link GB/s, Binding, Runs, H2D GB/s, D2H GB/s, GPU Time (ms), Flags, Error Kind, Error.
void writeSideBySideCsv(std::ostream& out, const std::vector<SideBySideRow>& rows);

// {"format": "asyncscope-side-by-side", "format_version": 1, "thresholds": {…}, "rows": […], "aggregates": […]};
// unknown figures are null.
void writeSideBySideJson(std::ostream& out, const std::vector<SideBySideRow>& rows,
    const std::vector<HostAggregate>& aggregates = {});

// A host's record for a terminal: the host and the mode, each device's place, binding and series summary with its
// advice (`assessed`'s: assessHost; what did not run says why), then `rows` as the side-by-side table
// (sideBySideRows: a device's row flagged against its whole host, also where the record holds that device alone).
std::string formatHostReportText(
    const HostReport& host, const std::vector<std::vector<Assessment>>& assessed, const std::vector<SideBySideRow>& rows);

}  // namespace asyncscope
