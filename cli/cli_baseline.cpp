#include "cli/cli_commands.hpp"

#include "cli/cli_outputs.hpp"
#include "cli/output_pattern.hpp"

#include "engine/host/host_name.hpp"
#include "engine/io/baseline_report.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/result_file.hpp"
#include "engine/model/number_text.hpp"
#include "engine/model/advice.hpp"

#include <algorithm>
#include <future>

namespace asyncscope::cli {

Error differentConfigurations(const std::vector<ConfigDifference>& differences)
{
    return makeError(ErrorKind::Usage,
        "the series to compare differ in their configuration: " + differencesText(differences),
        "Compare series of one configuration, or give --allow-different to compare across them (every output then "
        "says so).");
}

int refuseInput(const std::string& why, std::ostream& err)
{
    err << "asyncscope-cli: error: " << why << '\n';
    return kExitUsage;
}

int writeBaselineComparison(const CliOptions& options, const ComparedSeries& baseline, const ComparedSeries& current,
    std::ostream& out, std::ostream& err)
{
    for (const auto& [series, name] : { std::pair { &baseline.report, "the baseline " + baseline.name },
             std::pair { &current.report, current.name } }) {
        if (auto few = tooFewRunsToCompare(*series, name))
            return refuseInput(*few, err);
    }
    const BaselineComparison c = compareWithBaseline(baseline.report, baseline.assessed.summary, current.report,
        current.assessed.summary, options.baselineSettings);
    if (c.acrossConfigurations && !options.allowDifferent)
        return reportFailure(differentConfigurations(c.differences), err);
    Outputs outputs(out);
    if (!options.outputPath.empty()) {
        if (auto failed = outputs.open(options.outputPath, shortHostName(), kNoDevice))
            return reportFailure(*failed, err);
    }
    const BaselineSide a = baselineSide(baseline.name, baseline.report, baseline.assessed);
    const BaselineSide b = baselineSide(current.name, current.report, current.assessed);
    std::ostream& to = outputs.at(kNoDevice);
    switch (options.format) {
    case ReportFormat::Text: to << formatBaselineText(c, a, b); break;
    case ReportFormat::Csv: writeBaselineCsv(to, c, a, b); break;
    case ReportFormat::Json: writeBaselineJson(to, c, a, b); break;
    }
    if (auto failed = outputs.finish())
        return reportFailure(*failed, err);
    const bool gated = std::any_of(c.quantities.begin(), c.quantities.end(),
        [](const QuantityComparison& q) { return q.gated && q.distribution; });
    if (options.baselineSettings.maxSlowdownPercent && !gated)
        return refuseInput("none of the gated quantities (" + joinedText(options.baselineSettings.gateKeys) +
                ") was measured in both series: the gate can neither pass nor fail",
            err);
    if (c.gateFailed()) {
        err << "asyncscope-cli: slower than the baseline by more than "
            << fixedText(*options.baselineSettings.maxSlowdownPercent, 2) << " %: " << c.headline() << '\n';
        return kExitFailure;
    }
    return kExitOk;
}

int runBaselineFiles(const CliOptions& options, std::ostream& out, std::ostream& err)
{
    // Both files read and assessed at once (a million-run series is mostly parsing, then a sort per quantity); the
    // first one's problem is told first.
    struct Read {
        Result<Report> report;
        Assessment assessed;
    };
    std::vector<std::future<Read>> reading;
    for (const std::string& path : options.baselineFiles) {
        reading.push_back(std::async(std::launch::async, [&path] {
            Read read { readSeriesFile(path), {} };
            if (read.report)
                read.assessed = assessSeries(*read.report);
            return read;
        }));
    }
    std::vector<Read> series;
    for (auto& read : reading) {
        series.push_back(read.get());
        const Result<Report>& report = series.back().report;
        if (!report) {
            reportFailure(makeError(report.error().kind, "cannot compare " + report.error().detail,
                              report.error().advice),
                err);
            return kExitUsage;  // refused input, told apart from a failed gate (1)
        }
    }
    return writeBaselineComparison(options,
        { *series[0].report, series[0].assessed, options.baselineFiles[0] },
        { *series[1].report, series[1].assessed, options.baselineFiles[1] }, out, err);
}

}  // namespace asyncscope::cli
