// Axis ticks on round values: multiples of 1, 2 or 5 times a power of ten, about as many as the axis has room for.
// Shared by the run charts and the distributions; no Qt, so it is tested on its own.
#pragma once

#include <vector>

namespace asyncscope {

struct NiceTicks {
    double step = 1.0;           // 1, 2 or 5 × 10^n
    int decimals = 0;            // digits after the point that tell one tick from the next ("%.1f" for 0.5)
    std::vector<double> values;  // the multiples of `step` from low to high, both included
};

// The smallest step of 1, 2 or 5 × 10^n that cuts `span` into at most about `count` steps, and never below `least`
// (1 for run numbers: no tick between two runs). A span that is not positive gets the step of `least`, or 1.
double niceStep(double span, double count, double least = 0.0);

// Digits after the point that a label needs for multiples of `step` (0 for steps of 1 and more).
int niceDecimals(double step);

// Ticks over [low, high], at most `count` + 1 of them, at multiples of a nice step. A
// single value (low == high) gets the step of its own size and is a tick when it is a multiple of it; 0 gets 1.
// Low above high is taken the other way round; a bound that is not finite gives no ticks.
NiceTicks niceTicks(double low, double high, double count, double least = 0.0);

// The smallest multiple of `step` at or above `value` (a value a rounding error above a multiple counts as on it).
double niceCeil(double value, double step);
// The largest multiple of `step` at or below `value`.
double niceFloor(double value, double step);

}  // namespace asyncscope
