#include "gui/app/baseline_consent.hpp"

#include "gui/session/session_model.hpp"

#include "engine/io/input_file.hpp"

#include <QPushButton>

namespace asyncscope {

BaselineConsent::BaselineConsent(SessionModel* session, QWidget* window, bool headless)
    : QObject(window)
    , m_session(session)
    , m_window(window)
    , m_headless(headless)
{
    connect(&m_session->baselines(), &BaselineController::consentNeeded, this, &BaselineConsent::ask);
}

bool BaselineConsent::askAgain()
{
    if (m_session->baselines().state() != BaselineController::State::NeedsConsent ||
        (m_question && m_question->isVisible()))
        return false;
    ask(m_justSet);
    return true;
}

void BaselineConsent::ask(bool justSet)
{
    m_justSet = justSet;
    if (m_question) {
        m_question->disconnect(this);  // of a series or a baseline no longer shown: its answer is not wanted
        m_question->close();
    }
    if (m_headless)
        return m_session->baselines().allow(false);  // nobody to ask; the status line says so
    if (!m_window->isVisible()) {
        // Asked as the window is built: asked once it shows, as a problem is.
        QMetaObject::invokeMethod(this, [this, justSet] {
            if (m_window->isVisible() && m_session->baselines().state() == BaselineController::State::NeedsConsent)
                ask(justSet);
        }, Qt::QueuedConnection);
        return;
    }
    const SavedRun* baseline = m_session->baseline();
    if (!baseline)
        return;
    QStringList blocking, listed;
    for (const ConfigDifference& d : m_session->baselines().differences()) {
        const QString line = tr("%1: %2 → %3")
                                 .arg(QString::fromStdString(d.field),
                                     d.baseline.empty() ? tr("(none)") : QString::fromStdString(d.baseline),
                                     d.current.empty() ? tr("(none)") : QString::fromStdString(d.current));
        (d.blocking ? blocking : listed) << QStringLiteral("• ") + line;
    }
    QString text = tr("The baseline %1 was measured in another configuration than the series shown:\n\n%2")
                       .arg(QString::fromStdString(shownPath(baseline->path.toStdString())), blocking.join(QLatin1Char('\n')));
    if (!listed.isEmpty())
        text += tr("\n\nAlso different, which a baseline comparison allows:\n%1").arg(listed.join(QLatin1Char('\n')));
    text += tr("\n\nA difference found may be the configuration's rather than a slowdown. Compare anyway?");
    auto* box =
        new QMessageBox(QMessageBox::Question, tr("Compare with baseline"), text, QMessageBox::NoButton, m_window);
    box->setObjectName(QStringLiteral("acrossConfigurations"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* anyway = box->addButton(tr("Compare anyway"), QMessageBox::AcceptRole);
    anyway->setObjectName(QStringLiteral("compareAnyway"));
    QPushButton* cancel = box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    connect(box, &QMessageBox::buttonClicked, this, [this, anyway, justSet](QAbstractButton* clicked) {
        if (m_session->baselines().state() != BaselineController::State::NeedsConsent)
            return;  // the series or the baseline changed meanwhile
        if (clicked == anyway)
            m_session->baselines().allow();
        else if (justSet)
            m_session->clearBaseline();  // never compared: Cancel takes it back
        else
            m_session->baselines().decline();
    });
    m_question = box;
    box->open();  // non-modal to the event loop: the run thread's results keep arriving
}

}  // namespace asyncscope
