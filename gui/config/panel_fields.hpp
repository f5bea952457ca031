// What the pipeline panel's controls are made of: a spin box that says why it refuses a keystroke, tooltips that wrap,
// and combo boxes whose items carry an enum's value (choiceBox) read and set by that value.
#pragma once

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontMetrics>
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

// `text` as it fits `width` pixels in `metrics`: whole, or cut after its last whole word that fits with an ellipsis
// ("pinned …" for "pinned (cudaMallocHost)"), or, where not even its first word fits, cut within it.
QString elidedAtWord(const QString& text, const QFontMetrics& metrics, int width);

// A combo box whose closed box, too narrow for the choice, cuts it after a whole word, not in the middle of one; its
// open list shows every choice whole.
class WordComboBox final : public QComboBox {
public:
    using QComboBox::QComboBox;
    // The current choice as the closed box shows it now.
    QString shownText() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int textWidth() const;  // the room for the choice's text in the closed box
};

// Told why a control's input was refused, in a sentence that names the control; an empty reason: its input is valid
// again.
using RefuseInput = std::function<void(QWidget* control, const QString& reason)>;

// A spin box that says why it refuses a keystroke (a sign, a decimal point, a value out of range) instead of
// dropping it without a word: `refuse` is told, naming the field (`what`) and quoting the whole text refused, and
// told again, with no reason, once the text is a value.
class RefusingSpinBox final : public QSpinBox {
public:
    RefusingSpinBox(int low, int high, QString what, RefuseInput refuse);

protected:
    QValidator::State validate(QString& text, int& pos) const override;
    // Text that is no value yet (empty, a lone sign, out of range) when editing ends: refused, with the reason.
    void fixup(QString& text) const override;

private:
    QString rule() const;

    QString m_what;
    RefuseInput m_refuse;
};

// The same for a number with decimals ("Stop after", in seconds): a keystroke refused (a minus sign, a letter, a value
// beyond the range) is said with the field's rule and what the field keeps, never dropped without a word.
class RefusingDoubleSpinBox final : public QDoubleSpinBox {
public:
    RefusingDoubleSpinBox(double low, double high, QString what, RefuseInput refuse);

protected:
    QValidator::State validate(QString& text, int& pos) const override;
    void fixup(QString& text) const override;

private:
    QString rule() const;
    QString kept() const;  // the value as the field shows it: its special text ("when it ends") at the minimum

    QString m_what;
    RefuseInput m_refuse;
};

}  // namespace asyncscope
