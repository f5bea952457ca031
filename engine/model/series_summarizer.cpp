#include "engine/model/series_summarizer.hpp"

#include <algorithm>
#include <cmath>

namespace asyncscope {

namespace {

// Adds `value` to `sum`, keeping what the addition loses in `lost` (Neumaier's compensated summation).
void addTo(double& sum, double& lost, double value)
{
    const double next = sum + value;
    lost += std::fabs(sum) >= std::fabs(value) ? (sum - next) + value : (value - next) + sum;
    sum = next;
}

}  // namespace

SeriesSummarizer::SeriesSummarizer()
{
    reset({});
}

void SeriesSummarizer::reset(const PipelineConfig& config, const std::optional<CopyPeak>& peak)
{
    m_config = config;
    m_peak = peak;
    m_columns.assign(runMeasures().size(), Column {});
    m_firstMeasured.reset();
    m_runs = m_measured = m_warmups = m_verified = 0;
    m_stale = true;
}

void SeriesSummarizer::setPeak(const std::optional<CopyPeak>& peak)
{
    m_peak = peak;
    m_stale = true;
}

void SeriesSummarizer::reserve(std::size_t runs)
{
    for (Column& c : m_columns) {
        if (c.present)
            c.sorted.reserve(runs);
    }
}

void SeriesSummarizer::add(const RunStore& runs, std::size_t i)
{
    ++m_runs;
    m_verified += runs.verified(i) ? 1 : 0;
    m_stale = true;
    if (runs.warmup(i)) {
        ++m_warmups;
        return;
    }
    if (!m_firstMeasured)
        m_firstMeasured = runs[i];
    const std::vector<RunMeasure>& measures = runMeasures();
    for (std::size_t m = 0; m < measures.size(); ++m) {
        Column& c = m_columns[m];
        if (!c.present)
            continue;
        if (!measures[m].present(runs, i)) {
            c = Column {};
            c.present = false;  // a summary shows a quantity only where every measured run has it
            continue;
        }
        const double value = measures[m].read(runs, i);
        if (m_measured == 0)
            c.shift = value;
        const double d = value - c.shift;
        addTo(c.sum, c.sumLost, d);
        addTo(c.squares, c.squaresLost, d * d);
        c.pending.push_back(value);
    }
    ++m_measured;
}

void SeriesSummarizer::merge()
{
    for (Column& c : m_columns) {
        if (c.pending.empty())
            continue;
        std::sort(c.pending.begin(), c.pending.end());
        // Merged from the back into the room after the sorted values: no buffer, and only the values above the
        // smallest new one move.
        std::size_t from = c.sorted.size();
        std::size_t added = c.pending.size();
        c.sorted.resize(from + added);
        for (std::size_t to = from + added; added > 0;) {
            if (from > 0 && c.sorted[from - 1] > c.pending[added - 1])
                c.sorted[--to] = c.sorted[--from];
            else
                c.sorted[--to] = c.pending[--added];
        }
        c.pending.clear();
    }
}

Summary SeriesSummarizer::statsOf(const Column& c) const
{
    Summary s;
    const std::size_t n = c.sorted.size();
    s.count = n;
    if (n == 0)
        return s;
    const double count = double(n);
    const double sum = c.sum + c.sumLost;  // of the values less the shift
    s.min = c.sorted.front();
    s.max = c.sorted.back();
    s.mean = c.shift + sum / count;
    s.median = sortedMedian(c.sorted);
    if (n > 1) {
        const double squares = (c.squares + c.squaresLost) - sum * sum / count;  // about the mean
        s.stddev = std::sqrt(std::max(0.0, squares) / (count - 1.0));
    }
    s.noisePercent = s.mean != 0.0 ? 100.0 * s.stddev / std::fabs(s.mean) : 0.0;
    s.p95 = sortedPercentile(c.sorted, 0.95);
    return s;
}

const SeriesSummary& SeriesSummarizer::summary()
{
    if (!m_stale)
        return m_summary;
    merge();
    SeriesSummary s;
    s.measuredRuns = m_measured;
    s.warmupRuns = m_warmups;
    s.verifiedRuns = m_verified;
    if (m_measured > 0) {
        const std::vector<RunMeasure>& measures = runMeasures();
        for (std::size_t m = 0; m < measures.size(); ++m) {
            if (m_columns[m].present)
                s.distributions.push_back(
                    { std::string(measures[m].key), measures[m].name, measures[m].kind, statsOf(m_columns[m]) });
        }
        addSeriesFigures(s, m_config, m_peak, *m_firstMeasured);
    }
    m_summary = std::move(s);
    m_stale = false;
    return m_summary;
}

const std::vector<double>* SeriesSummarizer::sorted(std::string_view key)
{
    const std::vector<RunMeasure>& measures = runMeasures();
    for (std::size_t m = 0; m < measures.size(); ++m) {
        if (measures[m].key == key && m_columns[m].present && m_measured > 0) {
            merge();
            return &m_columns[m].sorted;
        }
    }
    return nullptr;
}

}  // namespace asyncscope
