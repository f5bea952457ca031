// The report as JSON: format 4 (JSON Lines) written, formats 1 to 4 read; a comparison as its variants' reports.
//
// Format 4: line 1 is the header, one object: "format": "asyncscope-report", "format_version": 4, "host", "device",
// "binding", "config", "summary", "calibration", "outcome", and "fields": {"run": […], "span": […]}. Then one run a
// line, each an object that stands alone: {"run":0,"warmup":true,"start_ms":…,"gpu_time_ms":…,"poll_iterations":…,
// "wait_cpu_ms":…,"expected_value":…,"verified":…,"first_wrong_index":…,"first_wrong_value":…,"spans":[…]} and
// "traced_spans" where the run has traced spans, and last "block" where the run's block (--blocks) is not 0 (a file
// without it is one block; a block is from 0 to 999 and never lower than the run's before it); a span is an array of
// the fields "fields": {"span": …} names (kind, begin_ms, end_ms, and device, stream, chunk, bytes where some span has
// them other than 0; call last, on api spans).
// So `jq`, `split` and `pandas.read_json(path, lines=True)` take the file line by line (pandas reads the header as
// one odd row).
//
// Where a report sits inside another document (host records, comparisons) it is one JSON object: the header's
// fields and "runs": [the run objects, one a line]. readJson reads that too, and formats 1 to 3: version 3 was such
// a document with each run an array of the fields "fields": {"run": …} names, version 2 gave every run and span as
// an object, version 1 (no spans) gave stage and CPU times as fields of each run.
#pragma once

#include "engine/io/json/header_blocks.hpp"
#include "engine/io/json/report_fields.hpp"
#include "engine/io/read_control.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/report.hpp"
#include "engine/run/plan.hpp"

#include <istream>
#include <ostream>
#include <vector>

namespace asyncscope {

// The writers take the summary and the advice they write (`assessed`: assessSeries of the report; a plan's variant
// its entry of assessPlan, judged beside the plan's others); they summarise and judge nothing themselves.

// Format 4: the header on line 1, then one run a line.
void writeJson(std::ostream& out, const Report& report, const Assessment& assessed);

// The report as one JSON object: the header's fields indented, then "runs": [one run object a line].
void writeJsonDocument(std::ostream& out, const Report& report, const Assessment& assessed);

// {"format": "asyncscope-comparison", "format_version": 4, "comparison", "planned", "variants": [each variant's
// report as writeJsonDocument writes it, with "variant" (its label), and "not_run" or "failure" where it has them]}.
// `assessed`: assessPlan(plan).
void writeComparisonJson(std::ostream& out, const PlanReport& plan, const std::vector<Assessment>& assessed);

// Reads a comparison as writeComparisonJson writes it (in any layout): its kind, the variants planned, and each
// variant's label, report (read as readJson reads one document, every check included) and why it did not run or
// failed where it says so. Errors name the line and the field ("line 3: planned is 2; accepted: …", "variant 2
// (\"pageable\"): run 4 (line 80): gpu_time_ms is -1; …"), not the file (the caller adds it). A variant's runs are
// read once the whole text is in memory: the caller bounds the file's size.
Result<PlanReport> readComparisonJson(std::istream& in, const ReadControl& control = {});

// Reads a report of any format version (1 to 4), without holding the document: the runs of formats 3 and 4 are
// parsed on every core. A file that is not such a report is an ErrorKind::Io error naming the line or the run, and
// the field at fault ("run 51234 (line 51235): end_ms missing in span 3"); a choice it does not know is rejected
// with the names it accepts. Cancelled through `control`: ErrorKind::Cancelled.
Result<Report> readJson(std::istream& in, const ReadControl& control = {});

}  // namespace asyncscope
