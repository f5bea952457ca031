#include "gui/charts/comparison_view.hpp"

#include "engine/model/size_parse.hpp"

#include <QChartView>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace asyncscope {

int chartColumns(int charts)
{
    return charts > 3 ? (charts + 1) / 2 : std::max(1, charts);
}

namespace {
constexpr QSize kChartMinimum { 380, 260 };  // a bar chart's row labels, values and title still fit

// The height a chart with a row per variant needs for every row's label to show (Qt elides a label taller than its
// row to "...").
int chartHeight(std::size_t variants)
{
    constexpr int kFrame = 140;  // title, value axis and the note under it
    constexpr int kRow = 24;
    return std::max(kChartMinimum.height(), kFrame + kRow * static_cast<int>(std::min<std::size_t>(variants, 64)));
}
}  // namespace

int chartColumns(int charts, int width)
{
    return std::clamp(width / kChartMinimum.width(), 1, chartColumns(charts));
}

ComparisonView::ComparisonView(QWidget* parent)
    : QWidget(parent)
{
    auto* charts = new QWidget;
    m_charts = new QGridLayout(charts);
    m_charts->setContentsMargins(0, 0, 0, 0);
    m_table = new QTableWidget;
    m_table->setObjectName("comparisonTable");
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* scroll = new QScrollArea;  // narrow windows keep each chart readable and scroll instead
    scroll->setWidget(charts);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumHeight(kChartMinimum.height());  // a row of charts always shows
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(scroll);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 3 * kChartMinimum.height(), kChartMinimum.height() });  // the charts first, the table below
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);
    auto* hint = new QLabel(tr("Run a comparison from the Compare menu, or open a saved one (asyncscope-cli "
                               "--compare … --format json) with File › Open saved run…."));
    hint->setWordWrap(true);
    hint->setAlignment(Qt::AlignCenter);
    m_charts->addWidget(hint, 0, 0);
}

void ComparisonView::placeCharts()
{
    const int columns = chartColumns(static_cast<int>(m_views.size()), width());
    if (m_views.isEmpty() || columns == m_columns)
        return;
    m_columns = columns;
    for (QChartView* view : m_views)
        m_charts->removeWidget(view);
    for (int i = 0; i < m_views.size(); ++i)
        m_charts->addWidget(m_views[i], i / columns, i % columns);
}

void ComparisonView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    placeCharts();
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
    const ComparisonCharts charts(comparison);
    const bool rowPerVariant = comparison.comparison == Comparison::Memory;  // horizontal bars, a row per variant
    for (int i = 0; i < charts.count(); ++i) {
        auto* view = new QChartView(charts.build(i).release());
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(kChartMinimum.width(), rowPerVariant ? chartHeight(comparison.variants.size())
                                                                  : kChartMinimum.height());
        m_views.append(view);
    }
    m_columns = 0;
    placeCharts();
    // Size, the workload's shape where a variant is not the classic pipeline, samples, then the median of every
    // distribution and every figure: whatever the summaries hold.
    const std::vector<SeriesSummary>& summaries = charts.summaries();
    const std::vector<Column> values = comparisonColumns(summaries);
    const bool anyNotRun = comparison.ranCount() < comparison.variants.size();
    const bool anyShape = std::any_of(comparison.variants.begin(), comparison.variants.end(),
        [](const VariantResult& v) { return !shapeText(v.report.config).empty(); });
    QStringList headers { tr("size") };
    if (anyShape)
        headers << tr("shape");
    headers << tr("samples");
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
        QStringList cells { QString::fromStdString(formatBytes(v.report.config.bytes())) };
        if (anyShape)
            cells << QString::fromStdString(shapeText(v.report.config));
        cells << QString::number(summaries[i].measuredRuns);
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
