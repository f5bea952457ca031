#include "gui/config/panel_fields.hpp"

namespace asyncscope {

QString tip(const QString& text)
{
    return QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped());
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

}  // namespace asyncscope
