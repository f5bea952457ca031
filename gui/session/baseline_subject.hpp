// What the baseline's comparison (BaselineController) looks at in a session: the baseline and the series shown, each
// with its summary, whether the series is still being measured, and both as a refusal names them (their files').
#pragma once

#include "gui/session/baseline_controller.hpp"

#include <QString>

namespace asyncscope {

class SessionModel;

// `shownFile`: the saved series' file where one is shown; empty for a series measured here ("the series shown").
BaselineController::Subject baselineSubject(const SessionModel& session, const QString& shownFile);

}  // namespace asyncscope
