// The Advice tab: what limits the series shown and whether its figures can be trusted, as the engine's rules judge it
// (engine/model/advice): a row per finding, most severe first, with its severity (a coloured mark that says the word),
// its title, the figures it rests on and one thing to do, wrapped and never cut short; the machine's state it was
// judged with; and the rules that could not judge it, and why. A comparison's findings come under each variant's
// name. A click on a row, or Enter on it (Tab, or the arrow keys between rows), asks the window to show what the
// finding concerns: its runs in the Time chart, the stages of a run on the timeline, the summary, or the comparison.
// Copy puts the advice on the clipboard as text; Save… asks the window's file actions to write it (text or Markdown).
// The finding that suggests a shape has a "Try it" button: the window runs that shape beside the series'.
#pragma once

#include "gui/series/shown_advice.hpp"

#include <QColor>
#include <QWidget>

#include <cstddef>
#include <vector>

class QLabel;
class QPushButton;
class QScrollArea;
class QVBoxLayout;

namespace asyncscope {

class FindingRow;
class SessionModel;

// A severity's colour, for a mark with white words on it (contrast 5:1 or more) that stands out on a dark window too.
QColor severityColour(Severity severity);

class AdvicePanel : public QWidget {
    Q_OBJECT
public:
    // Where a finding leads.
    struct Jump {
        enum class To { Runs, Timeline, Summary, Comparison };
        To to = To::Summary;
        std::size_t first = 0;  // Runs: the first and last run concerned (RunResult::index)
        std::size_t last = 0;
        int run = -1;  // Timeline: the run to open (the first concerned, else the median run); -1: none known
        std::string figure;  // Summary: the key of the figure the finding is about (SeriesSummary's); empty: none
        QString figureName;  // … as the summary names it ("CPU submit time")
    };
    // A finding of a comparison leads to the comparison; one about the stages within runs to the timeline; one about
    // some runs to them in the Time chart; any other to the summary, at the row of the figure it is about.
    static Jump jumpFor(const ShownAdvice& advice, const Finding& finding);
    // "Show runs 60-120 in the Time chart": what a row's click does, in words.
    static QString jumpText(const Jump& jump, const Finding& finding);

    explicit AdvicePanel(QWidget* parent = nullptr);

    // Shows `session`'s advice as it changes while the panel is shown; a hidden panel does nothing and catches up
    // when it shows.
    void follow(const SessionModel* session);
    void setAdvice(const ShownAdvice& advice);
    const ShownAdvice& advice() const { return m_advice; }

    // The rows shown, in order (for tests and the window): each as "severe: Another process on the GPU".
    QStringList rowTitles() const;
    // Does what a click on row `row` does.
    void activateRow(int row);
    // The "Not checked" section as shown: a line per rule, "interference: the machine's state was not read: …".
    QStringList notCheckedLines() const;

signals:
    void jumpRequested(const asyncscope::AdvicePanel::Jump& jump);
    void saveRequested();  // Save…: the window asks where, as File › Export advice does
    // "Try it" on the finding that suggests a shape: the window runs the series' shape beside it (tryAdvicePlan).
    void tryRequested(const asyncscope::SuggestedShape& shape);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refresh();  // from the session, where it is followed
    void rebuild();
    void moveFocus(FindingRow* from, int step);

    const SessionModel* m_session = nullptr;
    bool m_stale = false;  // the advice changed while the panel was hidden
    ShownAdvice m_advice;
    QString m_shownText;  // the advice the rows were built for, as text: the same advice again builds nothing

    QLabel* m_heading = nullptr;
    QPushButton* m_copy = nullptr;
    QPushButton* m_save = nullptr;
    QScrollArea* m_scroll = nullptr;
    QWidget* m_content = nullptr;  // inside m_scroll, built again for each advice
    std::vector<FindingRow*> m_rows;
    QLabel* m_notChecked = nullptr;
};

}  // namespace asyncscope
