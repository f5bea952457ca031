// What the window does with files: export a picture of the shown tab, the data, the comparison, a table or a trace;
// open a saved run, overlay one or open result files. Each asks for a path where a person is at the window, writes or
// reads, and says how it went. The folder of a file written or read is remembered; one where saving failed is not.
#pragma once

#include "gui/config/settings_store.hpp"

#include "engine/model/error.hpp"

#include <QObject>
#include <QSize>

#include <functional>

class QWidget;

namespace asyncscope {

class ResultsWindow;
class SessionModel;
class WindowActions;
class WindowTabs;

class FileActions : public QObject {
    Q_OBJECT
public:
    // A picture of what a tab shows: how the save dialog names it, and how it is drawn into a file at a pixel size
    // (PNG, JPG or SVG by the path's suffix): empty when written, else why not. No `draw` where the tab shows none.
    struct Picture {
        QString title;  // "Export timeline"
        QString name;   // "asyncscope-timeline": the file name suggested, before its suffix
        std::function<QString(const QString& path, QSize pixels)> draw;
    };

    // `shownPicture` gives the picture of the tab the window shows.
    FileActions(SessionModel* session, GuiSettings& settings, std::function<Picture()> shownPicture, QWidget* window);

    bool exportPictureTo(const QString& path, QSize pixels);
    bool exportDataTo(const QString& path);
    // The series shown, written on a thread of its own while the window stays usable (a series still being
    // measured is written here, as far as it has come): progress() says it began, done() or problem() how it ended.
    void exportDataInBackground(const QString& path);
    bool exportComparisonTo(const QString& path);
    // The Advice tab's advice: Markdown for .md, text otherwise.
    bool exportAdviceTo(const QString& path);
    // The comparison where the window shows it (`comparisonShown`) or where there is no series, else the series.
    bool exportTraceTo(const QString& path, bool comparisonShown);
    // Start reading a saved run to show or to overlay (off the GUI thread, with a progress dialog once it takes a
    // while); false, with `problem`, when it cannot start. How the read went comes later: done or problem.
    bool openSaved(const QString& path);
    bool addOverlay(const QString& path);
    // Files dropped on the window: the first opened, the others overlaid, as File › Open and Add overlay do.
    void openDropped(const QStringList& paths);
    // Start reading a saved series to compare the series shown with, as the baseline (drawn as an overlay).
    bool setBaseline(const QString& path);

    void exportPictureInteractive(const QString& format);
    void exportDataInteractive(const QString& format, bool comparison);
    void exportTraceInteractive(bool comparisonShown);
    void exportAdviceInteractive();
    void openSavedInteractive();
    void addOverlayInteractive();
    void setBaselineInteractive();
    // A table as CSV: asks where, then `write` writes it there (empty, or why not).
    void exportTableInteractive(
        const QString& title, const QString& name, const std::function<QString(const QString& path)>& write);
    // File › Open results…: result files merged into a window of their own.
    void openResultsInteractive();
    // The same for `paths`, read off the GUI thread: the window shows once they are (those that could not be read
    // named in it), or problem() says why none could be. The window, closed and deleted once it is not needed.
    ResultsWindow* openResults(const QStringList& paths);
    // The File menu's exports and opens, and the Compare menu's exports, on these; `comparisonShown` says whether
    // the Comparison tab is the one shown (a trace is then the comparison's).
    void connectActions(const WindowActions& actions, std::function<bool()> comparisonShown);
    // The tabs' own export and save buttons go the File menu's way: the shown tab's picture, where and as large as
    // asked; the GPUs' table as CSV; the advice as text.
    void connectTabs(const WindowTabs& tabs);
    // The files of the command line refused at once (not a regular file, missing), a line each, and whether the one
    // to open is among them.
    struct Refused {
        QStringList files;
        bool open = false;
    };
    // Opens `open` (where not empty), overlays each of `overlays` and reads `baseline` (where not empty); says which
    // were refused at once. How the reads went comes later, as for the menu's.
    Refused openFromCommandLine(const QString& open, const QStringList& overlays, const QString& baseline = {});

signals:
    void done(const QString& message);     // a file was written or read; the settings changed
    void problem(const QString& message);  // nothing was written or read
    void progress(const QString& message);  // a file is being written
    void notice(const QString& message);  // what was read was taken, but the user should know something of it
    void shown(const QString& message);   // a saved series is shown now: what it is, for as long as it is shown

protected:
    // The window's drags and drops of local files.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool finish(const QString& path, const QString& failure, const QString& message);
    bool finishSaved(const QString& path, const QString& failure);  // finish(), saying "Saved PATH"
    void onLoaded(const QString& path, bool overlay);
    void onLoadFailed(const QString& path, const Error& error);
    // The saved series shown is the baseline's file: what comparing it says, and how to compare.
    QString selfComparisonText(const QString& path) const;

    SessionModel* m_session;
    GuiSettings& m_settings;
    std::function<Picture()> m_shownPicture;
    QWidget* m_window;
};

}  // namespace asyncscope
