// The All GPUs tab: runs the configured series on every GPU of the host, one at a time or all at once, and shows
// them side by side: a bar chart of H2D and D2H GB/s per GPU with each link's nominal rate, a table (GPU, name, bus
// id, NUMA node, link, H2D, D2H, GPU time, flags) with flagged rows tinted, and the host's aggregate bandwidth when
// they ran at once. Exports the chart as a picture and the table as the CLI's CSV.
#pragma once

#include "gui/gpus/side_by_side_model.hpp"

#include "engine/run/backend.hpp"
#include "engine/run/device_plan.hpp"

#include <QSize>
#include <QWidget>


class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace asyncscope {

class PlanController;

class AllGpusPanel : public QWidget {
    Q_OBJECT
public:
    // Runs its plans on `controller`, the window's one run thread, in turn with the session's.
    explicit AllGpusPanel(PlanController* controller, QWidget* parent = nullptr);

    DeviceMode mode() const;
    void setMode(DeviceMode mode);
    // Each GPU's worker thread on its local CPUs, host buffers from its NUMA node (on by default, as in the CLI):
    // the window's series and comparisons follow it too.
    bool bindsToLocalCpus() const;
    void setBindToLocalCpus(bool bind);
    // Whether a run may start now: devices are known and nothing else runs.
    void setCanRun(bool canRun);

    // Runs `plan` (its first variant's device is replaced by each GPU's) on every device of `platform`. Refused,
    // with the reason, while a run is going or when the platform has no device.
    Status start(const Plan& plan, const Platform& platform);
    void cancel();
    bool isRunning() const;
    // Cancels and waits (bounded) for every device: closing the window calls it.
    void shutdown();

    // Shows a host's record: chart, table and aggregate.
    void showHost(const HostReport& host);
    const std::vector<SideBySideRow>& rows() const { return m_model->rows(); }
    const HostReport& host() const { return m_host; }
    QTableView* table() const { return m_table; }
    QString summaryText() const;

    // Empty, or why the file could not be written.
    QString exportChart(const QString& path, QSize pixels) const;
    QString exportCsv(const QString& path) const;

signals:
    void runRequested();  // the Run button: the window builds the plan and calls start()
    void runningChanged(bool running);
    void finished(const asyncscope::HostReport& host);
    void exportRequested(const QString& format);  // the chart as a picture: "png" or "svg"
    void exportTableRequested();                  // the table as CSV, written with exportCsv()

protected:
    void changeEvent(QEvent* event) override;  // a palette change redraws the chart in the light or dark theme

private:
    void onDeviceEnded(const DeviceResult& result);
    void onHostFinished(const HostReport& host);
    void updateButtons();
    void showChart(std::unique_ptr<QChart> chart);
    QString chartTitle() const;

    PlanController* m_controller;
    bool m_running = false;  // the plan on the controller's thread is this tab's
    HostReport m_host;  // shown; while running, the devices that ended so far
    std::size_t m_planned = 0;
    bool m_canRun = false;

    QComboBox* m_mode;
    QCheckBox* m_bind;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_exportChart;
    QPushButton* m_exportCsv;
    QLabel* m_summary;
    QChartView* m_chartView;
    SideBySideModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
};

}  // namespace asyncscope
