#include "gui/timeline/timeline_view.hpp"

#include "engine/model/trace_labels.hpp"
#include "gui/charts/focus_frame.hpp"
#include "gui/charts/kind_colours.hpp"
#include "gui/files/save_file.hpp"

#include <QFileInfo>
#include <QDir>
#include <QHelpEvent>
#include <QImage>
#include <QImageWriter>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QSvgGenerator>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace asyncscope {

namespace {

constexpr double kWheelStep = 1.25;    // zoom factor per wheel notch
constexpr double kScrollShare = 0.1;   // of the range in view, per notch of horizontal scroll or arrow key
constexpr double kLeastBand = 4.0;     // pixels a drag must span to zoom
constexpr double kPixelsPerTick = 90.0;

// The kinds in the order the legend names them.
constexpr SpanKind kLegendKinds[] = { SpanKind::H2D, SpanKind::Kernel, SpanKind::D2H, SpanKind::MigrateH2D,
    SpanKind::MigrateD2H, SpanKind::Api, SpanKind::Submit, SpanKind::Wait, SpanKind::Check };

QColor textOn(const QColor& fill)
{
    const double luminance = 0.299 * fill.red() + 0.587 * fill.green() + 0.114 * fill.blue();
    return luminance > 140.0 ? QColor(20, 20, 20) : QColor(250, 250, 250);
}

QColor blockColour(const TimelineBlock& block)
{
    return block.gpuTime ? gpuTimeColour() : kindColour(block.span.kind);
}

}  // namespace

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("timelineView"));
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(false);
    setWhatsThis(tr("Turn the wheel to zoom around the pointer, drag to zoom to a range; shift+drag, a middle drag or "
                    "a horizontal scroll pans; a double click or Home shows the whole run again."));
    clear(tr("No run yet."));
}

void TimelineView::setRun(const RunResult& run, int streams, const QString& traceNote)
{
    PipelineConfig config;  // copies by the copy engines
    config.streams = streams;
    setRun(run, config, traceNote);
}

void TimelineView::setRun(
    const RunResult& run, const PipelineConfig& config, const QString& traceNote, const QString& unrecorded)
{
    const bool wasZoomed = m_layout.zoomed();
    m_layout.setRun(run, config);
    const bool checked =
        std::any_of(run.spans.begin(), run.spans.end(), [](const Span& s) { return s.kind == SpanKind::Check; });
    m_checkText = checked ? QString() : unrecorded;
    m_hasRun = true;
    m_message.clear();
    if (m_layout.gpuTraced())
        m_clock = tr("CUPTI: runtime calls and GPU operations on one clock, 0 = submission begins");
    else if (m_layout.cpuTraced())
        m_clock = tr("Runtime calls: CUPTI, 0 = submission begins; GPU spans: CUDA events, 0 = the start event, "
                     "recorded as submission begins");
    else
        m_clock = tr("GPU spans: CUDA events, 0 = the start event, recorded as submission begins, each from the end "
                     "of the operation before it on its stream (a copy: of the copy before it the same way); CPU "
                     "spans: host steady clock, 0 = submission begins");
    QStringList notes;
    if (m_layout.stagesOff())
        notes << tr("The stage events were off: copies and kernels were not timed one by one; the bar is the GPU "
                    "time from the start event to the stop event.");
    if (const std::string hidden = hiddenTransferNote(config, m_layout.migrationsTraced()); !hidden.empty())
        notes << QString::fromStdString(hidden);
    if (!traceNote.isEmpty())
        notes << tr("CUPTI not used: %1").arg(traceNote);
    m_note = notes.join('\n');
    relayout();
    if (wasZoomed != m_layout.zoomed())
        emit zoomChanged(m_layout.zoomed());
}

void TimelineView::clear(const QString& message)
{
    const bool wasZoomed = m_layout.zoomed();
    m_layout.clear();
    m_hasRun = false;
    m_message = message;
    m_clock.clear();
    m_note.clear();
    m_checkText.clear();
    relayout();
    if (wasZoomed)
        emit zoomChanged(false);
}

void TimelineView::zoomIn()
{
    m_layout.zoomAround((m_layout.visibleBegin() + m_layout.visibleEnd()) / 2.0, kWheelStep * kWheelStep);
    zoomed();
}

void TimelineView::zoomOut()
{
    m_layout.zoomAround((m_layout.visibleBegin() + m_layout.visibleEnd()) / 2.0, 1.0 / (kWheelStep * kWheelStep));
    zoomed();
}

