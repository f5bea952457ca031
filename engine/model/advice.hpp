// What limits a series, and whether its figures can be trusted: rules over a series' summary, its runs, its
// configuration, its calibration and the machine's state, each giving findings with the figures they rest on and one
// thing to do. The CLI prints them after the summary, JSON reports keep them, the window's Advice tab lists them.
#pragma once

#include "engine/model/names.hpp"
#include "engine/model/report.hpp"
#include "engine/model/series_summary.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

// Info: what the figures say (the series is transfer-bound). Suggestion: the workload could go faster (pageable
// copies, submission cost, the shape). Warning: the figures may not say what they seem to (noise, clocks, the link,
// runs too short to time). Severe: the figures measure something else too (another process shared the GPU).
enum class Severity { Info, Suggestion, Warning, Severe };

template <>
struct EnumNames<Severity> {
    static constexpr std::array entries { std::pair { Severity::Info, "info" },
        std::pair { Severity::Suggestion, "suggestion" }, std::pair { Severity::Warning, "warning" },
        std::pair { Severity::Severe, "severe" } };
};

// The rules, by the key findings and "not checked" lines name them with.
namespace rules {
inline constexpr std::string_view kTransferBound = "transfer-bound";
inline constexpr std::string_view kOverlapHeadroom = "overlap-headroom";
inline constexpr std::string_view kLatencyBound = "latency-bound";
inline constexpr std::string_view kPageableCopies = "pageable-copies";
inline constexpr std::string_view kSubmitBound = "submit-bound";
inline constexpr std::string_view kTooShort = "too-short-to-time";
inline constexpr std::string_view kCheckBound = "check-bound";
inline constexpr std::string_view kInterference = "interference";
inline constexpr std::string_view kLinkDegraded = "link-degraded";
inline constexpr std::string_view kClocks = "clocks";
inline constexpr std::string_view kNoisy = "noisy";
// A recorded program's own (advice_program.cpp); its launch-bound iterations are kSubmitBound's, its pageable
// copies kPageableCopies'.
inline constexpr std::string_view kSerializedCopies = "serialized-copies";
inline constexpr std::string_view kSmallCopies = "small-copies";
inline constexpr std::string_view kSynchronousCopies = "synchronous-copies";
inline constexpr std::string_view kDefaultStream = "default-stream";
inline constexpr std::string_view kDroppedRecords = "dropped-records";
}  // namespace rules

// Runs by their index in the series (RunResult::index: warm-up runs counted), first to last, both included.
struct RunRange {
    std::size_t first = 0;
    std::size_t last = 0;
};

// "runs 3-17, 40" (indices as the runs are numbered in tables and charts); past 10 ranges, "and N more ranges".
std::string runRangesText(const std::vector<RunRange>& ranges);

struct Finding {
    std::string rule;  // a rules:: key
    std::string title;  // for people: "Transfer-bound"
    Severity severity = Severity::Info;
    std::string evidence;  // the figures the finding rests on
    std::string action;    // one thing to do, in a CUDA developer's words
    std::vector<RunRange> runs;  // the runs it concerns; empty: the series as a whole
    bool stages = false;         // it concerns the stages within runs: the timeline shows it
};

// A rule that could not judge the series, and why ("the machine's state was not read: libnvidia-ml.so.1 did not
// load").
struct NotChecked {
    std::string rule;
    std::string why;
};

// The shape a finding suggests, with the time the overlap model predicts for it: what --try-advice runs.
struct SuggestedShape {
    std::string rule;  // the finding's
    int chunks = 1;
    int streams = 1;
    Submission submission = Submission::Stream;
    double predictedMs = 0.0;  // the model's time for the shape
    double nowMs = 0.0;        // the series' median GPU time
};

struct Advice {
    std::vector<Finding> findings;  // most severe first, then in the rules' order
    std::vector<NotChecked> notChecked;
    // The one shape the advice suggests, where it suggests one: faster in the model than the series by more than the
    // series' noise and the model's own error.
    std::optional<SuggestedShape> suggestion;

    // The most severe finding's severity; empty when there is none.
    std::optional<Severity> worst() const;
};

// What a comparison knows beside one of its variants.
struct AdviceContext {
    // The same workload submitted otherwise (a submission comparison's graph and batch variants at this one's shape).
    struct Alternative {
        std::string label;  // "graph K=64 S=4"
        Submission submission = Submission::Graph;
        double cpuSubmitMs = 0.0;  // medians
        double gpuMs = 0.0;
    };
    std::vector<Alternative> alternatives;
};

// Thresholds, as the rules apply them.
namespace advice_limits {
inline constexpr double kEventResolutionMs = 0.0005;           // CUDA events: about 0.5 µs
inline constexpr double kShortestTimedMs = 10 * kEventResolutionMs;
inline constexpr double kTransferBoundRatio = 0.95;            // GPU time over the link's bound, at least
inline constexpr double kTransferBoundMostRatio = 1.25;        // … and at most (the copies 80 % of the time)
inline constexpr double kLatencyBoundModelledMs = 0.05;        // modelled under this: latency, not bandwidth, rules
inline constexpr double kShortRunMs = 0.1;                     // runs under this are noisy by nature
inline constexpr double kOutlierSpread = 0.02;                 // p95 within this of the median: noise is outliers
inline constexpr double kOverlapHeadroomRatio = 1.15;          // GPU time over the modelled time, above
inline constexpr std::size_t kManySmallCopies = 16;            // a program's copies per iteration, at least …
inline constexpr std::uint64_t kSmallCopyBytes = 64 * 1024;    // … half of them under this: batch them
inline constexpr std::size_t kManyLaunches = 8;                // kernels per iteration for a launch-bound program
inline constexpr double kSubmitBoundShare = 0.30;              // CPU submit over GPU time, at least
inline constexpr double kNoisyPercent = 5.0;                   // a fixed series' noise above this is noisy
inline constexpr double kInterferenceSlowdown = 1.10;          // runs beside another process this much slower: severe
// A shape is suggested only where the model has it faster than the series by more than this share and the series'
// noise: the model's error across shapes is held under 3 % (tests/bench/model_table.sh measures it).
inline constexpr double kModelErrorShare = 0.03;
// A recorded program's iteration of copies and kernels in sequence is modelled in this many chunks over as many
// streams: the shape NVIDIA's overlap sample streams its work in, against whose streamed versions the prediction is
// checked on the GPU (tests/gpu/record_gpu_test.cpp).
inline constexpr int kProgramModelChunks = 4;
}  // namespace advice_limits

// Judges one series: `summary` is summarizeSeries(report) (or a comparison's summary of it).
Advice judgeSeries(const Report& report, const SeriesSummary& summary, const AdviceContext& context = {});

// What is made of a series once and handed to everything that writes or shows it: its summary and the advice judged
// on that summary. Writers take it rather than summarising and judging a million runs again each.
struct Assessment {
    SeriesSummary summary;
    Advice advice;
};
// summarizeSeries(report), then judgeSeries on it.
Assessment assessSeries(const Report& report, const AdviceContext& context = {});
// The summaries alone, in order: for what lays a comparison's summaries side by side (comparisonColumns).
std::vector<SeriesSummary> summariesOf(const std::vector<Assessment>& assessed);

}  // namespace asyncscope
