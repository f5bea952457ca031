#include "gui/config/panel_fields.hpp"

#include <QStyleOptionComboBox>
#include <QStylePainter>

namespace asyncscope {

QString tip(const QString& text)
{
    return QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped());
}

QString elidedAtWord(const QString& text, const QFontMetrics& metrics, int width)
{
    if (metrics.horizontalAdvance(text) <= width)
        return text;
    const QString ellipsis = QStringLiteral(" …");
    // The most whole words that fit with the ellipsis.
    QString fitting;
    for (qsizetype at = text.indexOf(QLatin1Char(' ')); at > 0; at = text.indexOf(QLatin1Char(' '), at + 1)) {
        const QString words = text.left(at);
        if (metrics.horizontalAdvance(words + ellipsis) > width)
            break;
        fitting = words;
    }
    return fitting.isEmpty() ? metrics.elidedText(text, Qt::ElideRight, width) : fitting + ellipsis;
}

int WordComboBox::textWidth() const
{
    QStyleOptionComboBox option;
    initStyleOption(&option);
    const QRect field = style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
    return field.width() - 4;  // the label's own margin
}

QString WordComboBox::shownText() const
{
    return elidedAtWord(currentText(), fontMetrics(), textWidth());
}

void WordComboBox::paintEvent(QPaintEvent*)
{
    // As QComboBox paints itself, its text cut at a word first (the style would cut it anywhere).
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    option.currentText = shownText();
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

RefusingSpinBox::RefusingSpinBox(int low, int high, QString what, RefuseInput refuse)
    : m_what(std::move(what))
    , m_refuse(std::move(refuse))
{
    setRange(low, high);
}

QValidator::State RefusingSpinBox::validate(QString& text, int& pos) const
{
    const QValidator::State state = QSpinBox::validate(text, pos);
    auto* self = const_cast<RefusingSpinBox*>(this);  // the control whose line says it
    if (state == QValidator::Invalid)
        m_refuse(self, tr("%1: '%2' is not one, so it stays '%3'.").arg(rule(), text, cleanText()));
    else if (state == QValidator::Acceptable)
        m_refuse(self, {});
    return state;
}

void RefusingSpinBox::fixup(QString& text) const
{
    m_refuse(const_cast<RefusingSpinBox*>(this),
        tr("%1, not '%2'; it stays %3.").arg(rule(), text, locale().toString(value())));
    QSpinBox::fixup(text);
}

QString RefusingSpinBox::rule() const
{
    return tr("%1 takes whole numbers from %2 to %3")
        .arg(m_what, locale().toString(minimum()), locale().toString(maximum()));
}

RefusingDoubleSpinBox::RefusingDoubleSpinBox(double low, double high, QString what, RefuseInput refuse)
    : m_what(std::move(what))
    , m_refuse(std::move(refuse))
{
    setRange(low, high);
}

QValidator::State RefusingDoubleSpinBox::validate(QString& text, int& pos) const
{
    QValidator::State state = QDoubleSpinBox::validate(text, pos);
    // A sign where no value below 0 is taken: QDoubleSpinBox lets it stand as a start, to be dropped at the end.
    if (minimum() >= 0.0 && text.trimmed().startsWith(locale().negativeSign()))
        state = QValidator::Invalid;
    auto* self = const_cast<RefusingDoubleSpinBox*>(this);
    const QString typed = !suffix().isEmpty() && text.endsWith(suffix()) ? text.chopped(suffix().size()) : text;
    if (state == QValidator::Invalid)
        m_refuse(self, tr("%1: '%2' is not one, so it stays '%3'.").arg(rule(), typed.trimmed(), kept()));
    else if (state == QValidator::Acceptable)
        m_refuse(self, {});
    return state;
}

void RefusingDoubleSpinBox::fixup(QString& text) const
{
    m_refuse(const_cast<RefusingDoubleSpinBox*>(this), tr("%1, not '%2'; it stays '%3'.").arg(rule(), text, kept()));
    QDoubleSpinBox::fixup(text);
}

QString RefusingDoubleSpinBox::rule() const
{
    const QString range = tr("%1 takes numbers from %2 to %3")
                              .arg(m_what, locale().toString(minimum()), locale().toString(maximum()));
    return specialValueText().isEmpty() ? range : tr("%1 (%2: %3)").arg(range, locale().toString(minimum()),
                                                      specialValueText());
}

QString RefusingDoubleSpinBox::kept() const
{
    return value() == minimum() && !specialValueText().isEmpty() ? specialValueText() : text();
}

}  // namespace asyncscope
