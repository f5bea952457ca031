#include "gui/charts/summary_table.hpp"

#include "gui/charts/verdict_colours.hpp"
#include "gui/series/shown_name.hpp"
#include "gui/session/session_model.hpp"

#include "engine/io/baseline_report.hpp"
#include "engine/model/number_text.hpp"
#include "engine/model/series_summary.hpp"

#include <QEvent>

#include <algorithm>
#include <QHeaderView>

namespace asyncscope {

namespace {

const QStringList kColumns { "min", "median", "mean", "max", "stddev", "noise %", "p95" };
constexpr int kMedianColumn = 1;
constexpr int kNoiseColumn = 5;

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

// "+4.81 %", or the difference in the quantity's unit where the baseline is 0.
QString differenceText(const QuantityComparison& q)
{
    if (q.differencePercent)
        return text(signedPercentText(*q.differencePercent));
    const QString value = QString::number(q.difference, 'f', decimalsOf(q.kind));
    return (q.difference > 0 ? QStringLiteral("+") : QString()) + value + ' ' + QString::fromUtf8(unitOf(q.kind));
}

// A row's name inside a sentence: "Host check" → "host check"; a name that starts with an abbreviation ("GPU time",
// "H2D copy") as it is.
QString inSentence(QString name)
{
    if (name.size() > 1 && name[0].isUpper() && name[1].isLower())
        name[0] = name[0].toLower();
    return name;
}

}  // namespace

SummaryTable::SummaryTable(QWidget* parent)
    : QTableWidget(0, static_cast<int>(kColumns.size()), parent)
{
    setHorizontalHeaderLabels(kColumns);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setTabKeyNavigation(false);  // Tab and Shift+Tab move on from the table, arrows from cell to cell
    // Every figure and name whole, each column as wide as its widest, beside the row labels: the room a wide window
    // has left stays blank at the right, and a narrow one scrolls sideways.
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(false);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
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
    connect(&session->baselines(), &BaselineController::changed, this, changed);
    changed();
}

void SummaryTable::refresh()
{
    if (!m_session || !m_stale)
        return;
    m_stale = false;
    std::optional<Baseline> baseline;
    if (const SavedRun* b = m_session->baseline()) {
        const auto& comparison = m_session->baselines().comparison();
        baseline = Baseline { std::size_t(b - m_session->overlays().data()), comparison ? &*comparison : nullptr };
    }
    setReport(
        m_session->report(), m_session->overlays(), &m_session->summary(), baseline, m_session->source().format());
}

void SummaryTable::showEvent(QShowEvent* event)
{
    refresh();
    QTableWidget::showEvent(event);
}

void SummaryTable::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange && m_session) {
        m_stale = true;  // the verdicts' tints follow the palette
        if (isVisible())
            refresh();
    }
    QTableWidget::changeEvent(event);
}

int SummaryTable::columnNamed(const QString& name) const
{
    for (int c = 0; c < columnCount(); ++c) {
        if (const QTableWidgetItem* h = horizontalHeaderItem(c); h && h->text().section('\n', 0, 0) == name)
            return c;
    }
    return -1;
}

