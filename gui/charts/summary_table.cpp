#include "gui/charts/summary_table.hpp"

#include "gui/session/session_model.hpp"

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
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);  // every figure and name whole
    horizontalHeader()->setStretchLastSection(true);
    setToolTip(tr("Statistics of the measured runs (warm-up runs left out); single figures sit in the median column"));
}

void SummaryTable::follow(const SessionModel* session)
{
    m_session = session;
    const auto changed = [this] {
        m_stale = true;
        if (isVisible())
            refresh();
    };
    connect(session, &SessionModel::reportChanged, this, changed);
    connect(session, &SessionModel::overlayChanged, this, changed);
    changed();
}

void SummaryTable::refresh()
{
    if (!m_session || !m_stale)
        return;
    m_stale = false;
    setReport(m_session->report(), m_session->overlays(), &m_session->summary());
}

void SummaryTable::showEvent(QShowEvent* event)
{
    refresh();
    QTableWidget::showEvent(event);
}

void SummaryTable::setReport(const Report& report, const std::vector<SavedRun>& overlays, const SeriesSummary* known)
{
    std::vector<SeriesSummary> summaries { known ? *known : summarizeSeries(report) };
    for (const SavedRun& saved : overlays)
        summaries.push_back(saved.prepared.summary ? *saved.prepared.summary : summarizeSeries(saved.report));
    const SeriesSummary& s = summaries.front();

    QStringList headers = kColumns;
    for (const SavedRun& saved : overlays)
        headers << tr("median,\n%1").arg(saved.label);
    setColumnCount(static_cast<int>(headers.size()));
    setHorizontalHeaderLabels(headers);

    // Rows: every value the current report or an overlay has.
    const std::vector<Column> rows = comparisonColumns(summaries);
    setRowCount(static_cast<int>(rows.size()));
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
    for (int row = 0; row < static_cast<int>(rows.size()); ++row) {
        const Column& value = rows[std::size_t(row)];
        names << QString::fromStdString(headerOf(value.name, value.kind));
        const int places = decimalsOf(value.kind);
        for (int c = 0; c < static_cast<int>(kColumns.size()); ++c)
            cell(row, c, QString());
        if (const Distribution* d = s.distribution(value.key)) {
            const Summary& v = d->stats;
            const double values[] = { v.min, v.median, v.mean, v.max, v.stddev, v.noisePercent, v.p95 };
            for (int c = 0; c < static_cast<int>(kColumns.size()); ++c)
                cell(row, c, QString::number(values[c], 'f', c == kNoiseColumn ? 2 : places));
        } else if (const Figure* f = s.figure(value.key)) {
            cell(row, kMedianColumn, QString::number(f->value, 'f', places));
        }
        for (std::size_t o = 1; o < summaries.size(); ++o) {
            const auto v = headlineValue(summaries[o], value.key);
            cell(row, static_cast<int>(kColumns.size() + o - 1), v ? QString::number(*v, 'f', places) : QString());
        }
    }
    setVerticalHeaderLabels(names);
}

}  // namespace asyncscope
