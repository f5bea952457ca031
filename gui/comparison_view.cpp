#include "gui/comparison_view.hpp"

#include "engine/model/size_parse.hpp"
#include "engine/run/plan_summary.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QSplitter>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace asyncscope {

namespace {

const QColor kGpu(0, 114, 178), kCpu(230, 159, 0), kWait(0, 158, 115), kH2d(86, 180, 233), kD2h(213, 94, 0);

// "4K", "64K", "1M", "1G": short labels for a sweep's size axis.
QString shortSize(std::size_t bytes)
{
    const char* units[] = { "", "K", "M", "G", "T" };
    int unit = 0;
    while (bytes >= 1024 && bytes % 1024 == 0 && unit < 4) {
        bytes /= 1024;
        ++unit;
    }
    return QString::number(qulonglong(bytes)) + units[unit];
}

QString title(Comparison c)
{
    switch (c) {
    case Comparison::HostMemory: return QObject::tr("Pinned vs pageable host memory (medians)");
    case Comparison::Wait: return QObject::tr("Spin-poll vs blocking-sync wait (medians)");
    case Comparison::Size: return QObject::tr("Size sweep");
    }
    return {};
}

std::unique_ptr<QChart> barChart(const PlanReport& c)
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(title(c.comparison.value_or(Comparison::HostMemory)));
    chart->setAnimationOptions(QChart::NoAnimation);
    auto* series = new QBarSeries;
    auto* gpu = new QBarSet(QObject::tr("GPU time"));
    auto* cpu = new QBarSet(QObject::tr("CPU submit time"));
    auto* wait = new QBarSet(QObject::tr("CPU time used while waiting"));
    gpu->setColor(kGpu);
    cpu->setColor(kCpu);
    wait->setColor(kWait);
    double top = 0.0;
    for (const VariantResult& v : c.variants) {
        if (!v.ran())
            continue;
        const SeriesSummary s = summarizeSeries(v.report);
        const double values[] = { s.median(keys::kGpuTime), s.median(keys::kCpuSubmit), s.median(keys::kWaitCpu) };
        *gpu << values[0];
        *cpu << values[1];
        *wait << values[2];
        top = std::max({ top, values[0], values[1], values[2] });
    }
    series->append({ gpu, cpu, wait });
    for (QBarSet* set : { gpu, cpu, wait })
        set->setLabelColor(QColor(40, 40, 40));
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);  // readable on bars of any height
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(4);
    chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    QStringList labels;
    for (const VariantResult& v : c.variants) {
        if (v.ran())
            labels << QString::fromStdString(v.label);
    }
    x->append(labels);
    auto* y = new QValueAxis;
    y->setTitleText(QStringLiteral("ms"));
    y->setRange(0.0, top > 0.0 ? top * 1.15 : 1.0);
    y->applyNiceNumbers();
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

std::unique_ptr<QChart> sweepChart(const PlanReport& c, bool bandwidth)
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(bandwidth ? QObject::tr("Bandwidth over size (decimal GB/s)")
                              : QObject::tr("Time over size (medians)"));
    chart->setAnimationOptions(QChart::NoAnimation);
    auto line = [&](const QString& name, const QColor& color) {
        auto* s = new QLineSeries;
        s->setName(name);
        s->setPen(QPen(color, 2.0));
        s->setPointsVisible(true);
        chart->addSeries(s);
        return s;
    };
    QList<QLineSeries*> series;
    if (bandwidth)
        series = { line(QObject::tr("H2D"), kH2d), line(QObject::tr("D2H"), kD2h),
            line(QObject::tr("whole pipeline (2 x size / GPU time)"), kGpu) };
    else
        series = { line(QObject::tr("GPU time"), kGpu), line(QObject::tr("CPU submit time"), kCpu) };
    double low = 0.0, high = 0.0;
    std::vector<std::size_t> sizes;
    for (const VariantResult& v : c.variants) {
        if (!v.ran())
            continue;
        const SeriesSummary s = summarizeSeries(v.report);
        const double bytes = static_cast<double>(v.report.config.bytes());
        sizes.push_back(v.report.config.bytes());
        const double position = std::log2(bytes);  // sizes are powers of two: evenly spaced
        const QList<double> values = bandwidth
            ? QList<double> { s.value(keys::kH2dRate), s.value(keys::kD2hRate),
                  gigabytesPerSecond(2.0 * bytes, s.median(keys::kGpuTime)) }
            : QList<double> { s.median(keys::kGpuTime), s.median(keys::kCpuSubmit) };
        for (int i = 0; i < values.size(); ++i) {
            if (values[i] <= 0.0)
                continue;  // a log axis cannot show zero (stage times off)
            series[i]->append(position, values[i]);
            low = low == 0.0 ? values[i] : std::min(low, values[i]);
            high = std::max(high, values[i]);
        }
    }
    auto* x = new QCategoryAxis;
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    x->setTitleText(QObject::tr("size (bytes, log scale)"));
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (i % 4 == 0 || i + 1 == sizes.size())  // every 16x: room for each label in a narrow chart
            x->append(shortSize(sizes[i]), std::log2(double(sizes[i])));
    }
    if (!sizes.empty())
        x->setRange(std::log2(double(sizes.front())), std::log2(double(sizes.back())));
    chart->addAxis(x, Qt::AlignBottom);
    QAbstractAxis* y = nullptr;
    if (bandwidth) {
        auto* v = new QValueAxis;
        v->setRange(0.0, high > 0.0 ? high * 1.1 : 1.0);
        v->applyNiceNumbers();
        v->setTitleText(QStringLiteral("GB/s"));
        y = v;
    } else {
        auto* v = new QLogValueAxis;
        v->setBase(10.0);
        v->setLabelFormat(QStringLiteral("%g"));
        v->setTitleText(QObject::tr("ms (log scale)"));
        if (low > 0.0)
            v->setRange(low / 2.0, high * 2.0);
        y = v;
    }
    chart->addAxis(y, Qt::AlignLeft);
    for (QLineSeries* s : series) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

}  // namespace

