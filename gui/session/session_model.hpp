// The window's state, apart from its widgets: the devices, the plan running and what it delivered, the last
// comparison, the overlaid saved runs, and a throttle so views redraw ten times a second (more often only where runs
// pile up faster than that). Views read from it and listen to its signals; none of them talks to another.
// A measured series lives here once: its runs come from the run thread in batches and are moved into the plan's
// record, whose variants the runner leaves empty; its summary grows as they come (SeriesSummarizer). The series
// shown is named by where it is (the saved run, or a variant of the plan or of the last comparison, by index), never
// by a pointer into a record that grows.
// Its parts, each in a file of its own: the plan's record as its runs arrive (PlanRecord); the saved runs being read,
// one at a time (LoadQueue); the overlays, the baseline among them by its index, and their names (OverlayList); the
// advice on the series shown and when it is judged, off the GUI thread, with the plan's news held while a judgement
// reads the series (AdviceScheduler); the comparison with the baseline and its consent across configurations
// (BaselineController); a replaced series freed off the GUI thread (Retirer); where the series shown comes from, a
// recorded program's among them (ShownSource).
#pragma once

#include "gui/session/advice_scheduler.hpp"
#include "gui/session/baseline_controller.hpp"
#include "gui/session/load_queue.hpp"
#include "gui/session/metatypes.hpp"
#include "gui/session/overlay_list.hpp"
#include "gui/session/plan_record.hpp"
#include "gui/session/plan_verdict.hpp"
#include "gui/session/retirer.hpp"
#include "gui/session/shown_source.hpp"
#include "gui/series/saved_run.hpp"
#include "gui/series/shown_advice.hpp"

#include "engine/model/baseline.hpp"
#include "engine/model/series_summary.hpp"
#include "engine/run/backend.hpp"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>
#include <thread>

namespace asyncscope {

class PlanController;

class SessionModel : public QObject {
    Q_OBJECT
public:
    explicit SessionModel(std::shared_ptr<Backend> backend, QObject* parent = nullptr);
    ~SessionModel() override;

    void discover();
    // Starts a plan on the run thread, through the device-plan runner, its thread bound to the GPU's local CPUs
    // where `bindToLocalCpus`. Refused, with the reason, while one runs (this or the All GPUs run), before devices
    // are known, or when a variant is invalid.
    Status start(const Plan& plan, bool bindToLocalCpus = true);
    void cancel();
    // Cancels and waits (bounded) for the run thread: closing the window calls it.
    void shutdown();

