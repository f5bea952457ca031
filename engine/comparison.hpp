// The comparisons asyncAPI is about, each a list of variants of one configuration run one after the other:
// pinned vs pageable host memory, spin-poll vs blocking-sync wait, and a sweep of sizes.
#pragma once

#include "engine/config.hpp"
#include "engine/error.hpp"
#include "engine/report.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asyncscope {

enum class Comparison { HostMemory, Wait, Size };
const char* toString(Comparison comparison);
std::optional<Comparison> parseComparison(std::string_view text);

struct Variant {
    std::string label;  // "pinned", "blocking", "64.0 MiB"
    PipelineConfig config;
};

constexpr std::size_t kSweepMinBytes = std::size_t(4) << 10;
constexpr std::size_t kSweepMaxBytes = std::size_t(1) << 30;

// The variants of `base` for a comparison. A size sweep runs powers of two from minBytes to maxBytes (both rounded
// to whole ints); a range that is empty or upside down is a usage error.
Result<std::vector<Variant>> makeVariants(Comparison comparison, const PipelineConfig& base,
    std::size_t minBytes = kSweepMinBytes, std::size_t maxBytes = kSweepMaxBytes);

// A comparison's results: one report per variant, in order.
struct ComparisonReport {
    Comparison comparison = Comparison::HostMemory;
    std::vector<std::string> labels;
    std::vector<Report> reports;
};

std::string formatComparisonText(const ComparisonReport& comparison);
// One row per variant with nvbench-like columns: Samples, GPU Time, CPU Time, Noise, GB/s.
void writeComparisonCsv(std::ostream& out, const ComparisonReport& comparison);
void writeComparisonJson(std::ostream& out, const ComparisonReport& comparison);

}  // namespace asyncscope
