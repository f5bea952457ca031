// The left panel while a recorded program's report is shown (ShownSource::program()): the program, not the pipeline's
// settings. What ran (its path and arguments), in which folder, how its iterations were found, how it ended (its exit
// status, the signal that ended it, or that the recorder stopped it), the GPU its work ran on, and its processes and
// threads where the report lists them; nothing of it editable. "Record again…" asks for the record dialog filled with
// the same settings; "Pipeline settings" for the pipeline's own panel.
#pragma once

#include "gui/config/record_settings.hpp"

#include <QGroupBox>

class QFormLayout;
class QLabel;
class QPushButton;

namespace asyncscope {

class ShownSource;

class ProgramPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit ProgramPanel(QWidget* parent = nullptr);

    // Shows `source`'s program (nothing where it has none).
    void showProgram(const ShownSource& source);
    // A row's value as shown ("Command", "Ended", "Threads" …); empty where the row is not shown.
    QString rowText(const QString& row) const;
    // The record dialog's fields for recording the program shown again.
    const RecordSettings& again() const { return m_again; }

signals:
    void recordAgainRequested(const asyncscope::RecordSettings& settings);
    void pipelineRequested();

private:
    // Sets the row named `row` to `text`; hidden where `text` is empty.
    void setRow(const QString& row, const QString& text);

    QLabel* m_note = nullptr;
    QFormLayout* m_rows = nullptr;
    QPushButton* m_recordAgain = nullptr;
    RecordSettings m_again;
};

}  // namespace asyncscope
