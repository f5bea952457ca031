#include "gui/app/report_path_check.hpp"

#include "gui/session/program_recording.hpp"

#include "engine/io/input_file.hpp"

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QTemporaryFile>

namespace asyncscope {

namespace {

// The nearest folder of `path` that is there: `path`'s own folder, or the folder the missing ones would be made in.
QString nearestThere(const QString& folder)
{
    QString at = QDir::cleanPath(folder);
    while (!QFileInfo::exists(at) && !QFileInfo(at).isSymLink()) {
        const QString up = QFileInfo(at).path();
        if (up == at)
            break;
        at = up;
    }
    return at;
}

// Whether a file can be made in `folder` (a kernel's file system, a read-only mount or permissions can refuse it
// where the folder's own bits look writable): tried, and the file removed at once.
QString cannotWriteIn(const QString& folder)
{
    QTemporaryFile probe(QDir(folder).filePath(QStringLiteral(".asyncscope-probe-XXXXXX")));
    if (probe.open())
        return {};
    return probe.errorString();
}

}  // namespace

QString reportPathProblem(const QString& typed)
{
    const QString report = typed.trimmed();
    if (report.isEmpty() || !report.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return QObject::tr("Name a .json file: the report is saved as JSON, its recording and output beside it");
    const QString shown = QDir::toNativeSeparators(report);
    const QString folder = QFileInfo(report).absolutePath();
    const QString there = nearestThere(folder);
    if (!QFileInfo(there).isDir())
        return QObject::tr("%1 cannot be saved: %2 is not a folder").arg(shown, QDir::toNativeSeparators(there));
    if (const QString why = cannotWriteIn(there); !why.isEmpty())
        return QObject::tr("%1 cannot be saved: the folder %2 cannot be written (%3)")
            .arg(shown, QDir::toNativeSeparators(there), why);
    for (const QString& file : { report, recordingPathFor(report), outputPathFor(report) }) {
        if (Status unusable = checkWritableFile(QFile::encodeName(file).toStdString()))
            return QString::fromStdString(unusable->message());
    }
    return {};
}

}  // namespace asyncscope
