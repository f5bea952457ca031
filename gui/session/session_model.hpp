// The window's state, apart from its widgets: the devices, the plan running and what it delivered, the last
// comparison, the overlaid saved run, the saved runs being read, and a throttle so views redraw at most ten times a
// second whatever the run rate. Views read from it and listen to its signals; none of them talks to another.
#pragma once

#include "gui/session/metatypes.hpp"
#include "gui/series/saved_run.hpp"

#include "engine/model/series_summary.hpp"
#include "engine/run/backend.hpp"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <deque>
#include <memory>
#include <optional>
#include <thread>

namespace asyncscope {

class ReportLoader;
class RunController;

class SessionModel : public QObject {
    Q_OBJECT
public:
    explicit SessionModel(std::shared_ptr<Backend> backend, QObject* parent = nullptr);
    ~SessionModel() override;

    void discover();
    // Starts a plan on the run thread. Refused, with the reason, while one runs, before devices are known, or when a
    // variant is invalid.
    Status start(const Plan& plan);
    void cancel();
    // Cancels and waits (bounded) for the run thread: closing the window calls it.
    void shutdown();

    bool isRunning() const;
    bool devicesKnown() const { return m_devicesKnown; }
    const Platform& platform() const { return m_platform; }
    // The variant running now, or the last one that ran, or a saved run opened in its place.
    const Report& report() const { return m_report; }
    // Where report() comes from when it was not measured here: the saved run's label; empty otherwise.
    const QString& source() const { return m_source; }
    // What the views make of report()'s runs where it was made off the GUI thread (a saved series, as it was read);
    // empty while a series is measured: the views make it as its runs arrive.
    const PreparedViews& prepared() const { return m_prepared; }
    const SeriesSummary* shownSummary() const { return m_prepared.summary ? &*m_prepared.summary : nullptr; }
    // The last plan of several variants, once it ended.
    const std::optional<PlanReport>& lastComparison() const { return m_lastComparison; }
    const std::vector<SavedRun>& overlays() const { return m_overlays; }
    // Runs the plan's current variant will have (0 when the noise rule decides), and how fast they arrive.
    int expectedRuns() const;
    double runsPerSecond() const;

    // Reads a saved run (JSON or CSV by suffix) on a thread of its own and then shows it in place of the current
    // report; refused while a plan runs. Files are read one at a time, in the order asked for: savedLoaded or
    // loadFailed says how each went. A file that cannot be read changes nothing.
    Status openSaved(const QString& path);
    // Reads a saved run the same way and then adds it to the overlays.
    Status addOverlay(const QString& path);
    void clearOverlays();
    // A file asked for is being read or waits its turn.
    bool isLoading() const { return !m_loads.empty(); }
    // Stops the read in progress (loadFailed, ErrorKind::Cancelled) and forgets the files waiting their turn.
    void cancelLoad();

signals:
    void devicesAvailable(const asyncscope::Platform& platform);
    void discoveryFailed(const asyncscope::Error& error);
    void variantStarted(int index, int count, const QString& label);
    void reportChanged();  // runs arrived or the calibration came: throttled
    void calibrationFailed(const asyncscope::Error& error);
    void planFinished(const asyncscope::PlanReport& report);  // done, failed, cancelled, or nothing could run
    void overlayChanged();
    void loadStarted(const QString& path);
    void loadProgress(double fraction);  // of the file being read
    // The file was read and is shown (reportChanged) or overlaid (overlayChanged); or it was not, and why.
    void savedLoaded(const QString& path, bool overlay);
    void loadFailed(const QString& path, bool overlay, const asyncscope::Error& error);

private:
    void scheduleRefresh();
    void loadNext();
    void onLoaded();
    // Empties `report`; a big one is freed on a thread of its own (a million runs take a fifth of a second).
    void retire(Report& report);

    struct Load {
        QString path;
        bool overlay = false;
    };

    RunController* m_controller;
    ReportLoader* m_loader;
    std::deque<Load> m_loads;  // the first is being read
    Platform m_platform;
    bool m_devicesKnown = false;
    Report m_report;
    Report m_lastRan;  // the plan's last variant that ran, or the empty report it started with
    QString m_source;
    PreparedViews m_prepared;
    std::thread m_retiring;  // freeing a replaced series; joined before the next and on destruction
    std::size_t m_planned = 0;
    std::optional<PlanReport> m_lastComparison;
    std::vector<SavedRun> m_overlays;
    QTimer m_refresh;
    QElapsedTimer m_clock;
};

}  // namespace asyncscope
