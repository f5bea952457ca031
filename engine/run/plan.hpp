// A plan: the variants (configurations) to run one after the other, and what came of each. One series is a plan of
// one variant; a comparison (pinned vs pageable host memory, spin-poll vs blocking-sync wait, a sweep of sizes) is
// a plan of several.
#pragma once

#include "engine/model/advice.hpp"
#include "engine/model/config.hpp"
#include "engine/model/error.hpp"
#include "engine/model/names.hpp"
#include "engine/model/report.hpp"

#include <cstddef>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

namespace asyncscope {

// HostMemory: pinned against pageable, the seed's pair. Memory: the memory lab, every host memory kind at the chosen
// size and shape, with the chosen copy mechanism where the kind copies, and pinned memory with the other mechanism.
// Overlap: chunk counts 1, 2, 4 … 64 (no more than the elements) against 1, 2 and 4 streams (no more than the
// chunks). Submission: stream calls against a CUDA Graph and a batch, at one chunk and at the chosen shape.
// Processes: the processes of one recorded program (asyncscope-cli record), each a series; no plan runs it.
enum class Comparison { HostMemory, Wait, Size, Overlap, Submission, Memory, Processes };

template <>
struct EnumNames<Comparison> {
    static constexpr std::array entries { std::pair { Comparison::HostMemory, "host-memory" },
        std::pair { Comparison::Wait, "wait" }, std::pair { Comparison::Size, "size" },
        std::pair { Comparison::Overlap, "overlap" }, std::pair { Comparison::Submission, "submit" },
        std::pair { Comparison::Memory, "memory" }, std::pair { Comparison::Processes, "processes" } };
};

// The comparisons a plan runs, as --compare takes them: every one but Processes (which recording a program makes).
std::vector<std::string> runnableComparisonNames();
// "host-memory, wait, size, overlap, submit or memory": for messages that list them.
std::string runnableComparisonText();
// The runnable comparison `text` names; empty for any other text, "processes" among them.
std::optional<Comparison> parseRunnableComparison(std::string_view text);

struct Variant {
    std::string label;  // "pinned", "blocking", "64.0 MiB"; for a single series its size
    PipelineConfig config;
};

constexpr std::size_t kSweepMinBytes = std::size_t(4) << 10;
constexpr std::size_t kSweepMaxBytes = std::size_t(1) << 30;
constexpr int kOverlapMaxChunks = 64;
constexpr int kOverlapMaxStreams = 4;

// "K=16 S=4": a shape as a variant's label.
std::string shapeLabel(int chunks, int streams);

struct Plan {
    std::optional<Comparison> comparison;  // empty: one series
    std::vector<Variant> variants;
};

// One series of `config`.
Plan seriesPlan(const PipelineConfig& config);

// The advice tried (--try-advice, the window's "Try it"): an overlap comparison of `now` ("now K=1") and the same
// configuration in the suggestion's chunks, streams and submission ("advised K=16 S=3"), in that order.
Plan tryAdvicePlan(const PipelineConfig& now, const SuggestedShape& shape);

// The variants of `base` for a comparison. A size sweep runs powers of two from minBytes to maxBytes (both rounded
// down to whole ints); a range that is empty or upside down is a usage error. Every variant is validated.
Result<Plan> comparisonPlan(Comparison comparison, const PipelineConfig& base, std::size_t minBytes = kSweepMinBytes,
    std::size_t maxBytes = kSweepMaxBytes);

// "pinned", "registered", "managed, on-demand", "pinned, SM copies": a memory lab variant's label.
std::string memoryLabel(const PipelineConfig& config);

// What came of one variant: its report (runs, outcome, calibration), or why it could not run at all.
struct VariantResult {
    std::string label;
    Report report;                 // device and config always set; runs as far as they went
    std::optional<Error> notRun;   // could not start (too large for the device or the host, or a combination this
                                   // device or runtime cannot run): the others still ran
    std::optional<Error> failure;  // started and then failed or was cancelled: the plan stopped here
    bool ran() const { return !notRun.has_value(); }
};

struct PlanReport {
    std::optional<Comparison> comparison;
    std::vector<VariantResult> variants;  // in plan order, as far as the plan got
    std::size_t planned = 0;              // variants in the plan

    // The error that stopped the plan (a failure or a cancel), if one did.
    const Error* failure() const;
    // Every variant was attempted and none failed (some may not have run).
    bool complete() const { return variants.size() == planned && !failure(); }
    std::size_t ranCount() const;
    // "runs 3 of 4 variants; 1 GiB: does not fit …": one line on what did not run, empty when all ran.
    std::string notRunText() const;
};

}  // namespace asyncscope
