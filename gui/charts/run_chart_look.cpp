// How a run chart looks: lines or density, CPU submit time on an axis of its own or on GPU time's, light or dark,
// each quantity's colour and each run's pattern, the lines' names, and what the legend lists (run_chart_legend).
#include "gui/charts/run_chart.hpp"

#include "gui/charts/kind_colours.hpp"
#include "gui/charts/spread_line.hpp"

#include <QPalette>
#include <QPen>
#include <QScatterSeries>

namespace asyncscope {

namespace {

const QColor kWarmupColour(128, 128, 128);

}  // namespace

void RunChart::setStyle(Style style)
{
    m_style = style;
    ++m_version;
    update();
}

void RunChart::setCpuOwnAxis(bool own)
{
    if (own == m_cpuOwnAxis || !m_cpuY)
        return;
    m_cpuOwnAxis = own;
    m_cpuY->setVisible(own);
    // The readout takes a line's unit from its axis's title: microseconds on its own, GPU time's milliseconds not.
    m_cpuY->setTitleText(own ? QStringLiteral("CPU submit µs") : m_y->titleText());
    if (!own)
        m_cpuY->setRange(m_y->min(), m_y->max());
    ++m_version;
    m_drawn = {};
    update();
}

void RunChart::applyPalette(const QPalette& palette)
{
    m_dark = isDark(palette);
    applyChartTheme(m_chart, m_dark);
    restyle();
    updateLegend();
}

void RunChart::nameLines()
{
    const auto& qs = runchart::quantities(m_kind);
    for (std::size_t i = 0; i < qs.size(); ++i) {
        const QString name = QString::fromLatin1(qs[i].name);
        m_lines[0].series[i]->setName(m_density ? name + QStringLiteral(" median") : name);
    }
}

void RunChart::restyle()
{
    // Lines are as wide in a picture, relative to it, as on the screen: the current run's pen scales with the
    // picture's painter, the overlays' cosmetic pens with the pixel scale (overlayPen).
    const auto& qs = runchart::quantities(m_kind);
    for (std::size_t o = 0; o < m_lines.size(); ++o) {
        const bool current = o == 0;
        const runchart::RunLines& lines = m_lines[o];
        for (std::size_t i = 0; i < qs.size(); ++i) {
            lines.series[i]->setPen(
                current ? QPen(qs[i].colour, 2.0) : runchart::overlayPen(qs[i].colour, o - 1, m_pixelScale));
            lines.series[i]->setColor(qs[i].colour);
        }
        for (std::size_t i = 0; i < lines.inner.size(); ++i) {
            // CPU submit time's bands, under GPU time's, lighter: GPU time's line shows through where they cross.
            const int fade = m_kind == SeriesPoints::Time && i == runchart::kCpuQuantity ? 2 : 1;
            lines.inner[i]->setBrush(runchart::withAlpha(qs[i].colour, runchart::kInnerAlpha / fade));
            lines.outer[i]->setBrush(runchart::withAlpha(qs[i].colour, runchart::kOuterAlpha / fade));
            lines.inner[i]->setPen(Qt::NoPen);
            lines.outer[i]->setPen(Qt::NoPen);
        }
        for (QScatterSeries* warmups : lines.warmups) {
            warmups->setColor(current ? kWarmupColour : Qt::transparent);
            warmups->setBorderColor(kWarmupColour);
        }
    }
    m_legend.styleKeys(m_chart, m_dark, m_pixelScale);
    if (!m_cpuY)
        return;
    // The CPU axis in CPU submit time's colour, so it is read against its line.
    const QColor cpu = qs[runchart::kCpuQuantity].colour;
    m_cpuY->setLabelsColor(cpu);
    m_cpuY->setTitleBrush(cpu);
    m_cpuY->setLinePenColor(cpu);
    m_cpuY->setGridLineVisible(false);  // GPU time's grid is the chart's
}

void RunChart::updateLegend()
{
    // The legend names a colour per quantity and a pattern per run; it lists only what the chart shows.
    const bool currentShown = !pointsOf(0).points[0].empty();
    bool warmupShown = false;
    for (std::size_t run = 0; run < m_lines.size(); ++run)
        warmupShown = warmupShown || !pointsOf(run).warmupPoints[0].empty();
    m_legend.update(m_chart, m_lines, currentShown, warmupShown, m_density, m_dark, m_pixelScale);
    if (m_legendChanged)
        m_legendChanged();
}

}  // namespace asyncscope
