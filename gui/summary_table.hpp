// A series' summary as a table: a row per distribution (min, median, mean, max, stddev, noise, p95) and a row per
// figure (its value in the median column), then a median column per overlaid saved run. Rows are whatever the
// engine's summaries hold.
#pragma once

#include "gui/saved_run.hpp"

#include "engine/model/report.hpp"

#include <QTableWidget>

namespace asyncscope {

class SummaryTable : public QTableWidget {
    Q_OBJECT
public:
    explicit SummaryTable(QWidget* parent = nullptr);
    void setReport(const Report& report, const std::vector<SavedRun>& overlays = {});
};

}  // namespace asyncscope
