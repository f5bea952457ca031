// The colours of a baseline comparison's verdicts, the same in the Summary tab and the Difference view: slower red,
// faster green, a count that moved (higher, lower) blue, the same grey. Backgrounds are the palette's base tinted
// towards the verdict's colour, so the palette's own text stays readable on them in light and dark themes alike.
#pragma once

#include "engine/model/baseline.hpp"

#include <QBrush>
#include <QColor>

class QPalette;

namespace asyncscope {

// The verdict's own colour, for marks drawn on the palette's base (points, bars).
QColor verdictColour(Verdict verdict, const QPalette& palette);
// A table cell's background for the verdict: no brush where it is the same, or not tested.
QBrush verdictBackground(Verdict verdict, const QPalette& palette);

}  // namespace asyncscope
