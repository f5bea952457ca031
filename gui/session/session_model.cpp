#include "gui/session/session_model.hpp"

#include "gui/session/advice_judge.hpp"
#include "gui/session/baseline_judge.hpp"
#include "gui/session/plan_controller.hpp"
#include "gui/session/report_loader.hpp"

#include "engine/io/input_file.hpp"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <limits>

namespace asyncscope {

namespace {

constexpr int kRefreshIntervalMs = 100;  // views redraw at most ten times a second at an ordinary run rate,
// and sooner once this many runs wait for them: a view's work grows with the runs it reads, and a run thread at full
// speed would otherwise hand it a tenth of a second's runs, tens of thousands, at a time
constexpr std::size_t kRefreshRuns = 16384;
constexpr std::size_t kFreeOffThreadRuns = 10000;  // a series this long is freed off the GUI thread
// A series being measured is judged again at most this often, and less often once a judgement takes more than a
// tenth of it (a million runs: 20-75 ms on a 2-core machine), so the judging thread takes at most a tenth of a core.
constexpr qint64 kAdviceEveryMs = 1000;
constexpr double kAdviceShareOfTime = 0.1;

std::size_t runsIn(const Report& report)
{
    return report.runs.size();
}

std::size_t runsIn(const PlanReport& plan)
{
    std::size_t runs = 0;
    for (const VariantResult& v : plan.variants)
        runs += v.report.runs.size();
    return runs;
}

std::size_t runsIn(const std::optional<PlanReport>& plan)
{
    return plan ? runsIn(*plan) : 0;
}

// Whether a file the reader refused is a comparison's export: JSON of format "asyncscope-comparison" (or a host's
// record of a comparison, which the baseline's reader calls "a comparison of several variants"), or CSV whose first
// column is the variant.
bool isComparisonFile(const QString& path, const std::string& why)
{
    if (why.find("\"asyncscope-comparison\"") != std::string::npos ||
        why.find("a comparison of several variants") != std::string::npos)
        return true;
    QFile file(path);
    return QFileInfo(path).isFile() && file.open(QIODevice::ReadOnly) && file.read(16).startsWith("Variant,");
}

// Why a saved run cannot be a baseline, in words that name its file: it could not be read, it is a comparison of
// several variants or a host's record of several GPUs rather than one series, or it holds no measured runs to compare
// with.
// `read`: the reader refused the file (not the check before it, which refuses what is no regular file).
Error baselineProblem(const QString& path, const Error& error, bool read = true)
{
    const std::string name = shownPath(path.toStdString());  // as the readers name it
    std::string why = error.detail;
    std::string advice = error.advice;
    if (read && error.kind == ErrorKind::Io && isComparisonFile(path, why)) {
        why = "it holds a comparison of several variants, not one series";
        advice = "Use a series this app or asyncscope-cli saved (File › Export data), or the export of one variant.";
    } else if (why.rfind(name + ": ", 0) == 0) {
        why.erase(0, name.size() + 2);  // "h200.json: line 3 …": the file is named once
        if (why.rfind("holds ", 0) == 0)
            why.insert(0, "it ");  // "holds the series of 2 GPUs …": what holds them is the file
    } else if (why.rfind(name + " ", 0) == 0) {
        why.replace(0, name.size(), "it");  // "h200.json does not exist"
    }
    return makeError(error.kind, "cannot use " + name + " as a baseline: " + why, advice);
}

}  // namespace

SessionModel::SessionModel(std::shared_ptr<Backend> backend, QObject* parent)
    : QObject(parent)
    , m_controller(new PlanController(std::move(backend), this))
    , m_loader(new ReportLoader(this))
    , m_judge(new AdviceJudge(this))
    , m_baselineJudge(new BaselineJudge(this))
{
    connect(m_judge, &AdviceJudge::judged, this, &SessionModel::onJudged);
    connect(m_baselineJudge, &BaselineJudge::compared, this, &SessionModel::onBaselineCompared);
    connect(m_loader, &ReportLoader::progress, this, &SessionModel::loadProgress);  // queued from the reading thread
    connect(m_loader, &ReportLoader::finished, this, &SessionModel::onLoaded);
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
        inTurn([this, b] {
            if (m_ownsPlan)
                m_binding = b;
        });
    });
    connect(m_controller, &PlanController::variantStarting, this, [this](int, int index, const VariantResult& v) {
        inTurn([this, index, v] { onVariantStarting(index, v); });
    });
    connect(m_controller, &PlanController::runsAvailable, this,
        [this](int, int index, const RunBatch& runs) { inTurn([this, index, runs] { onRuns(index, runs); }); });
    connect(m_controller, &PlanController::variantEnded, this, [this](int, int index, const VariantResult& v) {
        inTurn([this, index, v] { onVariantEnded(index, v); });
    });
    connect(m_controller, &PlanController::calibrationFailed, this, [this](const Error& error) {
        inTurn([this, error] {
            if (m_ownsPlan)
                emit calibrationFailed(error);
        });
    });
    connect(m_controller, &PlanController::hostFinished, this, [this](const HostReport& host) {
        if (!m_ownsPlan)
            return;  // the All GPUs run's, whose record holds every device's runs: its panel takes it
        if (mustWait())
            m_held.push_back([this, host] { onHostFinished(host); });
        else
            onHostFinished(host);
    });
}

