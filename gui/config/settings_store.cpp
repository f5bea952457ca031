#include "gui/config/settings_store.hpp"

#include "engine/model/record_rules.hpp"

#include "engine/io/input_file.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace asyncscope {

namespace {

// A choice by its name in the engine's table. An unknown name (an edited file, another version) keeps the default
// and says so once on the log, naming the file, the key and what it accepts.
template <class Enum>
Enum choice(const QSettings& q, const QString& key, Enum fallback)
{
    const QVariant stored = q.value(key);
    if (!stored.isValid())
        return fallback;
    if (const auto value = parseName<Enum>(stored.toString().toStdString()))
        return *value;
    qWarning("AsyncScope: %s: %s is '%s', not %s; using %s", qPrintable(q.fileName()), qPrintable(key),
        quotedValue(stored.toString().toStdString()).c_str(), acceptedNames<Enum>().c_str(), nameOf(fallback));
    return fallback;
}

}  // namespace

QString themeKey(Theme theme)
{
    switch (theme) {
    case Theme::Light: return QStringLiteral("light");
    case Theme::Dark: return QStringLiteral("dark");
    case Theme::System: break;
    }
    return QStringLiteral("system");
}

std::optional<Theme> themeFromKey(const QString& key)
{
    for (Theme t : { Theme::System, Theme::Light, Theme::Dark })
        if (key.compare(themeKey(t), Qt::CaseInsensitive) == 0)
            return t;
    return std::nullopt;
}

QStringList themeKeys()
{
    return { themeKey(Theme::System), themeKey(Theme::Light), themeKey(Theme::Dark) };
}

GuiSettings defaultSettings()
{
    GuiSettings s;
    s.config.runs = 50;
    s.lastFolder = QDir::homePath();
    return s;
}

QString settingsFileProblem()
{
    // Where QSettings looks for the user's settings (INI files under the configuration folder): the application's
    // file and its organisation's. Looked at before QSettings opens them, which it does as it is made.
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    const QString organisation = QCoreApplication::organizationName();
    const QString application = QCoreApplication::applicationName();
    for (const QString& path : { folder + '/' + organisation + '/' + application + QStringLiteral(".conf"),
             folder + '/' + organisation + QStringLiteral(".conf") }) {
        if (!QFileInfo::exists(path) && !QFileInfo(path).isSymLink())
            continue;  // none yet: the first save makes it
        if (const Status unusable = checkReadableFile(QFile::encodeName(path).toStdString()))
            return QString::fromStdString(unusable->message());
    }
    return {};
}

