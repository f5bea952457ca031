#include "engine/model/baseline.hpp"

#include "engine/model/block_bootstrap.hpp"
#include "engine/model/cuda_versions.hpp"
#include "engine/model/display_text.hpp"
#include "engine/model/number_text.hpp"
#include "engine/model/shift_statistics.hpp"
#include "engine/model/size_parse.hpp"
#include "engine/model/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace asyncscope {

namespace {

// "580.159.04" from the machine state's "NVML, driver 580.159.04"; empty when the state was not read.
std::string nvmlDriver(const Report& report)
{
    if (!report.machine || !report.machine->read())
        return {};
    const std::string& source = report.machine->source;
    const std::size_t at = source.find("driver ");
    return at == std::string::npos ? std::string() : source.substr(at + 7);
}

std::string onOff(bool on)
{
    return on ? "on" : "off";
}

std::string stopText(const PipelineConfig& c)
{
    if (c.stopRule == StopRule::Fixed)
        return "fixed";
    return "noise " + fixedText(c.targetNoisePercent, 2) + " %";
}

}  // namespace

std::vector<ConfigDifference> configDifferences(const Report& baseline, const Report& current)
{
    std::vector<ConfigDifference> out;
    // A value one of the files does not record (older formats have no host, driver or runtime) is no difference.
    const auto compare = [&out](const char* field, const std::string& a, const std::string& b, bool blocking = true) {
        if (a != b && !a.empty() && !b.empty())
            out.push_back({ field, a, b, blocking });
    };
    const auto cudaVersion = [](int version) { return version > 0 ? "CUDA " + formatCudaVersion(version) : ""; };
    const PipelineConfig& a = baseline.config;
    const PipelineConfig& b = current.config;
    // A recorded program against the built-in pipeline, or against another program or other arguments.
    const auto programOf = [](const Report& r) {
        return r.program ? "program " + commandText(r.program->command) : std::string("the built-in pipeline");
    };
    compare("program", programOf(baseline), programOf(current));
    if (baseline.program && current.program)
        compare("working folder", baseline.program->workingFolder, current.program->workingFolder, false);
    compare("device", baseline.device.name, current.device.name);
    // The driver as NVML names it where both series read it; CUDA's driver version otherwise.
    const std::string driverA = nvmlDriver(baseline);
    const std::string driverB = nvmlDriver(current);
    if (!driverA.empty() && !driverB.empty())
        compare("driver", driverA, driverB);
    else
        compare("driver", cudaVersion(baseline.driverVersion), cudaVersion(current.driverVersion));
    compare("runtime", cudaVersion(baseline.runtimeVersion), cudaVersion(current.runtimeVersion));
    if (baseline.program || current.program) {  // the pipeline's parameters are not a program's
        compare("host", baseline.host, current.host, false);
        compare("runs", std::to_string(a.runs), std::to_string(b.runs), false);
        return out;
    }
    compare("size", formatBytes(a.bytes()), formatBytes(b.bytes()));
    compare("value", std::to_string(a.value), std::to_string(b.value));
    compare("threads per block", std::to_string(a.threadsPerBlock), std::to_string(b.threadsPerBlock));
    compare("chunks", std::to_string(a.chunks), std::to_string(b.chunks));
    compare("streams", std::to_string(a.streams), std::to_string(b.streams));
    compare("order", nameOf(a.order), nameOf(b.order));
    compare("submission", nameOf(a.submission), nameOf(b.submission));
    compare("host memory", nameOf(a.hostMemory), nameOf(b.hostMemory));
    if (hasCopies(a) || hasCopies(b))
        compare("copy", nameOf(a.copy), nameOf(b.copy));
    if (a.hostMemory == HostMemory::Managed || b.hostMemory == HostMemory::Managed) {
        compare("managed migration", nameOf(a.managedMigration), nameOf(b.managedMigration));
        compare("managed advice", nameOf(a.managedAdvice), nameOf(b.managedAdvice));
    }
    if (a.submission == Submission::Batch || b.submission == Submission::Batch)
        compare("prefer overlap", onOff(a.preferOverlap), onOff(b.preferOverlap));
    compare("wait", nameOf(a.waitMode), nameOf(b.waitMode));
    compare("check", nameOf(a.checkMode), nameOf(b.checkMode));
    compare("check threads", std::to_string(a.checkThreads), std::to_string(b.checkThreads));
    compare("stage events", onOff(a.stageEvents), onOff(b.stageEvents));
    compare("profiler range", onOff(a.profilerRange), onOff(b.profilerRange));
    compare("trace source", nameOf(a.traceSource), nameOf(b.traceSource));
    // Where and how long it ran: listed, but the same measurement on another host or with more runs is what a
    // baseline comparison is for.
    compare("host", baseline.host, current.host, false);
    compare("warm-up runs", std::to_string(a.warmupRuns), std::to_string(b.warmupRuns), false);
    compare("stop rule", stopText(a), stopText(b), false);
    return out;
}

