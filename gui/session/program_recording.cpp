#include "gui/session/program_recording.hpp"

#include "gui/session/recording_failure.hpp"

#include "engine/host/nvml_probe.hpp"
#include "engine/io/atomic_output_file.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/model/advice.hpp"
#include "engine/io/input_file.hpp"
#include "engine/record/program_report.hpp"
#include "engine/run/plan_advice.hpp"

#include <QDir>
#include <QFileInfo>
#include <QMetaObject>

namespace asyncscope {

namespace {

QString beside(const QString& reportPath, const QString& suffix)
{
    const QFileInfo info(reportPath);
    return info.dir().filePath(info.completeBaseName() + suffix);
}

struct Outcome {
    QString summary;  // empty where it failed
    QString error;
};

Outcome recordAndReport(RecordingPlan plan, const std::atomic<bool>& stop)
{
    RecordRequest& request = plan.request;
    request.recordingPath = recordingPathFor(plan.reportPath).toStdString();
    const QString outputPath = outputPathFor(plan.reportPath);
    request.outputPath = outputPath.toStdString();
    const QString output = QObject::tr("its output is in %1").arg(QDir::toNativeSeparators(outputPath));
    const auto problem = [&](const Error& e) {
        const QString text = QString::fromStdString(e.message());
        return Outcome { {}, QFileInfo::exists(outputPath) ? text + " (" + output + ")" : text };
    };
    ProgramMachine machine([] { return std::make_unique<NvmlProbe>(); });
    IterationSplitter splitter(plan.rule);  // the iterations split off as the records come
    RecordOutcome outcome;
    auto recorded = recordForReport(request, machine, splitter, stop, &outcome);
    if (!recorded && !outcome.program.empty() && !outcome.connected)  // it ran, and none of it reached CUDA
        return { {}, nothingRecordedText(outcome, QString::fromStdString(shownPath(outcome.program)), outputPath) };
    if (!recorded)
        return problem(recorded.error());
    const std::string& shown = recorded->shown;
    const Result<Recording>& recording = recorded->recording;
    if (!recording)
        return problem(recording.error());
    auto series = programSeries(*recording, splitter, ProcessChoice {}, recorded->program, &machine);
    if (!series)
        return problem(series.error());
    std::size_t runs = 0;
    for (const ProgramSeries& one : *series)
        runs += one.report.runs.size();
    if (runs == 0)
        return { {}, QObject::tr("%1: it issued no GPU work that was recorded (%2)")
                         .arg(QString::fromStdString(endText(shown, recorded->outcome)), output) };
    const QString how = QString::fromStdString(series->front().report.program->iterations);
    const std::size_t processes = series->size();
    auto file = AtomicOutputFile::open(plan.reportPath.toStdString());
    if (!file)
        return problem(file.error());
    if (processes == 1) {
        const Report& report = series->front().report;
        writeJson((*file)->stream(), report, assessSeries(report));
    } else {  // a series a process, opened as a comparison of them
        const PlanReport comparison = processComparison(std::move(*series));
        writeComparisonJson((*file)->stream(), comparison, assessPlan(comparison));
    }
    if (Status failed = (*file)->commit("the recorded program's report"))
        return problem(*failed);
    if (processes > 1)
        return { QObject::tr("%1: %n iteration(s) as runs in %2 processes, split by %3; %4", nullptr, int(runs))
                     .arg(QString::fromStdString(endText(shown, recorded->outcome)), QString::number(processes), how,
                         output),
            {} };
    return { QObject::tr("%1: %n iteration(s) as runs, split by %2; %3", nullptr, int(runs))
                 .arg(QString::fromStdString(endText(shown, recorded->outcome)), how, output),
        {} };
}

}  // namespace

QString recordingPathFor(const QString& reportPath)
{
    return beside(reportPath, QStringLiteral(".record"));
}

QString outputPathFor(const QString& reportPath)
{
    return beside(reportPath, QStringLiteral(".output.txt"));
}

ProgramRecording::ProgramRecording(QObject* parent)
    : QObject(parent)
{
}

ProgramRecording::~ProgramRecording()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
}

bool ProgramRecording::start(RecordingPlan plan)
{
    if (busy())
        return false;
    m_stop = false;
    m_thread = std::thread([this, plan = std::move(plan)] {
        const Outcome outcome = recordAndReport(plan, m_stop);
        QMetaObject::invokeMethod(this, [this, outcome, path = plan.reportPath] {
            collect();
            if (outcome.error.isEmpty())
                emit finished(path, outcome.summary);
            else
                emit failed(outcome.error);
        }, Qt::QueuedConnection);
    });
    return true;
}

void ProgramRecording::collect()
{
    if (m_thread.joinable())
        m_thread.join();
}

}  // namespace asyncscope
