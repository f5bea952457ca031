#include "gui/app/file_actions.hpp"

#include "gui/app/window_actions.hpp"
#include "gui/app/window_tabs.hpp"
#include "gui/charts/difference_view.hpp"
#include "gui/charts/distribution_panel.hpp"
#include "gui/files/advice_export.hpp"
#include "gui/files/data_export.hpp"
#include "gui/files/file_dialogs.hpp"
#include "gui/files/load_progress.hpp"
#include "gui/files/save_file.hpp"
#include "gui/gpus/all_gpus_panel.hpp"
#include "gui/gpus/results_window.hpp"
#include "gui/series/shown_name.hpp"
#include "gui/session/session_model.hpp"
#include "gui/timeline/timeline_panel.hpp"

#include "engine/io/chrome_trace.hpp"
#include "engine/run/plan_advice.hpp"

#include <QAction>
#include <QDir>
#include <QUrl>
#include <QMimeData>
#include <QDropEvent>
#include <QFileInfo>
#include <QMessageBox>
#include <QWidget>

#include <ostream>

namespace asyncscope {

namespace {

// The trace goes to the file as it is made, not through a string.
template <class Data, class Assessed>
QString saveTrace(const QString& path, const Data& data, const Assessed& assessed)
{
    return saveStream(path, [&](std::ostream& out) { writeChromeTrace(out, data, assessed); });
}

}  // namespace

FileActions::FileActions(
    SessionModel* session, GuiSettings& settings, std::function<Picture()> shownPicture, QWidget* window)
    : QObject(window)
    , m_session(session)
    , m_settings(settings)
    , m_shownPicture(std::move(shownPicture))
    , m_window(window)
{
    new LoadProgress(session, window);
    if (window) {
        window->setAcceptDrops(true);  // a saved run dropped on the window opens
        window->installEventFilter(this);
    }
    connect(session, &SessionModel::savedLoaded, this, &FileActions::onLoaded);
    connect(session, &SessionModel::comparisonOpened, this, [this](const QString& path) {
        const PlanReport& plan = *m_session->lastComparison();
        const QString kind = QString::fromStdString(plan.comparison ? nameOf(*plan.comparison) : "series");
        finish(path, QString(),
            tr("Opened %1: a %2 comparison of %n variant(s), in the Comparison tab", nullptr, int(plan.ranCount()))
                .arg(QDir::toNativeSeparators(path), kind));
    });
    connect(session, &SessionModel::loadFailed, this,
        [this](const QString& path, bool, const Error& error) { onLoadFailed(path, error); });
    connect(session, &SessionModel::writeEnded, this,
        [this](const QString& path, const QString& failure) { finishSaved(path, failure); });
}

bool FileActions::finish(const QString& path, const QString& failure, const QString& message)
{
    if (!failure.isEmpty()) {
        emit problem(failure);
        return false;
    }
    m_settings.lastFolder = QFileInfo(path).absolutePath();  // only a folder that took or gave a file
    emit done(message);
    return true;
}

bool FileActions::finishSaved(const QString& path, const QString& failure)
{
    return finish(path, failure, tr("Saved %1").arg(QDir::toNativeSeparators(path)));
}

bool FileActions::exportPictureTo(const QString& path, QSize pixels)
{
    const Picture picture = m_shownPicture();
    return finishSaved(
        path, picture.draw ? picture.draw(path, pixels) : tr("The current tab shows nothing to export yet."));
}

bool FileActions::exportDataTo(const QString& path)
{
    return finishSaved(path, exportData(m_session->report(), m_session->assessment(), path));
}

void FileActions::exportDataInBackground(const QString& path)
{
    if (m_session->isRunning()) {
        exportDataTo(path);  // a series still growing is written here, as far as it has come
        return;
    }
    const auto write = [assessed = m_session->assessment()](const Report& report, const QString& to) {
        return exportData(report, assessed, to);
    };
    if (const Status refused = m_session->writeInBackground(path, write))
        finishSaved(path, QString::fromStdString(refused->message()));
    else
        emit progress(tr("Writing %1…").arg(QDir::toNativeSeparators(path)));
}

bool FileActions::exportComparisonTo(const QString& path)
{
    const auto& comparison = m_session->lastComparison();
    return finishSaved(path, comparison ? exportComparisonData(*comparison, assessPlan(*comparison), path)
                                        : tr("Run a comparison first (Compare menu)."));
}

bool FileActions::exportAdviceTo(const QString& path)
{
    m_session->settleAdvice();  // the advice of the series as it is now, where a judgement of it is under way
    const ShownAdvice& advice = m_session->advice();
    return finishSaved(path, advice.empty() ? tr("There is no advice yet: run a series or open a saved one.")
                                            : exportAdvice(advice, path));
}

bool FileActions::exportTraceTo(const QString& path, bool comparisonShown)
{
    const auto& comparison = m_session->lastComparison();
    const Report& series = m_session->report();
    const QString saved =
        tr("Saved %1: open it in Perfetto UI or chrome://tracing").arg(QDir::toNativeSeparators(path));
    if (comparison && (comparisonShown || series.runs.empty()))
        return finish(path, saveTrace(path, *comparison, assessPlan(*comparison)), saved);
    if (series.runs.empty())
        return finish(path, tr("Run a series first: the trace shows its runs."), saved);
    return finish(path, saveTrace(path, series, m_session->assessment()), saved);
}

bool FileActions::openSaved(const QString& path)
{
    const Status refused = m_session->openSaved(path);
    if (refused)
        emit problem(QString::fromStdString(refused->message()));
    return !refused;
}

void FileActions::openDropped(const QStringList& paths)
{
    for (qsizetype i = 0; i < paths.size(); ++i)
        i == 0 ? openSaved(paths[i]) : addOverlay(paths[i]);
}

bool FileActions::eventFilter(QObject* watched, QEvent* event)
{
    const auto type = event->type();
    if (watched != m_window || (type != QEvent::DragEnter && type != QEvent::DragMove && type != QEvent::Drop))
        return QObject::eventFilter(watched, event);
    auto* drop = static_cast<QDropEvent*>(event);
    QStringList paths;
    for (const QUrl& url : drop->mimeData()->urls()) {
        if (!url.isLocalFile())
            return QObject::eventFilter(watched, event);  // a web page's link is not a saved run
        paths << url.toLocalFile();
    }
    if (paths.isEmpty())
        return QObject::eventFilter(watched, event);
    drop->acceptProposedAction();
    if (type == QEvent::Drop)
        openDropped(paths);
    return true;
}

bool FileActions::addOverlay(const QString& path)
{
    const Status refused = m_session->addOverlay(path);
    if (refused)
        emit problem(QString::fromStdString(refused->message()));
    return !refused;
}

bool FileActions::setBaseline(const QString& path)
{
    const Status refused = m_session->setBaseline(path);
    if (refused)
        emit problem(QString::fromStdString(refused->message()));
    return !refused;
}

void FileActions::onLoaded(const QString& path, bool overlay)
{
    const auto& overlays = m_session->overlays();
    const bool baseline = overlay && m_session->baseline() == &overlays.back();  // the one read last
    if (overlay) {
        QString message = baseline ? tr("Baseline set: %1").arg(QDir::toNativeSeparators(path))
                                   : tr("Overlaid %1").arg(overlays.back().label);
        if (const QStringList& dropped = m_session->overlaysDroppedByBaseline(); baseline && !dropped.isEmpty())
            message += tr("; no longer overlaid, as it is the baseline: %1").arg(shortNames(dropped).join(", "));
        finish(path, QString(), message);
        if (baseline && m_session->showsBaseline())
            emit notice(selfComparisonText(path));
        return;
    }
    // A saved run opened leaves the overlays where they were: said, with the way to take them away.
    QString message =
        tr("Showing %1, %n run(s)", nullptr, int(m_session->report().runs.size()))
            .arg(m_session->source().label());
    if (!overlays.empty()) {
        QStringList names;
        for (const SavedRun& kept : overlays)
            names << kept.label;
        const QString kept = shortNames(names).join(QStringLiteral(", "));
        message += overlays.size() == 1 ? tr("; 1 overlay kept: %1 (File › Remove overlays)").arg(kept)
                                        : tr("; %1 overlays kept: %2 (File › Remove overlays)")
                                              .arg(overlays.size())
                                              .arg(kept);
    }
    if (const QStringList& dropped = m_session->overlaysDroppedByOpen(); !dropped.isEmpty())
        message += tr("; no longer overlaid, as it is the series shown: %1").arg(shortNames(dropped).join(", "));
    finish(path, QString(), message);
    emit shown(message);
    if (m_session->showsBaseline())
        emit notice(selfComparisonText(path));
}

QString FileActions::selfComparisonText(const QString& path) const
{
    return tr("%1 is both the series shown and the baseline: the comparison is of the series with itself, so every "
              "quantity reads the same (+0.00 %).\n\nTo compare, open another series, or set another baseline (File › "
              "Compare with baseline…).")
        .arg(QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath()));
}

