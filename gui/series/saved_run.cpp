#include "gui/series/saved_run.hpp"

#include "gui/series/shown_name.hpp"

#include "engine/io/report_file.hpp"
#include "engine/model/big_vector.hpp"

#include <QDir>
#include <QFileInfo>
#include <QObject>

#include <algorithm>
#include <thread>

namespace asyncscope {

Result<SavedRun> readSavedRun(const QString& path, const ReadProgress& progress, const std::atomic<bool>* cancel)
{
    auto report = readReportFile(path.toStdString(), progress, cancel);
    if (!report)
        return report.error();
    // A header without runs (a series saved before its first run ended, or cut after its header) has nothing to show.
    if (report->runs.empty())
        return makeError(ErrorKind::Io, QFileInfo(path).fileName().toStdString() + ": holds no runs, only the "
                                            "series' header (saved before its first run ended, or cut after it)",
            "Open a file with runs.");
    QString gpu = shownName(report->device.name);  // the label titles the window and names legends
    gpu.remove(QStringLiteral("NVIDIA "));
    SavedRun saved { std::move(*report), QFileInfo(path).completeBaseName(), path, {} };
    if (!gpu.isEmpty())
        saved.label += QStringLiteral(" · ") + gpu;
    if (cancel && cancel->load())
        return makeError(ErrorKind::Cancelled, "reading was cancelled");
    // Two halves of about equal work for a million runs on a 2-core machine: the charts' points (0.37 s of CPU)
    // beside the summary and the sorted times of the Distribution tab (0.26 and 0.22 s).
    const RunStore& runs = saved.report.runs;
    auto points = std::make_shared<SeriesPoints>();
    auto times = std::make_shared<SortedTimes>();
    std::thread charts([&] {
        const HugePageScope filledAtOnce;  // every run's point at once, as the file's columns were
        points->update(runs);
    });
    saved.prepared.summary = summarizeSeries(saved.report);
    // The rules read every run too (tens of ms for a million); the machine's state, where the file kept it, is read
    // back with it and judged again.
    saved.prepared.advice = std::make_shared<const ShownAdvice>(judgeShownSeries(
        saved.report, *saved.prepared.summary, QObject::tr("saved: %1").arg(saved.label)));
    times->update(runs);
    charts.join();
    saved.prepared.points = std::move(points);
    saved.prepared.times = std::move(times);
    return saved;
}

QString distinctLabel(const SavedRun& run, const std::vector<ShownLabel>& taken)
{
    const auto isTaken = [&taken](const QString& label) {
        return std::any_of(taken.begin(), taken.end(), [&label](const ShownLabel& t) { return t.label == label; });
    };
    if (!isTaken(run.label))
        return run.label;
    const int cut = run.label.indexOf(QStringLiteral(" · "));
    const QString gpu = cut < 0 ? QString() : run.label.mid(cut);
    const QFileInfo file(run.path);
    const bool sameFileName = std::any_of(taken.begin(), taken.end(),
        [&file](const ShownLabel& t) { return QFileInfo(t.path).fileName() == file.fileName(); });
    const QString named = (sameFileName ? file.dir().dirName() + '/' : QString()) + file.fileName() + gpu;
    if (!isTaken(named))
        return named;
    for (int n = 2;; ++n) {
        const QString numbered = QStringLiteral("%1 (%2)").arg(run.label).arg(n);
        if (!isTaken(numbered))
            return numbered;
    }
}

}  // namespace asyncscope
