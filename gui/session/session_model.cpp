#include "gui/session/session_model.hpp"

#include "gui/session/advice_scheduler.hpp"
#include "gui/session/baseline_subject.hpp"
#include "gui/session/plan_controller.hpp"

#include "engine/io/input_file.hpp"  // shownPath

#include <QFileInfo>

#include <algorithm>
#include <limits>

namespace asyncscope {

namespace {

constexpr int kRefreshIntervalMs = 100;  // views redraw at most ten times a second at an ordinary run rate,
// and sooner once this many runs wait for them: a view's work grows with the runs it reads, and a run thread at full
// speed would otherwise hand it a tenth of a second's runs, tens of thousands, at a time
constexpr std::size_t kRefreshRuns = 16384;

// Whether two paths name one file, whatever the names (links, "..", another spelling); never two that do not exist.
bool sameFile(const QString& a, const QString& b)
{
    const QString canonical = QFileInfo(a).canonicalFilePath();
    return !canonical.isEmpty() && canonical == QFileInfo(b).canonicalFilePath();
}

}  // namespace

SessionModel::SessionModel(std::shared_ptr<Backend> backend, QObject* parent)
    : QObject(parent)
    , m_controller(new PlanController(std::move(backend), this))
    , m_loads(new LoadQueue([this](const LoadQueue::Load& load, Result<SavedRun> saved) {
        onLoaded(load, std::move(saved));
    }, this))
    , m_advice(new AdviceScheduler(this))
    , m_baselines(new BaselineController(
          [this] { return baselineSubject(*this, showsSaved() ? m_saved.path : QString()); }, this))
    , m_source(new ShownSource(this))
{
    connect(m_advice, &AdviceScheduler::changed, this, &SessionModel::adviceChanged);
    connect(m_loads, &LoadQueue::started, this, &SessionModel::loadStarted);
    connect(m_loads, &LoadQueue::progress, this, &SessionModel::loadProgress);
    m_refresh.setSingleShot(true);
    connect(&m_refresh, &QTimer::timeout, this, [this] {
        m_unseen = 0;
        emit reportChanged();
        judgeMeasuredAtMostOnceASecond();
    });

    connect(m_controller, &PlanController::devicesAvailable, this, [this](const Platform& platform) {
        m_platform = platform;
        m_devicesKnown = true;
        emit devicesAvailable(platform);
    });
    connect(m_controller, &PlanController::discoveryFailed, this, [this](const Error& error) {
        m_devicesKnown = false;
        emit discoveryFailed(error);
    });
    // What the plan brings changes the series: each in its turn, after a judgement reading the series.
    connect(m_controller, &PlanController::deviceStarting, this, [this](const DeviceInfo&, const CpuBinding& b) {
        m_advice->inTurn([this, b] {
            if (m_ownsPlan)
                m_record.bind(b);
        });
    });
    connect(m_controller, &PlanController::variantStarting, this, [this](int, int index, const VariantResult& v) {
        m_advice->inTurn([this, index, v] { onVariantStarting(index, v); });
    });
    connect(m_controller, &PlanController::runsAvailable, this, [this](int, int index, const RunBatch& runs) {
        m_advice->inTurn([this, index, runs] { onRuns(index, runs); });
    });
    connect(m_controller, &PlanController::variantEnded, this, [this](int, int index, const VariantResult& v) {
        m_advice->inTurn([this, index, v] { onVariantEnded(index, v); });
    });
    connect(m_controller, &PlanController::calibrationFailed, this, [this](const Error& error) {
        m_advice->inTurn([this, error] {
            if (m_ownsPlan)
                emit calibrationFailed(error);
        });
    });
    connect(m_controller, &PlanController::hostFinished, this, [this](const HostReport& host) {
        if (m_ownsPlan)  // else the All GPUs run's, whose record holds every device's runs: its panel takes it
            m_advice->inTurn([this, host] { onHostFinished(host); });
    });
}

SessionModel::~SessionModel()
{
    // The judgements under way read series this object holds; what they make of them is of no use now.
    m_advice->stop();
    m_baselines->stop();
    if (m_writing.joinable())
        m_writing.join();  // it reads the series this object holds
}

void SessionModel::discover()
{
    m_controller->discover();
}

Status SessionModel::start(const Plan& plan, bool bindToLocalCpus)
{
    if (m_controller->isRunning())
        return makeError(ErrorKind::Usage, "a run is still in progress", "Wait for it or cancel it.");
    if (isWriting())
        return makeError(ErrorKind::Usage, "the series is being written to a file", "Run again when it is saved.");
    if (!m_devicesKnown)
        return makeError(ErrorKind::NoDevice, "no CUDA device is known yet");
    if (plan.variants.empty())
        return makeError(ErrorKind::Usage, "the plan has nothing to run");
    for (const Variant& v : plan.variants) {
        if (auto invalid = validate(v.config))
            return invalid;
        if (auto device = findDevice(m_platform, v.config.device); !device)
            return device.error();
    }
    DevicePlan devices;
    devices.devices = { plan.variants.front().config.device };
    devices.mode = DeviceMode::OneAtATime;
    devices.bindToLocalCpus = bindToLocalCpus;
    devices.plan = plan;
    settleAdvice();  // before the series it reads goes
    m_baselines->settle();
    const bool showedBaseline = showsBaseline();
    if (!m_controller->start(devices, m_platform, PlanController::Delivery::Batches))
        return makeError(ErrorKind::Usage, "the run thread is not available");
    m_ownsPlan = true;
    m_shown = {};
    m_retired.retire(m_record.report());
    m_record.begin(plan);
    m_retired.retire(m_saved);  // its label, file and prepared views with it
    m_saved.report.config = plan.variants.front().config;
    m_saved.report.device = *findDevice(m_platform, m_saved.report.config.device);
    m_summary = {};
    m_previousShown = {};
    m_unseen = 0;
    m_source->clear();
    m_clock.start();
    m_advice->forget();
    compareShownWithBaseline();  // compared once the series ends
    const bool renamed = nameShown();  // the overlays no longer told apart from a saved series shown
    emit reportChanged();
    if (renamed || showedBaseline)  // the baseline drawn again
        emit overlayChanged();
    return std::nullopt;
}

bool SessionModel::showsVariant(int index) const
{
    return m_shown.in == Shown::In::Plan && m_shown.variant == std::size_t(index);
}

void SessionModel::onVariantStarting(int index, const VariantResult& v)
{
    if (!m_ownsPlan)
        return;
    m_record.starting(index, v);
    m_previousShown = m_shown;
    m_previousSummary = std::move(m_summary);
    m_shown = { Shown::In::Plan, std::size_t(index) };
    m_summary = {};
    m_clock.start();
    m_advice->forget();
    emit variantStarted(index, int(m_record.report().planned), QString::fromStdString(v.label));
    emit reportChanged();
}

void SessionModel::onRuns(int index, const RunBatch& runs)
{
    if (!m_ownsPlan || !runs)
        return;
    ++m_batches;
    m_unseen += runs->runs.size();
    m_record.append(index, runs->runs);
    if (showsVariant(index))
        m_summary = std::move(runs->summary);
    if (m_unseen >= kRefreshRuns)
        m_refresh.start(0);  // as soon as the runs waiting in the event queue allow
    else
        scheduleRefresh();
}

void SessionModel::onVariantEnded(int index, const VariantResult& v)
{
    if (!m_ownsPlan)
        return;
    m_record.ended(index, v);
    if (!v.ran() && showsVariant(index)) {  // the views go back to the last variant that ran
        m_shown = m_previousShown;
        m_summary = std::move(m_previousSummary);
        m_advice->forget();
    }
    scheduleRefresh();
}

void SessionModel::onHostFinished(const HostReport& host)
{
    if (!m_ownsPlan)
        return;
    m_ownsPlan = false;
    PlanReport plan = m_record.finish(host);
    const std::size_t recorded = m_record.report().variants.size();
    const std::size_t shown = m_shown.in == Shown::In::Plan && m_shown.variant < std::min(plan.variants.size(), recorded)
        ? m_shown.variant
        : recorded;
    const bool single = !plan.comparison && shown == 0;
    m_verdict = judgePlan(plan, { runsIn(plan), m_record.wrongRuns(), single ? &m_summary : nullptr });

    Shown::In in = Shown::In::Plan;
    if (plan.comparison) {
        m_retired.retire(m_lastComparison);
        m_retired.retire(m_openedComparison);
        m_lastComparison = std::move(plan);
        m_record.report() = PlanReport {};
        in = Shown::In::Comparison;
    } else {
        m_record.report() = std::move(plan);
    }
    const PlanReport& ended = in == Shown::In::Plan ? m_record.report() : *m_lastComparison;
    m_shown = shown < ended.variants.size() ? Shown { in, shown } : Shown {};
    m_refresh.stop();
    // Judged once more as it ended, with the machine's state read around it: a comparison's variants beside each
    // other, a series on its own.
    m_advice->forget();
    if (in == Shown::In::Comparison)
        m_advice->judge([comparison = &ended] { return judgeShownComparison(*comparison); });
    else if (!showsSaved())
        judgeShown(false);
    compareShownWithBaseline();
    emit reportChanged();
    emit planFinished(ended);
}

void SessionModel::cancel()
{
    m_controller->cancel();
}

void SessionModel::shutdown()
{
    cancelLoad();
    m_controller->shutdown();
}

const Report& SessionModel::reportAt(Shown shown) const
{
    const std::vector<VariantResult>* variants = nullptr;
    if (shown.in == Shown::In::Plan)
        variants = &m_record.report().variants;
    else if (shown.in == Shown::In::Comparison && m_lastComparison)
        variants = &m_lastComparison->variants;
    return variants && shown.variant < variants->size() ? (*variants)[shown.variant].report : m_saved.report;
}

const SeriesSummary& SessionModel::summary() const
{
    if (m_saved.prepared.summary)
        return *m_saved.prepared.summary;
    return m_summary;
}

bool SessionModel::showsBaseline() const
{
    return baseline() && showsSaved() && sameFile(m_saved.path, baseline()->path);
}

DrawnOverlays SessionModel::drawnOverlays() const
{
    const SavedRun* hidden = showsBaseline() ? baseline() : nullptr;
    DrawnOverlays drawn;
    for (const SavedRun& overlay : overlays()) {
        if (&overlay != hidden)
            drawn.push_back(&overlay);
    }
    return drawn;
}

Assessment SessionModel::assessment()
{
    settleAdvice();
    const ShownAdvice& shown = advice();
    const Report& series = report();
    if (!shown.comparison && !shown.measuring && shown.runs == series.runs.size() && shown.parts.size() == 1)
        return { summary(), shown.parts.front().advice };
    return { summary(), judgeSeries(series, summary()) };
}

int SessionModel::expectedRuns() const
{
    const PipelineConfig& c = report().config;
    if (c.stopRule != StopRule::Fixed)
        return 0;
    const long long planned = static_cast<long long>(c.warmupRuns) + c.runs;  // a saved run's config may say anything
    return int(std::clamp(planned, 0LL, static_cast<long long>(std::numeric_limits<int>::max())));
}

double SessionModel::runsPerSecond() const
{
    if (!m_clock.isValid() || report().runs.empty())
        return 0.0;
    return double(report().runs.size()) / std::max(1e-3, double(m_clock.elapsed()) / 1000.0);
}

Status SessionModel::openSaved(const QString& path)
{
    if (isRunning())
        return makeError(ErrorKind::Usage, "a run is in progress", "Open the saved run when it has ended.");
    if (isWriting())
        return makeError(ErrorKind::Usage, "the series shown is being written to a file", "Open it when it is saved.");
    return m_loads->push({ path, false });
}

Status SessionModel::addOverlay(const QString& path)
{
    return m_loads->push({ path, true });
}

Status SessionModel::setBaseline(const QString& path)
{
    const Status refused = m_loads->push({ path, true, true });
    return refused ? baselineProblem(path, *refused, false) : refused;
}

void SessionModel::onLoaded(const LoadQueue::Load& load, Result<SavedRun> saved)
{
    if (saved && !load.overlay && isRunning())
        saved = makeError(ErrorKind::Usage, "a run started while it was read", "Open the saved run when it has ended.");
    if (!saved) {
        const Error& error = saved.error();
        const bool cancelled = error.kind == ErrorKind::Cancelled;
        return emit loadFailed(
            load.path, load.overlay, load.baseline && !cancelled ? baselineProblem(load.path, error) : error);
    }
    if (saved->comparison) {
        // Its variants side by side, in the Comparison tab: not one series to draw over another.
        if (load.overlay)
            return emit loadFailed(load.path, true,
                makeError(ErrorKind::Usage,
                    shownPath(load.path.toStdString()) +
                        " is a comparison of several variants: it opens in the Comparison tab, not over a series",
                    "Open it (File › Open saved run…)."));
        m_retired.retire(m_openedComparison);
        m_openedComparison = std::move(saved->comparison);
        return emit comparisonOpened(load.path);
    }
    if (!saved->prepared.summary)
        saved->prepared.summary = summarizeSeries(saved->report);
    if (load.baseline) {
        if (Status few = checkBaselineRuns(load.path, saved->report))
            return emit loadFailed(load.path, true, *few);
        takeBaseline(std::move(*saved));
    } else if (load.overlay) {
        // The series shown again beside itself would draw one line on another and fill two identical columns; the
        // baseline is drawn already, under its own name.
        if (showsSaved() && sameFile(load.path, m_saved.path))
            return emit loadFailed(load.path, true,
                makeError(ErrorKind::Usage,
                    shownPath(load.path.toStdString()) + " is the series shown: it is not overlaid on itself",
                    "Overlay another file."));
        if (baseline() && sameFile(load.path, baseline()->path))
            return emit loadFailed(load.path, true,
                makeError(ErrorKind::Usage,
                    shownPath(load.path.toStdString()) + " is the baseline: it is drawn already, as the baseline",
                    "Overlay another file."));
        overlaySaved(std::move(*saved));
    } else {
        showSaved(std::move(*saved));
    }
    emit savedLoaded(load.path, load.overlay);
}

void SessionModel::overlaySaved(SavedRun saved)
{
    m_baselines->settle();  // the comparison under way reads the baseline among the overlays, which may move
    m_overlays.add(std::move(saved));
    nameShown();
    emit overlayChanged();
}

void SessionModel::showSaved(SavedRun saved)
{
    settleAdvice();  // nothing reads the series about to go
    m_baselines->settle();
    const bool showedBaseline = showsBaseline();
    m_shown = {};
    m_retired.retire(m_saved);
    m_retired.retire(m_record.report());  // the series shown before; the last comparison stays
    m_saved = std::move(saved);
    m_source->showFile(m_saved);
    // An overlay of the file now shown would stand beside itself: it goes.
    m_droppedByOpen = m_overlays.dropFile(m_saved.path);
    const bool renamed = nameShown() || !m_droppedByOpen.isEmpty();
    const bool baselineDrawn = showedBaseline != showsBaseline();  // drawn once, as the series, or again
    m_advice->forget();
    if (m_saved.prepared.advice)
        m_advice->show(*m_saved.prepared.advice);  // judged as the file was read
    else
        judgeShown(false);
    compareShownWithBaseline();
    emit reportChanged();
    if (renamed || baselineDrawn)
        emit overlayChanged();
}

Status SessionModel::writeInBackground(const QString& path, Writer write)
{
    if (isRunning())
        return makeError(ErrorKind::Usage, "the series is still being measured", "Save it when it has ended.");
    if (isWriting())
        return makeError(ErrorKind::Usage, "another file is being written", "Save this one when it is done.");
    if (m_loads->opensSeries())
        return makeError(ErrorKind::Usage, "a saved run is being opened", "Save when it is shown.");
    // The series stays where it is while it is written: plans and opens are refused until then.
    m_writing = std::thread([this, path, write = std::move(write), series = &report()] {
        const QString failure = write(*series, path);
        // Queued to the GUI thread: the thread is joined there, then the write is told.
        QMetaObject::invokeMethod(this, [this, path, failure] {
            m_writing.join();
            emit writeEnded(path, failure);
        }, Qt::QueuedConnection);
    });
    return std::nullopt;
}

void SessionModel::clearOverlays()
{
    m_baselines->settle();
    if (m_overlays.clear())
        compareShownWithBaseline();
    nameShown();
    emit overlayChanged();
}

void SessionModel::takeBaseline(SavedRun saved)
{
    m_baselines->settle();  // the comparison under way reads the baseline about to go
    // An overlay of the same file would draw it twice under two names: it is the baseline now.
    m_droppedByBaseline = m_overlays.dropFile(saved.path);
    m_overlays.setBaseline(std::move(saved));
    nameShown();  // "baseline · NAME"
    m_baselines->renew();
    emit overlayChanged();
    compareShownWithBaseline();
}

void SessionModel::clearBaseline()
{
    if (!baseline())
        return;
    m_baselines->settle();
    m_overlays.clearBaseline();
    nameShown();
    compareShownWithBaseline();
    emit overlayChanged();
}

bool SessionModel::nameShown()
{
    if (!showsSaved() || m_saved.path.isEmpty())
        return m_overlays.name(nullptr, nullptr);
    const ShownLabel saved { m_saved.label, m_saved.path, &m_saved.report };
    QString name;
    const bool renamed = m_overlays.name(&saved, &name);
    m_source->setLabel(tr("saved: %1").arg(name));
    return renamed;
}

void SessionModel::judgeShown(bool measuring)
{
    const QString subject = m_source->label().isEmpty() ? tr("this series") : m_source->label();
    AdviceJudge::Work work = [series = &report(), summary = summary(), subject, measuring] {
        return judgeShownSeries(*series, summary, subject, measuring);
    };
    if (measuring)
        m_advice->judgeWhileMeasuring(std::move(work));
    else
        m_advice->judge(std::move(work));
}

void SessionModel::judgeMeasuredAtMostOnceASecond()
{
    if (m_ownsPlan && !showsSaved() && summary().measuredRuns > 0 && m_advice->dueWhileMeasuring())
        judgeShown(true);
}

void SessionModel::scheduleRefresh()
{
    if (!m_refresh.isActive())
        m_refresh.start(kRefreshIntervalMs);
}

}  // namespace asyncscope
