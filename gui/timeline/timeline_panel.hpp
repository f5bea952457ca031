// The Timeline tab: one run of the session's series on a time axis (TimelineView), named in a line above it. It
// follows the latest run as a series runs, or stays on a run picked elsewhere (a point of the time chart) until
// "Latest run"; it redraws when the session's throttled refresh brings another run to show, not on every refresh.
// Its own buttons reset the zoom and ask for the timeline to be exported as PNG or SVG (the window's file actions
// ask where and how large).
#pragma once

#include "engine/model/config.hpp"
#include "engine/model/run_result.hpp"
#include "gui/timeline/run_walk.hpp"

#include <QSize>
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;

namespace asyncscope {

class SessionModel;
class TimelineView;

class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(const SessionModel* session, QWidget* parent = nullptr);

    const TimelineView& view() const { return *m_view; }
    QString title() const;
    bool following() const { return !m_chosen.has_value(); }
    // RunResult::index of the run shown; empty when there is none.
    std::optional<int> shownRun() const { return m_shownIndex; }

    // Writes the timeline as shown to `path` (PNG or SVG by suffix) at `pixels`: empty when written, else why not.
    QString exportPicture(const QString& path, QSize pixels);

public slots:
    // Shows the run with this RunResult::index and stays on it while runs arrive.
    void showRun(int index);
    // Shows the latest run, and each new one as it arrives.
    void followLatest();
    // Shows the run a step from the one shown leads to (run_walk: previous, next, slowest, fastest, median) and stays
    // on it; nothing where there is none. Its buttons and keys ([, ], S, F, M) do this. Where a recorded program has
    // several threads, the walk keeps to the thread chosen beside the buttons (all threads at first).
    void walkTo(RunStep step);
    // The session's report changed: redraws only when the run to show is another.
    void refresh();

protected:
    void showEvent(QShowEvent* event) override;

signals:
    void exportRequested(const QString& format);  // "png" or "svg"

private:
    void setTitleText(const QString& text);
    void listThreads();  // the thread chooser's entries: the program's threads, shown only where it has several

    const SessionModel* m_session;
    TimelineView* m_view = nullptr;
    QLabel* m_title = nullptr;
    QString m_titleText;  // whole, as the label shows it, wrapped to its width
    QPushButton* m_latest = nullptr;
    QPushButton* m_reset = nullptr;
    QComboBox* m_thread = nullptr;    // all threads, or one lane of a recorded program
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_threadsListed;  // (pid, thread) of each lane listed
    std::optional<int> m_chosen;      // a run picked elsewhere; empty while following the latest
    std::optional<int> m_shownIndex;  // what the view shows, to tell whether a refresh brings another run
    RunResult m_shown;
    bool m_blank = false;  // the view says there is no run
    PipelineConfig m_shownConfig;
    QString m_shownNote;
    QString m_shownUnrecorded;  // what the empty host check row says of the run drawn
    std::vector<std::string> m_shownNames;  // the program's names the run drawn was named from
    bool m_shownProgram = false;
};

}  // namespace asyncscope
