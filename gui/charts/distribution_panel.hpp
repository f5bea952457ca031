// The Distribution tab: histograms of GPU time and CPU submit time over the session's measured runs, side by side,
// median and p95 marked, overlaid saved runs beside them (DistributionCharts). It follows the session's throttled
// refresh while it is shown, reading only the runs that arrived since; hidden, it catches up when next shown.
// Pointing at a bin names its range and every series' share of it. Its own buttons ask for both charts to be
// exported as PNG or SVG (the window's file actions ask where and how large).
#pragma once

#include "gui/charts/distribution_charts.hpp"

#include <QSize>
#include <QWidget>

class QChartView;

namespace asyncscope {

class SessionModel;

class DistributionPanel : public QWidget {
    Q_OBJECT
public:
    explicit DistributionPanel(const SessionModel* session, QWidget* parent = nullptr);

    const DistributionCharts& charts() const { return m_charts; }
    QChartView* view(DistributionCharts::Kind kind) const { return m_views[kind]; }

    // Writes both charts, with every run and overlay of the session, to `path` (PNG or SVG by suffix) at `pixels`:
    // empty when written, else why not.
    QString exportPicture(const QString& path, QSize pixels) const;

public slots:
    // The session's runs or overlays changed: drawn now when the tab is shown, else when it next is.
    void refresh();

signals:
    void exportRequested(const QString& format);  // "png" or "svg"

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void catchUp();

    const SessionModel* m_session;
    DistributionCharts m_charts;
    std::array<QChartView*, DistributionCharts::kKindCount> m_views {};
    bool m_runsStale = true;
    bool m_overlaysStale = true;
};

}  // namespace asyncscope
