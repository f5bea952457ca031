#include "gui/comparison_view.hpp"

#include "engine/size_parse.hpp"
#include "engine/statistics.hpp"

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

std::unique_ptr<QChart> barChart(const ComparisonReport& c)
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(title(c.comparison));
    chart->setAnimationOptions(QChart::NoAnimation);
    auto* series = new QBarSeries;
    auto* gpu = new QBarSet(QObject::tr("GPU time"));
    auto* cpu = new QBarSet(QObject::tr("CPU submit time"));
    auto* wait = new QBarSet(QObject::tr("CPU time used while waiting"));
    gpu->setColor(kGpu);
    cpu->setColor(kCpu);
    wait->setColor(kWait);
    double top = 0.0;
    for (const Report& r : c.reports) {
        const SeriesSummary s = summarizeRuns(r.runs, r.config.bytes());
        *gpu << s.gpuMs.median;
        *cpu << s.cpuSubmitMs.median;
        *wait << s.waitCpuMs.median;
        top = std::max({ top, s.gpuMs.median, s.cpuSubmitMs.median, s.waitCpuMs.median });
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
    for (const std::string& label : c.labels)
        labels << QString::fromStdString(label);
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

std::unique_ptr<QChart> sweepChart(const ComparisonReport& c, bool bandwidth)
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
    for (const Report& r : c.reports) {
        const SeriesSummary s = summarizeRuns(r.runs, r.config.bytes());
        const double bytes = static_cast<double>(r.config.bytes());
        const double position = std::log2(bytes);  // sizes are powers of two: evenly spaced
        const QList<double> values = bandwidth
            ? QList<double> { s.h2dGBps, s.d2hGBps, gigabytesPerSecond(2.0 * bytes, s.gpuMs.median) }
            : QList<double> { s.gpuMs.median, s.cpuSubmitMs.median };
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
    for (std::size_t i = 0; i < c.reports.size(); ++i) {
        if (i % 4 == 0 || i + 1 == c.reports.size())  // every 16x: room for each label in a narrow chart
            x->append(shortSize(c.reports[i].config.bytes()), std::log2(double(c.reports[i].config.bytes())));
    }
    if (!c.reports.empty())
        x->setRange(std::log2(double(c.reports.front().config.bytes())),
            std::log2(double(c.reports.back().config.bytes())));
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

int comparisonChartCount(const ComparisonReport& comparison)
{
    return comparison.comparison == Comparison::Size ? 2 : 1;
}

std::unique_ptr<QChart> buildComparisonChart(const ComparisonReport& comparison, int index)
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
    const QStringList columns { tr("size"), tr("samples"), tr("GPU ms"), tr("CPU submit ms"), tr("noise %"),
        tr("poll iterations"), tr("wait CPU ms"), tr("H2D GB/s"), tr("D2H GB/s") };
    m_table = new QTableWidget(0, static_cast<int>(columns.size()));
    m_table->setObjectName("comparisonTable");
    m_table->setHorizontalHeaderLabels(columns);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
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

void ComparisonView::setComparison(const ComparisonReport& comparison)
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
    m_table->setRowCount(static_cast<int>(comparison.reports.size()));
    QStringList rowLabels;
    for (std::size_t i = 0; i < comparison.reports.size(); ++i) {
        const Report& r = comparison.reports[i];
        const SeriesSummary s = summarizeRuns(r.runs, r.config.bytes());
        rowLabels << QString::fromStdString(comparison.labels[i]);
        const QStringList cells { QString::fromStdString(formatBytes(r.config.bytes())),
            QString::number(s.measuredRuns), QString::number(s.gpuMs.median, 'f', 4),
            QString::number(s.cpuSubmitMs.median, 'f', 4), QString::number(s.gpuMs.noisePercent, 'f', 2),
            QString::number(s.pollIterations.median, 'f', 0), QString::number(s.waitCpuMs.median, 'f', 4),
            QString::number(s.h2dGBps, 'f', 1), QString::number(s.d2hGBps, 'f', 1) };
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(static_cast<int>(i), c, item);
        }
    }
    m_table->setVerticalHeaderLabels(rowLabels);
}

}  // namespace asyncscope