bool anyBlocking(const std::vector<ConfigDifference>& differences)
{
    return std::any_of(differences.begin(), differences.end(), [](const ConfigDifference& d) { return d.blocking; });
}

std::string differencesText(const std::vector<ConfigDifference>& differences, bool blockingOnly)
{
    std::string text;
    for (const ConfigDifference& d : differences) {
        if (blockingOnly && !d.blocking)
            continue;
        // The values as the files give them (a device's or a host's name): escaped and cut.
        text += (text.empty() ? "" : "; ") + d.field + " " + cutText(d.baseline) + " → " + cutText(d.current);
    }
    return text;
}

const char* verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Same: return "same";
    case Verdict::Small: return "same (small)";
    case Verdict::Slower: return "slower";
    case Verdict::Faster: return "faster";
    case Verdict::Higher: return "higher";
    case Verdict::Lower: return "lower";
    case Verdict::Unmeasured: return "not tested";
    }
    return "";
}

std::string verdictText(Verdict verdict, double differencePercent, double sameUnderPercent)
{
    switch (verdict) {
    case Verdict::Same: return "same within noise";
    case Verdict::Small:
        return "same (" + signedPercentText(differencePercent) + ", under " + fixedText(sameUnderPercent, 2) + " %)";
    default: return verdictName(verdict);
    }
}

double shownPercent(double percent)
{
    return std::round(percent * 100.0) / 100.0;
}

std::size_t measuredRunsOf(const Report& series)
{
    std::size_t measured = 0;
    for (std::size_t i = 0; i < series.runs.size(); ++i)
        measured += series.runs.warmup(i) ? 0 : 1;
    return measured;
}

std::size_t blocksOf(const Report& series)
{
    std::size_t blocks = 0;
    std::optional<int> last;
    for (std::size_t i = 0; i < series.runs.size(); ++i) {
        if (series.runs.warmup(i) || (last && *last == series.runs.block(i)))
            continue;
        last = series.runs.block(i);
        ++blocks;
    }
    return blocks;
}

std::optional<std::string> tooFewRunsToCompare(const Report& series, const std::string& name)
{
    const std::size_t measured = measuredRunsOf(series);
    if (measured >= kMinComparedRuns)
        return std::nullopt;
    const std::size_t warmups = series.runs.size() - measured;
    return name + " holds " + std::to_string(measured) + " measured run" + (measured == 1 ? "" : "s") +
        (warmups > 0 ? " (and " + std::to_string(warmups) + " warm-up" + (warmups == 1 ? "" : "s") + ")" : "") +
        ": a comparison needs at least " + std::to_string(kMinComparedRuns) + " measured runs in each series";
}

Direction directionOf(std::string_view key, ValueKind kind)
{
    if (key == keys::kOverSerialBound)
        return Direction::HigherIsWorse;
    if (key == keys::kSpeedup)
        return Direction::HigherIsBetter;
    switch (kind) {
    case ValueKind::Duration: return Direction::HigherIsWorse;
    case ValueKind::Rate: return Direction::HigherIsBetter;
    default: return Direction::Neutral;
    }
}

bool BaselineComparison::singleBlock() const
{
    return std::any_of(quantities.begin(), quantities.end(), [](const QuantityComparison& q) {
        return q.distribution && (q.baselineBlocks < 2 || q.currentBlocks < 2);
    });
}

bool verdictDecided(const QuantityComparison& q, const BaselineSettings& settings)
{
    if (!q.distribution || !q.lowPercent || !q.highPercent)
        return false;
    const double low = shownPercent(*q.lowPercent), high = shownPercent(*q.highPercent);
    if (q.gated && settings.maxSlowdownPercent) {
        const double gate = *settings.maxSlowdownPercent;
        switch (directionOf(q.key, q.kind)) {
        case Direction::HigherIsWorse:
            if (low > gate || high <= gate)
                return true;
            break;
        case Direction::HigherIsBetter:
            if (high < -gate || low >= -gate)
                return true;
            break;
        case Direction::Neutral: break;
        }
        return false;
    }
    const double same = q.sameUnderPercent;
    return low >= same || high <= -same || (low > -same && high < same);
}

