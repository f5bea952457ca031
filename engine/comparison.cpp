#include "engine/comparison.hpp"

#include "engine/json_report.hpp"
#include "engine/size_parse.hpp"
#include "engine/statistics.hpp"

#include <cstdio>
#include <ostream>

namespace asyncscope {

const char* toString(Comparison comparison)
{
    switch (comparison) {
    case Comparison::HostMemory: return "host-memory";
    case Comparison::Wait: return "wait";
    case Comparison::Size: return "size";
    }
    return "unknown";
}

std::optional<Comparison> parseComparison(std::string_view text)
{
    for (const Comparison c : { Comparison::HostMemory, Comparison::Wait, Comparison::Size }) {
        if (text == toString(c))
            return c;
    }
    return std::nullopt;
}

Result<std::vector<Variant>> makeVariants(Comparison comparison, const PipelineConfig& base, std::size_t minBytes,
    std::size_t maxBytes)
{
    std::vector<Variant> variants;
    switch (comparison) {
    case Comparison::HostMemory:
        for (const HostMemory m : { HostMemory::Pinned, HostMemory::Pageable }) {
            Variant v { toString(m), base };
            v.config.hostMemory = m;
            variants.push_back(v);
        }
        break;
    case Comparison::Wait:
        for (const WaitMode w : { WaitMode::Spin, WaitMode::Blocking }) {
            Variant v { toString(w), base };
            v.config.waitMode = w;
            variants.push_back(v);
        }
        break;
    case Comparison::Size:
        if (minBytes < sizeof(int) || maxBytes < minBytes)
            return makeError(ErrorKind::Usage,
                "the sweep range " + formatBytes(minBytes) + " to " + formatBytes(maxBytes) + " is empty",
                "Give a smallest size of at least 4 bytes and a largest size not below it.");
        for (std::size_t bytes = minBytes; bytes <= maxBytes; bytes *= 2) {
            Variant v { formatBytes(bytes), base };
            v.config.elements = bytes / sizeof(int);
            variants.push_back(v);
            if (bytes > maxBytes / 2)
                break;
        }
        break;
    }
    return variants;
}

namespace {

struct Row {
    SeriesSummary s;
    double bytes;
};

Row rowOf(const Report& r)
{
    return { summarizeRuns(r.runs, r.config.bytes()), static_cast<double>(r.config.bytes()) };
}

}  // namespace

std::string formatComparisonText(const ComparisonReport& c)
{
    std::string text = "comparison: " + std::string(toString(c.comparison)) + "\n";
    char line[512];
    std::snprintf(line, sizeof line, "%-12s %12s %8s %12s %12s %9s %12s %14s %10s %10s\n", "variant", "size", "samples",
        "GPU ms", "CPU ms", "noise %", "polls", "wait CPU ms", "H2D GB/s", "D2H GB/s");
    text += line;
    for (std::size_t i = 0; i < c.reports.size(); ++i) {
        const Row row = rowOf(c.reports[i]);
        std::snprintf(line, sizeof line, "%-12s %12s %8zu %12.4f %12.4f %9.2f %12.0f %14.4f %10.1f %10.1f\n",
            c.labels[i].c_str(), formatBytes(c.reports[i].config.bytes()).c_str(), row.s.measuredRuns,
            row.s.gpuMs.median, row.s.cpuSubmitMs.median, row.s.gpuMs.noisePercent, row.s.pollIterations.median,
            row.s.waitCpuMs.median, row.s.h2dGBps, row.s.d2hGBps);
        text += line;
    }
    return text;
}

void writeComparisonCsv(std::ostream& out, const ComparisonReport& c)
{
    out << "Variant,Size (B),Host Memory,Wait,Samples,GPU Time (ms),CPU Time (ms),Noise (%),Poll Iterations,"
           "Wait CPU Time (ms),H2D GB/s,D2H GB/s,Kernel GB/s,Verified\n";
    const auto flags = out.flags();
    const auto precision = out.precision(9);
    for (std::size_t i = 0; i < c.reports.size(); ++i) {
        const Report& r = c.reports[i];
        const Row row = rowOf(r);
        out << c.labels[i] << ',' << r.config.bytes() << ',' << toString(r.config.hostMemory) << ','
            << toString(r.config.waitMode) << ',' << row.s.measuredRuns << ',' << row.s.gpuMs.median << ','
            << row.s.cpuSubmitMs.median << ',' << row.s.gpuMs.noisePercent << ',' << row.s.pollIterations.median << ','
            << row.s.waitCpuMs.median << ',' << row.s.h2dGBps << ',' << row.s.d2hGBps << ',' << row.s.kernelGBps << ','
            << (row.s.verifiedRuns == r.runs.size() ? 1 : 0) << '\n';
    }
    out.precision(precision);
    out.flags(flags);
}

void writeComparisonJson(std::ostream& out, const ComparisonReport& c)
{
    nlohmann::json variants = nlohmann::json::array();
    for (std::size_t i = 0; i < c.reports.size(); ++i) {
        nlohmann::json v = toJson(c.reports[i]);
        v["variant"] = c.labels[i];
        variants.push_back(std::move(v));
    }
    const nlohmann::json j
        = { { "format", "asyncscope-comparison" }, { "comparison", toString(c.comparison) }, { "variants", variants } };
    out << j.dump(2) << '\n';
}

}  // namespace asyncscope
