// The advice's rules over a recorded program (asyncscope-cli record): its iterations' own copies and kernels,
// judged on the run of median GPU time. What the pipeline's rules read from its configuration (size, shape, host
// memory) a program does not have, so these read the run's spans instead.
#include "engine/model/advice_rules.hpp"

#include "engine/model/call_names.hpp"
#include "engine/model/number_text.hpp"
#include "engine/model/overlap_model.hpp"
#include "engine/model/program_info.hpp"
#include "engine/model/size_parse.hpp"

#include <algorithm>

namespace asyncscope::advice_rules {

using namespace advice_limits;

namespace {

// The measured run whose GPU time is the median's (the lower middle one).
RunResult medianRun(const Facts& f)
{
    std::vector<std::size_t> order = f.measured;
    const std::size_t middle = (order.size() - 1) / 2;
    std::nth_element(order.begin(), order.begin() + std::ptrdiff_t(middle), order.end(),
        [&f](std::size_t a, std::size_t b) { return f.report.runs.gpuMs(a) < f.report.runs.gpuMs(b); });
    return f.report.runs[order[middle]];
}

// The median iteration as findings name it, and the run range they concern.
std::string iterationText(const RunResult& run)
{
    return "the median iteration (run " + std::to_string(run.index) + ")";
}

std::vector<RunRange> only(const RunResult& run)
{
    return { { std::size_t(run.index), std::size_t(run.index) } };
}

// The measured runs in which the program waited in a synchronous copy or memset, by the names its waits give (empty
// where the report names none: recorded before names were kept).
std::vector<RunRange> runsWithSynchronousCopies(const Facts& f)
{
    std::vector<RunRange> ranges;
    const RunStore& runs = f.report.runs;
    for (const std::size_t i : f.measured) {
        bool synchronous = false;
        for (const Span s : runs.spans(i))
            synchronous = synchronous ||
                (s.kind == SpanKind::Wait && s.name != 0 && isSynchronousCopy(spanNameIn(*f.report.program, s.name)));
        if (!synchronous)
            continue;
        const auto index = std::size_t(runs.index(i));
        if (!ranges.empty() && ranges.back().last + 1 == index)
            ranges.back().last = index;
        else
            ranges.push_back({ index, index });
    }
    return ranges;
}

bool isCopy(SpanKind kind)
{
    return kind == SpanKind::H2D || kind == SpanKind::D2H;
}

void serializedCopies(const Facts& f, const RunResult& run, Advice& advice)
{
    const double h2d = run.totalMs(SpanKind::H2D), kernel = run.totalMs(SpanKind::Kernel),
                 d2h = run.totalMs(SpanKind::D2H);
    if (h2d + d2h <= 0.0 || kernel <= 0.0 || run.copiesOverlapKernels())
        return;
    // The overlap model the pipeline's figures come from, on the iteration's own stages: each chunk's copy in runs
    // under the one before's kernel, its copy out under the next one's.
    const CopyPeak* peak = f.report.peak ? &*f.report.peak : nullptr;
    const double modelled = chunkedMs(iterationStages(run, peak), kProgramModelChunks, kProgramModelChunks,
        peak ? peak->costs : OperationCosts {});
    if (run.gpuMs <= kOverlapHeadroomRatio * modelled)
        return;
    advice.findings.push_back({ std::string(rules::kSerializedCopies), "Copies and kernels in sequence",
        Severity::Suggestion,
        "No copy of " + iterationText(run) + " runs beside a kernel: H2D " + ms(h2d) + ", kernels " + ms(kernel) +
            ", D2H " + ms(d2h) + " one after another; this iteration's " + ms(run.gpuMs) + " could be ~" +
            ms(modelled) + " with its copies in " + std::to_string(kProgramModelChunks) + " chunks over as many streams",
        "Split the data into chunks and issue each chunk's copy in, kernel and copy out on its own stream "
        "(cudaMemcpyAsync from pinned memory), so that one chunk's copies run under another's kernel; the memory lab's "
        "overlap comparison (--compare overlap) measures the shapes on this GPU.",
        only(run), true });
}

void smallCopies(const RunResult& run, Advice& advice)
{
    std::vector<std::uint64_t> bytes;
    double copyMs = 0.0;
    for (const Span& s : run.spans) {
        if (isCopy(s.kind)) {
            bytes.push_back(s.bytes);
            copyMs += s.ms();
        }
    }
    if (bytes.size() < kManySmallCopies)
        return;
    std::nth_element(bytes.begin(), bytes.begin() + std::ptrdiff_t(bytes.size() / 2), bytes.end());
    const std::uint64_t median = bytes[bytes.size() / 2];
    if (median >= kSmallCopyBytes)
        return;
    advice.findings.push_back({ std::string(rules::kSmallCopies), "Many small copies", Severity::Suggestion,
        std::to_string(bytes.size()) + " copies in " + iterationText(run) + ", half of them " + formatBytes(median) +
            " or less, " + ms(copyMs) + " in all: each pays a copy's fixed cost of a few µs",
        "Gather them into one buffer and copy it once, or hand them to one cudaMemcpyBatchAsync call.", only(run),
        true });
}

void launchBound(const Facts& f, const RunResult& run, Advice& advice)
{
    const std::size_t kernels = std::size_t(
        std::count_if(run.spans.begin(), run.spans.end(), [](const Span& s) { return s.kind == SpanKind::Kernel; }));
    if (!f.submitMs || kernels < kManyLaunches || *f.submitMs < kSubmitBoundShare * f.gpuMs)
        return;
    advice.findings.push_back({ std::string(rules::kSubmitBound), "Launch-bound", Severity::Suggestion,
        "CPU submit time " + ms(*f.submitMs) + " (launch and enqueue calls alone: waits, synchronous copies and "
            "allocations are not counted) is " + percent(*f.submitMs / f.gpuMs) + " of the GPU time " + ms(f.gpuMs) +
            ", for " + std::to_string(kernels) + " kernels in " + iterationText(run),
        "Capture the iteration in a CUDA Graph (cudaStreamBeginCapture … cudaGraphInstantiate once, then one "
        "cudaGraphLaunch per iteration).",
        only(run), true });
}

// Copies from pageable memory: the driver stages each through a pinned buffer of its own, at a fraction of the
// pinned rate, and the call returns only when the data is staged.
void pageableCopies(const ProgramInfo& program, std::size_t iterations, Advice& advice)
{
    const ProgramCopies& c = program.copies;
    if (c.pageable == 0 || iterations == 0)
        return;
    const double each = double(iterations);
    std::string evidence = std::to_string(c.pageable) + " copies from or to pageable host memory in " +
        std::to_string(iterations) + " iterations (" + fixedText(double(c.pageable) / each, 1) + " an iteration, " +
        formatBytes(std::uint64_t(double(c.pageableBytes) / each)) + " and " + ms(c.pageableMs / each) +
        " on the GPU an iteration";
    if (c.pageableMs > 0.0)
        evidence += ", at " + gbps(double(c.pageableBytes) / (c.pageableMs * 1e6));
    evidence += ")";
    advice.findings.push_back({ std::string(rules::kPageableCopies), "Copies from pageable memory",
        Severity::Suggestion, evidence,
        "Allocate those host buffers with cudaMallocHost (or pin them once with cudaHostRegister): pinned copies run "
        "at the link's rate, are asynchronous, and can overlap kernels.",
        {}, false });
}

// Calls that return only when their copy or set is done: the host waits in each, and on the legacy default stream
// every other stream of the program waits for it too.
void synchronousCopies(const Facts& f, std::size_t iterations, int streams, Advice& advice)
{
    const ProgramCopies& c = f.report.program->copies;
    if (c.synchronous == 0 || iterations == 0)
        return;
    const double each = double(iterations);
    const std::vector<RunRange> where = runsWithSynchronousCopies(f);
    advice.findings.push_back({ std::string(rules::kSynchronousCopies), "Synchronous copies", Severity::Suggestion,
        std::to_string(c.synchronous) + " synchronous copy or memset calls (cudaMemcpy, cudaMemset…) in " +
            std::to_string(iterations) + " iterations" + (where.empty() ? "" : " (" + runRangesText(where) + ")") +
            ", the host held in them " + ms(c.synchronousMs / each) + " an iteration" +
            (streams > 1 ? "; on the default stream each also waits for the program's other streams"
                         : ": nothing else is issued while they run"),
        "Use cudaMemcpyAsync / cudaMemsetAsync on a stream of your own (created with cudaStreamNonBlocking), from "
        "pinned memory, and wait once where the result is needed.",
        where, !where.empty() });
}

// Work on the legacy default stream beside the program's own blocking streams: the default stream waits for all of
// them before each of its operations and they wait for it, so what could overlap runs one after the other.
void defaultStreamWork(const ProgramInfo& program, std::size_t iterations, Advice& advice)
{
    const ProgramCopies& c = program.copies;
    if (!c.defaultStream) {
        advice.notChecked.push_back({ std::string(rules::kDefaultStream),
            "the recording does not say which stream is the default one (it was made before stream records were "
            "kept); record the program again" });
        return;
    }
    if (*c.defaultStream == 0 || iterations == 0)
        return;
    advice.findings.push_back({ std::string(rules::kDefaultStream), "Work on the default stream",
        Severity::Suggestion,
        std::to_string(*c.defaultStream) + " kernels, copies or memsets on the legacy default stream in " +
            std::to_string(c.defaultStreamIterations) + " of " + std::to_string(iterations) +
            " iterations that also use streams of their own: each waits for every blocking stream of its context, "
            "and they wait for it",
        "Issue that work on a stream of your own (or create the others with cudaStreamNonBlocking), or build with "
        "nvcc --default-stream per-thread.",
        {}, false });
}

// Records CUPTI dropped for want of buffer room: runs may lack operations, and their figures with them.
void droppedRecords(const ProgramInfo& program, Advice& advice)
{
    if (program.droppedRecords == 0)
        return;
    advice.findings.push_back({ std::string(rules::kDroppedRecords), "Records dropped", Severity::Warning,
        "CUPTI dropped " + std::to_string(program.droppedRecords) +
            " activity record(s) for want of buffer room while the program ran: iterations may lack operations, and "
            "their GPU times may be short",
        "Record again; if records are dropped again, record fewer iterations (--duration) or mark iterations with "
        "NVTX ranges (--iteration nvtx:NAME) so that fewer calls are traced between them.",
        {}, false });
}

}  // namespace

void programWork(const Facts& f, Advice& advice)
{
    if (f.measured.empty() || !f.report.program)
        return;
    const RunResult run = medianRun(f);
    serializedCopies(f, run, advice);
    smallCopies(run, advice);
    launchBound(f, run, advice);
    pageableCopies(*f.report.program, f.report.runs.size(), advice);
    synchronousCopies(f, f.report.runs.size(), f.config.streams, advice);
    defaultStreamWork(*f.report.program, f.report.runs.size(), advice);
    droppedRecords(*f.report.program, advice);
}

}  // namespace asyncscope::advice_rules
