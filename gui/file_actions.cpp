#include "gui/file_actions.hpp"

#include "gui/chart_exporter.hpp"
#include "gui/file_dialogs.hpp"
#include "gui/load_progress.hpp"
#include "gui/results_window.hpp"
#include "gui/session_model.hpp"

#include "engine/io/chrome_trace.hpp"

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QSaveFile>
#include <QWidget>

#include <ostream>
#include <streambuf>

namespace asyncscope {

namespace {

// An ostream's buffer over a QIODevice: a long series' trace goes to the file as it is made, not through a string.
class DeviceBuffer final : public std::streambuf {
public:
    explicit DeviceBuffer(QIODevice& device)
        : m_device(device)
    {
        setp(m_buffer, m_buffer + sizeof m_buffer);
    }

protected:
    int_type overflow(int_type c) override
    {
        if (sync() != 0)
            return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }

    int sync() override
    {
        const qint64 size = pptr() - pbase();
        if (size > 0 && m_device.write(pbase(), size) != size)
            return -1;
        setp(m_buffer, m_buffer + sizeof m_buffer);
        return 0;
    }

private:
    QIODevice& m_device;
    char m_buffer[1 << 16];
};

// Writes through QSaveFile, so a failed export leaves an existing file as it was. Empty on success, else why not.
template <class Data>
QString saveTrace(const QString& path, const Data& data)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return FileActions::tr("Cannot write %1: %2. Choose a folder you may write to.")
            .arg(QDir::toNativeSeparators(path), file.errorString());
    DeviceBuffer buffer(file);
    std::ostream out(&buffer);
    writeChromeTrace(out, data);
    out.flush();
    if (!out)
        file.cancelWriting();
    if (!out || !file.commit())
        return FileActions::tr("Writing %1 failed: %2.").arg(QDir::toNativeSeparators(path), file.errorString());
    return {};
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
    connect(session, &SessionModel::savedLoaded, this, &FileActions::onLoaded);
    connect(session, &SessionModel::loadFailed, this,
        [this](const QString& path, bool, const Error& error) { onLoadFailed(path, error); });
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
    return finishSaved(path, exportData(m_session->report(), path));
}

bool FileActions::exportComparisonTo(const QString& path)
{
    const auto& comparison = m_session->lastComparison();
    return finishSaved(
        path, comparison ? exportComparisonData(*comparison, path) : tr("Run a comparison first (Compare menu)."));
}

bool FileActions::exportTraceTo(const QString& path, bool comparisonShown)
{
    const auto& comparison = m_session->lastComparison();
    const Report& series = m_session->report();
    const QString saved =
        tr("Saved %1: open it in Perfetto UI or chrome://tracing").arg(QDir::toNativeSeparators(path));
    if (comparison && (comparisonShown || series.runs.empty()))
        return finish(path, saveTrace(path, *comparison), saved);
    if (series.runs.empty())
        return finish(path, tr("Run a series first: the trace shows its runs."), saved);
    return finish(path, saveTrace(path, series), saved);
}

bool FileActions::openSaved(const QString& path)
{
    const Status refused = m_session->openSaved(path);
    if (refused)
        emit problem(QString::fromStdString(refused->message()));
    return !refused;
}

bool FileActions::addOverlay(const QString& path)
{
    const Status refused = m_session->addOverlay(path);
    if (refused)
        emit problem(QString::fromStdString(refused->message()));
    return !refused;
}

void FileActions::onLoaded(const QString& path, bool overlay)
{
    finish(path, QString(),
        overlay ? tr("Overlaid %1").arg(m_session->overlays().back().label)
                : tr("Showing %1, %n run(s)", nullptr, int(m_session->report().runs.size())).arg(m_session->source()));
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
        comparison ? exportComparisonTo(path) : exportDataTo(path);
}

void FileActions::exportTraceInteractive(bool comparisonShown)
{
    const QString path = askSavePath(m_window, m_settings.lastFolder, tr("Export trace"), "asyncscope-trace.json",
        tr("Chrome traces (*.json)"));
    if (!path.isEmpty())
        exportTraceTo(path, comparisonShown);
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
    auto* results = new ResultsWindow(QFileInfo(paths.first()).absolutePath(), m_window);
    results->setAttribute(Qt::WA_DeleteOnClose);
    const QStringList problems = results->openFiles(paths);
    if (results->hosts().empty()) {
        results->close();
        emit problem(problems.join(QStringLiteral("\n")));
        return;
    }
    finish(paths.first(), QString(), tr("Opened %n result file(s)", nullptr, int(paths.size() - problems.size())));
    results->show();
    if (!problems.isEmpty()) {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("AsyncScope"),
            tr("Some files could not be read; the others are shown.\n\n%1").arg(problems.join(QStringLiteral("\n"))),
            QMessageBox::Ok, results);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
}

}  // namespace asyncscope
