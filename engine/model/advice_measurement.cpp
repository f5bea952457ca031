#include "engine/model/advice_rules.hpp"

#include "engine/model/number_text.hpp"
#include "engine/model/size_parse.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace asyncscope::advice_rules {

using namespace advice_limits;

namespace {

// Run indices (as RunResult::index numbers them) of store positions, joined where they follow each other.
std::vector<RunRange> rangesOf(const RunStore& runs, const std::vector<std::size_t>& positions)
{
    std::vector<RunRange> ranges;
    for (const std::size_t p : positions) {
        const auto index = static_cast<std::size_t>(runs.index(p));
        if (!ranges.empty() && ranges.back().last + 1 == index)
            ranges.back().last = index;
        else
            ranges.push_back({ index, index });
    }
    return ranges;
}

}  // namespace

// --- Rules over the measurement ----------------------------------------------------------------------------------

void tooShort(const Facts& f, Advice& advice)
{
    if (f.gpuMs < kShortestTimedMs) {
        advice.findings.push_back({ std::string(rules::kTooShort), "Too short to time", Severity::Warning,
            "GPU time " + us(f.gpuMs) + " is under 10 × the CUDA events' resolution of about "
                + us(kEventResolutionMs) + ": each figure is mostly the timer's own step",
            "Time more work per run: a larger --size, or several runs' work between two events.", {}, false });
        return;
    }
    // Each stage span on its own: a chunked run's spans are a chunk's.
    const RunStore& runs = f.report.runs;
    std::map<SpanKind, std::vector<double>> spans;
    const std::size_t looked = std::min<std::size_t>(f.measured.size(), 1000);
    for (std::size_t n = 0; n < looked; ++n) {
        const RunStore::SpanView view = runs.spans(f.measured[n]);
        for (std::size_t k = 0; k < view.size(); ++k) {
            const SpanKind kind = view.kind(k);
            if (kind == SpanKind::H2D || kind == SpanKind::Kernel || kind == SpanKind::D2H)
                spans[kind].push_back(view.endMs(k) - view.beginMs(k));
        }
    }
    std::string shortOnes;
    for (auto& [kind, durations] : spans) {
        if (durations.empty())
            continue;
        std::nth_element(durations.begin(), durations.begin() + std::ptrdiff_t(durations.size() / 2), durations.end());
        const double median = durations[durations.size() / 2];
        if (median < kShortestTimedMs)
            shortOnes += (shortOnes.empty() ? "" : ", ") + std::string(nameOf(kind)) + " " + us(median);
    }
    if (shortOnes.empty())
        return;
    advice.findings.push_back({ std::string(rules::kTooShort), "Stages too short to time", Severity::Info,
        "Stage spans under 10 × the events' resolution (" + us(kShortestTimedMs) + "): " + shortOnes
            + " (medians per span); the stage times are noise, the GPU time is not",
        "Read the GPU time, not the stage times; for stage times, time larger chunks (fewer --chunks or a larger "
        "--size).",
        {}, true });
}

namespace {

// Samples taken while the series' measured runs were in flight.
std::vector<const MachineSample*> duringRuns(const Facts& f)
{
    std::vector<const MachineSample*> during;
    if (!f.report.machine)
        return during;
    const RunStore& runs = f.report.runs;
    double begin = 0.0, end = 0.0;
    if (!f.measured.empty()) {
        begin = runs.startMs(f.measured.front());
        end = runs.startMs(f.measured.back()) + runs.gpuMs(f.measured.back());
    }
    for (const MachineSample& s : f.report.machine->samples) {
        if (f.measured.empty() || (s.atMs >= begin && s.atMs <= end))
            during.push_back(&s);
    }
    // A series shorter than the sampling step: the samples at its start and end are all there is.
    if (during.empty()) {
        for (const MachineSample& s : f.report.machine->samples)
            during.push_back(&s);
    }
    return during;
}

std::string notReadWhy(const Report& report)
{
    if (!report.machine)
        return "the machine's state was not recorded with this series";
    return "the machine's state was not read: " + report.machine->unavailable;
}

bool machineRead(const Report& report)
{
    return report.machine && report.machine->read() && !report.machine->samples.empty();
}

}  // namespace

