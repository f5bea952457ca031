#include "gui/series/saved_run.hpp"

#include "gui/series/shown_name.hpp"

#include "engine/io/input_file.hpp"
#include "engine/io/report_file.hpp"
#include "engine/io/result_file.hpp"
#include "engine/model/baseline.hpp"
#include "engine/model/big_vector.hpp"
#include "engine/model/display_text.hpp"
#include "engine/record/program_report.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <thread>
#include <variant>

namespace asyncscope {

namespace {

// A file's first 64 KiB, as text: a header's first block, where it names its format; empty where it cannot be read.
QString headerStart(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.read(qint64(64) << 10)) : QString();
}

// "asyncscope-host" as a header's format: a host's record (what a merge reads), not a series report.
const QRegularExpression& hostRecordFormat()
{
    static const QRegularExpression format(QStringLiteral("\"format\"\\s*:\\s*\"asyncscope-host\""));
    return format;
}

// "CSV", "recording", or "JSON format 2" as the header says it ("format_version" near its start; format 1 had none). A host's
// record has a version of its own before its series': "host record, JSON format 4" names the series'.
QString formatOf(const QString& path)
{
    if (QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0)
        return QStringLiteral("CSV");
    if (isRecordingFile(path.toStdString()))
        return QStringLiteral("recording");
    if (!QFile(path).open(QIODevice::ReadOnly))
        return QStringLiteral("JSON");
    const QString start = headerStart(path);
    static const QRegularExpression version(QStringLiteral("\"format_version\"\\s*:\\s*([0-9]{1,3})\\b"));
    static const QRegularExpression report(QStringLiteral("\"report\"\\s*:\\s*\\{"));
    if (const QRegularExpressionMatch host = hostRecordFormat().match(start); host.hasMatch()) {
        const QRegularExpressionMatch series = report.match(start, host.capturedEnd());
        const QRegularExpressionMatch found = series.hasMatch() ? version.match(start, series.capturedEnd())
                                                                : QRegularExpressionMatch();
        return found.hasMatch() ? QStringLiteral("host record, JSON format %1").arg(found.captured(1))
                                : QStringLiteral("host record");
    }
    const QRegularExpressionMatch found = version.match(start);
    return found.hasMatch() ? QStringLiteral("JSON format %1").arg(found.captured(1))
                            : QStringLiteral("JSON format 1");
}

// A file of several series opened as a comparison of them.
Result<SavedRun> savedComparison(const QString& path, PlanReport plan, const QString& format)
{
    if (plan.ranCount() == 0)
        return makeError(ErrorKind::Io, shownPath(path.toStdString()) + ": a comparison none of whose variants ran",
            "Open a comparison with variants that ran.");
    SavedRun saved;
    saved.label = saved.fileLabel = QFileInfo(path).completeBaseName();
    saved.path = path;
    saved.format = format;
    saved.comparison = std::move(plan);
    return saved;
}

// The series of a host's record, as a merge reads it: one, or a comparison of its GPUs' (and their variants').
Result<std::variant<Report, PlanReport>> hostSeries(const std::string& path)
{
    auto host = readResultFile(path);
    if (!host)
        return host.error();
    if (host->error)
        return makeError(ErrorKind::Io,
            shownPath(path) + ": a record of host " + cutText(host->host, 80) + ", where nothing ran (" +
                cutText(host->error->detail, kMaxShownMessageChars) + ")",
            "Open a record of a host that ran a series.");
    PlanReport plan;
    for (DeviceResult& d : host->devices)
        for (VariantResult& v : d.plan.variants) {
            if (!v.ran() || v.report.runs.empty())
                continue;
            v.label = "GPU " + std::to_string(d.device.index) + " (" + cutText(d.device.name, 60) + ")" +
                (d.plan.variants.size() > 1 ? ": " + v.label : std::string());
            plan.variants.push_back(std::move(v));
        }
    plan.planned = plan.variants.size();
    if (plan.variants.size() == 1)
        return std::variant<Report, PlanReport>(std::move(plan.variants.front().report));
    if (plan.variants.size() > 1 && host->comparison && host->devices.size() == 1)
        plan.comparison = host->comparison;
    return std::variant<Report, PlanReport>(std::move(plan));
}

bool isHostRecord(const QString& path)
{
    return hostRecordFormat().match(headerStart(path)).hasMatch();
}

}  // namespace

