#include "gui/headless_runner.hpp"

#include "gui/chart_exporter.hpp"
#include "gui/plan_verdict.hpp"
#include "gui/session_model.hpp"


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
    std::function<Result<Plan>()> makePlan, QString startupProblem, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_session(session)
    , m_window(window)
    , m_makePlan(std::move(makePlan))
    , m_startupProblem(std::move(startupProblem))
{
    connect(session, &SessionModel::devicesAvailable, this, &HeadlessRunner::start);
    connect(session, &SessionModel::discoveryFailed, this, [this](const Error& error) { finish(1, text(error)); });
    // Queued: the views lay out what the plan's end changed (legend, ticks, the comparison tab) in events posted
    // as it ended, and the screenshot must show them.
    connect(session, &SessionModel::planFinished, this, &HeadlessRunner::onPlanFinished, Qt::QueuedConnection);
}

void HeadlessRunner::start()
{
    if (!m_startupProblem.isEmpty())
        return finish(2, m_startupProblem);
    if (m_options.device) {
        if (auto found = findDevice(m_session->platform(), *m_options.device); !found)
            return finish(exitCodeOf(found.error()), text(found.error()));
    }
    auto plan = m_makePlan();
    if (!plan)
        return finish(exitCodeOf(plan.error()), text(plan.error()));
    if (auto refused = m_session->start(*plan))
        return finish(exitCodeOf(*refused), text(*refused));
}

void HeadlessRunner::onPlanFinished(const PlanReport& plan)
{
    const PlanVerdict verdict = judgePlan(plan);
    if (plan.failure() || plan.ranCount() == 0)
        return finish(verdict.exitCode, verdict.summary);
    QCoreApplication::sendPostedEvents();  // layout requests of the charts and widgets
    if (!m_options.screenshot.isEmpty() && !m_window->grab().save(m_options.screenshot))
        return finish(1, tr("Cannot write the screenshot %1.").arg(m_options.screenshot));
    const QString problem = plan.comparison
        ? exportComparisonChart(plan, m_options.exportPng, m_options.exportSize)
        : exportChart(m_session->report(), m_session->source(), m_session->overlays(), RunCharts::Time,
              m_options.exportPng, m_options.exportSize);
    if (!problem.isEmpty())
        return finish(1, problem);
    QString summary = verdict.summary;
    if (plan.ranCount() < plan.planned)
        summary += "; " + QString::fromStdString(plan.notRunText());
    finish(verdict.exitCode, summary + tr("; chart saved to %1").arg(m_options.exportPng));
}

void HeadlessRunner::finish(int exitCode, const QString& message)
{
    if (m_done)
        return;
    m_done = true;
    std::cerr << "asyncscope: " << message.toStdString() << '\n';
    emit finished(exitCode);
}

}  // namespace asyncscope
