#include "cli/cli_commands.hpp"

#include "cli/cli_outputs.hpp"
#include "cli/output_pattern.hpp"

#include "engine/host/host_name.hpp"
#include "engine/io/baseline_report.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/result_file.hpp"
#include "engine/model/number_text.hpp"
#include "engine/model/series_summary.hpp"

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

int writeBaselineComparison(const CliOptions& options, const Report& baseline, const std::string& baselineName,
    const Report& current, const std::string& currentName, std::ostream& out, std::ostream& err)
{
    for (const auto& [series, name] : { std::pair { &baseline, "the baseline " + baselineName },
             std::pair { &current, currentName == "this run" ? std::string("this run") : currentName } }) {
        if (auto few = tooFewRunsToCompare(*series, name))
            return refuseInput(*few, err);
    }
    // The two summaries (a sort per quantity of each series) side by side.
    auto baselineSummarized = std::async(std::launch::async, [&baseline] { return summarizeSeries(baseline); });
    const SeriesSummary currentSummary = summarizeSeries(current);
    const SeriesSummary baselineSummary = baselineSummarized.get();
    const BaselineComparison c =
        compareWithBaseline(baseline, baselineSummary, current, currentSummary, options.baselineSettings);
    if (c.acrossConfigurations && !options.allowDifferent)
        return reportFailure(differentConfigurations(c.differences), err);
    Outputs outputs(out);
    if (!options.outputPath.empty()) {
        if (auto failed = outputs.open(options.outputPath, shortHostName(), kNoDevice))
            return reportFailure(*failed, err);
    }
    const BaselineSide a = baselineSide(baselineName, baseline, baselineSummary);
    const BaselineSide b = baselineSide(currentName, current, currentSummary);
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
    // Both files read at once (a million-run series is mostly parsing); the first one's problem is told first.
    std::vector<std::future<Result<Report>>> reading;
    for (const std::string& path : options.baselineFiles)
        reading.push_back(std::async(std::launch::async, [&path] { return readSeriesFile(path); }));
    std::vector<Report> reports;
    for (auto& read : reading) {
        auto report = read.get();
        if (!report) {
            reportFailure(makeError(report.error().kind, "cannot compare " + report.error().detail,
                              report.error().advice),
                err);
            return kExitUsage;  // refused input, told apart from a failed gate (1)
        }
        reports.push_back(std::move(*report));
    }
    return writeBaselineComparison(options, reports[0], options.baselineFiles[0], reports[1],
        options.baselineFiles[1], out, err);
}

}  // namespace asyncscope::cli
