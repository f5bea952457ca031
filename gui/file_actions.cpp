#include "gui/file_actions.hpp"

#include "gui/chart_exporter.hpp"
#include "gui/file_dialogs.hpp"
#include "gui/pixel_size_dialog.hpp"
#include "gui/session_model.hpp"

#include <QDir>
#include <QFileInfo>
#include <QWidget>

namespace asyncscope {

FileActions::FileActions(SessionModel* session, GuiSettings& settings,
    std::function<std::optional<RunCharts::Kind>()> shownChart, QWidget* window)
    : QObject(window)
    , m_session(session)
    , m_settings(settings)
    , m_shownChart(std::move(shownChart))
    , m_window(window)
{
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

bool FileActions::exportChartTo(const QString& path, QSize pixels)
{
    const QString saved = tr("Saved %1").arg(QDir::toNativeSeparators(path));
    if (const auto kind = m_shownChart())
        return finish(path,
            exportChart(m_session->report(), m_session->source(), m_session->overlays(), *kind, path, pixels), saved);
    const auto& comparison = m_session->lastComparison();
    return finish(path,
        comparison ? exportComparisonChart(*comparison, path, pixels) : tr("The current tab has no chart."), saved);
}

bool FileActions::exportDataTo(const QString& path)
{
    return finish(path, exportData(m_session->report(), path), tr("Saved %1").arg(QDir::toNativeSeparators(path)));
}

bool FileActions::exportComparisonTo(const QString& path)
{
    const auto& comparison = m_session->lastComparison();
    return finish(path,
        comparison ? exportComparisonData(*comparison, path) : tr("Run a comparison first (Compare menu)."),
        tr("Saved %1").arg(QDir::toNativeSeparators(path)));
}

bool FileActions::openSaved(const QString& path)
{
    const Status problem = m_session->openSaved(path);
    return finish(path, problem ? QString::fromStdString(problem->message()) : QString(),
        tr("Showing %1, %n run(s)", nullptr, int(m_session->report().runs.size())).arg(m_session->source()));
}

bool FileActions::addOverlay(const QString& path)
{
    const Status problem = m_session->addOverlay(path);
    return finish(path, problem ? QString::fromStdString(problem->message()) : QString(),
        problem ? QString() : tr("Overlaid %1").arg(m_session->overlays().back().label));
}

void FileActions::exportChartInteractive(const QString& format)
{
    const QString path = askSavePath(m_window, m_settings.lastFolder, tr("Export chart"),
        "asyncscope-chart." + format, format == "svg" ? tr("SVG pictures (*.svg)") : tr("PNG pictures (*.png)"));
    if (path.isEmpty())
        return;
    if (const auto size = askPixelSize(m_window, m_settings.exportSize)) {
        m_settings.exportSize = *size;
        exportChartTo(path, *size);
    }
}

void FileActions::exportDataInteractive(const QString& format, bool comparison)
{
    const QString path = askSavePath(m_window, m_settings.lastFolder, tr("Export data"),
        (comparison ? "asyncscope-comparison." : "asyncscope-runs.") + format,
        format == "csv" ? tr("CSV files (*.csv)") : tr("JSON files (*.json)"));
    if (!path.isEmpty())
        comparison ? exportComparisonTo(path) : exportDataTo(path);
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

}  // namespace asyncscope
