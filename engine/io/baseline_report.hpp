// A baseline comparison as text, CSV or JSON: each quantity's medians, difference, interval, p-value and verdict,
// with the two series named and every difference in their configurations said.
#pragma once

#include "engine/model/advice.hpp"
#include "engine/model/baseline.hpp"
#include "engine/model/report.hpp"

#include <ostream>
#include <string>

namespace asyncscope {

// One of the two series: its name for people (a file name, "this run"), where it ran, and what its advice warns of
// (another process on the GPU, clocks held low, noise: what can make a comparison say "slower" for a reason of its
// own).
struct BaselineSide {
    std::string name;
    std::string host;
    std::string device;
    std::size_t measuredRuns = 0;
    std::vector<Finding> warnings;  // the series' findings of severity warning or severe
};
// The warnings are `assessed`'s (assessSeries of `report`).
BaselineSide baselineSide(const std::string& name, const Report& report, const Assessment& assessed);

std::string formatBaselineText(const BaselineComparison& c, const BaselineSide& baseline, const BaselineSide& current);
void writeBaselineCsv(std::ostream& out, const BaselineComparison& c, const BaselineSide& baseline,
    const BaselineSide& current);
void writeBaselineJson(std::ostream& out, const BaselineComparison& c, const BaselineSide& baseline,
    const BaselineSide& current);

// "0.0312", "2.1e-09", "< 1e-300": a p-value for people.
std::string pValueText(double p);
// "[-0.35, -0.27] %" where the baseline is not 0, else the interval in the quantity's unit.
std::string intervalText(const QuantityComparison& q);
// "to tell 1.00 % from noise (80 % of the time): 6 blocks of 200 runs a side (1200 runs); noise 0.90 % a run, 0.15 %
// between blocks": what a quantity's need (QuantityComparison::need) says, with the blocks each side has now.
std::string needText(const QuantityComparison& q);
// How the intervals were made: "bootstrap of the difference of medians, …" or the hierarchical bootstrap's words.
std::string methodText(const BaselineComparison& c);

}  // namespace asyncscope
