#include "engine/io/baseline_report.hpp"

#include "engine/io/csv/csv_report.hpp"
#include "engine/io/text_report.hpp"
#include "engine/model/display_text.hpp"
#include "engine/model/number_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace asyncscope {

BaselineSide baselineSide(const std::string& name, const Report& report, const Assessment& assessed)
{
    // A file's name may be any bytes: well-formed UTF-8 from here on, for the JSON output.
    BaselineSide side { validUtf8(name), report.host, report.device.name, assessed.summary.measuredRuns, {} };
    for (const Finding& f : assessed.advice.findings) {
        if (f.severity >= Severity::Warning)
            side.warnings.push_back(f);
    }
    return side;
}

std::string pValueText(double p)
{
    if (p <= 0.0)
        return "< 1e-300";
    char text[32];
    std::snprintf(text, sizeof text, p < 1e-4 ? "%.1e" : "%.4f", p);
    return text;
}

std::string intervalText(const QuantityComparison& q)
{
    if (q.lowPercent && q.highPercent)
        return "[" + fixedText(*q.lowPercent, 2) + ", " + fixedText(*q.highPercent, 2) + "] %";
    const int places = decimalsOf(q.kind);
    return "[" + fixedText(q.low, places) + ", " + fixedText(q.high, places) + "] " + unitOf(q.kind);
}

std::string needText(const QuantityComparison& q)
{
    if (!q.need)
        return {};
    const DetectionNeed& n = *q.need;
    const auto runs = [](std::size_t count) { return std::to_string(count) + (count == 1 ? " run" : " runs"); };
    std::string text = "to tell " + fixedText(n.percent, 2) + " % from noise (" +
        fixedText(kDetectionPower * 100.0, 0) + " % of the time): ";
    if (n.blockNoisePercent)
        text += std::to_string(n.blocks) + (n.blocks == 1 ? " block of " : " blocks of ") + runs(n.runsPerBlock) +
            " a side (" + runs(n.runs()) + ")";
    else
        text += runs(n.runsPerBlock) + " a side, and the blocks that the variation between processes needs (unknown "
                                       "with one block a side)";
    text += "; this comparison has " + std::to_string(q.baselineBlocks) + " and " + std::to_string(q.currentBlocks) +
        (q.baselineBlocks == 1 && q.currentBlocks == 1 ? " block" : " blocks") + " of " + runs(q.baselineRuns) +
        " and " + std::to_string(q.currentRuns) + "; noise " + fixedText(n.runNoisePercent, 2) + " % a run";
    if (n.blockNoisePercent)
        text += ", " + fixedText(*n.blockNoisePercent, 2) + " % between blocks";
    return text;
}

std::string methodText(const BaselineComparison& c)
{
    const bool blocks = std::any_of(c.quantities.begin(), c.quantities.end(),
        [](const QuantityComparison& q) { return q.distribution && (q.baselineBlocks > 1 || q.currentBlocks > 1); });
    const std::string resamples =
        std::to_string(c.settings.resamples) + " resamples, seed " + std::to_string(c.settings.seed);
    if (blocks)
        return "hierarchical bootstrap of the difference of medians (blocks, then runs within them), " + resamples +
            "; p: that bootstrap's, two-sided";
    return "bootstrap of the difference of medians, " + resamples + "; p: Mann-Whitney U, two-sided";
}

namespace {

std::string differenceText(const QuantityComparison& q)
{
    if (q.differencePercent)
        return signedPercentText(*q.differencePercent);
    char text[64];
    std::snprintf(text, sizeof text, "%+.*f %s", decimalsOf(q.kind), q.difference, unitOf(q.kind));
    return text;
}

// A p-value for a machine to read: every digit that counts, 0 where it underflowed.
std::string pValueNumber(double p)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", p);
    return text;
}

std::string sideText(const BaselineSide& s)
{
    std::string text = cutText(s.name) + ": " + (s.device.empty() ? "unknown device" : cutText(s.device));
    if (!s.host.empty())
        text += " on " + cutText(s.host);
    return text + ", " + std::to_string(s.measuredRuns) + " measured runs";
}

std::string configurationText(const BaselineComparison& c)
{
    std::string text = c.acrossConfigurations
        ? "ACROSS CONFIGURATIONS (allowed): " + differencesText(c.differences)
        : std::string("the same");
    const std::string listed = [&c] {
        std::vector<ConfigDifference> others;
        for (const ConfigDifference& d : c.differences) {
            if (!d.blocking)
                others.push_back(d);
        }
        return differencesText(others, false);
    }();
    if (!listed.empty())
        text += (c.acrossConfigurations ? "; also " : " (also ") + listed + (c.acrossConfigurations ? "" : ")");
    return text;
}