    // This session's plan runs (the All GPUs run, on the same thread, is not one).
    bool isRunning() const { return m_ownsPlan; }
    // The one run thread: this session's plans and the All GPUs run take turns on it.
    PlanController* controller() const { return m_controller; }
    bool devicesKnown() const { return m_devicesKnown; }
    const Platform& platform() const { return m_platform; }
    // The variant running now, or the last one that ran, or a saved run opened in its place.
    const Report& report() const { return reportAt(m_shown); }
    // Where report() comes from: its file, the name views title it with, its format, the program recorded.
    const ShownSource& source() const { return *m_source; }
    // What the views make of report()'s runs where it was made off the GUI thread (a saved series, as it was read);
    // empty while a series is measured: the views make it as its runs arrive.
    const PreparedViews& prepared() const { return m_saved.prepared; }
    const SeriesSummary* shownSummary() const { return prepared().summary ? &*prepared().summary : nullptr; }
    // The summary of report(): the saved series' (shownSummary()), or the measured one's, grown on the run thread
    // as its runs are made and brought with each batch.
    const SeriesSummary& summary() const;
    // The advice on report(), or on the last comparison once it ended: empty until there are measured runs to judge;
    // adviceChanged() says when it changes. While a series runs, the advice is at most a second behind it.
    const ShownAdvice& advice() const { return m_advice->advice(); }
    // Waits for the judgement under way, so that advice() is of the series as it is now shown (the headless driver
    // prints it as the plan ends).
    void settleAdvice() { m_advice->settle(); }
    // report()'s summary and the advice on it, as the window shows them (the advice settled first), for the writers:
    // judged here only where the advice shown is not of report() as it is (a comparison's variant judged beside the
    // others, a series still measured).
    Assessment assessment();
    // How the last plan of this session ended, judged once when it ended.
    const PlanVerdict& verdict() const { return m_verdict; }
    // Batches of runs received from the run thread since the session began.
    std::size_t batchesReceived() const { return m_batches; }
    // The last plan of several variants, once it ended, or the comparison opened from a file since.
    const std::optional<PlanReport>& lastComparison() const
    {
        return m_openedComparison ? m_openedComparison : m_lastComparison;
    }
    const std::vector<SavedRun>& overlays() const { return m_overlays.items(); }
    // The overlays the charts draw: every one, but the baseline while the series shown is its file (showsBaseline):
    // that series is drawn once, as itself. overlayChanged() says when this changes.
    DrawnOverlays drawnOverlays() const;
    // The overlays that the saved run opened last was one of (its file): gone, as the series is now shown.
    const QStringList& overlaysDroppedByOpen() const { return m_droppedByOpen; }
    // The overlays of the file the last baseline was read from, no longer overlaid: it is drawn as the baseline.
    const QStringList& overlaysDroppedByBaseline() const { return m_droppedByBaseline; }
    // Whether the saved series shown was read from the baseline's file: compared with itself.
    bool showsBaseline() const;
    // Runs the plan's current variant will have (0 when the noise rule decides), and how fast they arrive.
    int expectedRuns() const;
    double runsPerSecond() const;

    // Reads a saved run (JSON or CSV by suffix) on a thread of its own and then shows it in place of the current
    // report, or, a comparison, as the last comparison (comparisonOpened); refused while a plan runs, and at once for
    // a path that is not a regular file this process may read (checkReadableFile: a directory, a FIFO, a device, a
    // missing file). Files are read one at a time, in the order asked for: savedLoaded, comparisonOpened or
    // loadFailed says how each went. A file that cannot be read changes nothing.
    Status openSaved(const QString& path);
    // Reads a saved run the same way and then adds it to the overlays.
    Status addOverlay(const QString& path);
    void clearOverlays();
    // A file asked for is being read or waits its turn.
    bool isLoading() const { return m_loads->isLoading(); }

    // The baseline: a saved series that the series shown is compared with, quantity by quantity. Read as an overlay
    // is (and refused at once as one is), it replaces the baseline before it and is drawn among the overlays,
    // labelled "baseline · NAME". A file with no measured runs, or that is not one series, is refused (loadFailed).
    Status setBaseline(const QString& path);
    // Takes the baseline off the overlays and forgets its comparison.
    void clearBaseline();
    const SavedRun* baseline() const { return m_overlays.baseline(); }
    // The comparison of the series shown with the baseline: its state, the comparison once made, how the two
    // configurations differ, and the answer to a comparison across configurations (allow(), decline()); views bind to
    // it and to its signals (changed(), consentNeeded()).
    const BaselineController& baselines() const { return *m_baselines; }
    BaselineController& baselines() { return *m_baselines; }
    // Stops the read in progress (loadFailed, ErrorKind::Cancelled) and forgets the files waiting their turn.
    void cancelLoad() { m_loads->cancel(); }

