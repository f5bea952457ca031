// The statistics of the measured runs as a table: min, median, mean, max, stddev, noise; and bandwidth.
#pragma once

#include "engine/copy_calibration.hpp"
#include "engine/run_result.hpp"

#include <QTableWidget>

#include <vector>

namespace asyncscope {

class SummaryTable : public QTableWidget {
    Q_OBJECT
public:
    explicit SummaryTable(QWidget* parent = nullptr);
    void setRuns(const std::vector<RunResult>& runs, std::size_t bytesPerCopy, const std::optional<CopyPeak>& peak);
};

}  // namespace asyncscope
