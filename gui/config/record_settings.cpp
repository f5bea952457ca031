#include "gui/config/record_settings.hpp"

#include "gui/config/settings_store.hpp"

#include <QSettings>

namespace asyncscope {

QStringList withRecent(QStringList recent, const QString& program)
{
    const QString named = program.trimmed();
    recent.removeAll(QString());
    if (!named.isEmpty()) {
        recent.removeAll(named);
        recent.prepend(named);
    }
    while (recent.size() > kRecentPrograms)
        recent.removeLast();
    return recent;
}

RecordSettings loadRecordSettings()
{
    RecordSettings s;
    if (!settingsFileProblem().isEmpty())
        return s;
    const RecordSettings d;
    const QSettings q;
    s.program = q.value("record/program").toString();
    s.arguments = q.value("record/arguments").toString();
    s.folder = q.value("record/folder").toString();
    s.environment = q.value("record/environment").toString();
    s.iterations = q.value("record/iterations", d.iterations).toString();
    if (s.iterations != "auto" && s.iterations != "sync" && s.iterations != "nvtx")
        s.iterations = d.iterations;
    s.rangeName = q.value("record/rangeName").toString();
    bool number = false;
    s.stopAfterSeconds = q.value("record/stopAfter", d.stopAfterSeconds).toDouble(&number);
    if (!number || !(s.stopAfterSeconds >= 0.0 && s.stopAfterSeconds <= 24 * 3600.0))
        s.stopAfterSeconds = d.stopAfterSeconds;
    s.recentPrograms = withRecent(q.value("record/recentPrograms").toStringList(), QString());
    return s;
}

void saveRecordSettings(RecordSettings s)
{
    if (!settingsFileProblem().isEmpty())
        return;  // said once, as the window started
    QSettings q;
    q.setValue("record/program", s.program);
    q.setValue("record/arguments", s.arguments);
    q.setValue("record/folder", s.folder);
    q.setValue("record/environment", s.environment);
    q.setValue("record/iterations", s.iterations);
    q.setValue("record/rangeName", s.rangeName);
    q.setValue("record/stopAfter", s.stopAfterSeconds);
    q.setValue("record/recentPrograms", withRecent(s.recentPrograms, s.program));
}

}  // namespace asyncscope
