// One colour per kind of span, and one for the GPU time, the same in every chart and in the timeline. Okabe-Ito
// colours: told apart by colour-blind readers, readable on light and dark backgrounds.
// Whether the palette is dark, and the Qt Charts theme that follows it.
#pragma once

#include "engine/model/run_result.hpp"

#include <QColor>

#include <cstddef>

class QChart;
class QPalette;
class QWidget;

namespace asyncscope {

// Whether a palette's windows are dark (a dark desktop theme): charts and banners follow it.
bool isDark(const QPalette& palette);
// A problem's text: red, at least 4.5:1 against the palette's windows, light or dark.
QColor problemTextColour(const QPalette& palette);
// Draws `label`'s text in problemTextColour(look): again on each change of look.
void showAsProblem(QWidget& label, const QPalette& look);
// Qt Charts' dark or light theme for `chart`, its animations kept off (a theme turns them back on). A theme resets
// every series' colours: the caller styles its series again.
void applyChartTheme(QChart* chart, bool dark);

// H2D sky blue, kernel reddish purple, D2H vermilion, CPU submit orange, CPU wait bluish green, host check yellow;
// a runtime call (CUPTI) a darker shade of the submit colour: the calls are the submission, one by one; a page
// migration to the device or the host a darker shade of the H2D or D2H colour: data moving the same way, not a copy.
QColor kindColour(SpanKind kind);
// The GPU time, start event to stop event: blue.
QColor gpuTimeColour();
// Where a chart shows one quantity for several runs (the distributions), a colour per saved run beside the current
// one's quantity colour: bluish green, reddish purple, sky blue, vermilion, then again.
QColor overlayColour(std::size_t overlay);

}  // namespace asyncscope
