#include "gui/charts/verdict_colours.hpp"

#include "gui/charts/kind_colours.hpp"

#include <QPalette>

namespace asyncscope {

namespace {

QColor mixed(const QColor& from, const QColor& to, double share)
{
    const auto mix = [share](int a, int b) { return int(a + (b - a) * share + 0.5); };
    return QColor(mix(from.red(), to.red()), mix(from.green(), to.green()), mix(from.blue(), to.blue()));
}

}  // namespace

QColor verdictColour(Verdict verdict, const QPalette& palette)
{
    const bool dark = isDark(palette);
    switch (verdict) {
    case Verdict::Slower: return dark ? QColor(255, 110, 100) : QColor(200, 30, 30);
    case Verdict::Faster: return dark ? QColor(90, 210, 120) : QColor(0, 130, 60);
    case Verdict::Higher:
    case Verdict::Lower: return dark ? QColor(100, 170, 255) : QColor(0, 90, 180);
    case Verdict::Same:
    case Verdict::Small:
    case Verdict::Unmeasured: break;
    }
    return mixed(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.55);
}

QBrush verdictBackground(Verdict verdict, const QPalette& palette)
{
    const bool dark = isDark(palette);
    QColor tint;
    switch (verdict) {
    case Verdict::Slower: tint = QColor(230, 60, 50); break;
    case Verdict::Faster: tint = QColor(40, 180, 80); break;
    case Verdict::Higher:
    case Verdict::Lower: tint = QColor(60, 130, 230); break;
    case Verdict::Same:
    case Verdict::Small:
    case Verdict::Unmeasured: return Qt::NoBrush;
    }
    // A light tint under dark text, a deep one under light text: the text keeps its contrast either way.
    return QBrush(mixed(palette.color(QPalette::Base), tint, dark ? 0.38 : 0.25));
}

}  // namespace asyncscope
