#include "gui/files/load_progress.hpp"

#include "gui/session/session_model.hpp"

#include <QFileInfo>
#include <QProgressDialog>

namespace asyncscope {

namespace {

constexpr int kSteps = 1000;          // the bar's resolution: a tenth of a percent
constexpr int kShowAfterMs = 400;     // a read that ends sooner shows nothing

}  // namespace

LoadProgress::LoadProgress(SessionModel* session, QWidget* window)
    : QObject(window)
    , m_session(session)
    , m_window(window)
{
    connect(session, &SessionModel::loadStarted, this, &LoadProgress::onStarted);
    connect(session, &SessionModel::loadProgress, this, [this](double fraction) {
        if (m_dialog)
            m_dialog->setValue(int(fraction * (kSteps - 1)));  // the maximum would close it before the runs are in
    });
    connect(session, &SessionModel::savedLoaded, this, &LoadProgress::onEnded);
    connect(session, &SessionModel::comparisonOpened, this, &LoadProgress::onEnded);
    connect(session, &SessionModel::loadFailed, this, &LoadProgress::onEnded);
}

void LoadProgress::onStarted(const QString& path)
{
    onEnded();
    auto* dialog = new QProgressDialog(tr("Reading %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, kSteps,
        m_window);
    dialog->setObjectName(QStringLiteral("loadProgress"));
    dialog->setWindowTitle(tr("Opening a saved run"));
    dialog->setWindowModality(Qt::NonModal);  // the window stays usable: other tabs, zoom, even another run
    dialog->setMinimumDuration(kShowAfterMs);
    dialog->setAutoReset(false);
    dialog->setAutoClose(false);
    dialog->setValue(0);
    connect(dialog, &QProgressDialog::canceled, m_session, &SessionModel::cancelLoad);
    m_dialog = dialog;
}

void LoadProgress::onEnded()
{
    if (!m_dialog)
        return;
    QProgressDialog* dialog = m_dialog;
    m_dialog = nullptr;
    dialog->disconnect(this);
    dialog->disconnect(m_session);
    dialog->close();
    dialog->deleteLater();
}

}  // namespace asyncscope
