#include "gui/app/headless_runner.hpp"

#include "gui/app/run_status.hpp"
#include "gui/gpus/all_gpus_panel.hpp"
#include "gui/charts/chart_export.hpp"
#include "gui/files/advice_export.hpp"
#include "gui/session/plan_verdict.hpp"
#include "gui/session/session_model.hpp"


#include <QDir>
#include <QCoreApplication>
#include <QWidget>

#include <iostream>

namespace asyncscope {

namespace {

int exitCodeOf(const Error& error)
{
    return isRequestError(error.kind) ? 2 : 1;
}

QString text(const Error& error)
{
    return QString::fromStdString(error.message());
}

}  // namespace

HeadlessRunner::HeadlessRunner(AppOptions options, SessionModel* session, QWidget* window,
    std::function<Result<Plan>()> makePlan, std::function<QString(const QString&, QSize)> exportTimeline,
    QStringList refusedFiles, bool openRefused, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_session(session)
    , m_window(window)
    , m_makePlan(std::move(makePlan))
    , m_exportTimeline(std::move(exportTimeline))
    , m_fileProblems(std::move(refusedFiles))
    , m_openFailed(openRefused)
{
    connect(session, &SessionModel::devicesAvailable, this, [this] {
        m_devicesKnown = m_searchEnded = true;
        proceed();
    });
    connect(session, &SessionModel::discoveryFailed, this, [this](const Error& error) {
        m_searchEnded = true;
        m_searchFailure = error;
        proceed();
    });
    connect(session, &SessionModel::loadFailed, this, [this](const QString&, bool overlay, const Error& error) {
        m_fileProblems << text(error);
        m_openFailed = m_openFailed || !overlay;
        proceed();
    });
    // Queued: the views lay out what the plan's end, or the saved run read, changed (legend, ticks, the comparison
    // tab) in events posted as it ended, and the screenshot must show them.
    connect(session, &SessionModel::savedLoaded, this, &HeadlessRunner::proceed, Qt::QueuedConnection);
    // A saved comparison: its comparison chart, as the window's Comparison tab draws it (queued, as a saved series
    // is: the tab lays out what it changed first).
    connect(session, &SessionModel::comparisonOpened, this, [this](const QString& path) {
        m_comparisonPath = path;
        QMetaObject::invokeMethod(this, &HeadlessRunner::proceed, Qt::QueuedConnection);
    });
    connect(session, &SessionModel::planFinished, this, &HeadlessRunner::onPlanFinished, Qt::QueuedConnection);
    QMetaObject::invokeMethod(this, &HeadlessRunner::proceed, Qt::QueuedConnection);  // once the window is built
}

void HeadlessRunner::proceed()
{
    if (m_done || m_started)
        return;
    if (m_session->isLoading())
        return;  // a saved run is still being read: how it went is told with the rest
    // Nothing to show without the series asked for; a bad overlay costs only itself: the run and the other
    // overlays go on, and finish() names it and ends with 2.
    if (m_openFailed)
        return finish(2, {});
    if (m_searchFailure && m_options.open.isEmpty())  // a saved series needs no GPU
        return finish(1, text(*m_searchFailure));
    if (!m_options.open.isEmpty() && !m_options.screenshot.isEmpty() && !m_searchEnded)
        return;  // the window is pictured with its GPU list filled in, or saying why it is empty
    if (!m_comparisonPath.isEmpty()) {
        m_started = true;
        return saveComparison();
    }
    if (!m_options.open.isEmpty()) {
        m_started = true;
        return saveShown(
            tr("%1, %n run(s)", nullptr, int(m_session->report().runs.size())).arg(m_session->source().label()));
    }
    if (m_devicesKnown) {
        m_started = true;
        start();
    }
}

void HeadlessRunner::start()
{
    if (m_options.device) {
        if (auto found = findDevice(m_session->platform(), *m_options.device); !found)
            return finish(exitCodeOf(found.error()), text(found.error()));
    }
    auto plan = m_makePlan();
    if (!plan)
        return finish(exitCodeOf(plan.error()), text(plan.error()));
    if (m_allGpus) {
        if (auto refused = m_allGpus->start(*plan, m_session->platform()))
            return finish(exitCodeOf(*refused), text(*refused));
        return;
    }
    if (auto refused = m_session->start(*plan, m_options.numaBinding))
        return finish(exitCodeOf(*refused), text(*refused));
}

void HeadlessRunner::saveShown(const QString& summary)
{
    if (const QString failure = savePictures(); !failure.isEmpty())
        return finish(1, failure);
    const QString problem = exportChart(m_session->report(), m_session->source().label(), m_session->prepared().points,
        m_session->drawnOverlays(), RunCharts::Time, m_options.exportPng, m_options.exportSize);
    if (!problem.isEmpty())
        return finish(1, problem);
    keepAdvice();
    finish(0, summary + baselineSummary() + tr("; chart saved to %1").arg(m_options.exportPng));
}

void HeadlessRunner::saveComparison()
{
    const QString path = QDir::toNativeSeparators(m_comparisonPath);
    const std::optional<PlanReport>& plan = m_session->lastComparison();
    if (!plan)
        return finish(1, tr("%1: no comparison to draw").arg(path));
    if (const QString failure = savePictures(); !failure.isEmpty())
        return finish(1, failure);
    if (const QString problem = exportComparisonChart(*plan, m_options.exportPng, m_options.exportSize);
        !problem.isEmpty())
        return finish(1, problem);
    QString summary = tr("%1, a comparison of %n variant(s)", nullptr, int(plan->variants.size())).arg(path);
    if (plan->ranCount() < plan->planned)
        summary += "; " + QString::fromStdString(plan->notRunText());
    finish(0, summary + tr("; chart saved to %1").arg(m_options.exportPng));
}

QString HeadlessRunner::baselineSummary() const
{
    const QString line = baselineForms(*m_session).value(0);
    return line.isEmpty() ? QString() : QStringLiteral("; ") + line;
}

void HeadlessRunner::keepAdvice()
{
    m_session->settleAdvice();  // the judgement of the series as it ended, where it is still under way
    if (!m_session->advice().empty())
        m_advice = adviceText(m_session->advice(), AdviceFormat::Text);
}

QString HeadlessRunner::savePictures()
{
    // The screenshot shows the advice on the series as it ended (--tab advice), not a judgement still under way, and
    // its comparison with the baseline.
    m_session->settleAdvice();
    m_session->baselines().settle();
    QCoreApplication::sendPostedEvents();  // layout requests of the charts and widgets
    if (!m_options.screenshot.isEmpty() && !m_window->grab().save(m_options.screenshot))
        return tr("Cannot write the screenshot %1.").arg(m_options.screenshot);
    if (!m_options.exportTimeline.isEmpty()) {
        if (m_session->report().runs.empty())
            return tr("No run to draw in %1.").arg(m_options.exportTimeline);
        if (const QString failure = m_exportTimeline(m_options.exportTimeline, m_options.exportSize);
            !failure.isEmpty())
            return failure;
    }
    return {};
}

void HeadlessRunner::onPlanFinished(const PlanReport& plan)
{
    const PlanVerdict& verdict = m_session->verdict();
    if (plan.failure() || plan.ranCount() == 0)
        return finish(verdict.exitCode, verdict.summary);
    if (const QString failure = savePictures(); !failure.isEmpty())
        return finish(1, failure);
    const QString problem = plan.comparison
        ? exportComparisonChart(plan, m_options.exportPng, m_options.exportSize)
        : exportChart(m_session->report(), m_session->source().label(), m_session->prepared().points,
              m_session->drawnOverlays(), RunCharts::Time, m_options.exportPng, m_options.exportSize);
    if (!problem.isEmpty())
        return finish(1, problem);
    QString summary = verdict.summary;
    if (plan.ranCount() < plan.planned)
        summary += "; " + QString::fromStdString(plan.notRunText());
    keepAdvice();
    finish(verdict.exitCode, summary + baselineSummary() + tr("; chart saved to %1").arg(m_options.exportPng));
}

void HeadlessRunner::runAllGpus(AllGpusPanel* panel)
{
    m_allGpus = panel;
    // Queued, as the plan's end is: the tab lays out the last rows before the screenshot.
    connect(panel, &AllGpusPanel::finished, this, &HeadlessRunner::onHostFinished, Qt::QueuedConnection);
}

void HeadlessRunner::onHostFinished(const HostReport& host)
{
    if (host.error)
        return finish(exitCodeOf(*host.error), text(*host.error));
    if (host.ranCount() == 0) {
        const Error* failure = host.failure();
        return finish(failure ? exitCodeOf(*failure) : 1, failure ? text(*failure) : tr("No GPU ran."));
    }
    if (const QString failure = savePictures(); !failure.isEmpty())
        return finish(1, failure);
    if (const QString problem = m_allGpus->exportChart(m_options.exportPng, m_options.exportSize); !problem.isEmpty())
        return finish(1, problem);
    finish(host.failure() ? 1 : 0, m_allGpus->summaryText() + tr("; chart saved to %1").arg(m_options.exportPng));
}

void HeadlessRunner::finish(int exitCode, const QString& message)
{
    if (m_done)
        return;
    m_done = true;
    QStringList all = m_fileProblems;  // every file named that could not be used, a line each
    if (!message.isEmpty())
        all << message;
    if (!m_fileProblems.isEmpty())
        exitCode = 2;
    QString lines = all.join(QStringLiteral("\n"));
    lines.replace(QStringLiteral("\n"), QStringLiteral("\nasyncscope: "));  // a file that could not be used a line
    std::cerr << "asyncscope: " << lines.toStdString() << '\n';
    if (!m_advice.isEmpty())
        std::cout << m_advice.toStdString() << std::flush;
    emit finished(exitCode, all.join(QStringLiteral("\n")));
}

}  // namespace asyncscope