void FileActions::onLoadFailed(const QString& path, const Error& error)
{
    if (error.kind == ErrorKind::Cancelled)
        emit done(tr("Stopped reading %1").arg(QDir::toNativeSeparators(path)));  // asked for: no message box
    else
        emit problem(QString::fromStdString(error.message()));
}

void FileActions::exportPictureInteractive(const QString& format)
{
    const Picture picture = m_shownPicture();
    if (!picture.draw) {
        exportPictureTo({}, m_settings.exportSize);  // says why there is nothing to export
        return;
    }
    const QString path =
        askPicturePath(m_window, m_settings.lastFolder, picture.title, picture.name, format, m_settings.exportSize);
    if (!path.isEmpty())
        exportPictureTo(path, m_settings.exportSize);
}

void FileActions::exportDataInteractive(const QString& format, bool comparison)
{
    const QString path = askSavePath(m_window, m_settings.lastFolder, tr("Export data"),
        (comparison ? "asyncscope-comparison." : "asyncscope-runs.") + format,
        format == "csv" ? tr("CSV files (*.csv)") : tr("JSON files (*.json)"));
    if (!path.isEmpty())
        comparison ? void(exportComparisonTo(path)) : exportDataInBackground(path);
}

void FileActions::exportTraceInteractive(bool comparisonShown)
{
    const QString path = askSavePath(m_window, m_settings.lastFolder, tr("Export trace"), "asyncscope-trace.json",
        tr("Chrome traces (*.json)"));
    if (!path.isEmpty())
        exportTraceTo(path, comparisonShown);
}

