#include "gui/session/recording_failure.hpp"

#include "engine/record/program_report.hpp"

#include <QDir>
#include <QFile>
#include <QObject>

namespace asyncscope {

namespace {

constexpr qint64 kTailBytes = 64 * 1024;  // enough for the last lines of any program's output
constexpr int kLineLength = 160;

// Why the program's CUDA calls failed, where its output says so in the runtime's or the driver's words; empty where
// it does not.
QString cudaFailureIn(const QStringList& lines)
{
    const QString all = lines.join(QLatin1Char('\n'));
    const auto says = [&](std::initializer_list<const char*> words) {
        for (const char* word : words) {
            if (all.contains(QLatin1String(word), Qt::CaseInsensitive))
                return true;
        }
        return false;
    };
    if (says({ "cudaErrorInsufficientDriver", "CUDA_ERROR_INSUFFICIENT_DRIVER", "driver version is insufficient" }))
        return QObject::tr("no NVIDIA driver, or one too old for its CUDA, answers here");
    if (says({ "cudaErrorNoDevice", "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device" }))
        return QObject::tr("no CUDA device answers here");
    if (says({ "cudaError", "CUDA_ERROR_", "CUDA error" }))
        return QObject::tr("a CUDA error before its first GPU work");
    return {};
}

}  // namespace

QStringList lastLinesOf(const QString& path, int count)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    if (file.size() > kTailBytes)
        file.seek(file.size() - kTailBytes);
    const QStringList all = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    QStringList last;
    for (auto line = all.crbegin(); line != all.crend() && last.size() < count; ++line) {
        const QString trimmed = line->trimmed();
        if (!trimmed.isEmpty())
            last.prepend(trimmed.size() > kLineLength ? trimmed.left(kLineLength) + QStringLiteral("…") : trimmed);
    }
    return last;
}

QString nothingRecordedText(const RecordOutcome& outcome, const QString& shownProgram, const QString& outputPath)
{
    const QStringList last = lastLinesOf(outputPath, 6);
    const QString ended = QString::fromStdString(endText(shownProgram.toStdString(), outcome));
    const QString output = QDir::toNativeSeparators(outputPath);
    const QString failed = cudaFailureIn(last);
    QString what;
    QString todo;
    if (outcome.stopped) {
        what = QObject::tr("%1 (stopped by you) before any of its processes initialised CUDA: nothing was recorded.")
                   .arg(ended);
        todo = QObject::tr("Record it again and let it run until its GPU work starts (Stop after: when it ends).");
    } else if (!failed.isEmpty()) {
        what = QObject::tr("%1, its CUDA calls failing (%2): nothing was recorded.").arg(ended, failed);
        todo = QObject::tr("Record it on a computer with a GPU and a driver that runs it, then open its report here "
                           "(File › Open saved run…).");
    } else if (outcome.signal != 0 || outcome.exitCode != 0) {
        what = QObject::tr("%1 before any of its processes initialised CUDA: nothing was recorded.").arg(ended);
        todo = QObject::tr("It failed before its GPU work: check its arguments, working folder and environment.");
    } else {
        what = QObject::tr("%1 and never initialised CUDA: nothing was recorded.").arg(ended);
        todo = QObject::tr("Record a program that uses the GPU (a script that starts one is recorded too).");
    }
    QString text = what + QLatin1Char(' ') + todo;
    if (last.isEmpty())
        return text + QObject::tr("\n\nIt printed nothing (its output is kept in %1).").arg(output);
    return text + QObject::tr("\n\nThe last lines it printed (all of them are in %1):\n%2")
                      .arg(output, QStringLiteral("    ") + last.join(QStringLiteral("\n    ")));
}

}  // namespace asyncscope