int comparisonChartCount(const PlanReport& comparison)
{
    return comparison.comparison == Comparison::Size ? 2 : 1;
}

std::unique_ptr<QChart> buildComparisonChart(const PlanReport& comparison, int index)
{
    if (comparison.comparison == Comparison::Size)
        return sweepChart(comparison, index == 1);
    return barChart(comparison);
}

ComparisonView::ComparisonView(QWidget* parent)
    : QWidget(parent)
{
    auto* charts = new QWidget;
    m_charts = new QHBoxLayout(charts);
    m_charts->setContentsMargins(0, 0, 0, 0);
    m_table = new QTableWidget;
    m_table->setObjectName("comparisonTable");
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(charts);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);
    auto* hint = new QLabel(tr("Run a comparison from the Compare menu."));
    hint->setAlignment(Qt::AlignCenter);
    m_charts->addWidget(hint);
}

int ComparisonView::chartCount() const
{
    return static_cast<int>(m_views.size());
}

void ComparisonView::setComparison(const PlanReport& comparison)
{
    while (QLayoutItem* item = m_charts->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_views.clear();
    for (int i = 0; i < comparisonChartCount(comparison); ++i) {
        auto* view = new QChartView(buildComparisonChart(comparison, i).release());
        view->setRenderHint(QPainter::Antialiasing);
        m_charts->addWidget(view);
        m_views.append(view);
    }
    // Size, samples, then the median of every distribution and every figure: whatever the summaries hold.
    const std::vector<SeriesSummary> summaries = summarizePlan(comparison);
    const std::vector<Column> values = comparisonColumns(summaries);
    const bool anyNotRun = comparison.ranCount() < comparison.variants.size();
    QStringList headers { tr("size"), tr("samples") };
    for (const Column& c : values)
        headers << QString::fromStdString(headerOf(c.name, c.kind));
    if (anyNotRun)
        headers << tr("not run");
    m_table->clear();
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(static_cast<int>(comparison.variants.size()));
    QStringList rowLabels;
    for (std::size_t i = 0; i < comparison.variants.size(); ++i) {
        const VariantResult& v = comparison.variants[i];
        rowLabels << QString::fromStdString(v.label);
        QStringList cells { QString::fromStdString(formatBytes(v.report.config.bytes())),
            QString::number(summaries[i].measuredRuns) };
        for (const Column& c : values) {
            const auto value = headlineValue(summaries[i], c.key);
            cells << (value ? QString::number(*value, 'f', decimalsOf(c.kind)) : QString());
        }
        if (anyNotRun)
            cells << (v.notRun ? QString::fromStdString(v.notRun->message()) : QString());
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            const bool reason = anyNotRun && c + 1 == cells.size();
            item->setTextAlignment((reason ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
            item->setToolTip(cells[c]);
            m_table->setItem(static_cast<int>(i), c, item);
        }
    }
    m_table->setVerticalHeaderLabels(rowLabels);
}

}  // namespace asyncscope