bool BaselineComparison::gateFailed() const
{
    return std::any_of(quantities.begin(), quantities.end(), [](const QuantityComparison& q) { return q.gateFailed; });
}

const QuantityComparison* BaselineComparison::quantity(std::string_view key) const
{
    for (const QuantityComparison& q : quantities) {
        if (q.key == key)
            return &q;
    }
    return nullptr;
}

std::string BaselineComparison::headline() const
{
    std::string text;
    for (const QuantityComparison& q : quantities) {
        const bool shown = std::find(settings.gateKeys.begin(), settings.gateKeys.end(), q.key) !=
            settings.gateKeys.end();
        if (!shown || !q.distribution)
            continue;
        text += (text.empty() ? "" : "; ") + q.name + " ";
        if (q.verdict == Verdict::Slower || q.verdict == Verdict::Faster || q.verdict == Verdict::Higher ||
            q.verdict == Verdict::Lower) {
            text += std::string(verdictName(q.verdict)) + " by ";
            if (q.differencePercent && q.lowPercent && q.highPercent)
                text += fixedText(std::abs(*q.differencePercent), 2) + " % (interval " + fixedText(*q.lowPercent, 2) +
                    " to " + fixedText(*q.highPercent, 2) + " %)";
            else
                text += fixedText(std::abs(q.difference), decimalsOf(q.kind)) + " " + unitOf(q.kind);
        } else {
            text += verdictText(q.verdict, q.differencePercent.value_or(0.0), q.sameUnderPercent);
        }
    }
    if (acrossConfigurations)
        text += " (across configurations: " + differencesText(differences) + ")";
    return text;
}

namespace {

// The measured runs' values of one measure, grouped by block and sorted in each; empty when a measured run lacks it
// (the summary leaves it out).
BlockedSample measuredValues(const RunStore& runs, const RunMeasure& m)
{
    std::vector<double> values;
    std::vector<int> blocks;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (runs.warmup(i))
            continue;
        if (!m.present(runs, i))
            return {};
        const double v = m.read(runs, i);
        if (std::isfinite(v)) {
            values.push_back(v);
            blocks.push_back(runs.block(i));
        }
    }
    return blockedSample(values, blocks);
}

std::optional<double> percentOf(double value, double baseline)
{
    if (baseline == 0.0 || !std::isfinite(baseline))
        return std::nullopt;
    return value / std::abs(baseline) * 100.0;
}

void judge(QuantityComparison& q, const BaselineSettings& settings)
{
    const bool told = q.p < settings.alpha && (q.low > 0.0 || q.high < 0.0);
    if (!told) {
        q.verdict = Verdict::Same;
        return;
    }
    if (q.differencePercent && shownPercent(std::abs(*q.differencePercent)) < q.sameUnderPercent) {
        q.verdict = Verdict::Small;
        return;
    }
    const bool up = q.difference > 0.0;
    switch (directionOf(q.key, q.kind)) {
    case Direction::HigherIsWorse: q.verdict = up ? Verdict::Slower : Verdict::Faster; break;
    case Direction::HigherIsBetter: q.verdict = up ? Verdict::Faster : Verdict::Slower; break;
    case Direction::Neutral: q.verdict = up ? Verdict::Higher : Verdict::Lower; break;
    }
}

// Slower than the gate's percentage with the whole interval beyond it.
bool failsGate(const QuantityComparison& q, double maxSlowdownPercent)
{
    if (!q.distribution || q.verdict != Verdict::Slower || !q.lowPercent || !q.highPercent)
        return false;
    switch (directionOf(q.key, q.kind)) {
    case Direction::HigherIsWorse: return shownPercent(*q.lowPercent) > maxSlowdownPercent;
    case Direction::HigherIsBetter: return shownPercent(*q.highPercent) < -maxSlowdownPercent;
    case Direction::Neutral: return false;
    }
    return false;
}

