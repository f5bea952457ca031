#include "gui/timeline/timeline_painting.hpp"

#include "gui/charts/kind_colours.hpp"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace asyncscope {

namespace {

// The kinds in the order the legend names them.
constexpr SpanKind kLegendKinds[] = { SpanKind::H2D, SpanKind::Kernel, SpanKind::D2H, SpanKind::MigrateH2D,
    SpanKind::MigrateD2H, SpanKind::Api, SpanKind::Submit, SpanKind::Wait, SpanKind::Check };

// The view's words, translated as the view's own.
QString tr(const char* text)
{
    return QCoreApplication::translate("asyncscope::TimelineView", text);
}

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

TimelineFrame arrangeTimeline(
    TimelineLayout& layout, QSizeF size, const QFontMetricsF& fm, const TimelineTexts& texts, bool withTitle)
{
    TimelineFrame f;
    const double margin = std::round(fm.height() * 0.6);
    const double line = fm.lineSpacing();
    const double width = size.width() - 2.0 * margin;
    double top = margin;
    if (withTitle && !texts.title.isEmpty()) {
        f.title = QRectF(margin, top, width, line * 1.3);
        top = f.title.bottom() + margin / 2.0;
    }
    if (!texts.hasRun) {
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
    for (TimelineFrame::LegendEntry& e : f.legend) {
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
    const double clockHeight = fm.boundingRect(QRectF(0, 0, width, 1e6), textFlags, texts.clock).height();
    const double noteHeight =
        texts.note.isEmpty() ? 0.0 : fm.boundingRect(QRectF(0, 0, width, 1e6), textFlags, texts.note).height();
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
    f.ticks = layout.ticks(kTimelinePixelsPerTick);
    return f;
}

void paintTimeline(QPainter& p, const QPalette& pal, const TimelineLayout& layout, const TimelineFrame& f,
    const TimelineTexts& texts, QSizeF size, std::optional<std::pair<double, double>> dragBand)
{
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
        p.drawText(f.title, Qt::AlignLeft | Qt::AlignVCenter, texts.title);
        p.restore();
    }
    if (!texts.hasRun) {
        p.setPen(faint);
        p.drawText(f.message, Qt::AlignCenter | Qt::TextWordWrap, texts.message);
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
    for (std::size_t r = 0; r < rows.size() && !texts.checkRow.isEmpty(); ++r) {
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
            QFontMetricsF(italic, p.device()).elidedText(texts.checkRow, Qt::ElideRight, cell.width()));
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
        if (b.banded || r.right() < plot.left() || r.left() > plot.right())
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
    // Bands of blocks too narrow to draw one by one: their colour, hatched, and how many where it fits.
    for (const TimelineBand& band : layout.bands()) {
        const QRectF& r = band.rect;
        if (r.right() < plot.left() || r.left() > plot.right())
            continue;
        const QColor fill = blockColour(layout.blocks()[band.blocks.front()]);
        QColor light = fill;
        light.setAlpha(110);
        p.fillRect(r, light);
        p.fillRect(r, QBrush(fill.darker(130), Qt::BDiagPattern));
        p.setPen(QPen(fill.darker(150), 1.0));
        p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
        const QRectF visible = r.intersected(plot).adjusted(3.0, 0.0, -3.0, 0.0);
        if (r.height() >= fm.height()) {
            const QString count = QStringLiteral("×%1").arg(band.blocks.size());
            const QString& shown = fm.horizontalAdvance(band.label) <= visible.width() ? band.label : count;
            if (fm.horizontalAdvance(shown) <= visible.width()) {
                p.setPen(text);
                p.drawText(visible, Qt::AlignCenter, shown);
            }
        }
    }
    if (dragBand) {
        const auto [fromX, toX] = *dragBand;
        QColor band = pal.color(QPalette::Highlight);
        band.setAlpha(60);
        const double from = std::clamp(std::min(fromX, toX), plot.left(), plot.right());
        const double to = std::clamp(std::max(fromX, toX), plot.left(), plot.right());
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
    for (const TimelineFrame::LegendEntry& e : f.legend) {
        p.fillRect(e.swatch, e.colour);
        p.setPen(QPen(e.colour.darker(150), 1.0));
        p.drawRect(e.swatch.adjusted(0.5, 0.5, -0.5, -0.5));
        p.setPen(text);
        p.drawText(e.text, Qt::AlignLeft | Qt::AlignVCenter, e.name);
    }
    p.setPen(faint);
    p.drawText(f.clock, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, texts.clock);
    if (!texts.note.isEmpty()) {
        p.setPen(text);
        p.drawText(f.note, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, texts.note);
    }
}

}  // namespace asyncscope