    // Writes the series shown to `path` with `write` on a thread of its own, the window usable meanwhile; writeEnded
    // says how it went. The series stays as it is until then: plans and opens are refused while it is written.
    // Refused while a plan measures the series, a file is being read, or another write is under way.
    using Writer = std::function<QString(const Report& report, const QString& path)>;  // empty, or what went wrong
    Status writeInBackground(const QString& path, Writer write);
    bool isWriting() const { return m_writing.joinable(); }

signals:
    void devicesAvailable(const asyncscope::Platform& platform);
    void discoveryFailed(const asyncscope::Error& error);
    void variantStarted(int index, int count, const QString& label);
    void reportChanged();  // runs arrived or the calibration came: throttled
    void adviceChanged();
    void calibrationFailed(const asyncscope::Error& error);
    void planFinished(const asyncscope::PlanReport& report);  // done, failed, cancelled, or nothing could run
    void overlayChanged();
    void loadStarted(const QString& path);
    void loadProgress(double fraction);  // of the file being read
    // The file was read and is shown (reportChanged) or overlaid (overlayChanged); or it was not, and why.
    void savedLoaded(const QString& path, bool overlay);
    // The file opened was a comparison: it is lastComparison() now (the series shown stays).
    void comparisonOpened(const QString& path);
    void loadFailed(const QString& path, bool overlay, const asyncscope::Error& error);
    // A write asked for by writeInBackground() ended: `failure` is empty, or says what went wrong.
    void writeEnded(const QString& path, const QString& failure);

private:
    // Where the series shown is: the saved run (or the empty report a plan starts with), or a variant of the plan
    // or of the last comparison, by its index (the plan's variants are appended as it runs).
    struct Shown {
        enum class In { Saved, Plan, Comparison } in = In::Saved;
        std::size_t variant = 0;
    };
    const Report& reportAt(Shown shown) const;
    bool showsSaved() const { return m_shown.in == Shown::In::Saved; }
    bool showsVariant(int index) const;  // of the plan running
    void scheduleRefresh();
    // Judges the series shown (its summary as it is now) off the GUI thread; `measuring`: it is still being measured.
    void judgeShown(bool measuring);
    void judgeMeasuredAtMostOnceASecond();
    void onLoaded(const LoadQueue::Load& load, Result<SavedRun> saved);
    void showSaved(SavedRun saved);   // a saved series read, in place of the series shown
    void overlaySaved(SavedRun saved);  // a saved series read, added to the overlays
    // Names the saved series shown and the overlays so that each tells itself from the others (distinctLabels);
    // true when an overlay's name changed.
    bool nameShown();
    // The baseline's file was read and checked: it takes the place of the one before it.
    void takeBaseline(SavedRun saved);
    void compareShownWithBaseline() { m_baselines->compare(); }
    void onVariantStarting(int index, const VariantResult& variant);
    void onRuns(int index, const RunBatch& runs);
    void onVariantEnded(int index, const VariantResult& variant);
    void onHostFinished(const HostReport& host);

    PlanController* m_controller;
    LoadQueue* m_loads;
    AdviceScheduler* m_advice;
    BaselineController* m_baselines;
    ShownSource* m_source;
    Platform m_platform;
    bool m_devicesKnown = false;
    bool m_ownsPlan = false;  // the plan on the run thread is this session's
    PlanRecord m_record;      // the plan running, or the last one that was not a comparison
    // A saved run opened (its report, label, file, format and what was made of it as it was read), or the empty
    // report a plan starts with.
    SavedRun m_saved;
    Shown m_shown;
    SeriesSummary m_summary;  // of the plan's series shown, as the last batch brought it
    // The series shown before the variant running now, and its summary: shown again when that variant cannot run.
    Shown m_previousShown;
    SeriesSummary m_previousSummary;
    std::size_t m_batches = 0;
    std::size_t m_unseen = 0;  // runs come since the views last heard of them
    PlanVerdict m_verdict;
    std::thread m_writing;  // writing the series shown; joined when it ends and on destruction
    Retirer m_retired;  // frees a replaced series
    std::optional<PlanReport> m_lastComparison;    // measured here; a variant of it may be the series shown
    std::optional<PlanReport> m_openedComparison;  // read from a file since, until another comparison ends
    OverlayList m_overlays;
    QStringList m_droppedByOpen;
    QStringList m_droppedByBaseline;
    QTimer m_refresh;
    QElapsedTimer m_clock;
};

}  // namespace asyncscope
