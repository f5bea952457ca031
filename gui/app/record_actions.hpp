// File › Record a program…: the dialog, then the program recorded off the window's thread with a dialog that says
// what runs and offers Stop, then its report opened as a saved series (runs, timeline with the program's streams,
// advice). The status line says how the program ended, how many iterations it gave and where its output is.
#pragma once

#include "gui/config/record_settings.hpp"
#include "gui/session/program_recording.hpp"

#include <QObject>
#include <QPointer>

#include <optional>

class QAction;
class QProgressDialog;
class QWidget;

namespace asyncscope {

class FileActions;
class ProgramPanel;
class SessionModel;

class RecordActions : public QObject {
    Q_OBJECT
public:
    // Says why no GPU can run, where `session`'s search for GPUs found none, in the dialog before recording.
    RecordActions(const SessionModel* session, FileActions* files, QWidget* window);

    // File › Record a program… and a program panel's "Record again…": recordInteractive() in the default folder, the
    // dialog filled as it was left, or with the program shown.
    void connectTo(QAction* record, ProgramPanel* program);
    // Asks what to record (reports suggested in `reportFolder`; the fields as `fields` has them, else as the dialog
    // was left) and starts it.
    void recordInteractive(const QString& reportFolder, const std::optional<RecordSettings>& fields = std::nullopt);
    // Starts recording `plan` (the dialog's, or a test's); false, with problem(), while one is under way.
    bool start(RecordingPlan plan);
    ProgramRecording& recording() { return m_recording; }

    // Where reports are suggested: the user's data folder for AsyncScope, recordings/.
    static QString defaultFolder();

signals:  // passed on as the file actions' own
    void done(const QString& message);
    void problem(const QString& message);

private:
    FileActions* m_files;
    QWidget* m_window;
    ProgramRecording m_recording;
    QString m_deviceProblem;  // why no GPU can run here; empty: one answered, or the search has not ended
    QPointer<QProgressDialog> m_progress;
};

}  // namespace asyncscope
