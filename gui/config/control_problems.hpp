// Why input was refused, shown beside the control it concerns: a line under the control's row of the form that holds
// it, in the palette's problem colour, shown with the whole reason and hidden once the control's input is valid
// again. Each control has its own line, so a reason never sits under another control nor stays after its fix. A line
// has two reasons: a keystroke the control refused (its own, gone with the next keystroke it takes), and what checking
// its value with the rest found (the panel's, gone once the values fit); the keystroke's shows while there is one.
#pragma once

#include <QString>

#include <vector>

class QLabel;
class QPalette;
class QWidget;

namespace asyncscope {

class ControlProblems {
public:
    // A line for `control`, under its row in the QFormLayout that holds it (named "problem_" and the control's name),
    // hidden until show().
    void add(QWidget* control);
    // Why a keystroke in `control` was refused; empty once it takes one.
    void setTyped(QWidget* control, const QString& reason);
    // Why `control`'s value cannot be taken with the others'; empty where it can.
    void setChecked(QWidget* control, const QString& reason);
    // The reasons shown, a line each in the form's order; empty when every input is valid.
    QString text() const;
    // The lines' colour: the palette's problem colour (red, readable light or dark).
    void applyPalette(const QPalette& palette);

private:
    struct Line {
        QWidget* control;
        QLabel* label;
        QString typed, checked;
    };
    // Sets one of the reasons of `control`'s line, and shows the line's.
    void set(QWidget* control, QString Line::*reason, const QString& text);

    std::vector<Line> m_lines;
};

}  // namespace asyncscope