Result<SavedRun> readSavedRun(
    const QString& path, const ReadProgress& progress, const std::atomic<bool>* cancel, SavedRunUse use)
{
    const std::string file = path.toStdString();
    if (use == SavedRunUse::Series && isComparisonFile(file)) {
        auto plan = readComparisonFile(file, progress, cancel);
        if (!plan)
            return plan.error();
        return savedComparison(path, std::move(*plan), QStringLiteral("comparison"));
    }
    Result<Report> report = makeError(ErrorKind::Io, file + ": not read");
    if (isRecordingFile(file)) {
        // A kept recording, made a report as `asyncscope-cli record --from` makes it: a series a process.
        auto series = readKeptRecording(file, IterationRule {}, ProcessChoice {});
        if (!series)
            return series.error();
        if (series->size() > 1) {
            if (use == SavedRunUse::Series)
                return savedComparison(path, processComparison(std::move(*series)), QStringLiteral("recording"));
            return makeError(ErrorKind::Io,
                shownPath(file) + ": a recording of " + std::to_string(series->size()) +
                    " processes, and a baseline is one series",
                "Make a report of one process (asyncscope-cli record --from FILE --process PID --output x.json) and "
                "compare with that.");
        }
        report = std::move(series->front().report);
    } else if (use == SavedRunUse::Series && isHostRecord(path)) {
        auto series = hostSeries(file);
        if (!series)
            return series.error();
        if (auto* plan = std::get_if<PlanReport>(&*series))
            return savedComparison(path, std::move(*plan), QStringLiteral("host record"));
        report = std::move(std::get<Report>(*series));
    } else {
        report = use == SavedRunUse::Baseline ? readSeriesFile(file, progress, cancel)
                                              : readReportFile(file, progress, cancel);
    }
    if (!report)
        return report.error();
    // A header without runs (a series saved before its first run ended, or cut after its header) has nothing to show.
    if (report->runs.empty())
        return makeError(ErrorKind::Io, shownPath(path.toStdString()) + ": holds no runs, only the "
                                            "series' header (saved before its first run ended, or cut after it)",
            "Open a file with runs.");
    QString gpu = shownName(report->device.name);  // the label titles the window and names legends
    gpu.remove(QStringLiteral("NVIDIA "));
    SavedRun saved { std::move(*report), QFileInfo(path).completeBaseName(), path, {}, {}, formatOf(path), {} };
    if (!gpu.isEmpty())
        saved.label += QStringLiteral(" · ") + gpu;
    saved.fileLabel = saved.label;
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

namespace {

const QString kDot = QStringLiteral(" · ");

// "h200-run" of "h200-run · H200": what the file's name gives.
QString namePart(const QString& label)
{
    const int cut = label.indexOf(kDot);
    return cut < 0 ? label : label.left(cut);
}

// "K=16", "pageable", "64 MiB", "H200", "wait blocking": a setting's value as it tells a series from others.
QString settingText(const std::string& field, const std::string& value)
{
    QString text = shownName(value);
    if (field == "device")
        return text.remove(QStringLiteral("NVIDIA "));
    if (field == "chunks")
        return QStringLiteral("K=") + text;
    if (field == "streams")
        return QStringLiteral("S=") + text;
    if (field == "size")
        return text.replace(QStringLiteral(".0 "), QStringLiteral(" "));  // "64 MiB", as the controls write it
    if (field == "host memory" || field == "submission")
        return text;  // "pageable", "graph": a word no other setting uses
    if (field == "order")
        return QObject::tr("by %1").arg(text);
    return QString::fromStdString(field) + QLatin1Char(' ') + text;
}

}  // namespace

std::vector<QString> distinctLabels(const std::vector<ShownLabel>& shown)
{
    std::vector<QString> names;
    for (const ShownLabel& s : shown)
        names.push_back(s.label);
    // Files of one base name: each named by its values of the settings in which any two of them differ.
    std::vector<bool> grouped(shown.size(), false);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        if (grouped[i] || shown[i].path.isEmpty() || !shown[i].report)
            continue;
        std::vector<std::size_t> group { i };
        for (std::size_t j = i + 1; j < shown.size(); ++j) {
            if (!grouped[j] && !shown[j].path.isEmpty() && shown[j].report &&
                namePart(shown[j].label) == namePart(shown[i].label))
                group.push_back(j);
        }
        if (group.size() < 2)
            continue;
        std::vector<std::string> fields;  // in the order configDifferences() lists them
        std::vector<std::map<std::string, std::string>> values(group.size());
        for (std::size_t a = 0; a < group.size(); ++a) {
            for (std::size_t b = a + 1; b < group.size(); ++b) {
                for (const ConfigDifference& d : configDifferences(*shown[group[a]].report, *shown[group[b]].report)) {
                    if (std::find(fields.begin(), fields.end(), d.field) == fields.end())
                        fields.push_back(d.field);
                    values[a][d.field] = d.baseline;
                    values[b][d.field] = d.current;
                }
            }
        }
        if (fields.empty())
            continue;  // the same settings: told apart by their files below
        for (std::size_t k = 0; k < group.size(); ++k) {
            grouped[group[k]] = true;
            QString gpu;
            QStringList settings;
            for (const std::string& field : fields) {
                const auto value = values[k].find(field);
                if (value == values[k].end())
                    continue;  // a value its file does not record
                const QString text = settingText(field, value->second);
                field == "device" ? void(gpu = text) : void(settings << text);
            }
            QStringList parts { namePart(shown[group[k]].label) };
            if (!gpu.isEmpty())
                parts << gpu;
            if (!settings.isEmpty())
                parts << settings.join(QLatin1Char(' '));
            names[group[k]] = parts.join(kDot);
        }
    }
    // Names still alike (the same settings, or the same file twice): a later one told apart by its file, or numbered.
    for (std::size_t i = 1; i < names.size(); ++i) {
        const auto before = names.begin() + std::ptrdiff_t(i);
        const auto isTaken = [&](const QString& name) { return std::find(names.begin(), before, name) != before; };
        if (!isTaken(names[i]))
            continue;
        const QFileInfo file(shown[i].path);
        if (!shown[i].path.isEmpty()) {
            const bool sameFileName = std::any_of(shown.begin(), shown.begin() + std::ptrdiff_t(i),
                [&file](const ShownLabel& s) { return QFileInfo(s.path).fileName() == file.fileName(); });
            const QString rest = names[i].mid(namePart(names[i]).size());  // " · H200", " · K=1 S=1"
            const QString named = (sameFileName ? file.dir().dirName() + '/' : QString()) + file.fileName() + rest;
            if (!isTaken(named)) {
                names[i] = named;
                continue;
            }
        }
        for (int n = 2;; ++n) {
            const QString numbered = QStringLiteral("%1 (%2)").arg(names[i]).arg(n);
            if (!isTaken(numbered)) {
                names[i] = numbered;
                break;
            }
        }
    }
    return names;
}

}  // namespace asyncscope
