// The Distribution tab: histograms of GPU time and CPU submit time over the session's measured runs, side by side,
// median and p95 marked, overlaid saved runs beside them (DistributionCharts). It follows the session's throttled
// refresh while it is shown, reading only the runs that arrived since; hidden, it catches up when next shown.
// Pointing at a bin names its range and every series' share of it. Its own buttons export both charts as PNG or
// SVG at a chosen pixel size.
#pragma once

#include "gui/distribution_charts.hpp"
#include "gui/settings_store.hpp"

#include <QSize>
#include <QWidget>

class QChartView;

namespace asyncscope {

class SessionModel;

class DistributionPanel : public QWidget {
    Q_OBJECT
public:
    // The export folder and pixel size are `settings`' (remembered as the window's other exports are).
    DistributionPanel(const SessionModel* session, GuiSettings& settings, QWidget* parent = nullptr);

    const DistributionCharts& charts() const { return m_charts; }
    QChartView* view(DistributionCharts::Kind kind) const { return m_views[kind]; }

    // Writes both charts, with every run and overlay of the session, to `path` (PNG or SVG by suffix) at `pixels`;
    // says how it went (done/problem).
    bool exportTo(const QString& path, QSize pixels);
    // The same, quietly: empty when written, else why not.
    QString exportPicture(const QString& path, QSize pixels) const;

public slots:
    // The session's runs or overlays changed: drawn now when the tab is shown, else when it next is.
    void refresh();

signals:
    void done(const QString& message);     // a picture was written; the settings changed
    void problem(const QString& message);  // nothing was written

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void catchUp();
    void exportInteractive(const QString& format);

    const SessionModel* m_session;
    GuiSettings& m_settings;
    DistributionCharts m_charts;
    std::array<QChartView*, DistributionCharts::kKindCount> m_views {};
    bool m_runsStale = true;
    bool m_overlaysStale = true;
};

}  // namespace asyncscope
