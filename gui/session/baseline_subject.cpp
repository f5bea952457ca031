#include "gui/session/baseline_subject.hpp"

#include "gui/session/session_model.hpp"

#include <QFileInfo>

namespace asyncscope {

BaselineController::Subject baselineSubject(const SessionModel& session, const QString& shownFile)
{
    BaselineController::Subject subject;
    if (const SavedRun* base = session.baseline()) {
        subject.baseline = &base->report;
        subject.baselineSummary = base->prepared.summary ? &*base->prepared.summary : nullptr;
        subject.baselineName = QFileInfo(base->path).fileName().toStdString();
    }
    subject.shown = &session.report();
    subject.shownSummary = &session.summary();
    subject.measuring = session.isRunning();
    subject.shownName =
        shownFile.isEmpty() ? std::string("the series shown") : QFileInfo(shownFile).fileName().toStdString();
    return subject;
}

}  // namespace asyncscope
