#include "gui/session/session_model.hpp"

#include "gui/session/report_loader.hpp"
#include "gui/session/run_controller.hpp"


namespace asyncscope {

namespace {

constexpr int kRefreshIntervalMs = 100;  // views redraw at most ten times a second, whatever the run rate
constexpr std::size_t kFreeOffThreadRuns = 10000;  // a series this long is freed off the GUI thread

}  // namespace

SessionModel::SessionModel(std::shared_ptr<Backend> backend, QObject* parent)
    : QObject(parent)
    , m_controller(new RunController(std::move(backend), this))
    , m_loader(new ReportLoader(this))
{
    connect(m_loader, &ReportLoader::progress, this, &SessionModel::loadProgress);  // queued from the reading thread
    connect(m_loader, &ReportLoader::finished, this, &SessionModel::onLoaded);
    m_refresh.setSingleShot(true);
    m_refresh.setInterval(kRefreshIntervalMs);
    connect(&m_refresh, &QTimer::timeout, this, &SessionModel::reportChanged);

    connect(m_controller, &RunController::devicesAvailable, this, [this](const Platform& platform) {
        m_platform = platform;
        m_devicesKnown = true;
        emit devicesAvailable(platform);
    });
    connect(m_controller, &RunController::discoveryFailed, this, [this](const Error& error) {
        m_devicesKnown = false;
        emit discoveryFailed(error);
    });
    connect(m_controller, &RunController::variantStarting, this, [this](int index, const VariantResult& v) {
        m_report = v.report;
        m_clock.start();
        emit variantStarted(index, int(m_planned), QString::fromStdString(v.label));
        emit reportChanged();
    });
    connect(m_controller, &RunController::runAvailable, this, [this](int, const RunResult& run) {
        m_report.runs.push_back(run);
        scheduleRefresh();
    });
    connect(m_controller, &RunController::variantEnded, this, [this](int, const VariantResult& v) {
        // A variant that could not run leaves the views on the last one that did.
        if (v.ran())
            m_lastRan = v.report;  // with its outcome
        m_report = m_lastRan;
        scheduleRefresh();
    });
    connect(m_controller, &RunController::calibrationFailed, this, &SessionModel::calibrationFailed);
    connect(m_controller, &RunController::planFinished, this, [this](const PlanReport& plan) {
        m_refresh.stop();
        if (plan.comparison)
            m_lastComparison = plan;
        emit reportChanged();
        emit planFinished(plan);
    });
}

SessionModel::~SessionModel()
{
    if (m_retiring.joinable())
        m_retiring.join();
}

void SessionModel::discover()
{
    m_controller->discover();
}

Status SessionModel::start(const Plan& plan)
{
    if (isRunning())
        return makeError(ErrorKind::Usage, "a run is still in progress", "Wait for it or cancel it.");
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
    if (!m_controller->start(plan, m_platform))
        return makeError(ErrorKind::Usage, "the run thread is not available");
    m_planned = plan.variants.size();
    retire(m_report);
    m_report.config = plan.variants.front().config;
    m_report.device = *findDevice(m_platform, m_report.config.device);
    retire(m_lastRan);
    m_lastRan = m_report;
    m_source.clear();
    m_prepared = {};
    m_clock.start();
    emit reportChanged();
    return std::nullopt;
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

bool SessionModel::isRunning() const
{
    return m_controller->isRunning();
}

int SessionModel::expectedRuns() const
{
    const PipelineConfig& c = m_report.config;
    return c.stopRule == StopRule::Fixed ? c.warmupRuns + c.runs : 0;
}

double SessionModel::runsPerSecond() const
{
    if (!m_clock.isValid() || m_report.runs.empty())
        return 0.0;
    return double(m_report.runs.size()) / std::max(1e-3, double(m_clock.elapsed()) / 1000.0);
}

Status SessionModel::openSaved(const QString& path)
{
    if (isRunning())
        return makeError(ErrorKind::Usage, "a run is in progress", "Open the saved run when it has ended.");
    m_loads.push_back({ path, false });
    if (m_loads.size() == 1)
        loadNext();
    return std::nullopt;
}

Status SessionModel::addOverlay(const QString& path)
{
    m_loads.push_back({ path, true });
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
    m_loader->start(m_loads.front().path);
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
    if (!saved)
        return emit loadFailed(load.path, load.overlay, saved.error());
    if (load.overlay) {
        m_overlays.push_back(std::move(*saved));
        emit overlayChanged();
    } else {
        retire(m_report);
        m_report = std::move(saved->report);
        m_prepared = std::move(saved->prepared);
        retire(m_lastRan);  // a plan sets it when it starts
        m_source = tr("saved: %1").arg(saved->label);
        emit reportChanged();
    }
    emit savedLoaded(load.path, load.overlay);
}

void SessionModel::clearOverlays()
{
    m_overlays.clear();
    emit overlayChanged();
}

void SessionModel::retire(Report& report)
{
    if (report.runs.size() >= kFreeOffThreadRuns) {
        if (m_retiring.joinable())
            m_retiring.join();
        m_retiring = std::thread([gone = std::move(report)]() mutable { Report freed = std::move(gone); });
    }
    report = Report {};
}

void SessionModel::scheduleRefresh()
{
    if (!m_refresh.isActive())
        m_refresh.start();
}

}  // namespace asyncscope
