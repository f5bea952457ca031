// Histograms of run times for the Distribution tab: bins of one width at round edges (1, 2 or 5 × 10^n ms), as
// many as the data asks for (Freedman–Diaconis), shared by every series on one chart so that they compare bin for
// bin. Values are kept sorted, so counting reads a few values per bin rather than every value. No Qt.
#pragma once

#include <cstddef>
#include <vector>

namespace asyncscope {

struct HistogramBins {
    double low = 0.0;    // the first bin's left edge: a multiple of the width
    double width = 1.0;  // 1, 2 or 5 × 10^n
    int count = 1;

    // edge(0) = low, edge(count) = high(): the double nearest the decimal edge (0.3, not 3 × 0.1), so that a value
    // read as 0.3 falls in the bin that starts at 0.3.
    double edge(int i) const;
    double high() const { return edge(count); }
    int binOf(double value) const;  // -1 left of the bins, count right of them
};

struct Histogram {
    HistogramBins bins;
    std::vector<std::size_t> counts;  // bin i: values from edge(i) up to but not including edge(i + 1); the last
                                      // bin also holds high()
    std::size_t below = 0;            // values left of the first bin
    std::size_t above = 0;            // values right of the last bin
    std::size_t total() const;        // every value counted: the bins', below and above
};

// The most bins a chart gets: at a few pixels each, narrower bins would not show.
constexpr int kMostBins = 200;

// One set of bins for samples drawn together, each sorted in ascending order (empty ones are left out). The width
// is the narrowest of the samples' Freedman–Diaconis widths (2 × interquartile range / n^(1/3)), rounded up to 1, 2
// or 5 × 10^n, and wider where more than `maxBins` bins would be needed. The bins cover every value but far outliers:
// those more than three interquartile ranges beyond the quartiles, which a histogram counts below or above its bins.
// A sample whose quartiles are equal keeps every value; one whose values are all equal gets one bin of a tenth of
// their size (or 1 for zeros) around them.
HistogramBins fitBins(const std::vector<const std::vector<double>*>& sortedSamples, int maxBins = kMostBins);

// Counts a sample sorted in ascending order into the bins: two binary searches per bin.
Histogram countSorted(const std::vector<double>& sorted, const HistogramBins& bins);

}  // namespace asyncscope
