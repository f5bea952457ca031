// What the window remembers between starts (QSettings): device by UUID, parameters, geometry, export choices.
// The window writes them as they change, so a crash or a kill loses nothing.
#pragma once

#include "engine/model/config.hpp"

#include <QByteArray>
#include <QSize>
#include <QString>

namespace asyncscope {

struct GuiSettings {
    PipelineConfig config;  // device index is not used: devices are remembered by UUID
    QString deviceUuid;
    QByteArray geometry;
    QString lastFolder;
    QSize exportSize { 1600, 900 };
};

GuiSettings defaultSettings();
GuiSettings loadSettings();
void saveSettings(const GuiSettings& settings);
void clearSettings();

}  // namespace asyncscope
