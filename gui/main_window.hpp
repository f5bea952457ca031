// The AsyncScope window: pick a GPU, set the pipeline, run it on the run thread, watch and export the charts.
#pragma once

#include "gui/app_options.hpp"
#include "gui/chart_exporter.hpp"
#include "gui/run_charts.hpp"
#include "gui/settings_store.hpp"

#include "engine/backend.hpp"
#include "engine/comparison.hpp"
#include "engine/report.hpp"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QTimer>

#include <map>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QAction;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace asyncscope {

class ChartView;
class ComparisonView;
class RunController;
class SummaryTable;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(std::shared_ptr<Backend> backend, AppOptions options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // For tests and headless use.
    const Report& report() const { return m_report; }
    const RunCharts& charts() const { return *m_charts; }
    const ComparisonReport& lastComparison() const { return m_lastComparison; }
    bool runEnabled() const;
    QString statusText() const;
    QString deviceMessage() const;
    bool exportChartTo(const QString& path, QSize pixels);
    bool exportDataTo(const QString& path);
    // Overlays a saved run (JSON or CSV, by suffix) on the time chart; a file that cannot be read is shown and
    // leaves the current overlay as it is.
    bool loadOverlay(const QString& path);
    bool exportComparisonTo(const QString& path);

public slots:
    void startRun();
    void startComparison(asyncscope::Comparison comparison, std::size_t sweepMinBytes = kSweepMinBytes,
        std::size_t sweepMaxBytes = kSweepMaxBytes);
    void cancelRun();

signals:
    void headlessFinished(int exitCode);
    void seriesEnded();      // finished, failed or cancelled
    void comparisonEnded();  // every variant ran, or one failed

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildUi();
    void buildMenus();
    void applySettings(const GuiSettings& settings);
    GuiSettings currentSettings() const;
    PipelineConfig configFromControls() const;
    void updateSizeLimit();
    void showSize(std::size_t elements, SizeUnit preferred);
    void setRunning(bool running);
    bool startSeries(const PipelineConfig& config);
    void startNextVariant();
    void finishComparison();
    void onCopyPeakAvailable(const DeviceInfo& device, const CopyPeak& peak);
    void refreshCharts();
    void showProblem(const QString& text);  // nothing when `text` is empty
    QString applyOverlay(const QString& path);  // the problem, or empty when the overlay is shown
    bool reportExport(const QString& path, const QString& problem);  // status line on success, message otherwise
    void finishHeadless(int exitCode, const QString& message);

    void onDevicesAvailable(const Platform& platform);
    void onDiscoveryFailed(const Error& error);
    void onRunAvailable(const RunResult& result);
    void onSeriesFinished(const SeriesOutcome& outcome);
    void onSeriesFailed(const Error& error);

    void exportChartInteractive(const QString& format);
    void exportDataInteractive(const QString& format);
    void openOverlayInteractive();
    void resetSettings();
    void showAbout();

    AppOptions m_options;
    RunController* m_controller = nullptr;
    std::unique_ptr<RunCharts> m_charts;
    Platform m_platform;
    bool m_devicesKnown = false;
    Report m_report;
    std::map<std::string, CopyPeak> m_peaks;  // by device UUID, measured once per device
    struct ComparisonRun {
        std::vector<Variant> variants;
        std::size_t next = 0;
        ComparisonReport result;
    };
    std::optional<ComparisonRun> m_comparisonRun;
    ComparisonReport m_lastComparison;
    Overlay m_overlay;
    QString m_startupProblem;  // from the command line's --overlay; ends a headless run with exit code 2
    GuiSettings m_settings;
    QTimer m_refreshTimer;
    QElapsedTimer m_runClock;
    int m_expectedRuns = 0;

    QComboBox* m_device = nullptr;
    QLabel* m_deviceMessage = nullptr;
    QSpinBox* m_size = nullptr;
    QComboBox* m_sizeUnit = nullptr;
    QSpinBox* m_value = nullptr;
    QSpinBox* m_runs = nullptr;
    QSpinBox* m_warmup = nullptr;
    QComboBox* m_hostMemory = nullptr;
    QComboBox* m_wait = nullptr;
    QComboBox* m_check = nullptr;
    QCheckBox* m_stages = nullptr;
    QComboBox* m_stopRule = nullptr;
    QDoubleSpinBox* m_noiseTarget = nullptr;
    ComparisonView* m_comparisonView = nullptr;
    QList<QAction*> m_comparisonActions;  // enabled when a GPU is there and nothing runs
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QTabWidget* m_tabs = nullptr;
    ChartView* m_views[RunCharts::kKindCount] = {};
    SummaryTable* m_summary = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
};

}  // namespace asyncscope
