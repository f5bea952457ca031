// What the timeline view draws, at any size: the rows' labels, the time axis, the legend of colours by kind, the
// clock line and the notes laid out around the layout's blocks (arrangeTimeline), and all of it painted with the
// blocks (paintTimeline): on the screen by TimelineView, and into its pictures, laid out at a size of their own.
#pragma once

#include "gui/timeline/timeline_layout.hpp"

#include <QColor>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

class QFontMetricsF;
class QPainter;
class QPalette;

namespace asyncscope {

constexpr double kTimelinePixelsPerTick = 90.0;

// The words around a run's blocks.
struct TimelineTexts {
    QString title;     // named at the top of pictures ("Run 12 of 50 · …"); empty: none
    QString clock;     // how the clocks are aligned
    QString note;      // stage events off, CUPTI not used, data moved unseen; or empty
    QString checkRow;  // in the host check's row, where the run holds no check; or empty
    QString message;   // in place of the rows, without a run
    bool hasRun = false;
};

// Where everything but the blocks lies at one size (the blocks are the layout's).
struct TimelineFrame {
    struct LegendEntry {
        QColor colour;
        QString name;
        QRectF swatch;
        QRectF text;
    };
    QRectF title;    // empty without a title
    QRectF labels;   // the row labels' column, as high as the rows
    QRectF axis;     // tick labels, below the rows
    std::vector<LegendEntry> legend;
    QRectF clock;
    QRectF note;
    QRectF message;  // where a view without a run says so
    TimelineTicks ticks;
};

// Lays out `texts` around the rows at `size`, and places the layout's plot (its blocks) among them; the title only
// `withTitle` (a picture).
TimelineFrame arrangeTimeline(
    TimelineLayout& layout, QSizeF size, const QFontMetricsF& metrics, const TimelineTexts& texts, bool withTitle);
// Paints it all in `palette`'s colours: `band`, while a drag is under way, is the range from one x to the other that
// it would zoom to.
void paintTimeline(QPainter& painter, const QPalette& palette, const TimelineLayout& layout,
    const TimelineFrame& frame, const TimelineTexts& texts, QSizeF size,
    std::optional<std::pair<double, double>> band = std::nullopt);

}  // namespace asyncscope
