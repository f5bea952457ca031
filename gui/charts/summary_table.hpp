// A series' summary as a table: a row per distribution (min, median, mean, max, stddev, noise, p95) and a row per
// figure (its value in the median column), then a median column per overlaid saved run. Where a baseline is compared
// with the series, its median column gives way to the comparison's, right after the median they compare: the
// baseline's median, the difference, its interval, the p-value and the verdict, tinted (slower red, faster green).
// Rows are whatever the engine's summaries hold.
#pragma once

#include "gui/series/saved_run.hpp"

#include "engine/model/baseline.hpp"
#include "engine/model/report.hpp"
#include "engine/model/series_summary.hpp"

#include <QTableWidget>

#include <optional>

namespace asyncscope {

class SessionModel;

class SummaryTable : public QTableWidget {
    Q_OBJECT
public:
    // Which overlay is the baseline, and its comparison with the series once there is one.
    struct Baseline {
        std::size_t overlay = 0;
        const BaselineComparison* comparison = nullptr;
    };

    explicit SummaryTable(QWidget* parent = nullptr);
    // Shows `session`'s series, overlays and baseline comparison as they change, while the table is shown; a hidden
    // table does nothing and catches up when it shows. The summary is the session's, grown as runs arrive.
    void follow(const SessionModel* session);
    // `known` is the report's summary where it was made already (a saved series is summarised as it is read, off the
    // GUI thread); otherwise it is made here. Overlays bring theirs. `format` is the format of the file the report
    // was read from ("JSON format 2"), empty for a series measured here: a quantity another series has and its file
    // does not is said "not recorded (JSON format 2)", as is an overlay's.
    void setReport(const Report& report, const std::vector<SavedRun>& overlays = {},
        const SeriesSummary* known = nullptr, std::optional<Baseline> baseline = std::nullopt,
        const QString& format = {});
    // The column of a header's first line ("Verdict"), or -1.
    int columnNamed(const QString& name) const;
    // Selects the row of the figure `key` (SeriesSummary's: "cpu_submit_ms") and scrolls to it; false where the table
    // has no such row.
    bool selectFigure(const std::string& key);
    // The key of the figure in `row`; empty past the rows.
    std::string figureAt(int row) const;

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void refresh();

    const SessionModel* m_session = nullptr;
    std::vector<std::string> m_keys;  // each row's figure
    bool m_stale = false;  // the session changed while the table was hidden
};

}  // namespace asyncscope
