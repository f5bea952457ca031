#include "gui/series/shown_advice.hpp"

#include "engine/io/text_report.hpp"
#include "engine/run/plan_advice.hpp"
#include "engine/run/plan_summary.hpp"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <limits>

namespace asyncscope {

namespace {

QString machineLine(const Report& report)
{
    return report.machine ? QString::fromStdString(formatMachineText(*report.machine)) : QString();
}

// The measured run nearest the median GPU time: the one a finding about the stages within runs opens on.
std::optional<int> medianRun(const RunStore& runs, double medianGpuMs)
{
    std::optional<int> best;
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (runs.warmup(i))
            continue;
        if (const double d = std::abs(runs.gpuMs(i) - medianGpuMs); d < nearest) {
            nearest = d;
            best = int(runs.index(i));
        }
    }
    return best;
}

}  // namespace

std::optional<Severity> ShownAdvice::worst() const
{
    std::optional<Severity> worst;
    for (const Part& p : parts) {
        if (const auto w = p.advice.worst(); w && (!worst || *w > *worst))
            worst = w;
    }
    return worst;
}

int ShownAdvice::count(Severity severity) const
{
    int n = 0;
    for (const Part& p : parts)
        n += int(std::count_if(p.advice.findings.begin(), p.advice.findings.end(),
            [severity](const Finding& f) { return f.severity == severity; }));
    return n;
}

std::vector<NotChecked> ShownAdvice::notChecked() const
{
    std::vector<NotChecked> all;
    for (const Part& p : parts) {
        for (const NotChecked& n : p.advice.notChecked) {
            if (std::none_of(all.begin(), all.end(),
                    [&n](const NotChecked& seen) { return seen.rule == n.rule && seen.why == n.why; }))
                all.push_back(n);
        }
    }
    return all;
}

ShownAdvice judgeShownSeries(const Report& report, const SeriesSummary& summary, const QString& subject, bool measuring)
{
    ShownAdvice shown;
    shown.subject = subject;
    shown.measuring = measuring;
    shown.program = report.program.has_value();
    shown.runs = report.runs.size();
    if (summary.measuredRuns == 0)
        return shown;  // nothing to judge yet
    ShownAdvice::Part part;
    part.advice = judgeSeries(report, summary);
    part.machine = machineLine(report);
    if (const Distribution* gpu = summary.distribution(keys::kGpuTime))
        part.medianRun = medianRun(report.runs, gpu->stats.median);
    shown.parts.push_back(std::move(part));
    return shown;
}

ShownAdvice judgeShownComparison(const PlanReport& plan)
{
    ShownAdvice shown;
    shown.comparison = true;
    shown.subject = plan.comparison
        ? QObject::tr("the %1 comparison").arg(QString::fromUtf8(nameOf(*plan.comparison)))
        : QObject::tr("the comparison");
    const std::vector<SeriesSummary> summaries = summarizePlan(plan);
    const std::vector<Advice> advice = advisePlan(plan, summaries);
    for (std::size_t i = 0; i < plan.variants.size() && i < advice.size(); ++i) {
        const VariantResult& v = plan.variants[i];
        shown.runs += v.report.runs.size();
        if (!v.ran() || summaries[i].measuredRuns == 0)
            continue;
        shown.parts.push_back({ QString::fromStdString(v.label), advice[i], machineLine(v.report), std::nullopt });
    }
    return shown;
}

}  // namespace asyncscope
