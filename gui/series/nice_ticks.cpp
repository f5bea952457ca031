#include "gui/series/nice_ticks.hpp"

#include <algorithm>
#include <cmath>

namespace asyncscope {

namespace {

constexpr double kSlack = 1e-9;  // relative: how far off a multiple a value may be and still count as on it

// How far from a whole number `steps` (a value over a step) may be and still count as on it: a value far from zero
// in small steps carries a rounding error of more than kSlack steps.
double slackFor(double steps)
{
    return std::min(1e-3, kSlack * std::max(1.0, std::fabs(steps)));
}

struct Step {
    double value;
    int exponent;  // value = m × 10^exponent, m in {1, 2, 5}
};

// The nice step at or above `raw` (positive and finite).
Step stepAtLeast(double raw)
{
    int exponent = int(std::floor(std::log10(raw)));
    for (;;) {
        const double decade = std::pow(10.0, exponent);
        for (const double m : { 1.0, 2.0, 5.0 }) {
            if (raw <= m * decade * (1.0 + kSlack))
                return { m * decade, exponent };
        }
        ++exponent;  // above 5 × 10^n: 10^(n+1), checked on the next pass
    }
}

}  // namespace

double niceStep(double span, double count, double least)
{
    const double raw = std::max(span / std::max(count, 1.0), least);
    if (!(raw > 0.0) || !std::isfinite(raw))
        return least > 0.0 && std::isfinite(least) ? stepAtLeast(least).value : 1.0;
    return stepAtLeast(raw).value;
}

int niceDecimals(double step)
{
    if (!(step > 0.0) || !std::isfinite(step))
        return 0;
    // The step is m × 10^e with m in {1, 2, 5}: e below zero needs -e digits.
    const int exponent = int(std::floor(std::log10(step) + kSlack));
    return std::max(0, -exponent);
}

double niceCeil(double value, double step)
{
    const double steps = value / step;
    return std::ceil(steps - slackFor(steps)) * step;
}

double niceFloor(double value, double step)
{
    const double steps = value / step;
    return std::floor(steps + slackFor(steps)) * step;
}

NiceTicks niceTicks(double low, double high, double count, double least)
{
    NiceTicks ticks;
    if (!std::isfinite(low) || !std::isfinite(high))
        return ticks;
    if (low > high)
        std::swap(low, high);
    const double span = high > low ? high - low : std::fabs(low);
    ticks.step = niceStep(span, count, least);
    ticks.decimals = niceDecimals(ticks.step);
    // Whole multiples counted from zero: k × step prints as the label it stands for (0.1 × 3, not 0.1 + 0.1 + 0.1).
    const double first = std::ceil(low / ticks.step - slackFor(low / ticks.step));
    const double last = std::floor(high / ticks.step + slackFor(high / ticks.step));
    for (double k = first; k <= last; ++k) {
        const double value = k * ticks.step;
        ticks.values.push_back(value == 0.0 ? 0.0 : value);  // no "-0"
    }
    return ticks;
}

}  // namespace asyncscope
