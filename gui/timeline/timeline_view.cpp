#include "gui/timeline/timeline_view.hpp"

#include "engine/model/trace_labels.hpp"
#include "gui/charts/focus_frame.hpp"
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

void TimelineView::setRun(const RunResult& run, const PipelineConfig& config, const QString& traceNote,
    const QString& unrecorded, const ProgramInfo* program)
{
    const bool wasZoomed = m_layout.zoomed();
    m_layout.setRun(run, config, program);
    const bool checked =
        std::any_of(run.spans.begin(), run.spans.end(), [](const Span& s) { return s.kind == SpanKind::Check; });
    m_texts.checkRow = checked ? QString() : unrecorded;
    m_texts.hasRun = true;
    m_texts.message.clear();
    if (m_layout.gpuTraced())
        m_texts.clock = tr("CUPTI: runtime calls and GPU operations on one clock, 0 = submission begins");
    else if (m_layout.cpuTraced())
        m_texts.clock = tr("Runtime calls: CUPTI, 0 = submission begins; GPU spans: CUDA events, 0 = the start event, "
                           "recorded as submission begins");
    else
        m_texts.clock = tr("GPU spans: CUDA events, 0 = the start event, recorded as submission begins, each from the "
                           "end of the operation before it on its stream (a copy: of the copy before it the same way); "
                           "CPU spans: host steady clock, 0 = submission begins");
    QStringList notes;
    if (m_layout.stagesOff())
        notes << tr("The stage events were off: copies and kernels were not timed one by one; the bar is the GPU "
                    "time from the start event to the stop event.");
    if (const std::string hidden = hiddenTransferNote(config, m_layout.migrationsTraced()); !hidden.empty())
        notes << QString::fromStdString(hidden);
    if (!traceNote.isEmpty())
        notes << tr("CUPTI not used: %1").arg(traceNote);
    m_texts.note = notes.join('\n');
    relayout();
    if (wasZoomed != m_layout.zoomed())
        emit zoomChanged(m_layout.zoomed());
}

void TimelineView::clear(const QString& message)
{
    const bool wasZoomed = m_layout.zoomed();
    m_layout.clear();
    const QString title = m_texts.title;
    m_texts = {};
    m_texts.title = title;
    m_texts.message = message;
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
    m_frame = arrangeTimeline(m_layout, QSizeF(size()), QFontMetricsF(font(), this), m_texts, false);
    update();
}

void TimelineView::zoomed()
{
    m_frame.ticks = m_layout.ticks(kTimelinePixelsPerTick);
    update();
    emit zoomChanged(m_layout.zoomed());
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintTimeline(painter, palette(), m_layout, m_frame, m_texts, QSizeF(size()), dragBand());
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
        const int band = at < 0 ? m_layout.bandAt(help->pos()) : -1;
        if (band >= 0) {
            const TimelineBand& b = m_layout.bands()[std::size_t(band)];
            QToolTip::showText(help->globalPos(), bandToolTip(b, m_layout.blocks()), this, b.rect.toAlignedRect());
        } else if (at < 0) {
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
    if (!m_texts.hasRun)
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
    const bool inPlot = m_texts.hasRun && x >= m_layout.plot().left() && x <= m_layout.plot().right();
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

std::optional<std::pair<double, double>> TimelineView::dragBand() const
{
    if (m_drag != Drag::Band)
        return std::nullopt;
    return std::pair { m_dragFromX, m_dragToX };
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
        const TimelineFrame frame = arrangeTimeline(layout, area, QFontMetricsF(font(), &device), m_texts, true);
        paintTimeline(painter, palette(), layout, frame, m_texts, area, dragBand());
    };
    return saveDevice(path, [&](QIODevice& file) -> QString {
        if (isSvgPath(path)) {
            QSvgGenerator generator;
            generator.setOutputDevice(&file);
            generator.setSize(pixels);
            generator.setViewBox(QRect(QPoint(0, 0), pixels));
            generator.setResolution(96);  // as a picture's: text the size it has in the PNG
            generator.setTitle(m_texts.title.isEmpty() ? tr("Timeline") : m_texts.title);
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