void TimelineView::resetZoom()
{
    m_layout.resetZoom();
    zoomed();
}

void TimelineView::relayout()
{
    m_frame = arrange(m_layout, QSizeF(size()), QFontMetricsF(font(), this), false);
    update();
}

void TimelineView::zoomed()
{
    m_frame.ticks = m_layout.ticks(kPixelsPerTick);
    update();
    emit zoomChanged(m_layout.zoomed());
}

TimelineView::Frame TimelineView::arrange(TimelineLayout& layout, QSizeF size, const QFontMetricsF& fm,
    bool withTitle) const
{
    Frame f;
    const double margin = std::round(fm.height() * 0.6);
    const double line = fm.lineSpacing();
    const double width = size.width() - 2.0 * margin;
    double top = margin;
    if (withTitle && !m_title.isEmpty()) {
        f.title = QRectF(margin, top, width, line * 1.3);
        top = f.title.bottom() + margin / 2.0;
    }
    if (!m_hasRun) {
        f.message = QRectF(margin, top, width, size.height() - top - margin);
        layout.setPlot(QRectF());
        return f;
    }

    // Below the rows, from the top: tick labels, the legend (wrapped), the clock line and any notes (wrapped).
    double labelWidth = fm.horizontalAdvance(tr("time (ms)"));
    for (const TimelineRow& row : layout.rows())
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(row.label));
    labelWidth = std::min(labelWidth + margin, width / 3.0);
    const double left = margin + labelWidth;
    const double swatch = std::round(fm.height() * 0.8);
    const double gap = std::round(fm.height() * 0.35);
    const double spacing = fm.height() * 1.2;
    auto addEntry = [&](const QColor& colour, const QString& name) {
        f.legend.push_back({ colour, name, {}, {} });
    };
    for (const SpanKind kind : kLegendKinds) {
        const bool shown = std::any_of(layout.blocks().begin(), layout.blocks().end(),
            [kind](const TimelineBlock& b) { return !b.gpuTime && b.span.kind == kind; });
        if (shown)
            addEntry(kindColour(kind), layout.kindName(kind));
        if (kind == SpanKind::D2H && layout.stagesOff())
            addEntry(gpuTimeColour(), tr("GPU time (start → stop event)"));
    }
    // Entries flow left to right from under the labels' column, wrapping where the width ends.
    double x = margin, legendRows = f.legend.empty() ? 0 : 1;
    std::vector<std::pair<double, int>> placed;  // x and row of each entry
    for (LegendEntry& e : f.legend) {
        const double entryWidth = swatch + gap + fm.horizontalAdvance(e.name);
        if (x > margin && x + entryWidth > margin + width) {
            x = margin;
            ++legendRows;
        }
        placed.push_back({ x, int(legendRows) - 1 });
        x += entryWidth + spacing;
    }
    const double axisHeight = line + 6.0;
    const int textFlags = Qt::TextWordWrap;
    const double clockHeight = fm.boundingRect(QRectF(0, 0, width, 1e6), textFlags, m_clock).height();
    const double noteHeight =
        m_note.isEmpty() ? 0.0 : fm.boundingRect(QRectF(0, 0, width, 1e6), textFlags, m_note).height();
    const double below = axisHeight + margin / 2.0 + legendRows * line + margin / 2.0 + clockHeight +
        (noteHeight > 0.0 ? margin / 2.0 + noteHeight : 0.0) + margin;
    const double rows = double(std::max<std::size_t>(1, layout.rows().size()));
    // Rows up to their most height, sharing what is left when there are many (labels then go to every few rows).
    const double room = std::max(40.0, size.height() - top - below);
    const double plotHeight = std::min(rows * layout.maxRowHeight(), room);
    const QRectF plot(left, top, size.width() - margin - left, plotHeight);
    layout.setPlot(plot);
    const double rowsBottom = layout.rowRect(int(rows) - 1).bottom();
    f.labels = QRectF(margin, top, labelWidth, rowsBottom - top);
    f.axis = QRectF(left, rowsBottom, plot.width(), axisHeight);
    double y = f.axis.bottom() + margin / 2.0;
    for (std::size_t i = 0; i < f.legend.size(); ++i) {
        const double rowTop = y + placed[i].second * line;
        f.legend[i].swatch = QRectF(placed[i].first, rowTop + (line - swatch) / 2.0, swatch, swatch);
        const double textWidth = fm.horizontalAdvance(f.legend[i].name) + 2.0;
        f.legend[i].text = QRectF(placed[i].first + swatch + gap, rowTop, textWidth, line);
    }
    y += legendRows * line + margin / 2.0;
    f.clock = QRectF(margin, y, width, clockHeight);
    y += clockHeight + margin / 2.0;
    f.note = QRectF(margin, y, width, noteHeight);
    f.ticks = layout.ticks(kPixelsPerTick);
    return f;
}

