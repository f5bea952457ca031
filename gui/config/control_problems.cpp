#include "gui/config/control_problems.hpp"

#include "gui/charts/kind_colours.hpp"

#include <QFormLayout>
#include <QLabel>

namespace asyncscope {

void ControlProblems::add(QWidget* control)
{
    auto* line = new QLabel;
    line->setObjectName(QStringLiteral("problem_") + control->objectName());
    line->setWordWrap(true);
    line->setTextFormat(Qt::PlainText);
    line->hide();
    // The row under the control's, in the form that holds it.
    auto* form = control->parentWidget() ? qobject_cast<QFormLayout*>(control->parentWidget()->layout()) : nullptr;
    int row = -1;
    QFormLayout::ItemRole role = QFormLayout::FieldRole;
    if (form)
        form->getWidgetPosition(control, &row, &role);
    Q_ASSERT(row >= 0);  // every control given is a row of a form
    if (form && row >= 0)
        form->insertRow(row + 1, line);
    m_lines.push_back({ control, line, {}, {} });
}

void ControlProblems::set(QWidget* control, QString Line::*reason, const QString& text)
{
    for (Line& line : m_lines) {
        if (line.control != control)
            continue;
        line.*reason = text;
        const QString& shown = line.typed.isEmpty() ? line.checked : line.typed;
        line.label->setText(shown);
        line.label->setVisible(!shown.isEmpty());
    }
}

void ControlProblems::setTyped(QWidget* control, const QString& reason)
{
    set(control, &Line::typed, reason);
}

void ControlProblems::setChecked(QWidget* control, const QString& reason)
{
    set(control, &Line::checked, reason);
}

QString ControlProblems::text() const
{
    QStringList shown;
    for (const Line& line : m_lines) {
        if (!line.label->isHidden())
            shown << line.label->text();
    }
    return shown.join(QLatin1Char('\n'));
}

void ControlProblems::applyPalette(const QPalette& palette)
{
    for (const Line& line : m_lines)
        showAsProblem(*line.label, palette);
}

}  // namespace asyncscope
