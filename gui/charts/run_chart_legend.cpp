#include "gui/charts/run_chart_legend.hpp"

#include "gui/charts/spread_line.hpp"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QPen>
#include <QScatterSeries>

namespace asyncscope {

using runchart::RunLines;

RunChartLegend::RunChartLegend()
    : m_currentKey(new QLineSeries)  // a legend entry only, in the chart while overlays need telling apart
    , m_bandKeys { runchart::newBand(runchart::kInnerName), runchart::newBand(runchart::kOuterName) }
{
    m_currentKey->setName(QStringLiteral("this run"));
}

RunChartLegend::~RunChartLegend()
{
    if (m_currentKey && !m_currentKey->chart())
        delete m_currentKey.data();
    for (const auto& key : m_bandKeys) {
        if (key && !key->chart())
            delete key.data();
    }
}

void RunChartLegend::removeOverlayKeys(QChart* chart)
{
    for (QLineSeries* key : m_overlayKeys) {
        chart->removeSeries(key);
        delete key;
    }
    m_overlayKeys.clear();
}

void RunChartLegend::addOverlayKey(QChart* chart, const QString& label)
{
    auto* key = new QLineSeries;
    key->setName(label);
    chart->addSeries(key);
    m_overlayKeys.push_back(key);
}

void RunChartLegend::nameKeys(const QStringList& names)
{
    if (m_currentKey)
        m_currentKey->setName(names.front());
    for (std::size_t o = 0; o < m_overlayKeys.size() && o + 1 < std::size_t(names.size()); ++o)
        m_overlayKeys[o]->setName(names[qsizetype(o + 1)]);
}

void RunChartLegend::styleKeys(QChart* chart, bool dark, double pixelScale)
{
    const QColor neutral = dark ? QColor(200, 200, 200) : QColor(90, 90, 90);
    m_currentKey->setPen(QPen(neutral, 2.0, Qt::SolidLine));
    for (std::size_t o = 0; o < m_overlayKeys.size(); ++o)
        m_overlayKeys[o]->setPen(runchart::overlayPen(neutral, o, pixelScale));
    // The bands' entries: their markers are given the shade themselves, as a chart's theme gives an area it takes in
    // a colour of its own.
    const QColor shades[] = { runchart::withAlpha(neutral, runchart::kInnerAlpha + runchart::kOuterAlpha),
        runchart::withAlpha(neutral, runchart::kOuterAlpha) };
    for (std::size_t b = 0; b < m_bandKeys.size(); ++b) {
        QAreaSeries* key = m_bandKeys[b];
        key->setBrush(shades[b]);
        key->setPen(Qt::NoPen);
        for (QLegendMarker* marker : chart->legend()->markers(key)) {
            marker->setShape(QLegend::MarkerShapeRectangle);  // from the series, an area's would be its outline
            marker->setBrush(shades[b]);
            marker->setPen(Qt::NoPen);
        }
    }
}

void RunChartLegend::update(QChart* chart, const std::vector<RunLines>& lines, bool currentShown, bool warmupShown,
    bool density, bool dark, double pixelScale)
{
    // While the chart shows density the quantities' entries name their median lines, and two neutral entries the
    // bands of every quantity: a band per quantity and percentile would double the legend.
    QLegend* legend = chart->legend();
    const bool overlays = lines.size() > 1;
    m_names.clear();
    auto show = [this, legend](QAbstractSeries* series, bool visible) {
        for (QLegendMarker* marker : legend->markers(series))
            marker->setVisible(visible);
        if (visible)
            m_names << series->name();
    };
    for (const auto& bands : { lines[0].outer, lines[0].inner }) {
        for (QAreaSeries* band : bands)
            show(band, false);
    }
    for (QLineSeries* s : lines[0].series)
        show(s, currentShown || overlays);
    for (std::size_t i = 0; i < lines[0].warmups.size(); ++i)
        show(lines[0].warmups[i], i == 0 && warmupShown);  // one entry for the marks of every quantity
    // Entries of series without points are added and removed rather than hidden: the legend lays out a hidden
    // empty series' entry again without its name. The bands' entries, then "this run", go before the runs'.
    // The chart changes only when one of them comes or goes, not on every refresh of a running series.
    const bool thisRun = currentShown && overlays;
    const bool bands = currentShown && density;
    if (thisRun != (m_currentKey->chart() != nullptr) || bands != (m_bandKeys[0]->chart() != nullptr)) {
        for (QLineSeries* key : m_overlayKeys)
            chart->removeSeries(key);
        for (QAreaSeries* key : m_bandKeys) {
            if (key->chart())
                chart->removeSeries(key);
        }
        if (m_currentKey->chart())
            chart->removeSeries(m_currentKey);
        if (bands) {
            for (QAreaSeries* key : m_bandKeys)
                chart->addSeries(key);
        }
        if (thisRun)
            chart->addSeries(m_currentKey);
        for (QLineSeries* key : m_overlayKeys)
            chart->addSeries(key);
    }
    if (bands) {
        for (QAreaSeries* key : m_bandKeys)
            m_names << key->name();
    }
    if (thisRun)
        m_names << m_currentKey->name();
    for (QLineSeries* key : m_overlayKeys)
        m_names << key->name();
    for (std::size_t o = 1; o < lines.size(); ++o) {
        for (QLineSeries* s : lines[o].series)
            show(s, false);
        for (QScatterSeries* s : lines[o].warmups)
            show(s, false);
    }
    styleKeys(chart, dark, pixelScale);
    legend->setVisible(currentShown || overlays);
}

}  // namespace asyncscope