void SummaryTable::setReport(const Report& report, const std::vector<SavedRun>& overlays, const SeriesSummary* known,
    std::optional<Baseline> baseline, const QString& format)
{
    // An empty cell of a file's series: a recorded program has no such part (the host check and the increment kernel
    // are the pipeline's), or nothing measures it for a program (the host's copy peaks, the bounds and the model
    // made of the pipeline's configuration); or its format does not record the quantity (an older format, the CSV).
    const auto unrecorded = [this](const Report& series, const QString& format, const Column& row) {
        if (series.program && (row.key == "check_ms" || row.key == "kernel_effective_gbps"))
            return tr("a program has no %1").arg(inSentence(text(row.name)));
        if (series.program)
            return tr("not measured for a program");
        return format.isEmpty() ? QString() : tr("not recorded (%1)").arg(format);
    };
    std::vector<SeriesSummary> summaries { known ? *known : summarizeSeries(report) };
    for (const SavedRun& saved : overlays)
        summaries.push_back(saved.prepared.summary ? *saved.prepared.summary : summarizeSeries(saved.report));
    const SeriesSummary& s = summaries.front();
    if (baseline && baseline->overlay >= overlays.size())
        baseline.reset();
    const BaselineComparison* comparison = baseline ? baseline->comparison : nullptr;

    // The comparison's columns go right after the median, which they compare, where a narrow window shows them
    // first; then the other statistics, then a median column per overlay but the compared baseline.
    const int compared = comparison ? 5 : 0;
    const auto statColumn = [compared](int c) { return c <= kMedianColumn ? c : c + compared; };
    const int first = kMedianColumn + 1;  // of the comparison's columns
    QStringList headers = kColumns;
    if (comparison) {
        headers.insert(first, tr("Baseline\n(median)"));
        headers.insert(first + 1, tr("Difference"));
        headers.insert(first + 2, tr("Interval\n(%1 %)").arg(comparison->settings.confidence * 100.0));
        headers.insert(first + 3, tr("p"));
        headers.insert(first + 4,
            comparison->acrossConfigurations ? tr("Verdict\n(across configurations)") : tr("Verdict"));
    }
    std::vector<std::size_t> medianOf;  // the overlay of each median column
    QStringList labels;
    for (const SavedRun& saved : overlays)
        labels << saved.label;
    const QStringList shortLabels = shortNames(labels);  // a long name keeps what tells it apart; whole in the tooltip
    for (std::size_t o = 0; o < overlays.size(); ++o) {
        if (comparison && o == baseline->overlay)
            continue;
        headers << tr("median,\n%1").arg(shortLabels[qsizetype(o)]);
        medianOf.push_back(o);
    }
    const int firstMedian = static_cast<int>(kColumns.size()) + compared;
    clear();  // items and their tints of the columns before
    setColumnCount(static_cast<int>(headers.size()));
    setHorizontalHeaderLabels(headers);
    for (std::size_t m = 0; m < medianOf.size(); ++m)
        horizontalHeaderItem(firstMedian + int(m))
            ->setToolTip(tr("The median of %1").arg(labels[qsizetype(medianOf[m])]));
    if (comparison) {
        const QString across = comparison->acrossConfigurations
            ? tr("\nAcross configurations: %1").arg(text(differencesText(comparison->differences)))
            : QString();
        const QString tips[] = {
            tr("The median of %1's measured runs").arg(overlays[baseline->overlay].label),
            tr("This series' median minus the baseline's, in % of the baseline's"),
            tr("Where the difference of the medians lies with %1 % confidence (bootstrap)")
                .arg(comparison->settings.confidence * 100.0),
            tr("Mann–Whitney p-value: how likely a shift this large is between two samples of one distribution"),
            tr("Slower or faster where the difference is told from noise (p < %1, the interval leaves out 0) and at "
               "least %2 %%3")
                .arg(comparison->settings.alpha)
                .arg(comparison->settings.minDifferencePercent, 0, 'f', 2)
                .arg(across),
        };
        for (int c = 0; c < compared; ++c)
            horizontalHeaderItem(first + c)->setToolTip(tips[c]);
    }

    // Rows: every value the current report or an overlay has.
    const std::vector<Column> rows = comparisonColumns(summaries);
    setRowCount(static_cast<int>(rows.size()));
    m_keys.clear();
    for (const Column& value : rows)
        m_keys.push_back(value.key);
    QStringList names;
    auto cell = [this](int row, int column, const QString& text) {
        QTableWidgetItem* it = item(row, column);
        if (!it) {
            it = new QTableWidgetItem;
            it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            setItem(row, column, it);
        }
        it->setText(text);
        return it;
    };
    for (int row = 0; row < static_cast<int>(rows.size()); ++row) {
        const Column& value = rows[std::size_t(row)];
        names << QString::fromStdString(headerOf(value.name, value.kind));
        const int places = decimalsOf(value.kind);
        for (int c = 0; c < static_cast<int>(kColumns.size()); ++c)
            cell(row, statColumn(c), QString());
        if (const Distribution* d = s.distribution(value.key)) {
            const Summary& v = d->stats;
            const double values[] = { v.min, v.median, v.mean, v.max, v.stddev, v.noisePercent, v.p95 };
            for (int c = 0; c < static_cast<int>(kColumns.size()); ++c)
                cell(row, statColumn(c), QString::number(values[c], 'f', c == kNoiseColumn ? 2 : places));
        } else if (const Figure* f = s.figure(value.key)) {
            cell(row, kMedianColumn, QString::number(f->value, 'f', places));
        } else {
            cell(row, kMedianColumn, unrecorded(report, format, value));
        }
        for (std::size_t m = 0; m < medianOf.size(); ++m) {
            const auto v = headlineValue(summaries[medianOf[m] + 1], value.key);
            cell(row, firstMedian + static_cast<int>(m),
                v ? QString::number(*v, 'f', places)
                  : unrecorded(overlays[medianOf[m]].report, overlays[medianOf[m]].format, value));
        }
        if (!comparison)
            continue;
        const QuantityComparison* q = comparison->quantity(value.key);
        const auto base = headlineValue(summaries[baseline->overlay + 1], value.key);
        cell(row, first, q ? QString::number(q->baseline, 'f', places)
                           : base ? QString::number(*base, 'f', places) : QString());
        cell(row, first + 1, q ? differenceText(*q) : QString());
        cell(row, first + 2, !q ? QString() : q->distribution ? text(intervalText(*q)) : tr("(one figure)"));
        cell(row, first + 3, q && q->distribution ? text(pValueText(q->p)) : QString());
        QTableWidgetItem* verdict = cell(row, first + 4,
            q && q->distribution
                ? text(verdictText(q->verdict, q->differencePercent.value_or(0.0), q->sameUnderPercent))
                : QString());
        verdict->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        if (q && q->distribution) {
            verdict->setBackground(verdictBackground(q->verdict, palette()));
            verdict->setForeground(palette().brush(QPalette::Text));
            QFont font = verdict->font();
            font.setBold(q->verdict == Verdict::Slower || q->verdict == Verdict::Faster);
            verdict->setFont(font);
            verdict->setToolTip(tr("%1: median %2 against the baseline's %3, %4 runs against %5")
                                    .arg(text(q->name))
                                    .arg(q->current, 0, 'f', places)
                                    .arg(q->baseline, 0, 'f', places)
                                    .arg(q->currentRuns)
                                    .arg(q->baselineRuns));
        }
    }
    setVerticalHeaderLabels(names);
}

bool SummaryTable::selectFigure(const std::string& key)
{
    refresh();  // a hidden table catches up first
    const auto at = std::find(m_keys.begin(), m_keys.end(), key);
    if (at == m_keys.end())
        return false;
    const int row = int(at - m_keys.begin());
    setCurrentCell(row, kMedianColumn);
    selectRow(row);
    scrollToItem(item(row, kMedianColumn), QAbstractItemView::PositionAtCenter);
    return true;
}

std::string SummaryTable::figureAt(int row) const
{
    return row >= 0 && std::size_t(row) < m_keys.size() ? m_keys[std::size_t(row)] : std::string();
}

}  // namespace asyncscope
