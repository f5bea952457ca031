// The file dialogs of the window: where to save an export, which saved run to overlay. Each opens in the folder
// of the last file chosen and remembers the new one in the settings.
#pragma once

#include "gui/settings_store.hpp"

#include <QString>

class QWidget;

namespace asyncscope {

// Empty when the user cancels.
QString askSavePath(QWidget* parent, GuiSettings& settings, const QString& title, const QString& name,
    const QString& filter);
QString askOverlayPath(QWidget* parent, GuiSettings& settings);

}  // namespace asyncscope
