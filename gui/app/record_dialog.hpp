// File › Record a program…: what to run under the recorder and how to find its iterations. Each control's problem
// shows under it (a program that is not there or not executable, a folder that is not one, an environment line that
// is not NAME=VALUE, a report that cannot be written), and Record takes nothing until
// every one is valid. The program's output and its recording are kept beside the report.
#pragma once

#include "gui/config/control_problems.hpp"
#include "gui/session/program_recording.hpp"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;

namespace asyncscope {

class RecordDialog : public QDialog {
    Q_OBJECT
public:
    // Reports are suggested in `reportFolder`, named for the program and the time.
    RecordDialog(const QString& reportFolder, QWidget* parent = nullptr);

    // What to record: valid once the dialog was accepted (check() said so).
    RecordingPlan plan() const;
    // Checks every control, showing each one's problem under it; true where all are valid.
    bool check();
    // The reasons shown, a line each (for the tests and the status line).
    QString problemsText() const { return m_problems.text(); }

    QLineEdit* program() const { return m_program; }
    QLineEdit* arguments() const { return m_arguments; }
    QLineEdit* folder() const { return m_folder; }
    QPlainTextEdit* environment() const { return m_environment; }
    QComboBox* iterations() const { return m_iterations; }
    QLineEdit* rangeName() const { return m_rangeName; }
    QDoubleSpinBox* duration() const { return m_duration; }
    QLineEdit* reportPath() const { return m_report; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void suggestReportName();

    QString m_reportFolder;
    bool m_reportEdited = false;
    QLineEdit* m_program = nullptr;
    QLineEdit* m_arguments = nullptr;
    QLineEdit* m_folder = nullptr;
    QPlainTextEdit* m_environment = nullptr;
    QComboBox* m_iterations = nullptr;
    QLineEdit* m_rangeName = nullptr;
    QDoubleSpinBox* m_duration = nullptr;
    QLineEdit* m_report = nullptr;
    ControlProblems m_problems;
};

}  // namespace asyncscope