void TimelineView::paint(QPainter& p, const TimelineLayout& layout, const Frame& f, QSizeF size) const
{
    const QPalette& pal = palette();
    const QColor background = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    const bool dark = background.lightness() < 128;
    const QColor stripe = dark ? background.lighter(125) : background.darker(104);
    QColor grid = text;
    grid.setAlpha(45);
    QColor faint = text;
    faint.setAlpha(150);
    p.fillRect(QRectF(QPointF(0, 0), size), background);
    const QFontMetricsF fm(p.font(), p.device());

    if (!f.title.isEmpty()) {
        QFont bold = p.font();
        bold.setBold(true);
        p.save();
        p.setFont(bold);
        p.setPen(text);
        p.drawText(f.title, Qt::AlignLeft | Qt::AlignVCenter, m_title);
        p.restore();
    }
    if (!m_hasRun) {
        p.setPen(faint);
        p.drawText(f.message, Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }

    const QRectF plot = layout.plot();
    const auto& rows = layout.rows();
    // Rows: a stripe on every other one, a rule between the CPU's rows and the GPU's, labels on the left.
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const QRectF band = layout.rowRect(int(r));
        if (r % 2 == 1)
            p.fillRect(QRectF(f.labels.left(), band.top(), plot.right() - f.labels.left(), band.height()), stripe);
        p.setPen(text);
        const QRectF label(f.labels.left(), band.top(), f.labels.width() - 6.0, band.height());
        const std::size_t every = band.height() >= fm.height() * 0.8
            ? 1
            : std::size_t(std::ceil(fm.height() / std::max(1.0, band.height())));
        if (r % every == 0)
            p.drawText(label, Qt::AlignLeft | Qt::AlignVCenter,
                fm.elidedText(rows[r].label, Qt::ElideRight, label.width()));
    }
    // An empty host check row says why, where the file it came from does not record the check.
    for (std::size_t r = 0; r < rows.size() && !m_checkText.isEmpty(); ++r) {
        if (rows[r].kind != TimelineRow::Check)
            continue;
        const QRectF band = layout.rowRect(int(r));
        if (band.height() < fm.height() * 0.8)
            break;
        const QRectF cell = QRectF(plot.left(), band.top(), plot.width(), band.height()).adjusted(6.0, 0.0, -6.0, 0.0);
        QFont italic = p.font();
        italic.setItalic(true);
        p.save();
        p.setFont(italic);
        p.setPen(faint);
        p.drawText(cell, Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetricsF(italic, p.device()).elidedText(m_checkText, Qt::ElideRight, cell.width()));
        p.restore();
    }
    if (rows.size() > 2) {
        p.setPen(QPen(faint, 1.0));
        const double y = layout.rowRect(2).top();
        p.drawLine(QPointF(f.labels.left(), y), QPointF(plot.right(), y));
    }

    // Grid lines at the ticks, and 0 (submission begins) drawn stronger.
    const double rowsBottom = f.axis.top();
    p.setPen(QPen(grid, 1.0));
    for (const double t : f.ticks.at) {
        const double x = std::round(layout.xOf(t)) + 0.5;
        p.drawLine(QPointF(x, plot.top()), QPointF(x, rowsBottom));
    }
    if (layout.visibleBegin() <= 0.0 && layout.visibleEnd() >= 0.0) {
        p.setPen(QPen(faint, 1.0, Qt::DashLine));
        const double x = std::round(layout.xOf(0.0)) + 0.5;
        p.drawLine(QPointF(x, plot.top()), QPointF(x, rowsBottom));
    }

    // Blocks, clipped to the plot; a label where it fits.
    p.save();
    p.setClipRect(QRectF(plot.left(), plot.top(), plot.width(), rowsBottom - plot.top()));
    for (const TimelineBlock& b : layout.blocks()) {
        const QRectF& r = b.rect;
        if (r.right() < plot.left() || r.left() > plot.right())
            continue;
        const QColor fill = blockColour(b);
        p.fillRect(r, fill);
        if (r.width() >= 3.0) {
            p.setPen(QPen(fill.darker(150), 1.0));
            p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        if (r.width() > 24.0 && r.height() >= fm.height()) {
            const QRectF visible = r.intersected(plot).adjusted(3.0, 0.0, -3.0, 0.0);
            if (fm.horizontalAdvance(b.label) <= visible.width()) {
                p.setPen(textOn(fill));
                p.drawText(visible, Qt::AlignCenter, b.label);
            }
        }
    }
    if (m_drag == Drag::Band) {
        QColor band = pal.color(QPalette::Highlight);
        band.setAlpha(60);
        const double from = std::clamp(std::min(m_dragFromX, m_dragToX), plot.left(), plot.right());
        const double to = std::clamp(std::max(m_dragFromX, m_dragToX), plot.left(), plot.right());
        p.fillRect(QRectF(from, plot.top(), to - from, rowsBottom - plot.top()), band);
        p.setPen(pal.color(QPalette::Highlight));
        p.drawLine(QPointF(from, plot.top()), QPointF(from, rowsBottom));
        p.drawLine(QPointF(to, plot.top()), QPointF(to, rowsBottom));
    }
    p.restore();

    // The time axis: a rule, tick marks and labels, its name in the labels' column.
    p.setPen(QPen(faint, 1.0));
    p.drawLine(QPointF(plot.left(), rowsBottom + 0.5), QPointF(plot.right(), rowsBottom + 0.5));
    p.setPen(text);
    double lastRight = -1e9;
    for (const double t : f.ticks.at) {
        const double x = std::round(layout.xOf(t)) + 0.5;
        p.setPen(QPen(faint, 1.0));
        p.drawLine(QPointF(x, rowsBottom), QPointF(x, rowsBottom + 4.0));
        const QString label = QString::number(t, 'f', f.ticks.decimals);
        const double w = fm.horizontalAdvance(label);
        const double left = std::clamp(x - w / 2.0, plot.left() - w / 2.0, plot.right() - w);
        if (left < lastRight + 6.0)
            continue;
        p.setPen(text);
        p.drawText(QRectF(left, rowsBottom + 5.0, w + 1.0, f.axis.height() - 5.0), Qt::AlignLeft | Qt::AlignTop, label);
        lastRight = left + w;
    }
    p.setPen(faint);
    p.drawText(QRectF(f.labels.left(), rowsBottom + 5.0, f.labels.width(), f.axis.height() - 5.0),
        Qt::AlignLeft | Qt::AlignTop, tr("time (ms)"));

    // Legend, clock line, notes.
    for (const LegendEntry& e : f.legend) {
        p.fillRect(e.swatch, e.colour);
        p.setPen(QPen(e.colour.darker(150), 1.0));
        p.drawRect(e.swatch.adjusted(0.5, 0.5, -0.5, -0.5));
        p.setPen(text);
        p.drawText(e.text, Qt::AlignLeft | Qt::AlignVCenter, e.name);
    }
    p.setPen(faint);
    p.drawText(f.clock, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_clock);
    if (!m_note.isEmpty()) {
        p.setPen(text);
        p.drawText(f.note, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_note);
    }
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paint(painter, m_layout, m_frame, QSizeF(size()));
    if (hasFocus())
        paintFocusFrame(painter, rect(), palette());  // in the margin; never in a picture
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void TimelineView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        relayout();
    QWidget::changeEvent(event);
}

bool TimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int at = m_layout.blockAt(help->pos());
        if (at < 0) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), blockToolTip(m_layout.blocks()[std::size_t(at)]), this,
                m_layout.blocks()[std::size_t(at)].rect.toAlignedRect());
        }
        return true;
    }
    return QWidget::event(event);
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    if (!m_hasRun)
        return event->ignore();
    const QPoint delta = event->angleDelta();
    const double width = m_layout.visibleEnd() - m_layout.visibleBegin();
    if (delta.x() != 0 || (event->modifiers() & Qt::ShiftModifier)) {
        // A horizontal scroll (or shift and the wheel) pans: scrolling right shows later times.
        const double notches = (delta.x() != 0 ? -delta.x() : -delta.y()) / 120.0;
        m_layout.pan(notches * kScrollShare * width);
    } else if (delta.y() != 0) {
        m_layout.zoomAround(m_layout.msAt(event->position().x()), std::pow(kWheelStep, delta.y() / 120.0));
    }
    zoomed();
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    const double x = event->position().x();
    const bool inPlot = m_hasRun && x >= m_layout.plot().left() && x <= m_layout.plot().right();
    if (!inPlot)
        return QWidget::mousePressEvent(event);
    if (event->button() == Qt::MiddleButton ||
        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier))) {
        m_drag = Drag::Pan;
        m_panFromBegin = m_layout.visibleBegin();
        setCursor(Qt::ClosedHandCursor);
    } else if (event->button() == Qt::LeftButton) {
        m_drag = Drag::Band;
    } else {
        return QWidget::mousePressEvent(event);
    }
    m_dragFromX = m_dragToX = x;
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_drag == Drag::None)
        return QWidget::mouseMoveEvent(event);
    m_dragToX = event->position().x();
    if (m_drag == Drag::Pan) {
        const double width = m_layout.visibleEnd() - m_layout.visibleBegin();
        const double msPerPixel = width / std::max(1.0, m_layout.plot().width());
        const double wanted = m_panFromBegin - (m_dragToX - m_dragFromX) * msPerPixel;
        m_layout.pan(wanted - m_layout.visibleBegin());
        zoomed();
    } else {
        update();
    }
    event->accept();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_drag == Drag::None)
        return QWidget::mouseReleaseEvent(event);
    m_dragToX = event->position().x();
    if (m_drag == Drag::Band && std::abs(m_dragToX - m_dragFromX) >= kLeastBand) {
        const QRectF plot = m_layout.plot();
        const double from = std::clamp(m_dragFromX, plot.left(), plot.right());
        const double to = std::clamp(m_dragToX, plot.left(), plot.right());
        m_layout.zoomTo(m_layout.msAt(from), m_layout.msAt(to));
        endDrag();
        zoomed();
    } else {
        endDrag();
        update();
    }
    event->accept();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mouseDoubleClickEvent(event);
    endDrag();
    resetZoom();
    event->accept();
}

