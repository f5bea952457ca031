#include "gui/charts/distribution_panel.hpp"

#include "gui/charts/framed_chart_view.hpp"
#include "gui/files/chart_picture.hpp"
#include "gui/files/file_dialogs.hpp"
#include "gui/session/session_model.hpp"

#include <QChartView>
#include <QCursor>
#include <QEvent>
#include <QHBoxLayout>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>

namespace asyncscope {

namespace {

// A histogram narrower than this lists its legend in rows below it: its one row of three names would cut each short.
constexpr int kRowsBelowPx = 900;

}  // namespace

DistributionPanel::DistributionPanel(const SessionModel* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("distribution"));
    auto* bar = new QHBoxLayout;
    bar->addStretch(1);
    for (QPushButton* button : makePictureButtons(QStringLiteral("exportDistribution"),
             tr("both histograms, with every run and overlay,"),
             [this](const QString& format) { emit exportRequested(format); }))
        bar->addWidget(button);
    auto* charts = new QHBoxLayout;
    for (int k = 0; k < DistributionCharts::kKindCount; ++k) {
        const auto kind = DistributionCharts::Kind(k);
        // Framed while it has the keyboard focus; two side by side leave each too little for a row of names below it:
        // the legend is listed in rows, each name whole, below any histogram narrower than a wide window's.
        auto* view = new FramedChartView(m_charts.chart(kind), kRowsBelowPx);
        view->setRenderHint(QPainter::Antialiasing);
        view->setToolTip(tr("<p>Measured runs per bin, as a share of the series' measured runs; warm-up runs are "
                            "left out. Point at a bin for its range and every series' share of it.</p>"));
        m_views[k] = view;
        charts->addWidget(view, 1);
        // The current series' bars name their bin; the tooltip lists every series' share of it.
        const auto hover = [this, kind, view](const QPointF& at, bool on) {
            if (on)
                QToolTip::showText(QCursor::pos(), m_charts.describe(kind, at.x()), view);
            else
                QToolTip::hideText();
        };
        QObject::connect(m_charts.bars(kind), &QAreaSeries::hovered, view, hover);
    }
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(charts, 1);

    connect(session, &SessionModel::reportChanged, this, [this] {
        m_runsStale = true;
        refresh();
    });
    connect(session, &SessionModel::overlayChanged, this, [this] {
        m_overlaysStale = true;
        m_runsStale = true;  // the series shown may be named anew beside them
        refresh();
    });
    m_charts.applyPalette(palette());
}

void DistributionPanel::refresh()
{
    if (isVisible())
        catchUp();
}

void DistributionPanel::catchUp()
{
    if (m_overlaysStale) {
        m_overlaysStale = false;
        m_charts.setOverlays(m_session->drawnOverlays());
    }
    if (m_runsStale) {
        m_runsStale = false;
        m_charts.setRuns(m_session->report(), m_session->source().label(), m_session->prepared().times);
    }
}

void DistributionPanel::showEvent(QShowEvent* event)
{
    catchUp();
    QWidget::showEvent(event);
}

void DistributionPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        m_charts.applyPalette(palette());
    QWidget::changeEvent(event);
}

QString DistributionPanel::exportPicture(const QString& path, QSize pixels) const
{
    DistributionCharts charts;  // off-screen, every run and overlay as they are now
    charts.setOverlays(m_session->drawnOverlays());
    charts.setRuns(m_session->report(), m_session->source().label(), m_session->prepared().times);
    return saveChartsPicture({ charts.chart(DistributionCharts::GpuTime), charts.chart(DistributionCharts::CpuSubmit) },
        tr("AsyncScope distributions"), path, pixels);
}

}  // namespace asyncscope