void interference(const Facts& f, Advice& advice)
{
    if (!machineRead(f.report)) {
        advice.notChecked.push_back({ std::string(rules::kInterference), notReadWhy(f.report) });
        return;
    }
    const MachineState& m = *f.report.machine;
    const bool listed = std::any_of(m.samples.begin(), m.samples.end(), [](auto& s) { return s.processes.has_value(); });
    if (!listed) {
        advice.notChecked.push_back(
            { std::string(rules::kInterference), "the driver did not list the processes on the GPU" });
        return;
    }
    // Each other process: when it was seen, as a time range widened by half the step to the samples around it.
    struct Seen {
        GpuProcess process;
        double first = 0.0, last = 0.0;
        std::size_t samples = 0;
    };
    std::map<std::uint32_t, Seen> seen;
    std::size_t listing = 0;
    std::size_t unknownSelfExtra = 0;  // self unknown: samples with more than one process
    for (std::size_t k = 0; k < m.samples.size(); ++k) {
        const MachineSample& s = m.samples[k];
        if (!s.processes)
            continue;
        ++listing;
        const OtherProcesses others = otherProcesses(s, m.selfPid);
        if (others.selfAmong && others.processes.size() <= 1)
            continue;  // this process alone, by the count
        if (others.selfAmong)
            ++unknownSelfExtra;
        const double before = k > 0 ? (s.atMs + m.samples[k - 1].atMs) / 2 : s.atMs;
        const double after = k + 1 < m.samples.size() ? (s.atMs + m.samples[k + 1].atMs) / 2 : s.atMs;
        for (const GpuProcess& p : others.processes) {
            auto [it, fresh] = seen.try_emplace(p.pid, Seen { p, before, after, 0 });
            it->second.first = std::min(it->second.first, before);
            it->second.last = std::max(it->second.last, after);
            ++it->second.samples;
            if (it->second.process.name.empty())
                it->second.process.name = p.name;
            it->second.process.usedBytes = std::max(it->second.process.usedBytes, p.usedBytes);
        }
    }
    if (seen.empty())
        return;

    const RunStore& runs = f.report.runs;
    std::vector<std::size_t> beside, apart;
    for (const std::size_t p : f.measured) {
        const double begin = runs.startMs(p), end = begin + runs.gpuMs(p);
        const bool shared = std::any_of(seen.begin(), seen.end(),
            [&](auto& entry) { return end >= entry.second.first && begin <= entry.second.last; });
        (shared ? beside : apart).push_back(p);
    }
    std::string evidence;
    for (const auto& [pid, s] : seen) {
        evidence += evidence.empty() ? "" : "; ";
        evidence += "PID " + std::to_string(pid);
        std::string about = s.process.name;
        if (s.process.usedBytes > 0)
            about += (about.empty() ? "" : ", ") + formatBytes(s.process.usedBytes) + " of device memory";
        if (!about.empty())
            evidence += " (" + about + ")";
        evidence += " held a context on this GPU in " + std::to_string(s.samples) + " of " + std::to_string(listing)
            + " readings";
    }
    if (m.selfPid == std::nullopt && unknownSelfExtra > 0)
        evidence += f.report.program
            ? " (the driver numbers processes outside the recorder's PID namespace: one of these is the program)"
            : " (the driver numbers processes outside this one's PID namespace: one of these is this process)";
    std::vector<RunRange> ranges = rangesOf(runs, beside);
    Severity severity = Severity::Warning;
    if (!f.measured.empty())
        evidence += "; measured runs beside it: " + std::to_string(beside.size()) + " of "
            + std::to_string(f.measured.size()) + (beside.empty() ? "" : " (" + runRangesText(ranges) + ")");
    auto medianGpu = [&runs](const std::vector<std::size_t>& positions) {
        std::vector<double> v;
        v.reserve(positions.size());
        for (const std::size_t p : positions)
            v.push_back(runs.gpuMs(p));
        std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    if (!beside.empty() && !apart.empty()) {
        const double with = medianGpu(beside), without = medianGpu(apart);
        evidence += "; their median GPU time " + ms(with) + " against " + ms(without) + " without it ("
            + times(with / without) + ")";
        if (with >= kInterferenceSlowdown * without)
            severity = Severity::Severe;
    } else if (!beside.empty()) {
        const double modelled = f.summary.value(keys::kModelled);
        if (modelled > 0.0) {
            evidence += "; GPU time " + ms(f.gpuMs) + " is " + times(f.gpuMs / modelled) + " the modelled "
                + ms(modelled);
            if (f.gpuMs >= kOverlapHeadroomRatio * modelled)
                severity = Severity::Severe;
        }
    }
    if (beside.empty())
        severity = Severity::Info;  // seen only before or after the measured runs
    advice.findings.push_back({ std::string(rules::kInterference), "Another process on the GPU", severity, evidence,
        "Measure with the GPU to itself: stop the other process or move it to another GPU (CUDA_VISIBLE_DEVICES), "
        "or keep others off with exclusive-process compute mode (nvidia-smi -c EXCLUSIVE_PROCESS).",
        std::move(ranges), false });
}

void linkDegraded(const Facts& f, Advice& advice)
{
    // From the driver during the runs where it answered; else from sysfs when the device was found.
    std::optional<std::string> degraded;
    bool checked = false;
    if (machineRead(f.report)) {
        bool full = false;
        const MachineSample* low = nullptr;
        for (const MachineSample* s : duringRuns(f)) {
            if (!s->linkGeneration || !s->linkGenerationMax || !s->linkWidth || !s->linkWidthMax)
                continue;
            checked = true;
            if (*s->linkGeneration >= *s->linkGenerationMax && *s->linkWidth >= *s->linkWidthMax)
                full = true;
            else
                low = s;
        }
        // A link trains down when idle: degraded only when no reading during the runs found it at its best.
        if (checked && !full && low)
            degraded = "PCIe link Gen" + std::to_string(*low->linkGeneration) + " x" + std::to_string(*low->linkWidth)
                + " during the runs, where the GPU and its slot can do Gen" + std::to_string(*low->linkGenerationMax)
                + " x" + std::to_string(*low->linkWidthMax) + " (the driver's readings)";
    }
    const DeviceTopology& t = f.report.device.topology;
    if (!checked && t.current.known() && t.max.known()) {
        checked = true;
        if (t.current.generation < t.max.generation || t.current.width < t.max.width)
            degraded = "PCIe link " + t.current.text() + " when the device was found, where it can do " + t.max.text()
                + " (sysfs; an idle link may train down to save power)";
    }
    if (!checked) {
        advice.notChecked.push_back({ std::string(rules::kLinkDegraded),
            machineRead(f.report) ? "neither the driver nor sysfs gave the PCIe link" : notReadWhy(f.report)
                    + ", and sysfs did not give the PCIe link" });
        return;
    }
    if (degraded)
        advice.findings.push_back({ std::string(rules::kLinkDegraded), "PCIe link degraded", Severity::Warning,
            *degraded,
            "Reseat the GPU or move it to a slot wired for its full width, and check the BIOS's PCIe speed setting: "
            "every copy runs at the degraded link's rate.",
            {}, false });
}

void clocks(const Facts& f, Advice& advice)
{
    if (!machineRead(f.report)) {
        advice.notChecked.push_back({ std::string(rules::kClocks), notReadWhy(f.report) });
        return;
    }
    std::uint64_t reasons = 0;
    std::optional<int> smLow, smMax, memLow, memMax;
    bool any = false;
    for (const MachineSample* s : duringRuns(f)) {
        if (!s->clockReasons && !s->smClockMHz)
            continue;
        any = true;
        const std::uint64_t limiting = s->clockReasons.value_or(0) & clock_reasons::kLimiting;
        reasons |= limiting;
        // A clock below its maximum says something only when a reason other than idleness holds it there.
        if (limiting && s->smClockMHz && s->smClockMaxMHz && *s->smClockMHz < *s->smClockMaxMHz) {
            smLow = std::min(smLow.value_or(*s->smClockMHz), *s->smClockMHz);
            smMax = *s->smClockMaxMHz;
        }
        if (s->memoryClockMHz && s->memoryClockMaxMHz && *s->memoryClockMHz < *s->memoryClockMaxMHz
            && !(s->clockReasons.value_or(0) & clock_reasons::kGpuIdle)) {
            memLow = std::min(memLow.value_or(*s->memoryClockMHz), *s->memoryClockMHz);
            memMax = *s->memoryClockMaxMHz;
        }
    }
    if (!any) {
        advice.notChecked.push_back({ std::string(rules::kClocks), "the driver gave neither clocks nor their reasons" });
        return;
    }
    if (!reasons && !memLow)
        return;
    std::string evidence;
    if (reasons)
        evidence = "The driver held the clocks during the runs: " + clockReasonsText(reasons);
    if (smLow)
        evidence += "; SM clock down to " + std::to_string(*smLow) + " MHz of " + std::to_string(*smMax) + " MHz";
    if (memLow)
        evidence += std::string(evidence.empty() ? "Memory" : "; memory") + " clock at " + std::to_string(*memLow)
            + " MHz of " + std::to_string(*memMax) + " MHz";
    std::string action;
    if (reasons & (clock_reasons::kSwThermal | clock_reasons::kHwThermal))
        action = "Cool the GPU (airflow, fans, the room) before measuring: thermal limits slow every kernel.";
    else if (reasons & (clock_reasons::kSwPowerCap | clock_reasons::kHwPowerBrake))
        action = "The GPU reached its power limit: check nvidia-smi -q -d POWER, and the power supply.";
    else if (reasons & clock_reasons::kApplicationsClocks)
        action = "Applications clocks are set below the maximum: reset them (nvidia-smi -rac) or say so with the "
                 "figures.";
    else
        action = "Check nvidia-smi -q -d PERFORMANCE: the clocks were held low during the series.";
    advice.findings.push_back(
        { std::string(rules::kClocks), "Clocks held low", Severity::Warning, evidence, action, {}, false });
}

namespace {

// How many kinds of work a recorded program's measured iterations do: iterations alike in their copies, memsets and
// kernels (kind and bytes of each, whatever their order) are one kind.
std::size_t workKinds(const Facts& f)
{
    std::set<std::vector<std::pair<int, std::uint64_t>>> kinds;
    for (const std::size_t i : f.measured) {
        std::vector<std::pair<int, std::uint64_t>> work;
        for (const Span& s : f.report.runs.spans(i))
            if (onGpu(s.kind))
                work.emplace_back(static_cast<int>(s.kind), s.bytes);
        std::sort(work.begin(), work.end());
        kinds.insert(std::move(work));
    }
    return kinds.size();
}

}  // namespace

void noisy(const Facts& f, Advice& advice)
{
    const bool targeted = f.config.stopRule == StopRule::Noise;
    const double target = targeted ? f.config.targetNoisePercent : kNoisyPercent;
    if (f.noisePercent <= target)
        return;
    // The likeliest cause, among what the other rules found.
    auto found = [&advice](std::string_view rule) {
        return std::any_of(
            advice.findings.begin(), advice.findings.end(), [rule](const Finding& x) { return x.rule == rule; });
    };
    std::string cause;
    Severity severity = Severity::Warning;
    const std::size_t kinds = f.report.program ? workKinds(f) : 1;
    if (kinds > 1) {
        cause = "the program's iterations do different work (" + std::to_string(kinds) + " kinds among " +
            std::to_string(f.measured.size()) + " iterations: their copies, memsets or kernels differ), so the " +
            "spread is the program's, not the measurement's";
        severity = Severity::Info;
    } else if (found(rules::kInterference))
        cause = "another process on the GPU (see above)";
    else if (found(rules::kClocks))
        cause = "clocks held low (see above)";
    else if (f.gpuMs < kShortestTimedMs)
        cause = "runs too short to time";
    else if (f.config.hostMemory == HostMemory::Pageable) {
        cause = "the driver's staging of pageable copies, which varies with the host's memory";
        severity = Severity::Info;
    } else if (f.config.hostMemory == HostMemory::Managed) {
        cause = "managed memory's migrations, which the driver schedules";
        severity = Severity::Info;
    } else if (f.gpuMs < kShortRunMs) {
        cause = "short runs (" + us(f.gpuMs) + "): a few µs of launch or copy latency are a large share of each";
        severity = Severity::Info;
    } else if (found(rules::kSubmitBound)) {
        cause = "the GPU waits on the CPU's submission (see Submit-bound), so the host's scheduling shows in the GPU "
                "time";
        severity = Severity::Info;
    } else if (const Distribution* d = f.summary.distribution(keys::kGpuTime);
               d && d->stats.median > 0.0 && d->stats.p95 <= d->stats.median * (1.0 + kOutlierSpread)) {
        // The spread is in a few runs: 95 % of them lie close to the median, which stands.
        cause = "a few outlying runs (95 % lie within " + fixedText((d->stats.p95 / d->stats.median - 1.0) * 100.0, 1)
            + " % of the median; the slowest took " + ms(d->stats.max) + "): the host or the driver, now and then";
        severity = Severity::Info;
    } else {
        cause = "unexplained: none of the other rules found a cause";
    }
    const Distribution* gpu = f.summary.distribution(keys::kGpuTime);
    std::string spread;
    if (gpu)
        spread = " (GPU time " + ms(gpu->stats.min) + " to " + ms(gpu->stats.max) + ", median " + ms(gpu->stats.median)
            + ")";
    // The runs to look at are all of them: the run chart shows when the slow ones came.
    std::vector<RunRange> all;
    if (!f.measured.empty())
        all.push_back({ static_cast<std::size_t>(f.report.runs.index(f.measured.front())),
            static_cast<std::size_t>(f.report.runs.index(f.measured.back())) });
    advice.findings.push_back({ std::string(rules::kNoisy), "Noisy", severity,
        "Noise " + fixedText(f.noisePercent, 2) + " % is above " + (targeted ? "the target " : "") + fixedText(target, 2)
            + " %" + spread + "; likeliest cause: " + cause,
        kinds > 1 ? "Time like with like: mark the work the program repeats with an NVTX range and record with "
                    "--iteration nvtx:NAME."
            : severity == Severity::Info
            ? "Read the median and the p95, not the mean; more runs narrow the median's uncertainty."
            : "Look at the run chart for when the slow runs came; run again with the machine otherwise idle.",
        std::move(all), false });
}

}  // namespace asyncscope::advice_rules
