#include "gui/charts/kind_colours.hpp"

#include <QChart>
#include <QPalette>
#include <QWidget>

#include <iterator>

namespace asyncscope {

QColor kindColour(SpanKind kind)
{
    switch (kind) {
    case SpanKind::H2D: return QColor(86, 180, 233);
    case SpanKind::Kernel: return QColor(204, 121, 167);
    case SpanKind::D2H: return QColor(213, 94, 0);
    case SpanKind::Submit: return QColor(230, 159, 0);
    case SpanKind::Wait: return QColor(0, 158, 115);
    case SpanKind::Check: return QColor(240, 228, 66);
    case SpanKind::Api: return QColor(230, 159, 0).darker(135);
    case SpanKind::MigrateH2D: return QColor(86, 180, 233).darker(150);
    case SpanKind::MigrateD2H: return QColor(213, 94, 0).darker(150);
    }
    return QColor(128, 128, 128);
}

QColor gpuTimeColour()
{
    return QColor(0, 114, 178);
}

QColor overlayColour(std::size_t overlay)
{
    const QColor colours[] = { QColor(0, 158, 115), QColor(204, 121, 167), QColor(86, 180, 233), QColor(213, 94, 0) };
    return colours[overlay % std::size(colours)];
}

bool isDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor problemTextColour(const QPalette& palette)
{
    return isDark(palette) ? QColor(0xff, 0x9a, 0x8f) : QColor(0xa3, 0x16, 0x0b);
}

void showAsProblem(QWidget& label, const QPalette& look)
{
    QPalette red = label.palette();
    red.setColor(QPalette::WindowText, problemTextColour(look));
    label.setPalette(red);
}

void applyChartTheme(QChart* chart, bool dark)
{
    chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setAnimationOptions(QChart::NoAnimation);
}

}  // namespace asyncscope
