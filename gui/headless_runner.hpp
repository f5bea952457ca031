// The app driven from its command line with no one at the window (--export-png): start once the devices are known,
// wait for the plan to end, save the screenshot and the chart, and say how it went with an exit code. Every way it
// can end (no driver, a refused start, a failed or cancelled run, nothing that fits) finishes with a message.
#pragma once

#include "gui/app_options.hpp"

#include "engine/run/plan.hpp"

#include <QObject>

#include <functional>

class QWidget;

namespace asyncscope {

class SessionModel;

class HeadlessRunner : public QObject {
    Q_OBJECT
public:
    // `makePlan` builds the plan from the window's configuration when the devices are known; `window` is what the
    // screenshot shows. `startupProblem` (an overlay that could not be read) ends the run with exit code 2.
    HeadlessRunner(AppOptions options, SessionModel* session, QWidget* window,
        std::function<Result<Plan>()> makePlan, QString startupProblem, QObject* parent = nullptr);

signals:
    void finished(int exitCode);

private:
    void start();
    void onPlanFinished(const PlanReport& plan);
    void finish(int exitCode, const QString& message);

    AppOptions m_options;
    SessionModel* m_session;
    QWidget* m_window;
    std::function<Result<Plan>()> m_makePlan;
    QString m_startupProblem;
    bool m_done = false;
};

}  // namespace asyncscope
