// What the window remembers between starts (QSettings): device by UUID, parameters, geometry, export choices.
#pragma once

#include "engine/model/config.hpp"

#include <QByteArray>
#include <QSize>
#include <QString>

namespace asyncscope {

enum class SizeUnit { Elements = 0, KiB = 1, MiB = 2, GiB = 3 };

struct GuiSettings {
    PipelineConfig config;  // device index is not used: devices are remembered by UUID
    QString deviceUuid;
    SizeUnit sizeUnit = SizeUnit::MiB;
    QByteArray geometry;
    QString lastFolder;
    QSize exportSize { 1600, 900 };
};

GuiSettings defaultSettings();
GuiSettings loadSettings();
void saveSettings(const GuiSettings& settings);
void clearSettings();

}  // namespace asyncscope