// One measure of both series compared: nothing where either series lacks it.
std::optional<QuantityComparison> compareMeasure(const RunStore& baseline, const RunStore& current,
    const RunMeasure& m, const BaselineSettings& settings, bool gated)
{
    const BlockedSample blockedA = measuredValues(baseline, m);
    if (blockedA.values.empty())
        return std::nullopt;
    const BlockedSample blockedB = measuredValues(current, m);
    if (blockedB.values.empty())
        return std::nullopt;
    std::vector<double> a = blockedA.values;
    std::vector<double> b = blockedB.values;
    if (blockedA.blocks() > 1)
        sortValues(a);
    if (blockedB.blocks() > 1)
        sortValues(b);
    QuantityComparison q;
    q.key = std::string(m.key);
    q.name = m.name;
    q.kind = m.kind;
    q.baselineRuns = a.size();
    q.currentRuns = b.size();
    q.baselineBlocks = blockedA.blocks();
    q.currentBlocks = blockedB.blocks();
    q.baseline = sortedMedian(a);
    q.current = sortedMedian(b);
    if (q.baselineBlocks > 1 || q.currentBlocks > 1) {
        const BlockShift blocked = hierarchicalMedianShift(
            blockedA, blockedB, q.current - q.baseline, settings.confidence, settings.resamples, settings.seed);
        q.difference = blocked.shift.difference;
        q.low = blocked.shift.low;
        q.high = blocked.shift.high;
        q.p = blocked.p;
    } else {
        const MedianShift shift = bootstrapMedianShift(a, b, settings.confidence, settings.resamples, settings.seed);
        q.difference = shift.difference;
        q.low = shift.low;
        q.high = shift.high;
        q.p = mannWhitneyP(a, b);
    }
    q.differencePercent = percentOf(q.difference, q.baseline);
    q.lowPercent = percentOf(q.low, q.baseline);
    q.highPercent = percentOf(q.high, q.baseline);
    q.gated = gated;
    q.sameUnderPercent = q.gated && settings.maxSlowdownPercent
        ? std::min(settings.minDifferencePercent, *settings.maxSlowdownPercent)
        : settings.minDifferencePercent;
    if (q.gated || q.key == keys::kGpuTime)
        q.need = detectionNeed(blockedA, blockedB, q.baseline,
            q.gated && settings.maxSlowdownPercent ? *settings.maxSlowdownPercent : q.sameUnderPercent,
            settings.confidence, settings.seed);
    judge(q, settings);
    q.gateFailed = q.gated && settings.maxSlowdownPercent && failsGate(q, *settings.maxSlowdownPercent);
    return q;
}

}  // namespace

BaselineComparison compareWithBaseline(const Report& baseline, const Report& current, const BaselineSettings& settings)
{
    return compareWithBaseline(baseline, summarizeSeries(baseline), current, summarizeSeries(current), settings);
}

BaselineComparison compareWithBaseline(const Report& baseline, const SeriesSummary& sa, const Report& current,
    const SeriesSummary& sb, const BaselineSettings& settings)
{
    BaselineComparison out;
    out.settings = settings;
    out.differences = configDifferences(baseline, current);
    out.acrossConfigurations = anyBlocking(out.differences);

    const auto gated = [&settings](std::string_view key) {
        return std::find(settings.gateKeys.begin(), settings.gateKeys.end(), key) != settings.gateKeys.end();
    };
    for (const RunMeasure& m : runMeasures()) {
        std::optional<QuantityComparison> q = compareMeasure(baseline.runs, current.runs, m, settings, gated(m.key));
        if (q)
            out.quantities.push_back(std::move(*q));
    }

    // The series' single figures (bandwidths, noise, the model's bound): their values and difference, no test.
    for (const Figure& f : sa.figures) {
        const Figure* g = sb.figure(f.key);
        if (!g)
            continue;
        QuantityComparison q;
        q.key = f.key;
        q.name = f.name;
        q.kind = f.kind;
        q.distribution = false;
        q.baselineRuns = sa.measuredRuns;
        q.currentRuns = sb.measuredRuns;
        q.baseline = f.value;
        q.current = g->value;
        q.difference = q.current - q.baseline;
        q.differencePercent = percentOf(q.difference, q.baseline);
        q.low = q.high = q.difference;
        q.verdict = Verdict::Unmeasured;
        q.sameUnderPercent = settings.minDifferencePercent;
        q.gated = gated(q.key);
        out.quantities.push_back(std::move(q));
    }
    return out;
}

}  // namespace asyncscope
