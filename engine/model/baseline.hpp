// Is this series slower than a baseline? Each quantity a series' summary holds, compared run by run: the two medians,
// their difference with a bootstrap interval, the Mann–Whitney p-value and a verdict; the two configurations
// compared first; and a gate a CI job can fail on.
#pragma once

#include "engine/model/detection_need.hpp"
#include "engine/model/report.hpp"
#include "engine/model/series_summary.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace asyncscope {

struct BaselineSettings {
    double confidence = 0.95;  // of the interval
    int resamples = 10000;     // bootstrap resamples
    std::uint64_t seed = 1;    // the same files and seed give the same intervals
    double alpha = 0.05;       // a difference is told from noise when p < alpha and the interval leaves out 0
    // A difference smaller than this, in % of the baseline's median, counts as the same even when it is told from
    // noise: two series of one configuration on one machine differ by a few tenths of a percent.
    double minDifferencePercent = 0.5;
    // The gate: the comparison fails when a gated quantity is slower by more than this, in %, with its whole interval
    // beyond it. Empty: no gate.
    std::optional<double> maxSlowdownPercent;
    std::vector<std::string> gateKeys { "gpu_time_ms" };  // summary keys the gate looks at
};

// A setting in which the two series differ. `blocking` ones (the device, driver, size, shape, memory …) make the
// comparison one across configurations, which needs the user's consent; the others (host, run count, stop rule) are
// listed only.
struct ConfigDifference {
    std::string field;  // "host memory"
    std::string baseline;
    std::string current;
    bool blocking = true;
};
std::vector<ConfigDifference> configDifferences(const Report& baseline, const Report& current);
bool anyBlocking(const std::vector<ConfigDifference>& differences);
// "size 64.0 MiB → 4.0 KiB; host memory pinned → pageable": the blocking differences in one line.
std::string differencesText(const std::vector<ConfigDifference>& differences, bool blockingOnly = true);

enum class Verdict {
    Same,       // not told from noise
    Small,      // told from noise, but smaller than minDifferencePercent
    Slower,     // durations longer, rates lower
    Faster,
    Higher,     // a count (poll iterations): neither better nor worse
    Lower,
    Unmeasured  // a single figure of the series, or a quantity one of them lacks: no runs to compare
};
const char* verdictName(Verdict verdict);  // "same", "same (small)", "slower" … for files
// "same within noise", "same (+0.21 %, under 0.50 %)", "slower", …: for people. `sameUnderPercent`: the difference
// under which the quantity counted as the same (QuantityComparison::sameUnderPercent).
std::string verdictText(Verdict verdict, double differencePercent, double sameUnderPercent);

// A percentage as every output prints it, to two decimals: verdicts and the gate compare this, so that what is printed
// is what was judged ("+0.50 %" is never "under 0.50 %").
double shownPercent(double percent);

// The fewest measured runs each series must hold to be compared. With 3 runs each no difference can be told from
// noise at all (the Mann–Whitney test's smallest two-sided p is 0.1, above alpha): the gate could never fail, and one
// run gives an interval of width 0. With 4 the smallest p is 0.029; 5 leaves a margin.
inline constexpr std::size_t kMinComparedRuns = 5;
// A series' measured runs (its warm-ups left out).
std::size_t measuredRunsOf(const Report& series);
// The blocks its measured runs came in (1 for a series of one block and for files from before blocks; 0 for none).
std::size_t blocksOf(const Report& series);
// Nothing when `series` can be compared; otherwise why not, naming it as `name` gives it ("the baseline a.json"):
// "the baseline a.json holds 0 measured runs (and 3 warm-ups): a comparison needs at least 10 in each series".
std::optional<std::string> tooFewRunsToCompare(const Report& series, const std::string& name);

struct QuantityComparison {
    std::string key;
    std::string name;
    ValueKind kind = ValueKind::Duration;
    bool distribution = true;  // a quantity of every run; false: a single figure of the series (no interval, no p)
    std::size_t baselineRuns = 0;
    std::size_t currentRuns = 0;
    double baseline = 0.0;  // the median (or the figure)
    double current = 0.0;
    double difference = 0.0;                // current - baseline
    std::optional<double> differencePercent;  // of the baseline; empty where the baseline is 0
    double low = 0.0;                       // the interval of the difference
    double high = 0.0;
    std::optional<double> lowPercent;
    std::optional<double> highPercent;
    double p = 1.0;
    // The blocks each side's runs came in (--blocks; 1 for a series of one block and for files from before blocks).
    // Where either side has several, the interval is the hierarchical bootstrap's (resampling blocks, then runs in
    // them) and p is that bootstrap's, so that the verdict rests on blocks; otherwise the runs' bootstrap and the
    // Mann–Whitney test.
    std::size_t baselineBlocks = 1;
    std::size_t currentBlocks = 1;
    // The blocks and runs a side needs to tell sameUnderPercent from this noise (distributions that are gated, or GPU
    // time); empty where it cannot be worked out.
    std::optional<DetectionNeed> need;
    Verdict verdict = Verdict::Unmeasured;
    // Under this difference, in %, it counts as the same: --min-difference, or the gate's --max-slowdown where the
    // quantity is gated and that is lower (a gate at 0.1 % asks for differences of 0.1 % to count).
    double sameUnderPercent = 0.5;
    bool gated = false;       // the gate looks at it
    bool gateFailed = false;  // slower than maxSlowdownPercent with its whole interval beyond
};

struct BaselineComparison {
    BaselineSettings settings;
    std::vector<ConfigDifference> differences;
    bool acrossConfigurations = false;  // blocking differences, compared because the user allowed it
    std::vector<QuantityComparison> quantities;

    bool gateFailed() const;
    // Either series is one block: its interval holds the variation between runs of one process (one pipeline's
    // resources) and leaves the variation from one process to the next out.
    bool singleBlock() const;
    const QuantityComparison* quantity(std::string_view key) const;
    // "GPU time slower by 4.81 % [4.62, 5.03]": the gated quantities' verdicts (or GPU time's) in one line.
    std::string headline() const;
};

// Compares `current` with `baseline`, quantity by quantity, over each series' measured runs. The configurations'
// differences are listed; comparing across blocking ones is the caller's decision (acrossConfigurations says so).
BaselineComparison compareWithBaseline(const Report& baseline, const Report& current, const BaselineSettings& settings);
// The same, with each series' summary (summarizeSeries) already made: a million-run series is summarized once.
BaselineComparison compareWithBaseline(const Report& baseline, const SeriesSummary& baselineSummary,
    const Report& current, const SeriesSummary& currentSummary, const BaselineSettings& settings);

// What a comparison whose series are of one block says of its interval (BaselineComparison::singleBlock).
inline constexpr const char* kSingleBlockNote =
    "a series of one block: the interval holds the variation between its runs and leaves out the variation from one "
    "process (or pipeline) to the next, which is often larger; measure with --blocks N for an interval that holds it";

// Whether a quantity's verdict is settled by its interval, so that measuring more would not change it: the whole
// interval beyond the difference that counts (sameUnderPercent) either way, or the whole interval within it; with a
// gate, the whole interval above the gate or below it.
bool verdictDecided(const QuantityComparison& q, const BaselineSettings& settings);

// Whether higher values of a kind are worse (durations), better (rates), or neither (counts, ratios, percentages).
enum class Direction { HigherIsWorse, HigherIsBetter, Neutral };
Direction directionOf(std::string_view key, ValueKind kind);

}  // namespace asyncscope
