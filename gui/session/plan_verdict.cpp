#include "gui/session/plan_verdict.hpp"

#include "engine/model/series_summary.hpp"

#include <QObject>


namespace asyncscope {

PlanVerdict judgePlan(const PlanReport& plan)
{
    PlanTally tally;
    for (const VariantResult& variant : plan.variants) {
        const RunStore& all = variant.report.runs;
        tally.runs += all.size();
        // Counted, not summarised: a summary sorts every quantity, seconds for a million runs on the GUI thread.
        for (std::size_t i = 0; i < all.size(); ++i)
            tally.wrong += all.verified(i) ? 0 : 1;
    }
    return judgePlan(plan, tally);
}

PlanVerdict judgePlan(const PlanReport& plan, const PlanTally& tally)
{
    PlanVerdict v;
    const std::size_t runs = tally.runs;
    const std::size_t wrong = tally.wrong;
    const QString notRun = QString::fromStdString(plan.notRunText());

    if (const Error* failure = plan.failure()) {
        v.cancelled = failure->kind == ErrorKind::Cancelled;
        v.exitCode = isRequestError(failure->kind) ? 2 : 1;
        const QString message = QString::fromStdString(failure->message());
        v.summary = v.cancelled ? QObject::tr("Cancelled after %n run(s).", nullptr, int(runs))
                                : QObject::tr("Failed: %1").arg(message);
        v.problem = v.cancelled ? QString() : message;
        return v;
    }
    if (plan.ranCount() == 0) {
        v.exitCode = 2;
        v.summary = QObject::tr("Nothing ran: %1").arg(notRun);
        v.problem = notRun;
        return v;
    }
    if (plan.comparison) {
        v.summary = QObject::tr("Comparison '%1' done: %2 of %3 variants ran")
                        .arg(nameOf(*plan.comparison))
                        .arg(plan.ranCount())
                        .arg(plan.planned);
    } else {
        const Report& report = plan.variants.front().report;
        const SeriesSummary s = tally.series ? *tally.series : summarizeSeries(report);
        const std::string shape = shapeText(report.config);
        v.summary = QObject::tr("%1 runs%2: median GPU time %3 ms, CPU submit time %4 ms, %5 poll iterations")
                        .arg(s.measuredRuns)
                        .arg(shape.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(shape)))
                        .arg(s.median(keys::kGpuTime), 0, 'f', 3)
                        .arg(s.median(keys::kCpuSubmit), 0, 'f', 3)
                        .arg(s.median(keys::kPolls), 0, 'f', 0);
    }
    if (wrong) {
        v.exitCode = 1;
        v.summary += QObject::tr("; %1 runs returned wrong elements").arg(wrong);
        v.problem = QObject::tr("Some runs returned wrong elements: see the exported data's first_wrong_index.");
    } else {
        v.summary += QObject::tr("; every element verified");
    }
    if (!notRun.isEmpty())
        v.problem = v.problem.isEmpty() ? notRun : v.problem + "\n" + notRun;
    return v;
}

}  // namespace asyncscope
