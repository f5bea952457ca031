// A series' summary as a table: a row per distribution (min, median, mean, max, stddev, noise, p95) and a row per
// figure (its value in the median column), then a median column per overlaid saved run. Rows are whatever the
// engine's summaries hold.
#pragma once

#include "gui/series/saved_run.hpp"

#include "engine/model/report.hpp"
#include "engine/model/series_summary.hpp"

#include <QTableWidget>

namespace asyncscope {

class SessionModel;

class SummaryTable : public QTableWidget {
    Q_OBJECT
public:
    explicit SummaryTable(QWidget* parent = nullptr);
    // Shows `session`'s series and overlays as they change, while the table is shown; a hidden table does nothing
    // and catches up when it shows. The summary is the session's, grown as runs arrive.
    void follow(const SessionModel* session);
    // `known` is the report's summary where it was made already (a saved series is summarised as it is read, off the
    // GUI thread); otherwise it is made here. Overlays bring theirs.
    void setReport(const Report& report, const std::vector<SavedRun>& overlays = {},
        const SeriesSummary* known = nullptr);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refresh();

    const SessionModel* m_session = nullptr;
    bool m_stale = false;  // the session changed while the table was hidden
};

}  // namespace asyncscope