void FileActions::exportAdviceInteractive()
{
    const QString path = askSavePath(m_window, m_settings.lastFolder, tr("Export advice"),
        QStringLiteral("asyncscope-advice.md"), tr("Markdown (*.md);;Text (*.txt)"));
    if (!path.isEmpty())
        exportAdviceTo(path);
}

void FileActions::openSavedInteractive()
{
    if (const QString path = askSavedRunPath(m_window, m_settings.lastFolder, tr("Open saved run")); !path.isEmpty())
        openSaved(path);
}

void FileActions::addOverlayInteractive()
{
    if (const QString path = askSavedRunPath(m_window, m_settings.lastFolder, tr("Add overlay")); !path.isEmpty())
        addOverlay(path);
}

void FileActions::setBaselineInteractive()
{
    if (const QString path = askSavedRunPath(m_window, m_settings.lastFolder, tr("Compare with baseline"));
        !path.isEmpty())
        setBaseline(path);
}

void FileActions::exportTableInteractive(
    const QString& title, const QString& name, const std::function<QString(const QString& path)>& write)
{
    const QString path = askSavePath(m_window, m_settings.lastFolder, title, name, tr("CSV files (*.csv)"));
    if (!path.isEmpty())
        finishSaved(path, write(path));
}

void FileActions::openResultsInteractive()
{
    const QStringList paths = askResultPaths(m_window, m_settings.lastFolder);
    if (paths.isEmpty())
        return;
    openResults(paths);
}