void TimelineView::endDrag()
{
    m_drag = Drag::None;
    unsetCursor();
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    const double width = m_layout.visibleEnd() - m_layout.visibleBegin();
    switch (event->key()) {
    case Qt::Key_Home:
    case Qt::Key_0: resetZoom(); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomIn(); break;
    case Qt::Key_Minus: zoomOut(); break;
    case Qt::Key_Left:
        m_layout.pan(-kScrollShare * width);
        zoomed();
        break;
    case Qt::Key_Right:
        m_layout.pan(kScrollShare * width);
        zoomed();
        break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

QString TimelineView::exportPicture(const QString& path, QSize pixels) const
{
    if (QString problem = pictureProblem(path, pixels); !problem.isEmpty())
        return problem;

    // Laid out at a size a screen would show and scaled up to large pictures, as the charts are, so the text grows
    // with the picture. The range in view is the window's; the rows share the picture's height, whatever it is.
    const double scale = std::max(1.0, std::min(pixels.width() / 1280.0, pixels.height() / 720.0));
    const QSizeF area = QSizeF(pixels) / scale;
    TimelineLayout layout = m_layout;
    layout.setMaxRowHeight(std::numeric_limits<double>::infinity());
    auto render = [&](QPaintDevice& device) {
        QPainter painter(&device);
        painter.setRenderHint(QPainter::Antialiasing, false);
        painter.setRenderHint(QPainter::TextAntialiasing);
        painter.setFont(font());
        painter.scale(scale, scale);
        const Frame frame = arrange(layout, area, QFontMetricsF(font(), &device), true);
        paint(painter, layout, frame, area);
    };
    return saveDevice(path, [&](QIODevice& file) -> QString {
        if (isSvgPath(path)) {
            QSvgGenerator generator;
            generator.setOutputDevice(&file);
            generator.setSize(pixels);
            generator.setViewBox(QRect(QPoint(0, 0), pixels));
            generator.setResolution(96);  // as a picture's: text the size it has in the PNG
            generator.setTitle(m_title.isEmpty() ? tr("Timeline") : m_title);
            generator.setDescription(QStringLiteral("AsyncScope timeline"));
            render(generator);
            return {};
        }
        QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
        image.setDotsPerMeterX(3780);  // 96 dpi, whatever the screen
        image.setDotsPerMeterY(3780);
        image.fill(palette().color(QPalette::Base));
        render(image);
        const QString suffix = QFileInfo(path).suffix().toLower();
        if (!image.save(&file, suffix.toLatin1().constData()))
            return tr("Encoding the picture as %1 failed.").arg(suffix.toUpper());
        return {};
    });
}

}  // namespace asyncscope
