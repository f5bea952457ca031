// The Help menu's pages as rich text: a guide to what the window shows, every keyboard shortcut, the licence.
#pragma once

#include <QList>
#include <QString>

class QAction;

namespace asyncscope {

QString guidePage();
// The window's actions with their shortcuts, then the chart's own keys and mouse.
QString shortcutsPage(const QList<QAction*>& actions);
QString licencePage();

}  // namespace asyncscope
