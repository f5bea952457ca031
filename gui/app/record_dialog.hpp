// File › Record a program…: what to run under the recorder and how to find its iterations. Each control's problem
// shows under it (a program that is not there or not executable, a folder that is not one, an environment line that
// is not NAME=VALUE, a report path that cannot take the report, its recording and output, a stop time that is no
// duration), and Record takes nothing until every one is valid. The report path is checked as it is typed; another
// field, once Record found a problem in it, is checked again as it is corrected. Where no GPU can run here, a line
// above the fields says so before anything is recorded. What was typed is kept for the next time, with the programs
// recorded lately.
#pragma once

#include "gui/config/control_problems.hpp"
#include "gui/config/record_settings.hpp"
#include "gui/session/program_recording.hpp"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QToolButton;

namespace asyncscope {

class RecordDialog : public QDialog {
    Q_OBJECT
public:
    // Reports are suggested in `reportFolder`, named for the program and the time. The fields start as the last
    // recording left them (loadRecordSettings()).
    RecordDialog(const QString& reportFolder, QWidget* parent = nullptr);

    // The fields as `settings` has them (a recorded program's, to record it again), the report named for its program.
    void startFrom(const RecordSettings& settings);
    // Why a program's CUDA calls will fail here (no driver, no GPU), shown above the fields; empty: hidden.
    void setDeviceProblem(const QString& sentence);
    QString deviceProblem() const;

    // What to record: valid once the dialog was accepted (check() said so).
    RecordingPlan plan() const;
    // Checks every control, showing each one's problem under it; true where all are valid.
    bool check();
    // The reasons shown, a line each (for the tests and the status line).
    QString problemsText() const { return m_problems.text(); }
    // The fields as the settings keep them, the program recorded first among the recent ones.
    RecordSettings remembered() const;

    QLineEdit* program() const { return m_program; }
    QToolButton* recentPrograms() const { return m_recent; }
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
    void fill(const RecordSettings& settings);
    void record();  // Record: checked, remembered, accepted; or each problem shown under its control
    // Each control's own check, its problem shown under it: true where valid.
    bool checkProgram();  // with the folder it is looked for in
    bool checkFolder();
    bool checkArguments();
    bool checkEnvironment();
    bool checkReport();

    QString m_reportFolder;
    bool m_reportEdited = false;
    bool m_checked = false;  // Record was pressed: the fields are checked as they change
    QLabel* m_device = nullptr;
    QLineEdit* m_program = nullptr;
    QToolButton* m_recent = nullptr;
    QStringList m_recentPrograms;
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
