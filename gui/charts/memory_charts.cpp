#include "gui/charts/memory_charts.hpp"

#include "gui/charts/kind_colours.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCoreApplication>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QValueAxis>

#include <algorithm>
#include <utility>

namespace asyncscope {

namespace {

// One quantity a chart shows: read from a summary by key (a distribution's median or a figure).
struct Quantity {
    std::string_view key;
    const char* title;
    const char* unit;
    QColor colour;
    bool copyRate;  // a stage bandwidth: there only where the run copies, stages are timed, on one stream
};

const Quantity kQuantities[] = {
    { keys::kH2dRate, QT_TRANSLATE_NOOP("MemoryCharts", "H2D copy rate (decimal GB/s)"), "GB/s",
        kindColour(SpanKind::H2D), true },
    { keys::kD2hRate, QT_TRANSLATE_NOOP("MemoryCharts", "D2H copy rate (decimal GB/s)"), "GB/s",
        kindColour(SpanKind::D2H), true },
    { keys::kGpuTime, QT_TRANSLATE_NOOP("MemoryCharts", "GPU time (medians)"), "ms", gpuTimeColour(), false },
    { keys::kCpuSubmit, QT_TRANSLATE_NOOP("MemoryCharts", "CPU submit time (medians)"), "ms",
        kindColour(SpanKind::Submit), false },
    { keys::kWaitCpu, QT_TRANSLATE_NOOP("MemoryCharts", "CPU time used while waiting (medians)"), "ms",
        kindColour(SpanKind::Wait), false },
    { keys::kOverSerialBound, QT_TRANSLATE_NOOP("MemoryCharts", "GPU time / serial PCIe bound"), "x",
        QColor(90, 90, 90), false },
};
constexpr int kQuantityCount = int(std::size(kQuantities));

QString tr(const char* text)
{
    return QCoreApplication::translate("MemoryCharts", text);
}

// Why variant i has no bar for a quantity, in a few words.
QString missingReason(const PlanReport& c, const std::vector<SeriesSummary>& summaries, std::size_t i,
    const Quantity& q)
{
    const VariantResult& v = c.variants[i];
    if (!v.ran())
        return tr("not run");
    if (summaries[i].measuredRuns == 0)
        return tr("no measured runs");
    const PipelineConfig& config = v.report.config;
    if (q.copyRate) {
        if (!hasCopies(config))
            return tr("no copies");
        if (!config.stageEvents)
            return tr("stages not timed");
        if (config.streams > 1)
            return tr("several streams");
    }
    if (q.key == keys::kOverSerialBound) {
        if (config.hostMemory == HostMemory::Managed && config.managedMigration == ManagedMigration::OnDemand)
            return tr("on-demand migration has no PCIe bound");
        if (!v.report.peak)
            return tr("no copy calibration");
    }
    return tr("not measured");
}

// "no bar: mapped, managed, on-demand (no copies); registered (not run)": the variants a chart leaves out, grouped
// by reason in plan order; empty when every variant has its bar.
QString missingNote(const std::vector<std::pair<QString, QString>>& missing)
{
    QStringList groups;
    std::vector<std::pair<QString, QStringList>> byReason;
    for (const auto& [label, reason] : missing) {
        auto at = std::find_if(byReason.begin(), byReason.end(), [&](const auto& g) { return g.first == reason; });
        if (at == byReason.end())
            byReason.emplace_back(reason, QStringList { label });
        else
            at->second << label;
    }
    for (const auto& [reason, labels] : byReason)
        groups << QStringLiteral("%1 (%2)").arg(labels.join(QStringLiteral("; ")), reason);
    return groups.isEmpty() ? QString() : tr("no bar: %1").arg(groups.join(QStringLiteral("; ")));
}

// A horizontal bar chart: a row per category (the first at the top), a bar per set in each, values labelled.
std::unique_ptr<QChart> barsChart(const QString& title, const QString& unit, const QString& note,
    const QStringList& categories, const QList<QBarSet*>& sets, double top)
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    auto* series = new QHorizontalBarSeries;
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(4);
    for (QBarSet* set : sets) {
        set->setLabelColor(QColor(40, 40, 40));
        series->append(set);
    }
    chart->addSeries(series);
    auto* y = new QBarCategoryAxis;
    QStringList fromTop = categories;
    std::reverse(fromTop.begin(), fromTop.end());  // the axis draws its first category at the bottom
    y->append(fromTop);
    auto* x = new QValueAxis;
    x->setTitleText(note.isEmpty() ? unit : QStringLiteral("%1<br>%2").arg(unit, note.toHtmlEscaped()));
    x->setRange(0.0, top > 0.0 ? top * 1.25 : 1.0);  // room for the labels beyond the longest bar
    x->applyNiceNumbers();
    chart->addAxis(y, Qt::AlignLeft);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(y);
    series->attachAxis(x);
    chart->legend()->setVisible(sets.size() > 1);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

std::unique_ptr<QChart> quantityChart(const PlanReport& c, const std::vector<SeriesSummary>& summaries,
    const Quantity& q)
{
    QStringList categories;
    QList<double> values;
    std::vector<std::pair<QString, QString>> missing;
    for (std::size_t i = 0; i < c.variants.size(); ++i) {
        const QString label = QString::fromStdString(c.variants[i].label);
        const auto value = c.variants[i].ran() && summaries[i].measuredRuns > 0
            ? headlineValue(summaries[i], q.key)
            : std::nullopt;
        if (!value) {
            missing.emplace_back(label, missingReason(c, summaries, i, q));
            continue;
        }
        categories << label;
        values << *value;
    }
    auto* set = new QBarSet(tr(q.title));
    set->setColor(q.colour);
    double top = 0.0;
    for (auto at = values.rbegin(); at != values.rend(); ++at) {  // from the bottom, as the axis counts
        *set << *at;
        top = std::max(top, *at);
    }
    return barsChart(tr(q.title), QString::fromLatin1(q.unit), missingNote(missing), categories, { set }, top);
}

bool registered(const SeriesSummary& s)
{
    return headlineValue(s, keys::kHostRegisterMs).has_value();
}

// cudaHostRegister and cudaHostUnregister of the variants that register their buffers: what pinning in place costs.
std::unique_ptr<QChart> registrationChart(const PlanReport& c, const std::vector<SeriesSummary>& summaries)
{
    QStringList categories;
    QList<std::pair<double, double>> values;
    for (std::size_t i = 0; i < c.variants.size(); ++i) {
        if (!c.variants[i].ran() || !registered(summaries[i]))
            continue;
        categories << QString::fromStdString(c.variants[i].label);
        values << std::pair { headlineValue(summaries[i], keys::kHostRegisterMs).value_or(0.0),
            headlineValue(summaries[i], keys::kHostUnregisterMs).value_or(0.0) };
    }
    auto* registering = new QBarSet(QStringLiteral("cudaHostRegister"));
    auto* unregistering = new QBarSet(QStringLiteral("cudaHostUnregister"));
    registering->setColor(kindColour(SpanKind::Submit));
    unregistering->setColor(kindColour(SpanKind::Wait));
    double top = 0.0;
    for (auto at = values.rbegin(); at != values.rend(); ++at) {
        *registering << at->first;
        *unregistering << at->second;
        top = std::max({ top, at->first, at->second });
    }
    return barsChart(tr("Registration cost, all host buffers"), QStringLiteral("ms"), QString(), categories,
        { registering, unregistering }, top);
}

}  // namespace

int memoryChartCount(const PlanReport& c, const std::vector<SeriesSummary>& summaries)
{
    for (std::size_t i = 0; i < c.variants.size() && i < summaries.size(); ++i) {
        if (c.variants[i].ran() && registered(summaries[i]))
            return kQuantityCount + 1;
    }
    return kQuantityCount;
}

std::unique_ptr<QChart> memoryChart(const PlanReport& c, const std::vector<SeriesSummary>& summaries, int index)
{
    if (index >= 0 && index < kQuantityCount)
        return quantityChart(c, summaries, kQuantities[index]);
    return registrationChart(c, summaries);
}

}  // namespace asyncscope