std::string gateText(const BaselineComparison& c)
{
    if (!c.settings.maxSlowdownPercent)
        return {};
    const std::string limit = fixedText(*c.settings.maxSlowdownPercent, 2) + " %";
    std::string failing;
    std::string names;
    for (const QuantityComparison& q : c.quantities) {
        if (!q.gated)
            continue;
        names += (names.empty() ? "" : ", ") + q.name;
        if (q.gateFailed)
            failing += (failing.empty() ? "" : "; ") + q.name + " " + differenceText(q) + " " + intervalText(q);
    }
    if (names.empty())
        return "gate: none of the gated quantities (" + joinedText(c.settings.gateKeys) +
               ") is in both series: nothing to gate\n";
    if (!failing.empty())
        return "gate: FAILED: slower than " + limit + " with the whole interval beyond it: " + failing + "\n";
    return "gate: passed: " + names + " not slower than " + limit + " beyond the interval\n";
}

std::string verdictCell(const QuantityComparison& q)
{
    return q.distribution ? verdictText(q.verdict, q.differencePercent.value_or(0.0), q.sameUnderPercent)
                          : std::string();
}

}  // namespace

std::string formatBaselineText(const BaselineComparison& c, const BaselineSide& baseline, const BaselineSide& current)
{
    std::string text = "baseline: " + sideText(baseline) + "\n" + "current:  " + sideText(current) + "\n" +
        "configuration: " + configurationText(c) + "\n";
    const std::string interval = fixedText(c.settings.confidence * 100.0, 0) + " % interval";
    const std::vector<std::string> headers { "quantity", "baseline", "current", "difference", interval, "p",
        "verdict" };
    std::vector<std::vector<std::string>> rows;
    for (const QuantityComparison& q : c.quantities) {
        const int places = decimalsOf(q.kind);
        rows.push_back({ headerOf(q.name, q.kind), fixedText(q.baseline, places), fixedText(q.current, places),
            differenceText(q), q.distribution ? intervalText(q) : "(one figure)",
            q.distribution ? pValueText(q.p) : "", verdictCell(q) });
    }
    std::vector<std::size_t> widths(headers.size());
    for (std::size_t i = 0; i < headers.size(); ++i)
        widths[i] = headers[i].size();
    for (const auto& row : rows) {
        for (std::size_t i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    }
    const auto render = [&widths](const std::vector<std::string>& row) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            const std::size_t pad = widths[i] - std::min(widths[i], row[i].size());
            if (i > 0)
                line += "  ";
            line += i == 0 || i + 1 == row.size() ? row[i] + std::string(pad, ' ') : std::string(pad, ' ') + row[i];
        }
        line.erase(line.find_last_not_of(' ') + 1);
        return line + "\n";
    };
    text += render(headers);
    for (const auto& row : rows)
        text += render(row);
    text += "intervals: " + methodText(c) + "; a difference under " +
        fixedText(c.settings.minDifferencePercent, 2) + " % counts as the same" +
        (c.settings.maxSlowdownPercent && *c.settings.maxSlowdownPercent < c.settings.minDifferencePercent
                ? " (under " + fixedText(*c.settings.maxSlowdownPercent, 2) + " % for a gated quantity, as the gate's)"
                : std::string()) +
        "\n";
    if (c.singleBlock())
        text += "note: " + std::string(kSingleBlockNote) + "\n";
    for (const QuantityComparison& q : c.quantities) {
        if (q.need)
            text += q.name + ": " + needText(q) + "\n";
    }
    text += gateText(c);
    text += "verdict: " + c.headline() + "\n";
    for (const BaselineSide* side : { &baseline, &current }) {
        if (side->warnings.empty())
            continue;
        Advice warnings;
        warnings.findings = side->warnings;
        std::string advice = formatAdviceText(warnings);
        advice.replace(0, advice.find('\n'), "  the " + std::string(side == &baseline ? "baseline" : "current") +
                " series' advice warns (" + cutText(side->name) + "):");
        text += advice;
    }
    return text;
}

void writeBaselineCsv(std::ostream& out, const BaselineComparison& c, const BaselineSide& baseline,
    const BaselineSide& current)
{
    out << "Quantity,Key,Unit,Baseline,Current,Difference,Difference (%),Interval Low,Interval High,"
           "Interval Low (%),Interval High (%),p,Verdict,Baseline Runs,Current Runs,Gated,Gate Failed,"
           "Baseline File,Current File,Configuration,Baseline Blocks,Current Blocks\n";
    const std::string configuration = c.acrossConfigurations
        ? "across configurations: " + differencesText(c.differences)
        : std::string("same");
    const auto optional = [](const std::optional<double>& v) { return v ? fixedText(*v, 4) : std::string(); };
    for (const QuantityComparison& q : c.quantities) {
        const int places = decimalsOf(q.kind) + 2;
        out << csvField(q.name) << ',' << csvField(q.key) << ',' << csvField(unitOf(q.kind)) << ','
            << fixedText(q.baseline, places) << ',' << fixedText(q.current, places) << ','
            << fixedText(q.difference, places) << ',' << optional(q.differencePercent) << ','
            << (q.distribution ? fixedText(q.low, places) : "") << ','
            << (q.distribution ? fixedText(q.high, places) : "") << ','
            << (q.distribution ? optional(q.lowPercent) : "") << ','
            << (q.distribution ? optional(q.highPercent) : "") << ','
            << (q.distribution ? pValueNumber(q.p) : "") << ',' << csvField(verdictName(q.verdict)) << ','
            << q.baselineRuns << ',' << q.currentRuns << ',' << (q.gated ? "yes" : "no") << ','
            << (q.gateFailed ? "yes" : "no") << ',' << csvField(baseline.name) << ',' << csvField(current.name) << ','
            << csvField(configuration) << ',' << q.baselineBlocks << ',' << q.currentBlocks << '\n';
    }
}

