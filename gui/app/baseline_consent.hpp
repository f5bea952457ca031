// The window's question when the baseline's configuration differs from the shown series' in ways that make the
// comparison one across configurations (BaselineController::consentNeeded): compare anyway, or not. It lists the
// differences, in a box that leaves the event loop running; Cancel takes a baseline not yet compared away, and
// otherwise declines. A question asked before the window shows is asked once it does; headless, nobody is asked: it
// is compared anyway, and the status line says so.
#pragma once

#include <QMessageBox>
#include <QObject>
#include <QPointer>

namespace asyncscope {

class SessionModel;

class BaselineConsent : public QObject {
    Q_OBJECT
public:
    BaselineConsent(SessionModel* session, QWidget* window, bool headless);

    // Asks again where the comparison still waits for an answer and the question was closed unanswered (true).
    bool askAgain();

private:
    void ask(bool justSet);

    SessionModel* m_session;
    QWidget* m_window;
    bool m_headless;
    QPointer<QMessageBox> m_question;  // open while it waits for an answer
    bool m_justSet = false;  // what the last question was asked with
};

}  // namespace asyncscope
