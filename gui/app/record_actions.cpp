#include "gui/app/record_actions.hpp"

#include "gui/app/file_actions.hpp"
#include "gui/app/record_dialog.hpp"
#include "gui/config/program_panel.hpp"
#include "gui/session/session_model.hpp"

#include "engine/model/cuda_versions.hpp"

#include "engine/model/program_info.hpp"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QProgressDialog>
#include <QStandardPaths>

namespace asyncscope {

RecordActions::RecordActions(const SessionModel* session, FileActions* files, QWidget* window)
    : QObject(window)
    , m_files(files)
    , m_window(window)
{
    connect(session, &SessionModel::discoveryFailed, this,
        [this](const Error& error) { m_deviceProblem = QString::fromStdString(plainSentence(error)); });
    connect(session, &SessionModel::devicesAvailable, this, [this] { m_deviceProblem.clear(); });
    connect(this, &RecordActions::done, files, &FileActions::done);
    connect(this, &RecordActions::problem, files, &FileActions::problem);
    connect(&m_recording, &ProgramRecording::finished, this, [this](const QString& path, const QString& summary) {
        if (m_progress)
            m_progress->deleteLater();
        emit done(summary);
        m_files->openSaved(path);
    });
    connect(&m_recording, &ProgramRecording::failed, this, [this](const QString& message) {
        if (m_progress)
            m_progress->deleteLater();
        emit problem(message);
    });
}

QString RecordActions::defaultFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
        .filePath(QStringLiteral("recordings"));
}

void RecordActions::connectTo(QAction* record, ProgramPanel* program)
{
    connect(record, &QAction::triggered, this, [this] { recordInteractive(defaultFolder()); });
    connect(program, &ProgramPanel::recordAgainRequested, this,
        [this](const RecordSettings& settings) { recordInteractive(defaultFolder(), settings); });
}

void RecordActions::recordInteractive(const QString& reportFolder, const std::optional<RecordSettings>& fields)
{
    if (m_recording.busy()) {
        emit problem(tr("A program is being recorded: stop it first."));
        return;
    }
    RecordDialog dialog(reportFolder, m_window);
    if (fields)
        dialog.startFrom(*fields);
    dialog.setDeviceProblem(m_deviceProblem);
    if (dialog.exec() == QDialog::Accepted)
        start(dialog.plan());
}

bool RecordActions::start(RecordingPlan plan)
{
    const QString command = QString::fromStdString(commandText(plan.request.command));
    const QString output = QDir::toNativeSeparators(outputPathFor(plan.reportPath));
    if (!m_recording.start(std::move(plan))) {
        emit problem(tr("A program is being recorded: stop it first."));
        return false;
    }
    m_progress = new QProgressDialog(
        tr("Recording %1\n\nIts output goes to %2.\nStop ends it as Ctrl+C would and keeps what was recorded.")
            .arg(command, output),
        tr("&Stop"), 0, 0, m_window);
    m_progress->setWindowTitle(tr("Recording a program"));
    m_progress->setMinimumDuration(0);
    m_progress->setAutoClose(false);
    m_progress->setAutoReset(false);
    connect(m_progress, &QProgressDialog::canceled, this, [this] {
        m_recording.stop();
        if (m_progress)
            emit done(tr("Stopping the program: what it recorded is kept…"));
    });
    m_progress->show();
    return true;
}

}  // namespace asyncscope
