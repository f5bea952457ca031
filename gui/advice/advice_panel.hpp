// The Advice tab: what limits the shown series (or each variant of the last comparison) and whether its figures can
// be trusted, as the engine's rules judge it (engine/model/advice): a finding per paragraph with its severity, the
// figures it rests on and one thing to do, the machine's state around the series, and the rules that could not
// judge it. A finding's link (a click, or Tab and Enter) asks the window to show what it concerns.
#pragma once

#include "engine/model/advice.hpp"
#include "engine/run/plan.hpp"

#include <QWidget>

#include <optional>
#include <vector>

class QTextBrowser;
class QLabel;
class QPushButton;

namespace asyncscope {

class AdvicePanel : public QWidget {
    Q_OBJECT
public:
    explicit AdvicePanel(QWidget* parent = nullptr);

    // Judges `report` (`summary` is its summary) and shows the findings; `source` names it ("this run", a file).
    void showSeries(const Report& report, const SeriesSummary& summary, const QString& source);
    // Judges every variant of a comparison beside the others and shows them by variant.
    void showComparison(const PlanReport& plan);
    void clear();

    // The shown findings, by variant (one entry for a series), and the most severe of them.
    const std::vector<Advice>& advice() const { return m_advice; }
    std::optional<Severity> worst() const;
    // How many findings are warnings or worse: the status line's badge.
    int alarms() const;
    // "2 warnings, 1 severe": the badge's words; empty when there are none.
    QString alarmText() const;
    // Everything shown, as plain text (Copy, Save).
    QString plainText() const { return m_plain; }

signals:
    // A finding's link: `variant` is its variant in a comparison, -1 for a series.
    void findingActivated(const asyncscope::Finding& finding, int variant);
    void changed();

private:
    void render(const QStringList& labels, const std::vector<const MachineState*>& machines);
    void save();

    QLabel* m_title = nullptr;
    QTextBrowser* m_text = nullptr;
    QPushButton* m_copy = nullptr;
    QPushButton* m_save = nullptr;
    std::vector<Advice> m_advice;
    QString m_plain;
    QString m_folder;  // where the last save went
};

}  // namespace asyncscope
