// What the pipeline panel's controls are made of: a spin box that says why it refuses a keystroke, tooltips that wrap,
// and combo boxes whose items carry an enum's value (choiceBox) read and set by that value.
#pragma once

#include <QComboBox>
#include <QSpinBox>
#include <QString>

#include <functional>

namespace asyncscope {

// Rich text wraps in a tooltip; plain text stays one line however long.
QString tip(const QString& text);

template <class Enum>
void selectData(QComboBox* box, Enum value)
{
    box->setCurrentIndex(box->findData(int(value)));
}

template <class Enum>
Enum dataOf(const QComboBox* box)
{
    return Enum(box->currentData().toInt());
}

// A spin box that says why it refuses a keystroke (a sign, a decimal point, a value out of range) instead of
// dropping it without a word: `refuse` is told, in a sentence that names the field (`what`).
class RefusingSpinBox final : public QSpinBox {
public:
    RefusingSpinBox(int low, int high, QString what, std::function<void(const QString&)> refuse);

protected:
    QValidator::State validate(QString& text, int& pos) const override;
    // Text that is no value yet (empty, a lone sign, out of range) when editing ends: refused, with the reason.
    void fixup(QString& text) const override;

private:
    QString rule() const;

    QString m_what;
    std::function<void(const QString&)> m_refuse;
};

}  // namespace asyncscope
