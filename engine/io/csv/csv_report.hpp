// The report as CSV: one row per run, each row carrying the device block and the configuration, so a row stands
// alone in a spreadsheet or a data frame; columns named in nvbench's manner ("GPU Time (ms)", "CPU Time (ms)" …).
// And reading it back, for overlaying a saved series.
#pragma once

#include "engine/io/read_control.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/report.hpp"
#include "engine/run/plan.hpp"

#include <istream>
#include <ostream>
#include <vector>

namespace asyncscope {

// A field as these files write it: quoted only where it needs it (RFC 4180). Its control characters are written
// escaped as a text report shows them ("\x1b", "\n": displayText) and bytes that are not UTF-8 as U+FFFD, so that a
// row is one line, as readCsv takes it, and a file printed to a terminal shows a hostile name rather than acting on
// it; such a name reads back escaped. readCsv takes each cell as well-formed UTF-8 (U+FFFD for what is not).
std::string csvField(const std::string& field);

// One row per run. After the run's own columns, "Start (ms)" (when it was submitted, ms from the series' first run) and
// the machine's reading in force at that start ("SM Clock (MHz)" … "GPU Processes": "1000* asyncscope-cli; 554", this
// process starred), empty where unknown; readCsv takes a reading per change of those cells, at its row's start.
void writeCsv(std::ostream& out, const Report& report);

// A comparison: one row per variant with its configuration, Samples, the median of every distribution and every
// figure (nvbench's "GPU Time", "Noise" …), whether every run verified, why a variant did not run and its findings:
// `assessed`'s (assessPlan).
void writeComparisonCsv(std::ostream& out, const PlanReport& plan, const std::vector<Assessment>& assessed);

// Reads what writeCsv wrote: the device, the configuration and every run (a CSV has no summary, outcome or
// calibration). Columns are found by name, so their order and extra columns do not matter. A file that is not such
// a CSV is an ErrorKind::Io error naming the line and column at fault. The header is checked before the body is
// read, and no line longer than 64 KiB is read (a file of NULs is refused after its first block, not read whole);
// every row is held to the record rules (checkRun, checkConfig, checkDevice); a last row the file ends inside is
// "cut short". Cancelled through `control`: ErrorKind::Cancelled.
Result<Report> readCsv(std::istream& in, const ReadControl& control = {});

}  // namespace asyncscope
