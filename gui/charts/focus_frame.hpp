// Where the keys go shows: a frame in the palette's highlight colour around a view that has the keyboard focus (the
// charts, the timeline, the difference plot), drawn over what the view shows and never into its pictures.
// FramedChartView (gui/charts/framed_chart_view.hpp) is a chart view that draws it.
#pragma once

class QPainter;
class QPalette;
class QRect;

namespace asyncscope {

// Draws the frame just inside `area`.
void paintFocusFrame(QPainter& painter, const QRect& area, const QPalette& palette);

}  // namespace asyncscope
