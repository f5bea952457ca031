#include "gui/summary_table.hpp"

#include "engine/model/series_summary.hpp"

#include <QHeaderView>

namespace asyncscope {

namespace {

const QStringList kColumns { "min", "median", "mean", "max", "stddev", "noise %", "p95" };
constexpr int kMedianColumn = 1;
constexpr int kNoiseColumn = 5;

}  // namespace

SummaryTable::SummaryTable(QWidget* parent)
    : QTableWidget(0, static_cast<int>(kColumns.size()), parent)
{
    setHorizontalHeaderLabels(kColumns);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
}

void SummaryTable::setReport(const Report& report)
{
    const SeriesSummary s = summarizeSeries(report);
    const int rows = static_cast<int>(s.distributions.size() + s.figures.size());
    setRowCount(rows);
    QStringList names;
    auto cell = [this](int row, int column, const QString& text) {
        QTableWidgetItem* it = item(row, column);
        if (!it) {
            it = new QTableWidgetItem;
            it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            setItem(row, column, it);
        }
        it->setText(text);
    };
    int row = 0;
    for (const Distribution& d : s.distributions) {
        names << QString::fromStdString(headerOf(d.name, d.kind));
        const Summary& v = d.stats;
        const double values[] = { v.min, v.median, v.mean, v.max, v.stddev, v.noisePercent, v.p95 };
        for (int c = 0; c < columnCount(); ++c)
            cell(row, c, QString::number(values[c], 'f', c == kNoiseColumn ? 2 : decimalsOf(d.kind)));
        ++row;
    }
    for (const Figure& f : s.figures) {
        names << QString::fromStdString(headerOf(f.name, f.kind));
        for (int c = 0; c < columnCount(); ++c)
            cell(row, c, c == kMedianColumn ? QString::number(f.value, 'f', decimalsOf(f.kind)) : QString());
        ++row;
    }
    setVerticalHeaderLabels(names);
}

}  // namespace asyncscope
