#include "gui/saved_run.hpp"

#include "engine/io/report_file.hpp"

#include <QFileInfo>

namespace asyncscope {

Result<SavedRun> readSavedRun(const QString& path, const ReadProgress& progress, const std::atomic<bool>* cancel)
{
    auto report = readReportFile(path.toStdString(), progress, cancel);
    if (!report)
        return report.error();
    QString gpu = QString::fromStdString(report->device.name);
    gpu.remove(QStringLiteral("NVIDIA "));
    SavedRun saved { std::move(*report), QFileInfo(path).completeBaseName(), path, {} };
    if (!gpu.isEmpty())
        saved.label += QStringLiteral(" · ") + gpu;
    if (cancel && cancel->load())
        return makeError(ErrorKind::Cancelled, "reading was cancelled");
    saved.prepared.summary = summarizeSeries(saved.report);
    auto points = std::make_shared<SeriesPoints>();
    points->update(saved.report.runs);
    saved.prepared.points = std::move(points);
    auto times = std::make_shared<SortedTimes>();
    times->update(saved.report.runs);
    saved.prepared.times = std::move(times);
    return saved;
}

}  // namespace asyncscope
