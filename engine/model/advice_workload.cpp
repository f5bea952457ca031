#include "engine/model/advice_rules.hpp"

#include "engine/model/overlap_model.hpp"
#include "engine/model/size_parse.hpp"

#include <algorithm>

namespace asyncscope::advice_rules {

using namespace advice_limits;

// --- Rules over the workload -------------------------------------------------------------------------------------

namespace {

// The kernel's time for the whole buffer, as the series measured it (its kernel stage), else 0 (the model then takes
// the calibration's).
double measuredKernelMs(const Facts& f)
{
    return wholeKernelMs(f.summary.median("kernel_ms"), f.config.chunks, f.report.peak->costs);
}

// The shape the overlap model has fastest for this series' bytes and submission, where it is another shape than the
// series' and faster than its GPU time by more than the series' noise and the model's error.
std::optional<SuggestedShape> fasterShape(const Facts& f, const std::string& rule)
{
    // Without the operations' costs (a calibration an earlier version made) the model knows only the link: it would
    // promise every extra chunk for free.
    if (!f.report.peak || !f.report.peak->costs.measured() || !hasCopies(f.config) || f.gpuMs <= 0.0)
        return std::nullopt;
    const auto best = bestModelledShape(f.config.bytes(), f.config.elements, f.config.submission, *f.report.peak,
        measuredKernelMs(f), kModelMaxChunks, kModelMaxStreams);
    if (!best || (best->chunks == f.config.chunks && best->streams == f.config.streams))
        return std::nullopt;
    const double margin = std::max(kModelErrorShare, f.noisePercent / 100.0);
    if (best->ms >= f.gpuMs * (1.0 - margin))
        return std::nullopt;
    return SuggestedShape { rule, best->chunks, best->streams, f.config.submission, best->ms, f.gpuMs };
}

// "--chunks 16 --streams 3 takes 1.476 ms in the overlap model, 1.69 × faster than now": the suggestion's words.
std::string shapeText(const SuggestedShape& shape)
{
    return "--chunks " + std::to_string(shape.chunks) + " --streams " + std::to_string(shape.streams) + " takes " +
        ms(shape.predictedMs) + " in the overlap model, " + times(shape.nowMs / shape.predictedMs) +
        " faster than now (--try-advice runs it)";
}

}  // namespace

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
    const auto shape = zeroCopy ? std::nullopt : fasterShape(f, finding.rule);
    if (shape) {
        finding.action = "Overlap the copies with each other and the kernel: " + shapeText(*shape)
            + "; each chunk's copies and kernel on one of the streams, round-robin.";
        advice.suggestion = shape;
    } else {
        finding.action = zeroCopy
            ? "The kernel waits on the link: only fewer bytes over PCIe (keep data on the device) make it shorter."
            : !peak.costs.measured()
            ? "Overlap the copies with each other and the kernel (--chunks, --streams): the overlap comparison "
              "(--compare overlap) measures the shapes; this calibration has no operation costs to predict them "
              "(delete the copy-peak cache to measure them)."
            : "No shape is faster in the overlap model by more than the series' noise: only fewer bytes, or data kept "
              "on the device between kernels, make it shorter.";
    }
    advice.findings.push_back(std::move(finding));
}

void overlapHeadroom(const Facts& f, Advice& advice)
{
    const double modelled = f.summary.value(keys::kModelled);
    if (modelled <= 0.0)
        return;
    if (f.gpuMs <= kOverlapHeadroomRatio * modelled) {
        // Near its own model, but an overlapping shape that the model has faster by more than the noise.
        const auto shape = f.config.chunks > 1 && f.config.streams > 1 && !advice.suggestion
            ? fasterShape(f, std::string(rules::kOverlapHeadroom))
            : std::nullopt;
        if (shape) {
            advice.findings.push_back({ std::string(rules::kOverlapHeadroom), "A faster shape", Severity::Suggestion,
                "GPU time " + ms(f.gpuMs) + " for K=" + std::to_string(f.config.chunks) + " S="
                    + std::to_string(f.config.streams) + ", " + times(f.gpuMs / modelled) + " the overlap model's "
                    + ms(modelled) + " for it",
                "Change the shape: " + shapeText(*shape) + ".", {}, false });
            advice.suggestion = shape;
        }
        return;
    }
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
    if (const auto shape = fasterShape(f, std::string(rules::kOverlapHeadroom)); shape && !advice.suggestion) {
        action += " In the model: " + shapeText(*shape) + ".";
        advice.suggestion = shape;
    }
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

}  // namespace asyncscope::advice_rules
