// The app driven from its command line with no one at the window (--export-png): start once the devices are known
// and the saved runs asked for are read, wait for the plan to end, save the screenshot and the chart, and say how it
// went with an exit code. With --open no plan runs and no GPU is needed: once the saved series is read, its chart is
// saved. Every way it can end (no driver, a file that cannot be read, a refused start, a failed or cancelled run,
// nothing that fits) finishes with a message. Where it ends with a summary of the series or comparison shown, the
// advice on it follows on standard output, as the CLI prints it.
#pragma once

#include "gui/app/app_options.hpp"

#include "engine/run/device_plan.hpp"
#include "engine/run/plan.hpp"

#include <QObject>

#include <QStringList>

#include <functional>
#include <optional>

class QWidget;

namespace asyncscope {

class AllGpusPanel;
class SessionModel;

class HeadlessRunner : public QObject {
    Q_OBJECT
public:
    // `makePlan` builds the plan from the window's configuration when the devices are known; `window` is what the
    // screenshot shows. `refusedFiles` are the files of the command line refused at once (`openRefused`: the one to
    // open among them). A file that could not be used, refused at once or read and found wrong, costs only itself:
    // once every file asked for has been read or refused, the run goes on with the others (none when the one to open
    // failed) and ends with exit code 2, each file that could not be used named.
    // `exportTimeline` writes the last run's timeline to a path at a pixel size and says why not (--export-timeline).
    HeadlessRunner(AppOptions options, SessionModel* session, QWidget* window,
        std::function<Result<Plan>()> makePlan, std::function<QString(const QString&, QSize)> exportTimeline,
        QStringList refusedFiles, bool openRefused, QObject* parent = nullptr);

    // With --all-gpus: the series runs on every GPU through `panel`, and the chart exported is theirs.
    void runAllGpus(AllGpusPanel* panel);

signals:
    // Once, with the exit status and the line written on standard error.
    void finished(int exitCode, const QString& message);

private:
    void proceed();  // starts the plan, or saves the saved series' chart, once what it waits for is there
    void start();
    void saveShown(const QString& summary);
    void saveComparison();  // the saved comparison opened (m_comparisonPath): its chart
    QString savePictures();  // the screenshot and the timeline asked for; empty, or why one could not be written
    void onPlanFinished(const PlanReport& plan);
    void onHostFinished(const HostReport& host);
    void finish(int exitCode, const QString& message);
    void keepAdvice();  // the advice on what the session shows, printed as it finishes
    QString baselineSummary() const;  // "; Baseline a.json: GPU time slower by …", or empty without a baseline

    AppOptions m_options;
    SessionModel* m_session;
    QWidget* m_window;
    std::function<Result<Plan>()> m_makePlan;
    std::function<QString(const QString&, QSize)> m_exportTimeline;
    QStringList m_fileProblems;  // the saved runs asked for that could not be read, each with why
    bool m_openFailed = false;   // the one --open names among them
    QString m_comparisonPath;     // --open named a comparison of several variants, now opened
    std::optional<Error> m_searchFailure;  // why no device was found, where none was
    QString m_advice;  // printed after the summary
    AllGpusPanel* m_allGpus = nullptr;
    bool m_devicesKnown = false;
    bool m_searchEnded = false;  // the device search found devices or said why there are none
    bool m_started = false;
    bool m_done = false;
};

}  // namespace asyncscope
