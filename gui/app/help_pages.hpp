// The Help menu's pages as rich text: a guide to what the window shows, the memory lab's results, every keyboard
// shortcut, the licence.
#pragma once

#include <QList>
#include <QString>

class QAction;

namespace asyncscope {

// `canRun`: a GPU here can run; without one, saved runs come first.
QString guidePage(bool canRun);
// The memory lab's results (Compare › Memory) explained: each kind of host memory, the copy mechanisms, batch
// submission and how to read the bound ratio.
QString memoryLabPage();
// The window's actions with their shortcuts, then the chart's own keys and mouse.
QString shortcutsPage(const QList<QAction*>& actions);
QString licencePage();

}  // namespace asyncscope