void writeBaselineJson(std::ostream& out, const BaselineComparison& c, const BaselineSide& baseline,
    const BaselineSide& current)
{
    using nlohmann::ordered_json;
    const auto side = [](const BaselineSide& s) {
        ordered_json warnings = ordered_json::array();
        for (const Finding& f : s.warnings)
            warnings.push_back({ { "rule", f.rule }, { "severity", nameOf(f.severity) }, { "title", f.title },
                { "evidence", f.evidence } });
        return ordered_json { { "name", s.name }, { "host", s.host }, { "device", s.device },
            { "measured_runs", s.measuredRuns }, { "warnings", std::move(warnings) } };
    };
    const auto optional = [](const std::optional<double>& v) { return v ? ordered_json(*v) : ordered_json(nullptr); };
    ordered_json differences = ordered_json::array();
    for (const ConfigDifference& d : c.differences)
        differences.push_back({ { "field", d.field }, { "baseline", d.baseline }, { "current", d.current },
            { "blocking", d.blocking } });
    ordered_json quantities = ordered_json::array();
    for (const QuantityComparison& q : c.quantities) {
        ordered_json j;
        j["key"] = q.key;
        j["name"] = q.name;
        j["unit"] = unitOf(q.kind);
        j["tested"] = q.distribution;
        j["baseline_runs"] = q.baselineRuns;
        j["current_runs"] = q.currentRuns;
        j["baseline"] = q.baseline;
        j["current"] = q.current;
        j["difference"] = q.difference;
        j["difference_percent"] = optional(q.differencePercent);
        j["interval"] = q.distribution ? ordered_json { q.low, q.high } : ordered_json(nullptr);
        j["interval_percent"] = q.distribution && q.lowPercent && q.highPercent
            ? ordered_json { *q.lowPercent, *q.highPercent }
            : ordered_json(nullptr);
        j["p_value"] = q.distribution ? ordered_json(q.p) : ordered_json(nullptr);
        j["verdict"] = verdictName(q.verdict);
        j["gated"] = q.gated;
        j["gate_failed"] = q.gateFailed;
        j["baseline_blocks"] = q.baselineBlocks;
        j["current_blocks"] = q.currentBlocks;
        if (q.need)
            j["need"] = { { "difference_percent", q.need->percent }, { "power", kDetectionPower },
                { "blocks", q.need->blocks }, { "runs_per_block", q.need->runsPerBlock },
                { "run_noise_percent", q.need->runNoisePercent },
                { "block_noise_percent", optional(q.need->blockNoisePercent) }, { "text", needText(q) } };
        quantities.push_back(std::move(j));
    }
    ordered_json j;
    j["format"] = "asyncscope-baseline-comparison";
    j["format_version"] = 1;
    j["baseline"] = side(baseline);
    j["current"] = side(current);
    j["configuration"] = { { "same", !c.acrossConfigurations }, { "across_configurations", c.acrossConfigurations },
        { "differences", std::move(differences) } };
    const bool blocked = methodText(c).rfind("hierarchical", 0) == 0;
    j["method"] = { { "interval",
                        blocked ? "hierarchical percentile bootstrap of the difference of medians: blocks, then runs "
                                  "within them"
                                : "percentile bootstrap of the difference of medians" },
        { "confidence", c.settings.confidence }, { "resamples", c.settings.resamples }, { "seed", c.settings.seed },
        { "test", blocked ? "the hierarchical bootstrap's two-sided p-value"
                          : "Mann-Whitney U, two-sided, normal approximation with tie and continuity corrections" },
        { "alpha", c.settings.alpha }, { "min_difference_percent", c.settings.minDifferencePercent },
        { "single_block", c.singleBlock() },
        { "single_block_note", c.singleBlock() ? ordered_json(kSingleBlockNote) : ordered_json(nullptr) } };
    ordered_json gateKeys = c.settings.gateKeys;
    j["gate"] = { { "max_slowdown_percent", optional(c.settings.maxSlowdownPercent) }, { "quantities", gateKeys },
        { "failed", c.gateFailed() } };
    j["quantities"] = std::move(quantities);
    j["verdict"] = c.headline();
    out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';  // U+FFFD for bad UTF-8
}

}  // namespace asyncscope
