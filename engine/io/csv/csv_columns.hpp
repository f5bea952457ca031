// The columns of a run export: one table saying, for each column, its name, how a run's row writes it and how a read
// field goes back into the report. writeCsv writes it, readCsv reads by it (engine/io/csv/csv_report.hpp).
#pragma once

#include "engine/model/report.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope::csv {

// A row as it is read: the run, and the durations its spans are rebuilt from once the whole row is in.
struct Row {
    RunResult run;
    SerialDurations durations;
    MachineSample machine;  // the machine's state the row's cells give; a reading where any of them is filled
    bool machineRead = false;
};

// One column: its name, how a run's row writes it, and how a read field goes back into the report (false when the
// text is malformed). Columns without `read` are derived from others and not read back. `accepted` lists the names
// a choice column takes, for the message about a value it does not. A column that is not `required` came later:
// files written before it keep the configuration's default. A column that is not `perRun` holds the device or the
// configuration, the same on every row.
struct CsvColumn {
    const char* name;
    std::function<void(const Report&, std::size_t, std::string&)> write;  // the report's run i (any i: not perRun)
    std::function<bool(std::string_view, Report&, Row&)> read;
    std::string accepted;
    bool required = true;
    bool perRun = true;
};

// Every column, in the order they are written: the device's and the configuration's first (not perRun), then the
// run's own.
const std::vector<CsvColumn>& runColumns();

}  // namespace asyncscope::csv