ResultsWindow* FileActions::openResults(const QStringList& paths)
{
    auto* results = new ResultsWindow(QFileInfo(paths.first()).absolutePath(), m_window);
    results->setObjectName(QStringLiteral("results"));
    results->setAttribute(Qt::WA_DeleteOnClose);
    // Read off the GUI thread; the window shows once they are, or says why none could be.
    connect(results, &ResultsWindow::filesRead, this, [this, results, paths](const QStringList& problems) {
        if (results->hosts().empty()) {
            results->close();
            emit problem(problems.join(QStringLiteral("\n")));
            return;
        }
        finish(paths.first(), QString(), tr("Opened %n result file(s)", nullptr, int(paths.size() - problems.size())));
        results->show();
        if (!problems.isEmpty()) {
            auto* box = new QMessageBox(QMessageBox::Warning, tr("AsyncScope"),
                tr("Some files could not be read; the others are shown.\n\n%1")
                    .arg(problems.join(QStringLiteral("\n"))),
                QMessageBox::Ok, results);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    });
    emit progress(tr("Reading %n result file(s)…", nullptr, int(paths.size())));
    results->openFiles(paths);
    return results;
}

void FileActions::connectActions(const WindowActions& a, std::function<bool()> comparisonShown)
{
    connect(a.exportPng, &QAction::triggered, this, [this] { exportPictureInteractive("png"); });
    connect(a.exportSvg, &QAction::triggered, this, [this] { exportPictureInteractive("svg"); });
    connect(a.exportCsv, &QAction::triggered, this, [this] { exportDataInteractive("csv", false); });
    connect(a.exportJson, &QAction::triggered, this, [this] { exportDataInteractive("json", false); });
    connect(a.exportTrace, &QAction::triggered, this,
        [this, shown = std::move(comparisonShown)] { exportTraceInteractive(shown()); });
    connect(a.exportAdvice, &QAction::triggered, this, &FileActions::exportAdviceInteractive);
    connect(a.openSaved, &QAction::triggered, this, &FileActions::openSavedInteractive);
    connect(a.openResults, &QAction::triggered, this, &FileActions::openResultsInteractive);
    connect(a.addOverlay, &QAction::triggered, this, &FileActions::addOverlayInteractive);
    connect(a.compareBaseline, &QAction::triggered, this, &FileActions::setBaselineInteractive);
    connect(a.exportComparisonCsv, &QAction::triggered, this, [this] { exportDataInteractive("csv", true); });
    connect(a.exportComparisonJson, &QAction::triggered, this, [this] { exportDataInteractive("json", true); });
}

void FileActions::connectTabs(const WindowTabs& tabs)
{
    const auto exportShown = [this](const QString& format) { exportPictureInteractive(format); };
    connect(tabs.timeline(), &TimelinePanel::exportRequested, this, exportShown);
    connect(tabs.distribution(), &DistributionPanel::exportRequested, this, exportShown);
    AllGpusPanel* allGpus = tabs.allGpus();
    connect(allGpus, &AllGpusPanel::exportRequested, this, exportShown);
    connect(allGpus, &AllGpusPanel::exportTableRequested, this, [this, allGpus] {
        exportTableInteractive(tr("Export the GPUs' table"), QStringLiteral("all-gpus.csv"),
            [allGpus](const QString& path) { return allGpus->exportCsv(path); });
    });
    connect(tabs.advice(), &AdvicePanel::saveRequested, this, &FileActions::exportAdviceInteractive);
    connect(tabs.difference(), &DifferenceView::exportRequested, this, &FileActions::exportPictureInteractive);
}

FileActions::Refused FileActions::openFromCommandLine(
    const QString& open, const QStringList& overlays, const QString& baseline)
{
    // Each file is asked for whatever became of the one before: a bad one costs only itself.
    Refused refused;
    const auto note = [this, &refused](const Status& problem) {
        if (problem) {
            refused.files << QString::fromStdString(problem->message());
            emit this->problem(refused.files.last());
        }
        return !problem;
    };
    if (!open.isEmpty())
        refused.open = !note(m_session->openSaved(open));
    for (const QString& overlay : overlays)
        note(m_session->addOverlay(overlay));
    if (!baseline.isEmpty())
        note(m_session->setBaseline(baseline));
    return refused;
}

}  // namespace asyncscope
