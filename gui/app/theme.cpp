#include "gui/app/theme.hpp"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace asyncscope {

namespace {

// What the application had before a theme was first applied: System returns to it.
struct Start {
    QString style;
    QPalette palette;
};

const Start& start()
{
    static const Start s { QApplication::style() ? QApplication::style()->name() : QString(), QApplication::palette() };
    return s;
}

void setColours(QPalette& p, QPalette::ColorGroup group, const QColor& window, const QColor& base,
    const QColor& alternate, const QColor& text, const QColor& button, const QColor& highlight)
{
    p.setColor(group, QPalette::Window, window);
    p.setColor(group, QPalette::WindowText, text);
    p.setColor(group, QPalette::Base, base);
    p.setColor(group, QPalette::AlternateBase, alternate);
    p.setColor(group, QPalette::Text, text);
    p.setColor(group, QPalette::Button, button);
    p.setColor(group, QPalette::ButtonText, text);
    p.setColor(group, QPalette::BrightText, QColor(255, 80, 80));
    p.setColor(group, QPalette::Highlight, highlight);
    p.setColor(group, QPalette::HighlightedText, QColor(255, 255, 255));
    p.setColor(group, QPalette::ToolTipBase, base);
    p.setColor(group, QPalette::ToolTipText, text);
    // A placeholder stands back from the text, towards the field's background, in every group: a disabled field's
    // is dimmer than its disabled text, never brighter.
    const auto towardBase = [&](int textPart, int basePart) { return (textPart * 13 + basePart * 7) / 20; };
    p.setColor(group, QPalette::PlaceholderText,
        QColor(towardBase(text.red(), base.red()), towardBase(text.green(), base.green()),
            towardBase(text.blue(), base.blue())));
    p.setColor(group, QPalette::Light, button.lighter(150));
    p.setColor(group, QPalette::Midlight, button.lighter(125));
    p.setColor(group, QPalette::Mid, button.darker(130));
    p.setColor(group, QPalette::Dark, button.darker(180));
    p.setColor(group, QPalette::Shadow, QColor(0, 0, 0));
}

}  // namespace

QPalette lightPalette()
{
    QPalette p;
    const QColor text(20, 20, 20);
    const QColor highlight(48, 120, 198);
    setColours(p, QPalette::Active, QColor(239, 239, 239), Qt::white, QColor(246, 246, 246), text,
        QColor(239, 239, 239), highlight);
    setColours(p, QPalette::Inactive, QColor(239, 239, 239), Qt::white, QColor(246, 246, 246), text,
        QColor(239, 239, 239), highlight);
    setColours(p, QPalette::Disabled, QColor(239, 239, 239), QColor(239, 239, 239), QColor(246, 246, 246),
        QColor(150, 150, 150), QColor(239, 239, 239), QColor(145, 145, 145));
    p.setColor(QPalette::All, QPalette::Link, QColor(0, 90, 180));
    p.setColor(QPalette::All, QPalette::LinkVisited, QColor(110, 60, 170));
    return p;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(45, 45, 48);
    const QColor base(30, 30, 32);
    const QColor alternate(40, 40, 43);
    const QColor text(230, 230, 230);
    const QColor button(55, 55, 58);
    const QColor highlight(42, 130, 218);
    setColours(p, QPalette::Active, window, base, alternate, text, button, highlight);
    setColours(p, QPalette::Inactive, window, base, alternate, text, button, highlight);
    setColours(p, QPalette::Disabled, window, window, alternate, QColor(125, 125, 125), button, QColor(80, 80, 80));
    p.setColor(QPalette::All, QPalette::Link, QColor(110, 170, 255));
    p.setColor(QPalette::All, QPalette::LinkVisited, QColor(190, 150, 255));
    return p;
}

void applyTheme(Theme theme)
{
    const Start& s = start();  // read before the first change
    if (theme == Theme::System) {
        if (QApplication::style()->name() == s.style && QApplication::palette() == s.palette)
            return;  // as it started: nothing to give back, no widget told of a change
        if (QApplication::style()->name() != s.style) {
            if (QStyle* style = QStyleFactory::create(s.style))
                QApplication::setStyle(style);
        }
        QApplication::setPalette(s.palette);
        return;
    }
    if (QApplication::style()->name().compare(QStringLiteral("fusion"), Qt::CaseInsensitive) != 0) {
        if (QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion")))  // built into Qt; never absent
            QApplication::setStyle(fusion);
    }
    QApplication::setPalette(theme == Theme::Dark ? darkPalette() : lightPalette());
}

}  // namespace asyncscope