SessionModel::~SessionModel()
{
    // The judgement under way reads a series this object holds; its advice is of no use now.
    disconnect(m_judge, nullptr, this, nullptr);
    m_judge->settle();
    disconnect(m_baselineJudge, nullptr, this, nullptr);
    m_baselineJudge->settle();  // it reads the series shown and the baseline
    if (m_writing.joinable())
        m_writing.join();  // it reads the series this object holds
    if (m_retiring.joinable())
        m_retiring.join();
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
    settleBaseline();
    if (!m_controller->start(devices, m_platform, PlanController::Delivery::Batches))
        return makeError(ErrorKind::Usage, "the run thread is not available");
    m_ownsPlan = true;
    m_planned = plan.variants.size();
    m_shown = &m_saved;  // before what it points into goes
    retire(m_plan, runsIn(m_plan));
    m_plan.comparison = plan.comparison;
    m_plan.planned = plan.variants.size();
    m_plan.variants.reserve(plan.variants.size());  // m_shown points into them: never moved while the plan runs
    retire(m_saved, runsIn(m_saved));
    m_saved.config = plan.variants.front().config;
    m_saved.device = *findDevice(m_platform, m_saved.config.device);
    m_summary = {};
    m_previousShown = &m_saved;
    m_binding.reset();
    m_wrong = 0;
    m_unseen = 0;
    m_source.clear();
    m_savedLabel.clear();
    m_savedPath.clear();
    m_savedFormat.clear();
    m_prepared = {};
    m_clock.start();
    forgetAdvice();
    compareShownWithBaseline();  // compared once the series ends
    const bool renamed = nameShown();  // the overlays no longer told apart from a saved series shown
    emit reportChanged();
    if (renamed)
        emit overlayChanged();
    return std::nullopt;
}

VariantResult& SessionModel::variantAt(int index)
{
    while (m_plan.variants.size() <= std::size_t(index))
        m_plan.variants.emplace_back();
    return m_plan.variants[std::size_t(index)];
}

void SessionModel::onVariantStarting(int index, const VariantResult& v)
{
    if (!m_ownsPlan)
        return;
    VariantResult& mine = variantAt(index);
    mine = v;
    mine.report.binding = m_binding;
    const PipelineConfig& c = v.report.config;
    if (c.stopRule == StopRule::Fixed)
        mine.report.runs.reserve(std::size_t(c.warmupRuns) + std::size_t(c.runs));
    m_previousShown = m_shown;
    m_previousSummary = std::move(m_summary);
    m_shown = &mine.report;
    m_summary = {};
    m_clock.start();
    forgetAdvice();
    emit variantStarted(index, int(m_planned), QString::fromStdString(v.label));
    emit reportChanged();
}