GuiSettings loadSettings()
{
    const GuiSettings d = defaultSettings();
    if (!settingsFileProblem().isEmpty())
        return d;
    QSettings q;
    GuiSettings s = d;
    s.deviceUuid = q.value("device/uuid").toString();
    s.config.elements = q.value("run/elements", qulonglong(d.config.elements)).toULongLong();
    s.config.value = q.value("run/value", d.config.value).toInt();
    s.config.runs = q.value("run/runs", d.config.runs).toInt();
    s.config.warmupRuns = q.value("run/warmup", d.config.warmupRuns).toInt();
    s.config.chunks = q.value("run/chunks", d.config.chunks).toInt();
    s.config.streams = q.value("run/streams", d.config.streams).toInt();
    s.config.order = choice(q, "run/order", d.config.order);
    s.config.submission = choice(q, "run/submission", d.config.submission);
    s.config.hostMemory = choice(q, "run/hostMemory", d.config.hostMemory);
    s.config.copy = choice(q, "run/copy", d.config.copy);
    s.config.managedMigration = choice(q, "run/managedMigration", d.config.managedMigration);
    s.config.managedAdvice = choice(q, "run/managedAdvice", d.config.managedAdvice);
    s.config.preferOverlap = q.value("run/preferOverlap", d.config.preferOverlap).toBool();
    s.config.waitMode = choice(q, "run/wait", d.config.waitMode);
    s.config.checkMode = choice(q, "run/check", d.config.checkMode);
    s.config.stageEvents = q.value("run/stageEvents", d.config.stageEvents).toBool();
    s.config.traceSource = choice(q, "run/traceSource", d.config.traceSource);
    s.config.stopRule = choice(q, "run/stopRule", d.config.stopRule);
    s.config.targetNoisePercent = q.value("run/noiseTarget", d.config.targetNoisePercent).toDouble();
    s.geometry = q.value("window/geometry").toByteArray();
    s.lastFolder = q.value("export/lastFolder", d.lastFolder).toString();
    // A folder that is gone or not writable (a kernel file system, an unmounted disk) would open every file dialog
    // in a place that cannot take a file, or hang it: such a folder is forgotten.
    const QFileInfo folder(s.lastFolder);
    const QString where = folder.absoluteFilePath();
    if (!folder.isDir() || !folder.isWritable() || where.startsWith("/proc") || where.startsWith("/sys"))
        s.lastFolder = d.lastFolder;
    const QString theme = q.value("window/theme", themeKey(d.theme)).toString();
    if (const auto known = themeFromKey(theme))
        s.theme = *known;
    else
        qWarning("AsyncScope: %s: window/theme is '%s', not %s; using %s", qPrintable(q.fileName()),
            qPrintable(theme.left(64)), qPrintable(themeKeys().join(", ")), qPrintable(themeKey(d.theme)));
    s.exportSize = q.value("export/size", d.exportSize).toSize();
    if (s.exportSize.width() < 16 || s.exportSize.height() < 16 || s.exportSize.width() > 16384 ||
        s.exportSize.height() > 16384)
        s.exportSize = d.exportSize;
    s.runChartStyle = q.value("charts/style", d.runChartStyle).toString();
    if (s.runChartStyle != "automatic" && s.runChartStyle != "lines" && s.runChartStyle != "density")
        s.runChartStyle = d.runChartStyle;
    s.cpuOwnAxis = q.value("charts/cpuOwnAxis", d.cpuOwnAxis).toBool();
    // A damaged settings file falls back to the defaults: the shape alone when only it is wrong, else everything.
    if (checkConfig(s.config)) {
        s.config.chunks = d.config.chunks;
        s.config.streams = d.config.streams;
        if (checkConfig(s.config))
            s.config = d.config;
    }
    return s;
}

void saveSettings(const GuiSettings& s)
{
    if (!settingsFileProblem().isEmpty())
        return;  // said once, as the window started
    QSettings q;
    q.setValue("device/uuid", s.deviceUuid);
    q.setValue("run/elements", qulonglong(s.config.elements));
    q.setValue("run/value", s.config.value);
    q.setValue("run/runs", s.config.runs);
    q.setValue("run/warmup", s.config.warmupRuns);
    q.setValue("run/chunks", s.config.chunks);
    q.setValue("run/streams", s.config.streams);
    q.setValue("run/order", QString(nameOf(s.config.order)));
    q.setValue("run/submission", QString(nameOf(s.config.submission)));
    q.setValue("run/hostMemory", QString(nameOf(s.config.hostMemory)));
    q.setValue("run/copy", QString(nameOf(s.config.copy)));
    q.setValue("run/managedMigration", QString(nameOf(s.config.managedMigration)));
    q.setValue("run/managedAdvice", QString(nameOf(s.config.managedAdvice)));
    q.setValue("run/preferOverlap", s.config.preferOverlap);
    q.setValue("run/wait", QString(nameOf(s.config.waitMode)));
    q.setValue("run/check", QString(nameOf(s.config.checkMode)));
    q.setValue("run/stageEvents", s.config.stageEvents);
    q.setValue("run/traceSource", QString(nameOf(s.config.traceSource)));
    q.setValue("run/stopRule", QString(nameOf(s.config.stopRule)));
    q.setValue("run/noiseTarget", s.config.targetNoisePercent);
    q.setValue("window/geometry", s.geometry);
    q.setValue("window/theme", themeKey(s.theme));
    q.setValue("export/lastFolder", s.lastFolder);
    q.setValue("export/size", s.exportSize);
    q.setValue("charts/style", s.runChartStyle);
    q.setValue("charts/cpuOwnAxis", s.cpuOwnAxis);
}

void clearSettings()
{
    if (settingsFileProblem().isEmpty())
        QSettings().clear();
}

}  // namespace asyncscope
