#include "engine/model/advice.hpp"

#include "engine/model/number_text.hpp"
#include "engine/model/overlap_model.hpp"
#include "engine/model/size_parse.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace asyncscope {

std::string runRangesText(const std::vector<RunRange>& ranges)
{
    std::string text;
    for (const RunRange& r : ranges) {
        text += text.empty() ? "" : ", ";
        text += r.first == r.last ? std::to_string(r.first) : std::to_string(r.first) + "-" + std::to_string(r.last);
    }
    return (ranges.size() == 1 && ranges.front().first == ranges.front().last ? "run " : "runs ") + text;
}

std::optional<Severity> Advice::worst() const
{
    std::optional<Severity> worst;
    for (const Finding& f : findings) {
        if (!worst || f.severity > *worst)
            worst = f.severity;
    }
    return worst;
}

namespace {

using namespace advice_limits;

std::string ms(double value)
{
    return fixedText(value, value < 0.1 ? 4 : 3) + " ms";
}

std::string us(double valueMs)
{
    return fixedText(valueMs * 1e3, 1) + " µs";
}

std::string gbps(double value)
{
    return fixedText(value, 1) + " GB/s";
}

std::string percent(double fraction)
{
    return fixedText(fraction * 100.0, 0) + " %";
}

std::string times(double ratio)
{
    return fixedText(ratio, 2) + " ×";
}

// What the rules read from a series, gathered once.
struct Facts {
    const Report& report;
    const SeriesSummary& summary;
    const PipelineConfig& config;
    double gpuMs = 0.0;
    double noisePercent = 0.0;
    std::optional<double> submitMs;
    std::vector<std::size_t> measured;  // store positions of measured runs
};

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

// --- Rules over the workload -------------------------------------------------------------------------------------

// The shape to offer: among the overlap comparison's shapes, the one with the fewest chunks whose modelled time is
// within 5 % of the least (more chunks cost each copy's fixed time, which the model leaves out), with the most streams
// (the model gives 2 and 4 streams the same time; more streams absorb the engines' uneven pace).
struct BestShape {
    int chunks = 1;
    int streams = 1;
    double ms = 0.0;
};
std::optional<BestShape> bestShape(const PipelineConfig& c, const CopyPeak& peak, double kernelMs)
{
    std::vector<BestShape> shapes;
    for (int k = 1; k <= kModelMaxChunks && static_cast<std::size_t>(k) <= c.elements; k *= 2) {
        for (int s = std::min(k, kModelMaxStreams); s >= 1; s /= 2) {
            const double bound = overlapBoundMs(c.bytes(), k, s, peak, kernelMs);
            if (bound > 0.0)
                shapes.push_back({ k, s, bound });
        }
    }
    if (shapes.empty())
        return std::nullopt;
    const double least = std::min_element(shapes.begin(), shapes.end(), [](auto& a, auto& b) { return a.ms < b.ms; })->ms;
    for (const BestShape& s : shapes) {
        if (s.ms <= least * 1.05)
            return s;
    }
    return std::nullopt;
}

void transferBound(const Facts& f, Advice& advice)
{
    // Overlapping shapes are set against their own model (overlap headroom), not against the serial bound.
    const Figure* bound = f.summary.figure("serial_bound_ms");
    if (!bound || bound->value <= 0.0 || !f.report.peak || f.config.streams > 1)
        return;
    // Pageable copies hold the CPU and go one after the other whatever the shape: their own rule says what helps.
    if (f.config.hostMemory == HostMemory::Pageable && f.config.copy == CopyMechanism::CopyEngine)
        return;
    const double ratio = f.gpuMs / bound->value;
    // Near the link's bound, or above it with the copies still most of the time: the link is what limits. Further
    // above, something else takes the time (another process, the kernel, chunks' fixed costs) and other rules speak.
    if (ratio < kTransferBoundRatio || ratio > kTransferBoundMostRatio)
        return;
    const bool zeroCopy = f.config.hostMemory == HostMemory::Mapped;
    const CopyPeak& peak = *f.report.peak;
    Finding finding { std::string(rules::kTransferBound), "Transfer-bound", Severity::Info,
        "GPU time " + ms(f.gpuMs) + " is " + times(ratio) + " the " + (zeroCopy ? "zero-copy" : "serial")
            + " PCIe bound " + ms(bound->value) + " (" + formatBytes(f.config.bytes()) + " each way at "
            + gbps(peak.h2dGBps) + " to the device, " + gbps(peak.d2hGBps) + " back, " + copyPathLabel(peak.path)
            + ")",
        {}, {}, false };
    const auto best = zeroCopy ? std::nullopt : bestShape(f.config, peak, f.summary.median("kernel_ms"));
    if (best && best->ms < f.gpuMs * 0.95 && (best->chunks != f.config.chunks || best->streams != f.config.streams)) {
        finding.action = "Overlap the copies with each other and the kernel: --chunks " + std::to_string(best->chunks)
            + " --streams " + std::to_string(best->streams) + " takes " + ms(best->ms)
            + " in the overlap model, " + times(f.gpuMs / best->ms)
            + " faster than now (each chunk's copies and kernel on one of the streams, round-robin).";
    } else {
        finding.action = zeroCopy
            ? "The kernel waits on the link: only fewer bytes over PCIe (keep data on the device) make it shorter."
            : "The copies already run at the link's peak: only fewer bytes, or data kept on the device between "
              "kernels, make it shorter.";
    }
    advice.findings.push_back(std::move(finding));
}

void overlapHeadroom(const Facts& f, Advice& advice)
{
    const double modelled = f.summary.value(keys::kModelled);
    if (modelled <= 0.0 || f.gpuMs <= kOverlapHeadroomRatio * modelled)
        return;
    // Another process that slowed the runs explains the distance to the model: no shape would.
    if (std::any_of(advice.findings.begin(), advice.findings.end(), [](const Finding& x) {
            return x.rule == rules::kInterference && x.severity == Severity::Severe;
        }))
        return;
    // The model moves bytes at the link's peak: for a few KiB each operation's fixed latency is most of the time.
    if (modelled < kLatencyBoundModelledMs) {
        const int operations = f.config.chunks * (hasCopies(f.config) ? 3 : 1);
        advice.findings.push_back({ std::string(rules::kLatencyBound), "Latency-bound", Severity::Info,
            "GPU time " + us(f.gpuMs) + " for " + std::to_string(operations) + " operations on "
                + formatBytes(f.config.bytes()) + ", where moving the bytes at the link's peak takes " + us(modelled)
                + ": the rest, about " + us((f.gpuMs - modelled) / operations)
                + " per operation, is each copy's and launch's fixed cost",
            "Give each operation more bytes: batch small transfers into one buffer, fewer chunks; a CUDA Graph "
            "(--submit graph) trims the launches' share.",
            {}, true });
        return;
    }
    const std::string shape = "K=" + std::to_string(f.config.chunks) + " S=" + std::to_string(f.config.streams);
    std::string action;
    const std::size_t chunkBytes = f.config.bytes() / static_cast<std::size_t>(std::max(1, f.config.chunks));
    if (f.submitMs && *f.submitMs >= kSubmitBoundShare * f.gpuMs && f.config.submission == Submission::Stream)
        action = "The CPU submits too slowly to keep the engines fed (see Submit-bound): submit the run as a CUDA "
                 "Graph or a batch.";
    else if (f.config.chunks > 1 && chunkBytes < (std::size_t(1) << 20))
        action = "Chunks of " + formatBytes(chunkBytes) + " pay each copy's fixed cost: use fewer, larger chunks.";
    else if (f.config.streams == 1 && f.config.chunks > 1)
        action = "One stream runs its chunks one after the other: spread them over 2 to 4 streams (--streams).";
    else
        action = "Look at the timeline for gaps between a stream's operations: something between them waits.";
    advice.findings.push_back({ std::string(rules::kOverlapHeadroom), "Overlap headroom", Severity::Suggestion,
        "GPU time " + ms(f.gpuMs) + " is " + times(f.gpuMs / modelled) + " the overlap model's " + ms(modelled)
            + " for " + shape,
        action, {}, true });
}

void pageableCopies(const Facts& f, Advice& advice)
{
    if (f.config.hostMemory != HostMemory::Pageable || f.config.copy != CopyMechanism::CopyEngine)
        return;
    // The copies' own rates where the stages were timed on one stream, else the pageable path's calibration.
    const Figure* h2d = f.summary.figure(keys::kH2dRate);
    const Figure* d2h = f.summary.figure(keys::kD2hRate);
    double to = h2d ? h2d->value : 0.0, back = d2h ? d2h->value : 0.0;
    std::string where = "measured";
    if ((to <= 0.0 || back <= 0.0) && f.report.peak && f.report.peak->path == CopyPath::Pageable) {
        to = f.report.peak->h2dGBps;
        back = f.report.peak->d2hGBps;
        where = "calibrated";
    }
    std::string evidence;
    if (to > 0.0 && back > 0.0) {
        evidence = "Copies from pageable memory run at " + gbps(to) + " to the device and " + gbps(back) + " back ("
            + where + ")";
        if (f.report.pinnedPeak && f.report.pinnedPeak->h2dGBps > 0.0 && f.report.pinnedPeak->d2hGBps > 0.0)
            evidence += ": " + percent(to / f.report.pinnedPeak->h2dGBps) + " and "
                + percent(back / f.report.pinnedPeak->d2hGBps) + " of the pinned peak ("
                + gbps(f.report.pinnedPeak->h2dGBps) + ", " + gbps(f.report.pinnedPeak->d2hGBps) + ")";
        else if (const double link = f.report.device.topology.nominalGBps(); link > 0.0)
            evidence += ": " + percent(to / link) + " and " + percent(back / link) + " of the link's nominal "
                + gbps(link);
    } else {
        evidence = "The host buffer is pageable: the driver stages every copy through pinned memory of its own";
    }
    if (f.submitMs && f.gpuMs > 0.0)
        evidence += "; the CPU is held in the copy calls for " + percent(*f.submitMs / f.gpuMs)
            + " of the GPU time (CPU submit " + ms(*f.submitMs) + ")";
    advice.findings.push_back({ std::string(rules::kPageableCopies), "Pageable copies", Severity::Suggestion, evidence,
        "Allocate the host buffer pinned (cudaMallocHost, cudaHostAlloc) or pin it once with cudaHostRegister: the "
        "copies then run at the link's rate and return at once (--host-memory pinned or registered).",
        {}, false });
}

void submitBound(const Facts& f, const AdviceContext& context, Advice& advice)
{
    if (!f.submitMs || f.gpuMs <= 0.0 || *f.submitMs < kSubmitBoundShare * f.gpuMs)
        return;
    // Pageable copies hold the CPU in the copy itself, and a prefetch of managed memory may block: no launch cost.
    if (f.config.hostMemory == HostMemory::Pageable || copiesArePrefetches(f.config))
        return;
    const int operations = f.config.chunks * 3;
    std::string evidence = "CPU submit time " + ms(*f.submitMs) + " is " + percent(*f.submitMs / f.gpuMs)
        + " of the GPU time " + ms(f.gpuMs) + " (" + std::to_string(operations) + " operations per run, "
        + nameOf(f.config.submission) + " submission)";
    std::string action;
    const AdviceContext::Alternative* best = nullptr;
    for (const auto& a : context.alternatives) {
        if (a.cpuSubmitMs > 0.0 && (!best || a.cpuSubmitMs < best->cpuSubmitMs))
            best = &a;
    }
    if (best && best->cpuSubmitMs < *f.submitMs) {
        evidence += "; measured beside it: " + best->label + " submits in " + ms(best->cpuSubmitMs) + " ("
            + times(*f.submitMs / best->cpuSubmitMs) + " less), GPU time " + ms(best->gpuMs);
        action = std::string("Submit as ") + (best->submission == Submission::Graph ? "a CUDA Graph" : "a batch")
            + " (--submit " + nameOf(best->submission) + "): measured " + times(*f.submitMs / best->cpuSubmitMs)
            + " less CPU time per run.";
    } else if (f.config.submission == Submission::Stream) {
        action = "Capture the run in a CUDA Graph (--submit graph: one launch per run) or hand each stream's copies "
                 "to one cudaMemcpyBatchAsync (--submit batch); or use fewer, larger chunks.";
    } else {
        action = "The run is already submitted " + std::string(nameOf(f.config.submission))
            + "-wise: fewer, larger chunks leave less to submit.";
    }
    advice.findings.push_back(
        { std::string(rules::kSubmitBound), "Submit-bound", Severity::Suggestion, evidence, action, {}, false });
}

void checkBound(const Facts& f, Advice& advice)
{
    const Distribution* check = f.summary.distribution("check_ms");
    if (!check || f.config.checkMode != CheckMode::Serial || check->stats.median <= f.gpuMs)
        return;
    advice.findings.push_back({ std::string(rules::kCheckBound), "Check-bound", Severity::Suggestion,
        "The host check takes " + ms(check->stats.median) + " per run, " + times(check->stats.median / f.gpuMs)
            + " the GPU time " + ms(f.gpuMs) + ", and runs before the next run is submitted (--check serial"
            + (f.config.checkThreads > 0 ? ", " + std::to_string(f.config.checkThreads) + " check thread"
                      + (f.config.checkThreads == 1 ? "" : "s")
                                         : std::string())
            + ")",
        "Check each run while the next one runs (--check overlapped), or with more threads (--check-threads): the "
        "GPU then never waits for the CPU's check.",
        {}, false });
}

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
        evidence += " (the driver numbers processes outside this one's PID namespace: one of these is this process)";
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
    if (found(rules::kInterference))
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
        severity == Severity::Info
            ? "Read the median and the p95, not the mean; more runs narrow the median's uncertainty."
            : "Look at the run chart for when the slow runs came; run again with the machine otherwise idle.",
        std::move(all), false });
}

}  // namespace

Advice judgeSeries(const Report& report, const SeriesSummary& summary, const AdviceContext& context)
{
    Advice advice;
    const Distribution* gpu = summary.distribution(keys::kGpuTime);
    if (!gpu || summary.measuredRuns == 0)
        return advice;
    Facts f { report, summary, report.config, 0.0, 0.0, std::nullopt, {} };
    f.gpuMs = gpu->stats.median;
    f.noisePercent = gpu->stats.noisePercent;
    if (const Distribution* submit = summary.distribution(keys::kCpuSubmit))
        f.submitMs = submit->stats.median;
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
        if (!report.runs.warmup(i))
            f.measured.push_back(i);
    }

    interference(f, advice);
    clocks(f, advice);
    linkDegraded(f, advice);
    tooShort(f, advice);
    transferBound(f, advice);
    overlapHeadroom(f, advice);
    pageableCopies(f, advice);
    submitBound(f, context, advice);
    checkBound(f, advice);
    noisy(f, advice);
    std::stable_sort(advice.findings.begin(), advice.findings.end(),
        [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
    return advice;
}

}  // namespace asyncscope
