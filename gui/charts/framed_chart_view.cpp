#include "gui/charts/framed_chart_view.hpp"

#include "gui/charts/focus_frame.hpp"

#include <QAreaSeries>
#include <QGraphicsScene>
#include <QLabel>
#include <QTimer>
#include <QLegend>
#include <QLegendMarker>
#include <QPainter>
#include <QResizeEvent>
#include <QXYSeries>

#include <algorithm>
#include <utility>

namespace asyncscope {

namespace {

// A legend entry's mark as its series draws it, in text: a square for an area (its translucent fill as it shows over
// `background`), a dot for points, a line in its colour and pattern for a line; no mark for a series of another kind.
std::pair<QString, QColor> markOf(const QAbstractSeries* series, const QColor& background)
{
    if (const auto* area = qobject_cast<const QAreaSeries*>(series)) {
        const QColor fill = area->color().alpha() > 0 ? area->color() : area->borderColor();
        const double a = std::max(double(fill.alphaF()), 0.35);  // the faintest band still shows as a mark
        const auto over = [a](double top, double bottom) { return int(255.0 * (a * top + (1.0 - a) * bottom)); };
        return { QStringLiteral("■"), QColor(over(fill.redF(), background.redF()),
                                          over(fill.greenF(), background.greenF()), over(fill.blueF(), background.blueF())) };
    }
    const auto* xy = qobject_cast<const QXYSeries*>(series);
    if (!xy)
        return {};
    if (xy->type() == QAbstractSeries::SeriesTypeScatter)
        return { QStringLiteral("●"), xy->color() };
    const QPen pen = xy->pen();
    if (pen.style() == Qt::DashLine || pen.style() == Qt::DashDotLine)
        return { QStringLiteral("╸&nbsp;╸"), pen.color() };
    if (pen.style() == Qt::DotLine || pen.style() == Qt::DashDotDotLine)
        return { QStringLiteral("┈┈"), pen.color() };
    return { QStringLiteral("━━"), pen.color() };
}

}  // namespace

FramedChartView::FramedChartView(QChart* chart, int rowsBelowPx, QWidget* parent)
    : QChartView(chart, parent)
    , m_rowsBelowPx(rowsBelowPx)
{
    setFocusPolicy(Qt::StrongFocus);
    m_legendRows = new QLabel(viewport());
    m_legendRows->setObjectName(QStringLiteral("legendRows"));
    m_legendRows->setWordWrap(true);
    m_legendRows->setTextFormat(Qt::RichText);
    m_legendRows->hide();
    // The legend's entries change with the chart (runs arriving, overlays, names): the rows follow each redraw.
    connect(scene(), &QGraphicsScene::changed, this, &FramedChartView::updateLegendRows);
}

void FramedChartView::setLegendListing(std::function<QStringList()> listed)
{
    m_listed = std::move(listed);
}

void FramedChartView::legendChanged()
{
    // A legend out of the chart's layout (narrow) changes nothing the scene draws: no scene change tells the rows.
    if (m_narrow)
        QTimer::singleShot(0, this, &FramedChartView::updateLegendRows);
}

void FramedChartView::focusInEvent(QFocusEvent* event)
{
    QChartView::focusInEvent(event);
    viewport()->update();
}

void FramedChartView::focusOutEvent(QFocusEvent* event)
{
    QChartView::focusOutEvent(event);
    viewport()->update();
}

void FramedChartView::drawForeground(QPainter* painter, const QRectF& rect)
{
    QChartView::drawForeground(painter, rect);
    if (!hasFocus())
        return;
    painter->save();
    painter->resetTransform();  // in the viewport's pixels, whatever the scene's
    paintFocusFrame(*painter, viewport()->rect(), palette());
    painter->restore();
}

void FramedChartView::resizeEvent(QResizeEvent* event)
{
    const bool narrow = event->size().width() < m_rowsBelowPx;
    if (narrow != m_narrow) {
        m_narrow = narrow;
        // The legend stays shown or hidden as the chart's owner wants (its entries' visibility is what the rows
        // list); narrow, it is taken out of the chart's layout, where it takes no room and draws nothing.
        QLegend* legend = chart()->legend();
        if (narrow) {
            legend->detachFromChart();
            legend->setOpacity(0.0);
            legend->setGeometry(QRectF(0.0, 0.0, 1.0, 1.0));
        } else {
            legend->setOpacity(1.0);
            legend->attachToChart();
        }
        m_legendRows->setVisible(narrow);
    }
    QChartView::resizeEvent(event);
    if (narrow)
        updateLegendRows();
}

void FramedChartView::updateLegendRows()
{
    if (!m_narrow)
        return;
    QStringList entries;
    m_rowNames.clear();
    // What the owner says the legend lists, each name taken once: a marker's own visibility also follows the
    // legend's, which a legend hidden while the chart had no runs leaves false until it is laid out again.
    QStringList listed = m_listed ? m_listed() : QStringList();
    for (QLegendMarker* marker : chart()->legend()->markers()) {
        if (marker->label().isEmpty() || (m_listed ? !listed.removeOne(marker->label()) : !marker->isVisible()))
            continue;
        const auto [mark, colour] = markOf(marker->series(), m_legendRows->palette().color(QPalette::Window));
        if (mark.isEmpty())
            continue;
        // An entry breaks across rows (at a space or a hyphen) only where it is wider than the rows themselves.
        const QString name = marker->label().toHtmlEscaped();
        const bool fits = m_legendRows->fontMetrics().horizontalAdvance(marker->label()) + 40 < width() - 8;
        entries << QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
                       .arg(colour.name(), mark,
                           fits ? QString(name)
                                      .replace(QLatin1Char(' '), QStringLiteral("&nbsp;"))
                                      .replace(QLatin1Char('-'), QChar(0x2011))  // a hyphen that does not break
                                : name);
        m_rowNames << marker->label();
    }
    const QString text = entries.join(QStringLiteral(" &nbsp; "));
    if (text != m_legendRows->text())
        m_legendRows->setText(text);
    // The rows lie over the foot of the view, the chart above them with its axes in sight; the scene keeps the whole
    // view, so the focus frame goes round both.
    const QSize view = viewport()->size();
    const int height = text.isEmpty() ? 0 : m_legendRows->heightForWidth(view.width() - 8) + 4;
    m_legendRows->setGeometry(4, view.height() - height, view.width() - 8, height);
    const QSizeF room(view.width(), std::max(0, view.height() - height));
    if (chart()->size() != room)
        chart()->resize(room);
    if (sceneRect() != QRectF(QPointF(0.0, 0.0), QSizeF(view)))
        setSceneRect(QRectF(QPointF(0.0, 0.0), QSizeF(view)));
}

QStringList FramedChartView::legendRowNames() const
{
    return m_narrow ? m_rowNames : QStringList();
}

}  // namespace asyncscope
