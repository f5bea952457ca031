#include "engine/model/advice.hpp"

#include "engine/model/advice_rules.hpp"

#include "engine/model/number_text.hpp"

#include <algorithm>

namespace asyncscope {

std::string runRangesText(const std::vector<RunRange>& ranges)
{
    constexpr std::size_t kMostNamed = 10;  // past these, how many more
    std::string text;
    for (std::size_t k = 0; k < ranges.size() && k < kMostNamed; ++k) {
        const RunRange& r = ranges[k];
        text += text.empty() ? "" : ", ";
        text += r.first == r.last ? std::to_string(r.first) : std::to_string(r.first) + "-" + std::to_string(r.last);
    }
    if (ranges.size() > kMostNamed)
        text += " and " + std::to_string(ranges.size() - kMostNamed) + " more ranges";
    return (ranges.size() == 1 && ranges.front().first == ranges.front().last ? "run " : "runs ") + text;
}

std::optional<Severity> Advice::worst() const
{
    std::optional<Severity> worst;
    for (const Finding& f : findings) {
        if (!worst || f.severity > *worst)
            worst = f.severity;
    }
    return worst;
}

namespace advice_rules {

std::string ms(double value)
{
    return fixedText(value, value < 0.1 ? 4 : 3) + " ms";
}

std::string us(double valueMs)
{
    return fixedText(valueMs * 1e3, 1) + " µs";
}

std::string gbps(double value)
{
    return fixedText(value, 1) + " GB/s";
}

std::string percent(double fraction)
{
    return fixedText(fraction * 100.0, 0) + " %";
}

std::string times(double ratio)
{
    return fixedText(ratio, 2) + " ×";
}

}  // namespace advice_rules

using namespace advice_rules;

Advice judgeSeries(const Report& report, const SeriesSummary& summary, const AdviceContext& context)
{
    Advice advice;
    const Distribution* gpu = summary.distribution(keys::kGpuTime);
    if (!gpu || summary.measuredRuns == 0)
        return advice;
    Facts f { report, summary, report.config, 0.0, 0.0, std::nullopt, {} };
    f.gpuMs = gpu->stats.median;
    f.noisePercent = gpu->stats.noisePercent;
    if (const Distribution* submit = summary.distribution(keys::kCpuSubmit))
        f.submitMs = submit->stats.median;
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
        if (!report.runs.warmup(i))
            f.measured.push_back(i);
    }

    interference(f, advice);
    clocks(f, advice);
    linkDegraded(f, advice);
    tooShort(f, advice);
    if (report.program) {  // the pipeline's workload rules read its configuration, which a program does not have
        programWork(f, advice);
    } else {
        transferBound(f, advice);
        overlapHeadroom(f, advice);
        pageableCopies(f, advice);
        submitBound(f, context, advice);
        checkBound(f, advice);
    }
    noisy(f, advice);
    std::stable_sort(advice.findings.begin(), advice.findings.end(),
        [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
    return advice;
}

Assessment assessSeries(const Report& report, const AdviceContext& context)
{
    Assessment a { summarizeSeries(report), {} };
    a.advice = judgeSeries(report, a.summary, context);
    return a;
}

std::vector<SeriesSummary> summariesOf(const std::vector<Assessment>& assessed)
{
    std::vector<SeriesSummary> summaries;
    summaries.reserve(assessed.size());
    for (const Assessment& a : assessed)
        summaries.push_back(a.summary);
    return summaries;
}

}  // namespace asyncscope