void SessionModel::onRuns(int index, const RunBatch& runs)
{
    if (!m_ownsPlan || !runs)
        return;
    ++m_batches;
    Report& report = variantAt(index).report;
    for (std::size_t i = 0; i < runs->runs.size(); ++i)
        m_wrong += runs->runs.verified(i) ? 0 : 1;
    report.runs.append(runs->runs);
    m_unseen += runs->runs.size();
    runs->runs.clear();
    if (&report == m_shown)
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
    // The runner's record of the variant holds no runs: this one's are kept, the rest taken from it. A variant that
    // could not run leaves the views on the last one that did.
    VariantResult& mine = variantAt(index);
    auto runs = std::move(mine.report.runs);
    mine = v;
    mine.report.runs = std::move(runs);
    mine.report.binding = m_binding;
    if (!v.ran() && m_shown == &mine.report) {
        m_shown = m_previousShown;
        m_summary = std::move(m_previousSummary);
        forgetAdvice();
    }
    scheduleRefresh();
}

void SessionModel::onHostFinished(const HostReport& host)
{
    if (!m_ownsPlan)
        return;
    m_ownsPlan = false;
    PlanReport plan;
    if (!host.devices.empty())
        plan = host.devices.front().plan;  // no runs in it: a copy costs what the variants' headers do
    if (host.error || host.devices.empty()) {
        plan.comparison = m_plan.comparison;
        plan.planned = m_plan.planned;
        VariantResult failed;
        failed.failure = host.error ? *host.error : makeError(ErrorKind::Cuda, "the plan did not run");
        plan.variants.push_back(std::move(failed));
    }
    // The runs move from the session's record into the runner's: nothing is copied.
    std::size_t shown = m_plan.variants.size();
    for (std::size_t i = 0; i < plan.variants.size() && i < m_plan.variants.size(); ++i) {
        if (&m_plan.variants[i].report == m_shown)
            shown = i;
        plan.variants[i].report.runs = std::move(m_plan.variants[i].report.runs);
    }
    const bool single = !plan.comparison && shown == 0;
    m_verdict = judgePlan(plan, { runsIn(plan), m_wrong, single ? &m_summary : nullptr });

    const PlanReport* ended = &m_plan;
    m_plan = std::move(plan);
    if (m_plan.comparison) {
        retire(m_lastComparison, runsIn(m_lastComparison));
        m_lastComparison = std::move(m_plan);
        m_plan = PlanReport {};
        ended = &*m_lastComparison;
    }
    m_shown = shown < ended->variants.size() ? &ended->variants[shown].report : &m_saved;
    m_refresh.stop();
    // Judged once more as it ended, with the machine's state read around it: a comparison's variants beside each
    // other, a series on its own.
    forgetAdvice();
    if (ended != &m_plan)
        m_judge->start([comparison = ended] { return judgeShownComparison(*comparison); }, m_adviceTicket);
    else if (m_shown != &m_saved)
        judgeShown(false);
    compareShownWithBaseline();
    emit reportChanged();
    emit planFinished(*ended);
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

const SeriesSummary& SessionModel::summary() const
{
    if (m_prepared.summary)
        return *m_prepared.summary;
    return m_summary;
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
    if (Status unreadable = checkReadableFile(path.toStdString()))
        return unreadable;  // a directory or device fails at once; a FIFO would hold the reading thread
    m_loads.push_back({ path, false });
    if (m_loads.size() == 1)
        loadNext();
    return std::nullopt;
}

Status SessionModel::addOverlay(const QString& path)
{
    if (Status unreadable = checkReadableFile(path.toStdString()))
        return unreadable;
    m_loads.push_back({ path, true });
    if (m_loads.size() == 1)
        loadNext();
    return std::nullopt;
}

Status SessionModel::setBaseline(const QString& path)
{
    if (Status unreadable = checkReadableFile(path.toStdString()))
        return baselineProblem(path, *unreadable, false);
    m_loads.push_back({ path, true, true });
    if (m_loads.size() == 1)
        loadNext();
    return std::nullopt;
}

void SessionModel::cancelLoad()
{
    if (m_loads.empty())
        return;
    m_loads.erase(m_loads.begin() + 1, m_loads.end());
    m_loader->cancel();
}

void SessionModel::loadNext()
{
    if (m_loads.empty())
        return;
    m_loader->start(m_loads.front().path, m_loads.front().baseline ? SavedRunUse::Baseline : SavedRunUse::Series);
    emit loadStarted(m_loads.front().path);
}

void SessionModel::onLoaded()
{
    if (m_loads.empty())
        return;
    const Load load = m_loads.front();
    m_loads.pop_front();
    auto saved = m_loader->takeResult();
    if (saved && !load.overlay && isRunning())
        saved = makeError(ErrorKind::Usage, "a run started while it was read", "Open the saved run when it has ended.");
    loadNext();  // before anyone hears of this one, so isLoading() says whether more are coming
    if (!saved) {
        const Error& error = saved.error();
        const bool cancelled = error.kind == ErrorKind::Cancelled;
        return emit loadFailed(
            load.path, load.overlay, load.baseline && !cancelled ? baselineProblem(load.path, error) : error);
    }
    if (!saved->prepared.summary)
        saved->prepared.summary = summarizeSeries(saved->report);
    if (load.baseline) {
        const std::size_t measured = saved->prepared.summary->measuredRuns;
        if (measured < kMinComparedRuns)
            return emit loadFailed(load.path, true,
                baselineProblem(load.path,
                    makeError(ErrorKind::Io,
                        measured == 0 ? std::string("it has no measured runs to compare with")
                                      : "it holds " + std::to_string(measured) + " measured run" +
                                (measured == 1 ? "" : "s") + ": a comparison needs at least " +
                                std::to_string(kMinComparedRuns)),
                    false));
        takeBaseline(std::move(*saved));
    } else if (load.overlay) {
        // The series shown again beside itself would draw one line on another and fill two identical columns.
        const QString canonical = QFileInfo(load.path).canonicalFilePath();
        if (m_shown == &m_saved && !m_savedPath.isEmpty() && canonical == QFileInfo(m_savedPath).canonicalFilePath())
            return emit loadFailed(load.path, true,
                makeError(ErrorKind::Usage,
                    shownPath(load.path.toStdString()) + " is the series shown: it is not overlaid on itself",
                    "Overlay another file."));
        settleBaseline();  // the comparison under way reads the baseline among the overlays, which may move
        m_overlays.push_back(std::move(*saved));
        nameShown();
        emit overlayChanged();
    } else {
        settleAdvice();  // nothing reads the series about to go
        settleBaseline();
        m_shown = &m_saved;
        retire(m_saved, runsIn(m_saved));
        retire(m_plan, runsIn(m_plan));  // the series shown before; the last comparison stays
        m_saved = std::move(saved->report);
        m_prepared = std::move(saved->prepared);
        m_savedLabel = saved->label;
        m_savedPath = load.path;
        m_savedFormat = saved->format;
        // An overlay of the file now shown would stand beside itself: it goes.
        m_droppedByOpen.clear();
        const QString canonical = QFileInfo(load.path).canonicalFilePath();
        for (std::size_t o = m_overlays.size(); o-- > 0;) {
            if (QFileInfo(m_overlays[o].path).canonicalFilePath() != canonical || m_baseline == o)
                continue;  // (a baseline stays: the file compared with itself is a check of the comparison)
            m_droppedByOpen.prepend(m_overlays[o].label);
            m_overlays.erase(m_overlays.begin() + std::ptrdiff_t(o));
            if (m_baseline && *m_baseline == o)
                m_baseline.reset();
            else if (m_baseline && *m_baseline > o)
                --*m_baseline;
        }
        const bool renamed = nameShown() || !m_droppedByOpen.isEmpty();
        forgetAdvice();
        if (m_prepared.advice) {
            m_advice = *m_prepared.advice;  // judged as the file was read
            emit adviceChanged();
        } else {
            judgeShown(false);
        }
        compareShownWithBaseline();
        emit reportChanged();
        if (renamed)
            emit overlayChanged();
    }
    emit savedLoaded(load.path, load.overlay);
}

Status SessionModel::writeInBackground(const QString& path, Writer write)
{
    if (isRunning())
        return makeError(ErrorKind::Usage, "the series is still being measured", "Save it when it has ended.");
    if (isWriting())
        return makeError(ErrorKind::Usage, "another file is being written", "Save this one when it is done.");
    if (std::any_of(m_loads.begin(), m_loads.end(), [](const Load& l) { return !l.overlay; }))
        return makeError(ErrorKind::Usage, "a saved run is being opened", "Save when it is shown.");
    m_writing = std::thread([this, path, write = std::move(write), series = m_shown] {
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
    settleBaseline();
    m_overlays.clear();
    const bool hadBaseline = m_baseline.has_value();
    m_baseline.reset();
    if (hadBaseline)
        compareShownWithBaseline();
    nameShown();
    emit overlayChanged();
}

void SessionModel::takeBaseline(SavedRun saved)
{
    settleBaseline();  // the comparison under way reads the baseline about to go
    if (m_baseline)
        m_overlays.erase(m_overlays.begin() + std::ptrdiff_t(*m_baseline));
    m_overlays.push_back(std::move(saved));
    m_baseline = m_overlays.size() - 1;
    nameShown();  // "baseline · NAME"
    m_baselineConsent.clear();
    m_baselineUnasked = false;
    m_baselineFresh = true;
    emit overlayChanged();
    compareShownWithBaseline();
}

void SessionModel::clearBaseline()
{
    if (!m_baseline)
        return;
    settleBaseline();
    m_overlays.erase(m_overlays.begin() + std::ptrdiff_t(*m_baseline));
    m_baseline.reset();
    nameShown();
    compareShownWithBaseline();
    emit overlayChanged();
}

bool SessionModel::nameShown()
{
    std::vector<ShownLabel> shown;
    const bool saved = m_shown == &m_saved && !m_savedPath.isEmpty();
    if (saved)
        shown.push_back({ m_savedLabel, m_savedPath, &m_saved });
    for (SavedRun& overlay : m_overlays) {
        if (overlay.fileLabel.isEmpty())
            overlay.fileLabel = overlay.label;
        shown.push_back({ overlay.fileLabel, overlay.path, &overlay.report });
    }
    const std::vector<QString> names = distinctLabels(shown);
    std::size_t n = 0;
    if (saved)
        m_source = tr("saved: %1").arg(names[n++]);
    bool renamed = false;
    for (std::size_t o = 0; o < m_overlays.size(); ++o, ++n) {
        const QString label = m_baseline == o ? tr("baseline · %1").arg(names[n]) : names[n];
        renamed = renamed || label != m_overlays[o].label;
        m_overlays[o].label = label;
    }
    return renamed;
}

const SavedRun* SessionModel::baseline() const
{
    return m_baseline ? &m_overlays[*m_baseline] : nullptr;
}

void SessionModel::compareShownWithBaseline()
{
    ++m_baselineTicket;  // a comparison under way is of what was shown before
    m_baselineComparison.reset();
    m_baselineDifferences.clear();
    const auto say = [this](BaselineState state) {
        m_baselineState = state;
        emit baselineChanged();
    };
    if (!m_baseline) {
        m_baselineConsent.clear();
        m_baselineUnasked = false;
        m_baselineFresh = false;
        return say(BaselineState::None);
    }
    if (m_ownsPlan)
        return say(BaselineState::Measuring);
    if (summary().measuredRuns == 0)
        return say(BaselineState::NoSeries);
    const Report& base = m_overlays[*m_baseline].report;
    m_baselineDifferences = configDifferences(base, *m_shown);
    if (anyBlocking(m_baselineDifferences) && differencesText(m_baselineDifferences) != m_baselineConsent) {
        say(BaselineState::NeedsConsent);
        emit baselineConsentNeeded(m_baselineFresh);
        return;
    }
    if (!anyBlocking(m_baselineDifferences))
        m_baselineUnasked = false;  // nothing to allow: nothing allowed unasked
    m_baselineFresh = false;
    m_baselineJudge->start([baseline = &base, current = m_shown] {
        return compareWithBaseline(*baseline, *current, BaselineSettings {});
    }, m_baselineTicket);
    say(BaselineState::Comparing);
}

void SessionModel::onBaselineCompared(const BaselineComparison& comparison, unsigned ticket)
{
    if (ticket != m_baselineTicket)
        return;  // of a series or a baseline no longer shown
    m_baselineComparison = comparison;
    m_baselineState = BaselineState::Compared;
    emit baselineChanged();
}

void SessionModel::allowAcrossConfigurations(bool asked)
{
    if (m_baselineState != BaselineState::NeedsConsent)
        return;  // the series or the baseline changed while the user was asked
    m_baselineConsent = differencesText(m_baselineDifferences);
    m_baselineUnasked = !asked;
    compareShownWithBaseline();
}

void SessionModel::declineBaseline()
{
    if (m_baselineState != BaselineState::NeedsConsent)
        return;
    m_baselineFresh = false;
    m_baselineState = BaselineState::Declined;
    emit baselineChanged();
}

void SessionModel::settleBaseline()
{
    m_baselineJudge->settle();
}

template <class T>
void SessionModel::retire(T& gone, std::size_t runs)
{
    if (runs >= kFreeOffThreadRuns) {
        if (m_retiring.joinable())
            m_retiring.join();
        m_retiring = std::thread([freed = std::move(gone)]() mutable { T last = std::move(freed); });
    }
    gone = T {};
}

void SessionModel::settleAdvice()
{
    m_judge->settle();
    while (!m_held.empty()) {
        const std::function<void()> event = std::move(m_held.front());
        m_held.pop_front();
        event();
        m_judge->settle();  // the plan's end starts its last judgement
    }
}

void SessionModel::inTurn(std::function<void()> event)
{
    if (mustWait()) {
        m_held.push_back(std::move(event));  // the judgement reads the series: after it, in order
        return;
    }
    event();
}

bool SessionModel::mustWait() const
{
    return m_judge->busy() || !m_held.empty();
}

void SessionModel::handOnHeld()
{
    // One a turn of the event loop, as the run thread's come (PlanController): the runs that piled up while a
    // judgement read the series (a tenth of a second's or more at a million runs a second) reach the views in steps
    // they draw at once, the window's input and painting between them.
    if (m_held.empty() || m_judge->busy() || m_handingOn)
        return;
    m_handingOn = true;
    QMetaObject::invokeMethod(this, [this] {
        m_handingOn = false;
        if (m_judge->busy() || m_held.empty())
            return;  // a judgement started meanwhile: its end goes on
        const std::function<void()> event = std::move(m_held.front());
        m_held.pop_front();
        event();
        handOnHeld();
    }, Qt::QueuedConnection);
}

void SessionModel::judgeShown(bool measuring)
{
    const QString subject = m_source.isEmpty() ? tr("this series") : m_source;
    m_judge->start([series = m_shown, summary = summary(), subject, measuring] {
        return judgeShownSeries(*series, summary, subject, measuring);
    }, m_adviceTicket);
}

void SessionModel::judgeMeasuredAtMostOnceASecond()
{
    if (!m_ownsPlan || m_judge->busy() || !m_held.empty() || m_shown == &m_saved || summary().measuredRuns == 0)
        return;  // what was held for the last judgement goes first
    const double every = std::max(double(kAdviceEveryMs), m_judge->lastCostMs() / kAdviceShareOfTime);
    if (m_adviceClock.isValid() && double(m_adviceClock.elapsed()) < every)
        return;
    m_adviceClock.start();
    judgeShown(true);
}

void SessionModel::forgetAdvice()
{
    ++m_adviceTicket;
    m_adviceClock.invalidate();
    if (m_advice.empty() && m_advice.subject.isEmpty())
        return;
    m_advice = {};
    emit adviceChanged();
}

void SessionModel::onJudged(const ShownAdvice& advice, unsigned ticket)
{
    handOnHeld();  // nothing reads the series now
    if (ticket != m_adviceTicket)
        return;  // of a series no longer shown
    m_advice = advice;
    emit adviceChanged();
}

void SessionModel::scheduleRefresh()
{
    if (!m_refresh.isActive())
        m_refresh.start(kRefreshIntervalMs);
}

}  // namespace asyncscope
