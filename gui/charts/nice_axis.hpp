// Value axes of Qt Charts with their ticks on nice values (nice_ticks): as many as the plot has room for, labelled
// with the digits that tell them apart. Used by the run charts and the distributions.
#pragma once

#include <Qt>

class QChart;
class QValueAxis;

namespace asyncscope {

// About how many ticks fit the chart's plot area along an axis: one per label's room; a handful before the chart
// has a size.
double tickRoom(const QChart* chart, Qt::Orientation along);

// Ticks at multiples of a nice step for the axis's range as it is, about `count` of them, the step never below
// `least`.
void setNiceTicks(QValueAxis* axis, double count, double least);

// Sets the range from `low` to `high` and then its ticks. The axis jumps with a few fixed ticks first: an interval
// that suits one range can mean tens of thousands of ticks over another (a sweep's runs differ by 10^4), and the
// chart lays out every tick it is given.
void setNiceRange(QValueAxis* axis, double low, double high, double count, double least);

}  // namespace asyncscope
