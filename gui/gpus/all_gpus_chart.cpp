#include "gui/gpus/all_gpus_chart.hpp"

#include "gui/files/chart_picture.hpp"
#include "gui/files/save_file.hpp"
#include "gui/charts/kind_colours.hpp"
#include "gui/charts/nice_axis.hpp"
#include "gui/series/nice_ticks.hpp"
#include "gui/series/shown_name.hpp"

#include "engine/io/side_by_side_report.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QDir>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <sstream>

namespace asyncscope {

namespace {

constexpr double kLinkHalfWidth = 0.42;  // of a category: the link's mark spans both bars of its GPU

QString categoryOf(const SideBySideRow& row, bool severalHosts)
{
    QString label = severalHosts ? QStringLiteral("%1 GPU %2").arg(shownName(row.host)).arg(row.device)
                                 : QObject::tr("GPU %1").arg(row.device);
    if (row.has(RowFlag::Slow) || row.has(RowFlag::SlowInSet))
        label += QObject::tr(" (slow)");
    else if (row.has(RowFlag::BelowLink))
        label += QObject::tr(" (below link)");
    return label;
}

}  // namespace

std::unique_ptr<QChart> buildAllGpusChart(const std::vector<SideBySideRow>& rows, const QString& title, bool dark)
{
    auto chart = std::make_unique<QChart>();
    applyChartTheme(chart.get(), dark);  // before any series: a theme recolours the series it finds
    chart->setTitle(title);
    std::vector<const SideBySideRow*> gpus;
    for (const SideBySideRow& r : rows) {
        if (r.device >= 0)
            gpus.push_back(&r);
    }
    const bool severalHosts = std::any_of(gpus.begin(), gpus.end(),
        [&](const SideBySideRow* r) { return r->host != gpus.front()->host; });

    auto* h2d = new QBarSet(QObject::tr("H2D GB/s"));
    auto* d2h = new QBarSet(QObject::tr("D2H GB/s"));
    h2d->setColor(QColor(31, 119, 180));
    d2h->setColor(QColor(255, 127, 14));
    QStringList categories;
    double top = 0.0;
    for (const SideBySideRow* r : gpus) {
        *h2d << r->h2dGBps;
        *d2h << r->d2hGBps;
        categories << categoryOf(*r, severalHosts);
        top = std::max({ top, r->h2dGBps, r->d2hGBps, r->linkGBps() });
    }
    auto* bars = new QBarSeries;
    bars->append(h2d);
    bars->append(d2h);
    chart->addSeries(bars);

    auto* xAxis = new QBarCategoryAxis;
    xAxis->append(categories.isEmpty() ? QStringList { QObject::tr("no GPU") } : categories);
    auto* yAxis = new QValueAxis;
    yAxis->setTitleText(QObject::tr("GB/s"));
    // Ticks on 1, 2 or 5 × 10^n GB/s, labelled with the digits that tell them apart (none yet: 0 to 1 in fifths),
    // the axis ending on the first tick above the highest bar or link rate.
    const double wanted = top > 0.0 ? top * 1.12 : 1.0;
    const double ticks = tickRoom(chart.get(), Qt::Vertical);
    setNiceRange(yAxis, 0.0, niceCeil(wanted, niceStep(wanted, ticks)), ticks, 0.0);
    chart->addAxis(xAxis, Qt::AlignBottom);
    chart->addAxis(yAxis, Qt::AlignLeft);
    bars->attachAxis(xAxis);
    bars->attachAxis(yAxis);

    // Each GPU's link nominal rate as a short line across its two bars; one legend entry for all of them.
    bool named = false;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        const double link = gpus[i]->linkGBps();
        if (link <= 0.0)
            continue;
        auto* mark = new QLineSeries;
        mark->setName(QObject::tr("Link nominal GB/s"));
        mark->setPen(QPen(dark ? QColor(255, 110, 100) : QColor(200, 30, 30), 2.5, Qt::DashLine));
        mark->append(double(i) - kLinkHalfWidth, link);
        mark->append(double(i) + kLinkHalfWidth, link);
        chart->addSeries(mark);
        mark->attachAxis(xAxis);
        mark->attachAxis(yAxis);
        if (named) {
            for (QLegendMarker* m : chart->legend()->markers(mark))
                m->setVisible(false);
        }
        named = true;
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

QString exportAllGpusChart(const std::vector<SideBySideRow>& rows, const QString& title, const QString& path,
    QSize pixels)
{
    const auto chart = buildAllGpusChart(rows, title);
    return saveChartsPicture({ chart.get() }, title, path, pixels);
}

QString exportSideBySideCsv(const std::vector<SideBySideRow>& rows, const QString& path)
{
    return saveStream(path, [&](std::ostream& out) { writeSideBySideCsv(out, rows); });
}

}  // namespace asyncscope
