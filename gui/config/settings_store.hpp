// What the window remembers between starts (QSettings): device by UUID, parameters, geometry, export choices.
// The window writes them as they change, so a crash or a kill loses nothing.
#pragma once

#include "engine/model/config.hpp"

#include <QByteArray>
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace asyncscope {

// The window's look (gui/app/theme.hpp): the desktop's, or light or dark on Fusion with the app's own palette.
enum class Theme { System, Light, Dark };
QString themeKey(Theme theme);  // "system", "light", "dark": as settings and the command line spell them
std::optional<Theme> themeFromKey(const QString& key);  // any case
QStringList themeKeys();

struct GuiSettings {
    PipelineConfig config;  // device index is not used: devices are remembered by UUID
    QString deviceUuid;
    QByteArray geometry;
    QString lastFolder;
    QSize exportSize { 1600, 900 };
    Theme theme = Theme::System;
    // How the run charts draw runs ("automatic", "lines" or "density") and whether CPU submit time has its own axis.
    QString runChartStyle = QStringLiteral("automatic");
    bool cpuOwnAxis = true;
};

GuiSettings defaultSettings();
// The settings stored, each value that is not one the window takes replaced by its default; all defaults where
// settingsFileProblem() finds one.
GuiSettings loadSettings();
// Empty, or why the settings files cannot be used: one of them is there but is not a regular file (a directory, a
// FIFO that would block the read for ever, a device). The window then starts from the defaults and saves nothing.
QString settingsFileProblem();
void saveSettings(const GuiSettings& settings);
void clearSettings();

}  // namespace asyncscope
