// A series' summary grown as its runs arrive, equal to summarizeSeries() of the runs added so far, without going
// over them again: each measured quantity's values are kept sorted (the runs added since the last summary are
// sorted and merged in, so the median and p95 are exact), with running sums for the mean and standard deviation
// and the ends of the sorted values for min and max. The CLI and the window can both use it; no Qt.
#pragma once

#include "engine/model/copy_peak.hpp"
#include "engine/model/series_summary.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace asyncscope {

class SeriesSummarizer {
public:
    SeriesSummarizer();

    // Starts again, empty, for a series of `config` calibrated at `peak` (when known).
    void reset(const PipelineConfig& config, const std::optional<CopyPeak>& peak = std::nullopt);
    void setPeak(const std::optional<CopyPeak>& peak);
    // Room for `runs` runs' values, so that the columns do not grow by copying as they come.
    void reserve(std::size_t runs);
    // Adds run `i` of `runs`.
    void add(const RunStore& runs, std::size_t i);

    // Every run added, warm-ups included.
    std::size_t runs() const { return m_runs; }
    // The summary of every run added: merges what was added since the last call.
    const SeriesSummary& summary();
    // A distribution's values, sorted (merged up to date); nullptr when not every measured run has the quantity.
    const std::vector<double>* sorted(std::string_view key);

private:
    // One quantity of runMeasures(): its sorted values, the values not merged yet, and sums shifted by the first
    // value (which keeps their precision whatever the values' magnitude), each with its lost low-order part.
    struct Column {
        bool present = true;  // every measured run so far has it
        std::vector<double> sorted;
        std::vector<double> pending;
        double shift = 0.0;
        double sum = 0.0, sumLost = 0.0;
        double squares = 0.0, squaresLost = 0.0;
    };
    void merge();
    Summary statsOf(const Column& column) const;

    PipelineConfig m_config;
    std::optional<CopyPeak> m_peak;
    std::vector<Column> m_columns;  // in runMeasures()' order
    std::optional<RunResult> m_firstMeasured;
    std::size_t m_runs = 0;
    std::size_t m_measured = 0;
    std::size_t m_warmups = 0;
    std::size_t m_verified = 0;
    bool m_stale = true;  // runs or a calibration came since the summary was made
    SeriesSummary m_summary;
};

}  // namespace asyncscope
