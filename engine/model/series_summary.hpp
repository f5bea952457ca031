// A series' summary as named values: distributions over the measured runs (GPU time, CPU submit time, stage times
// …) and single figures (noise, bandwidth, the serial bound). Printers, the window's summary table and comparison
// table walk these lists, so a quantity added in summarizeSeries() shows up everywhere without touching them.
#pragma once

#include "engine/model/names.hpp"
#include "engine/model/report.hpp"
#include "engine/model/statistics.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

enum class ValueKind { Duration, Rate, Count, Percentage, Ratio };

template <>
struct EnumNames<ValueKind> {
    static constexpr std::array entries { std::pair { ValueKind::Duration, "duration" },
        std::pair { ValueKind::Rate, "rate" }, std::pair { ValueKind::Count, "count" },
        std::pair { ValueKind::Percentage, "percentage" }, std::pair { ValueKind::Ratio, "ratio" } };
};

// "ms", "GB/s", "", "%", "x": the unit every value of a kind is given in.
const char* unitOf(ValueKind kind);
// Decimal places a value of this kind is printed with in tables and text.
int decimalsOf(ValueKind kind);

// A quantity measured once per run, summarised over the measured runs.
struct Distribution {
    std::string key;   // JSON key, stable: "gpu_time_ms"
    std::string name;  // for people: "GPU time"
    ValueKind kind = ValueKind::Duration;
    Summary stats;
};

// One figure of the whole series.
struct Figure {
    std::string key;
    std::string name;
    ValueKind kind = ValueKind::Duration;
    double value = 0.0;
};

// "GPU time (ms)", "Noise (%)", "Poll iterations": a name with its unit, for column headers.
std::string headerOf(const std::string& name, ValueKind kind);

struct SeriesSummary {
    std::size_t measuredRuns = 0;
    std::size_t warmupRuns = 0;
    std::size_t verifiedRuns = 0;  // of all runs, warm-up included
    std::vector<Distribution> distributions;
    std::vector<Figure> figures;

    const Distribution* distribution(std::string_view key) const;
    const Figure* figure(std::string_view key) const;
    double median(std::string_view key) const;  // of a distribution; 0 when absent
    double value(std::string_view key) const;   // of a figure; 0 when absent
};

// A comparison shows one number per value and variant: a distribution's median, a figure itself. The columns are
// every value any of the summaries has, in the order they give them.
struct Column {
    std::string key;
    std::string name;
    ValueKind kind = ValueKind::Duration;
};
std::vector<Column> comparisonColumns(const std::vector<SeriesSummary>& summaries);
std::optional<double> headlineValue(const SeriesSummary& summary, std::string_view key);

// Keys of the values other code looks up by name (charts, the status line); printers need none of them.
namespace keys {
inline constexpr std::string_view kGpuTime = "gpu_time_ms";
inline constexpr std::string_view kCpuSubmit = "cpu_submit_time_ms";
inline constexpr std::string_view kPolls = "poll_iterations";
inline constexpr std::string_view kWaitCpu = "wait_cpu_ms";
inline constexpr std::string_view kH2dRate = "h2d_gbps";
inline constexpr std::string_view kD2hRate = "d2h_gbps";
inline constexpr std::string_view kCopyRate = "copy_gbps";          // both copies' bytes over the GPU time
inline constexpr std::string_view kModelled = "modelled_ms";        // the overlap model's bound for the shape
inline constexpr std::string_view kSpeedup = "speedup_over_k1";     // a comparison's: K = 1's GPU time over this one's
inline constexpr std::string_view kOverSerialBound = "gpu_time_over_serial_bound";
// Both directions at once plus one chunk's fill and drain, at the series' shape (or the model's fastest), and the
// series' GPU time over it.
inline constexpr std::string_view kOverlappedBound = "overlapped_bound_ms";
inline constexpr std::string_view kOverOverlappedBound = "gpu_time_over_overlapped_bound";
// A series whose host buffers were registered (cudaHostRegister), summed over its buffers.
inline constexpr std::string_view kHostRegisterMs = "host_register_ms";
inline constexpr std::string_view kHostRegisterRate = "host_register_gbps";
inline constexpr std::string_view kHostUnregisterMs = "host_unregister_ms";
}  // namespace keys

// A quantity measured once per run: how to read it from run i of a series, and whether that run has it. A summary's
// distributions are these, in this order, over the measured runs (SeriesSummarizer grows them run by run).
struct RunMeasure {
    std::string_view key;
    const char* name;
    ValueKind kind;
    double (*read)(const RunStore&, std::size_t);
    bool (*present)(const RunStore&, std::size_t);
};
const std::vector<RunMeasure>& runMeasures();

// Adds a summary's single figures to `s`, whose distributions are made: noise, throughput, stage bandwidths (from
// what `measured`, any measured run, moves per stage) and the calibration's figures where `peak` is known.
void addSeriesFigures(SeriesSummary& s, const PipelineConfig& config, const std::optional<CopyPeak>& peak,
    const RunResult& measured);

// Warm-up runs are counted and left out. Stage distributions appear when every measured run has that span; stage
// bandwidths when the workload runs on one stream; calibration figures and the modelled time when the report holds a
// copy peak (the model uses the measured kernel time where stages were timed).
SeriesSummary summarizeSeries(const Report& report);

}  // namespace asyncscope
