// What the record dialog (File › Record a program…) remembers between starts, beside the window's settings: the last
// program, its arguments, environment and working folder, how its iterations were found and when to stop, and the
// programs recorded lately. Saved when the dialog records, read when it opens.
#pragma once

#include <QString>
#include <QStringList>

namespace asyncscope {

inline constexpr int kRecentPrograms = 8;  // the programs the dialog offers again, the latest first

struct RecordSettings {
    QString program;
    QString arguments;
    QString folder;
    QString environment;  // NAME=VALUE lines, as typed
    QString iterations = QStringLiteral("auto");  // "auto", "sync" or "nvtx"
    QString rangeName;
    double stopAfterSeconds = 0.0;  // 0: when it ends
    QStringList recentPrograms;     // at most kRecentPrograms, the latest first, each once
};

// The settings stored, a value the dialog cannot take left at its default; all defaults where the settings files
// cannot be used (settingsFileProblem()).
RecordSettings loadRecordSettings();
// Saves `settings`, its program first among the recent ones.
void saveRecordSettings(RecordSettings settings);
// `program` first in `recent`, once, and no more than kRecentPrograms.
QStringList withRecent(QStringList recent, const QString& program);

}  // namespace asyncscope
