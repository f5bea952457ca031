#include "engine/cuda/pipeline.hpp"

#include "engine/cuda/cuda_error.hpp"
#include "engine/cuda/cuda_resources.hpp"
#include "engine/cuda/cupti_trace.hpp"
#include "engine/cuda/host_buffer.hpp"
#include "engine/host/host_memory.hpp"
#include "engine/cuda/increment_kernel.hpp"
#include "engine/cuda/sm_copy_kernel.hpp"
#include "engine/cuda/memcpy_batch.hpp"
#include "engine/model/batch_order.hpp"
#include "engine/model/event_spans.hpp"
#include "engine/model/operation_order.hpp"
#include "engine/model/size_parse.hpp"
#include "engine/run/host_check.hpp"
#include "engine/run/profiler_range.hpp"

#include <cuda_profiler_api.h>

#include <algorithm>
#include <chrono>
#include <ctime>

namespace asyncscope {

namespace {

using Clock = std::chrono::steady_clock;
static_assert(Clock::is_steady, "CPU submit times need a monotonic clock");

double millisecondsBetween(Clock::time_point from, Clock::time_point to)
{
    return std::chrono::duration<double, std::milli>(to - from).count();
}

double threadCpuMilliseconds()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

Result<Event> makeEvent(unsigned flags)
{
    cudaEvent_t event = nullptr;
    ASYNCSCOPE_CUDA_TRY(cudaEventCreateWithFlags(&event, flags));
    return Event(event);
}

Result<float> elapsed(const Event& from, const Event& to)
{
    float ms = 0.0f;
    ASYNCSCOPE_CUDA_TRY(cudaEventElapsedTime(&ms, from.get(), to.get()));
    return ms;
}

Status startProfiler()
{
    ASYNCSCOPE_CUDA_TRY(cudaProfilerStart());
    return std::nullopt;
}

Status stopProfiler()
{
    ASYNCSCOPE_CUDA_TRY(cudaProfilerStop());
    return std::nullopt;
}

// The kinds whose copies fill and empty a device buffer. Mapped and managed memory have none: the kernel works on the
// host buffer in place (managed memory's pages migrating to the device by prefetch or on demand).
bool hasDeviceBuffer(const PipelineConfig& c)
{
    return c.hostMemory != HostMemory::Mapped && c.hostMemory != HostMemory::Managed;
}

bool pinsHostMemory(HostMemory kind)
{
    return kind != HostMemory::Pageable && kind != HostMemory::Managed;
}

// The second of the two host buffers could not be had although the first could: the size is what to change.
Error secondBufferFailed(const PipelineConfig& c, Error failure)
{
    if (failure.kind != ErrorKind::OutOfMemory && failure.kind != ErrorKind::Cuda)
        return failure;
    failure.kind = ErrorKind::OutOfMemory;
    failure.detail = std::string(pinsHostMemory(c.hostMemory) ? "could not pin" : "could not allocate") +
        " a second host buffer of " + formatBytes(c.bytes()) + " of " + nameOf(c.hostMemory) +
        " memory (runs take turns between two): " + failure.detail;
    failure.advice = "Choose a smaller size.";
    return failure;
}

}  // namespace

struct PipelineSession::Resources {
    PipelineConfig config;
    // Two host buffers taking turns, in either check mode. Overlapped, one is checked while the GPU uses the other.
    // Serial, the turns keep the next host-to-device copy away from the buffer just checked, whose lines are still in
    // the checking cores' caches (copying from it right away was 20 % slower on an H200 host): both modes time the
    // copies from the same state of the CPU caches.
    std::vector<HostBuffer> hosts;
    // What the copies fill and empty; none where the kernel works on the host buffer in place (hasDeviceBuffer).
    DeviceInts device;
    bool copies = true;           // hasCopies(config): without copies each chunk's only operation is its kernel
    double registerMs = 0.0;      // registered memory: cudaHostRegister of both host buffers together
    bool unregistered = false;    // unregisterHost() has run: the buffers are plain memory, the runs are over
    std::vector<ChunkRange> chunks;
    std::vector<Stream> streams;  // chunk c runs on streams[c % S]; the run starts and ends on streams[0]
    Event start, stop;            // timing: the run's first and last moment on the GPU
    Event fork;                   // no timing: the other streams wait for the run's start through it
    std::vector<Event> joins;     // no timing: streams[0] waits for each other stream's last operation
    std::vector<Event> opEnds;    // timing, with stage events: after operation 3c + stage (H2D, kernel, D2H)
    // Graph submission: the run captured once per host buffer, instantiated and uploaded, launched with one call.
    std::vector<GraphExec> graphs;
    bool capturing = false;       // enqueue() is being captured into a graph rather than run
    // Each host buffer holds one value in every element: zeros at first, then what its last run brought back,
    // which its next run sends again and expects back incremented. A buffer that comes back wrong is zeroed again.
    std::vector<int> held;
    std::size_t next = 0;              // the host buffer the next run uses
    std::optional<RunResult> pending;  // timed, its buffer (the one `next` is not) being checked by `checker`
    Clock::time_point pendingStart {};  // the pending run's start on the host clock: its spans' zero
    Clock::time_point checkBegin {};    // when the pending run's check began
    std::optional<Clock::time_point> firstStart;  // the session's first run's start: RunResult::startMs counts from it
    std::unique_ptr<HostChecker> checker;  // destroyed before the buffers its threads may still touch
    std::unique_ptr<CuptiTrace> cupti;     // with CUPTI as the trace source, where it started
    std::string traceNote;                 // why CUPTI was asked for and did not start

    int* host(std::size_t i) const { return hosts[i].host(); }
    const HostBuffer& bufferOf(const int* host) const
    {
        return hosts[hosts.size() > 1 && hosts[1].host() == host ? 1 : 0];
    }
    // Where the kernel works on a run from host buffer `host`: the device buffer, or the host buffer itself through
    // the pointer the device reaches it by.
    int* workspace(const int* host) const { return device ? device.get() : bufferOf(host).device(); }
    // The stage event of an operation: 3 per chunk with copies, the kernel's alone without.
    std::size_t operationIndex(int chunk, int stage) const
    {
        return static_cast<std::size_t>(copies ? kStages * chunk + stage : chunk);
    }

    cudaStream_t mainStream() const { return streams.front().get(); }

    ~Resources()
    {
        // Nothing may be freed while the GPU or a checker thread still uses it.
        for (const Stream& s : streams)
            static_cast<void>(cudaStreamSynchronize(s.get()));
        checker.reset();
    }

    // Records a stage event; inside a capture as an external event node, so the graph's launches still time.
    cudaError_t record(const Event& event, cudaStream_t stream) const
    {
        return capturing ? cudaEventRecordWithFlags(event.get(), stream, cudaEventRecordExternal)
                         : cudaEventRecord(event.get(), stream);
    }

    // On one stream the last operation's end is the stop event itself, as in asyncAPI: no event of its own.
    bool endsAtStop(int chunk, int stage) const
    {
        return streams.size() == 1 && static_cast<std::size_t>(chunk) + 1 == chunks.size() &&
            stage == (copies ? 2 : 1);
    }

    // A graph that cannot be captured or instantiated from host memory other than pinned is a limit of this system
    // for that kind (copies from pageable memory or prefetches of managed memory may not be captured): Unsupported,
    // so a comparison shows the variant as not run and goes on. With pinned memory it stays the error it is.
    Error graphRefused(Error error) const
    {
        if (config.hostMemory == HostMemory::Pinned)
            return error;
        error.kind = ErrorKind::Unsupported;
        error.advice = std::string("Graphs of ") + nameOf(config.hostMemory) +
            " host memory cannot be made on this system: choose stream submission, or pinned memory for graphs.";
        return error;
    }

    Status enqueueCopy(int stage, int chunk, int* host, cudaStream_t stream) const;
    Status enqueue(int* host) const;
    Status enqueueOperations(int* host) const;
    Status capture(std::size_t buffer, Graph& graph);
    Status buildGraphs();

    // Batch submission: the run's steps (batchOrder) and, for each host buffer, every step's copies prepared at open
    // (a kernel's step holds none), so a run only hands them over.
    struct PreparedBatches {
        const int* host = nullptr;
        std::vector<MemcpyBatch> steps;
    };
    std::vector<BatchStep> batchSteps;
    std::vector<PreparedBatches> batches;

    Status enqueueBatchSteps(int* host) const;
    Status prepareBatches();

    // The events step() reads back: one per operation (3 per chunk) or, batched, one per batch and kernel.
    std::size_t timedOperations() const
    {
        return config.submission == Submission::Batch && !opEnds.empty() ? batchSteps.size() : opEnds.size();
    }
    bool timedEndsAtStop(std::size_t op) const
    {
        if (config.submission == Submission::Batch)
            return streams.size() == 1 && op + 1 == batchSteps.size();
        if (!copies)
            return endsAtStop(static_cast<int>(op), 1);
        return endsAtStop(static_cast<int>(op / kStages), static_cast<int>(op % kStages));
    }
};

// Stage 0 (H2D) or 2 (D2H) of chunk `chunk` between host buffer `host` and the device, as the configuration moves
// it: the copy engines (cudaMemcpyAsync), an SM copy kernel through the host buffer's device pointer, or managed
// memory's prefetch to the device and back to the host (the kernel then works on the managed buffer in place).
Status PipelineSession::Resources::enqueueCopy(int stage, int chunk, int* host, cudaStream_t stream) const
{
    const ChunkRange range = chunks[static_cast<std::size_t>(chunk)];
    const std::size_t bytes = range.count * sizeof(int);
    const bool toDevice = stage == 0;
    if (copiesArePrefetches(config)) {
        const cudaMemLocation where = toDevice ? cudaMemLocation { cudaMemLocationTypeDevice, config.device }
                                               : cudaMemLocation { cudaMemLocationTypeHost, 0 };
        if (const cudaError_t status = cudaMemPrefetchAsync(host + range.first, bytes, where, 0, stream);
            status != cudaSuccess)
            return cudaFailure("cudaMemPrefetchAsync", status);
        return std::nullopt;
    }
    int* const onDevice = device.get() + range.first;
    if (config.copy == CopyMechanism::Sm) {
        int* const mapped = bufferOf(host).device() + range.first;
        int* const dst = toDevice ? onDevice : mapped;
        const int* const src = toDevice ? mapped : onDevice;
        if (const cudaError_t status = launchSmCopy(dst, src, range.count, config.threadsPerBlock, stream);
            status != cudaSuccess)
            return cudaFailure("launchSmCopy", status);
        return std::nullopt;
    }
    int* const onHost = host + range.first;
    const cudaError_t status = toDevice ? cudaMemcpyAsync(onDevice, onHost, bytes, cudaMemcpyHostToDevice, stream)
                                        : cudaMemcpyAsync(onHost, onDevice, bytes, cudaMemcpyDeviceToHost, stream);
    if (status != cudaSuccess)
        return cudaFailure("cudaMemcpyAsync", status);
    return std::nullopt;
}

// One run's GPU work from host buffer `host`: the start event, the other streams forked from the first, the run's
// operations (enqueueOperations, or enqueueBatchSteps for batch submission), the other streams joined back into the
// first, the stop event. Captured into a graph it leaves out the start and stop events, which step() records around
// the launch.
Status PipelineSession::Resources::enqueue(int* host) const
{
    const cudaStream_t first = mainStream();
    if (!capturing)
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(start.get(), first));
    if (streams.size() > 1) {
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(fork.get(), first));
        for (std::size_t s = 1; s < streams.size(); ++s)
            ASYNCSCOPE_CUDA_TRY(cudaStreamWaitEvent(streams[s].get(), fork.get(), 0));
    }
    if (auto failed = config.submission == Submission::Batch ? enqueueBatchSteps(host) : enqueueOperations(host))
        return failed;
    for (std::size_t s = 1; s < streams.size(); ++s) {
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(joins[s - 1].get(), streams[s].get()));
        ASYNCSCOPE_CUDA_TRY(cudaStreamWaitEvent(first, joins[s - 1].get(), 0));
    }
    if (!capturing)
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(stop.get(), first));
    return std::nullopt;
}

// Every chunk's H2D, kernel and D2H on its stream, each followed by its event with stage events (the kernel alone
// for the kinds without copies).
Status PipelineSession::Resources::enqueueOperations(int* host) const
{
    Status failed;
    int* const work = workspace(host);
    forEachOperation(config.chunks, config.order, [&](int chunk, int stage) {
        const bool copy = stage != 1;
        if (failed || (copy && !copies))
            return;
        const ChunkRange range = chunks[static_cast<std::size_t>(chunk)];
        const cudaStream_t stream = streams[static_cast<std::size_t>(chunk) % streams.size()].get();
        if (copy) {
            failed = enqueueCopy(stage, chunk, host, stream);
        } else if (const cudaError_t status =
                       launchIncrement(work + range.first, config.value, range.count, config.threadsPerBlock, stream);
                   status != cudaSuccess) {
            failed = cudaFailure("launchIncrement", status);
        }
        if (!failed && !opEnds.empty() && !endsAtStop(chunk, stage)) {
            if (const cudaError_t status = record(opEnds[operationIndex(chunk, stage)], stream); status != cudaSuccess)
                failed = cudaFailure("cudaEventRecord", status);
        }
    });
    return failed;
}

// The run's steps in batches (batchOrder): each stream's H2D copies in one cudaMemcpyBatchAsync call, its kernels,
// its D2H copies in one call, each step followed by its event with stage events. The copies' arrays were prepared
// at open.
Status PipelineSession::Resources::enqueueBatchSteps(int* host) const
{
    const PreparedBatches* prepared = nullptr;
    for (const PreparedBatches& b : batches) {
        if (b.host == host)
            prepared = &b;
    }
    if (!prepared)
        return makeError(ErrorKind::Cuda, "no copies were prepared for this host buffer at open");
    for (std::size_t i = 0; i < batchSteps.size(); ++i) {
        const BatchStep& step = batchSteps[i];
        const cudaStream_t stream = streams[static_cast<std::size_t>(step.stream)].get();
        if (step.isCopy()) {
            if (auto failed = prepared->steps[i].submit(stream))
                return failed;
        } else {
            const ChunkRange range = chunks[static_cast<std::size_t>(step.chunks.front())];
            const cudaError_t launched =
                launchIncrement(device.get() + range.first, config.value, range.count, config.threadsPerBlock, stream);
            if (launched != cudaSuccess)
                return cudaFailure("launchIncrement", launched);
        }
        if (!opEnds.empty() && !timedEndsAtStop(i))
            ASYNCSCOPE_CUDA_TRY(record(opEnds[i], stream));
    }
    return std::nullopt;
}

// Batch submission's setup (open() has checked the combination): the steps, every copy's pointers and size for both host buffers, and one real batch, so
// that a runtime or driver without cudaMemcpyBatchAsync answers now, before the first run, as Unsupported. The
// stage events a batched run needs (2 per stream and 1 per chunk) are fewer than the 3 per chunk open() makes.
Status PipelineSession::Resources::prepareBatches()
{
    if (auto unbuilt = memcpyBatchBuilt())
        return unbuilt;
    batchSteps = batchOrder(config.chunks, static_cast<int>(streams.size()), config.order);
    batches.clear();
    for (std::size_t buffer = 0; buffer < 2; ++buffer) {
        PreparedBatches prepared { host(buffer), {} };
        prepared.steps.reserve(batchSteps.size());
        for (const BatchStep& step : batchSteps) {
            MemcpyBatch batch(config.preferOverlap);
            for (std::size_t i = 0; step.isCopy() && i < step.chunks.size(); ++i) {
                const ChunkRange range = chunks[static_cast<std::size_t>(step.chunks[i])];
                int* const onDevice = device.get() + range.first;
                int* const onHost = host(buffer) + range.first;
                const std::size_t bytes = range.count * sizeof(int);
                if (step.stage == 0)
                    batch.add(onDevice, onHost, bytes);
                else
                    batch.add(onHost, onDevice, bytes);
            }
            prepared.steps.push_back(std::move(batch));
        }
        batches.push_back(std::move(prepared));
    }
    // The first H2D batch from the first buffer (zeros): the device buffer is overwritten before every run anyway.
    const cudaStream_t probe = streams[static_cast<std::size_t>(batchSteps.front().stream)].get();
    if (auto failed = batches.front().steps.front().submit(probe))
        return failed;
    ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(probe));
    return std::nullopt;
}

// Captures one run from host buffer `buffer` into `graph`. The capture is always ended, so a failure leaves the
// stream usable.
Status PipelineSession::Resources::capture(std::size_t buffer, Graph& graph)
{
    ASYNCSCOPE_CUDA_TRY(cudaStreamBeginCapture(mainStream(), cudaStreamCaptureModeThreadLocal));
    capturing = true;
    Status failed = enqueue(host(buffer));
    capturing = false;
    cudaGraph_t captured = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(mainStream(), &captured);
    graph.reset(captured);
    if (ended != cudaSuccess && !failed)
        failed = cudaFailure("cudaStreamEndCapture", ended);
    else if (ended != cudaSuccess)  // the echo of the failure reported: not for this thread's next launch check
        static_cast<void>(cudaGetLastError());
    if (failed) {
        failed->detail = "could not capture the run into a CUDA Graph: " + failed->detail;
        failed = graphRefused(std::move(*failed));
    }
    return failed;
}

Status PipelineSession::Resources::buildGraphs()
{
    graphs.clear();
    for (std::size_t buffer = 0; buffer < 2; ++buffer) {
        Graph graph;
        if (auto failed = capture(buffer, graph))
            return failed;
        cudaGraphExec_t exec = nullptr;
        if (const cudaError_t status = cudaGraphInstantiate(&exec, graph.get(), 0); status != cudaSuccess) {
            Error failure = cudaFailure("cudaGraphInstantiate", status);
            failure.detail = "could not instantiate the run's CUDA Graph: " + failure.detail;
            return graphRefused(std::move(failure));
        }
        graphs.emplace_back(exec);
        ASYNCSCOPE_CUDA_TRY(cudaGraphUpload(exec, mainStream()));  // the first launch's setup, paid here
    }
    ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(mainStream()));
    return std::nullopt;
}

Result<PipelineSession::ValueChange> PipelineSession::setValue(int value)
{
    if (m->pending)
        return makeError(ErrorKind::Usage, "the value cannot change while a run is being checked");
    ASYNCSCOPE_CUDA_TRY(cudaSetDevice(m->config.device));
    m->config.value = value;
    if (m->config.submission != Submission::Graph)
        return ValueChange::NoGraph;
    ValueChange change = ValueChange::Updated;
    for (std::size_t buffer = 0; buffer < m->graphs.size(); ++buffer) {
        Graph graph;
        if (auto failed = m->capture(buffer, graph))
            return *failed;
        cudaGraphExecUpdateResultInfo info {};
        if (cudaGraphExecUpdate(m->graphs[buffer].get(), graph.get(), &info) == cudaSuccess)
            continue;
        static_cast<void>(cudaGetLastError());  // the update was refused: instantiate the new graph instead
        change = ValueChange::Reinstantiated;
        cudaGraphExec_t exec = nullptr;
        ASYNCSCOPE_CUDA_TRY(cudaGraphInstantiate(&exec, graph.get(), 0));
        m->graphs[buffer].reset(exec);
        ASYNCSCOPE_CUDA_TRY(cudaGraphUpload(exec, m->mainStream()));
    }
    ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(m->mainStream()));
    return change;
}

PipelineSession::PipelineSession(std::unique_ptr<Resources> resources)
    : m(std::move(resources))
{
}

PipelineSession::~PipelineSession() = default;

const std::string& PipelineSession::traceNote() const
{
    return m->traceNote;
}

const PipelineConfig& PipelineSession::config() const
{
    return m->config;
}

Result<std::unique_ptr<PipelineSession>> PipelineSession::open(const PipelineConfig& config, MemoryCheck memoryCheck)
{
    if (auto invalid = validate(config))
        return *invalid;
    if (auto refused = checkCombination(config))
        return *refused;

    int deviceCount = 0;
    ASYNCSCOPE_CUDA_TRY(cudaGetDeviceCount(&deviceCount));
    if (config.device >= deviceCount)
        return makeError(ErrorKind::Usage,
            "there is no CUDA device " + std::to_string(config.device) + "; this machine has " +
                std::to_string(deviceCount),
            "Choose a device from the list.");
    ASYNCSCOPE_CUDA_TRY(cudaSetDevice(config.device));
    auto access = queryHostAccess(config.device);
    if (!access)
        return access.error();
    if (auto refused = checkHostAccess(config, *access))
        return *refused;

    if (memoryCheck == MemoryCheck::Enforce) {
        std::size_t freeBytes = 0;
        std::size_t totalBytes = 0;
        ASYNCSCOPE_CUDA_TRY(cudaMemGetInfo(&freeBytes, &totalBytes));
        cudaDeviceProp prop {};
        ASYNCSCOPE_CUDA_TRY(cudaGetDeviceProperties(&prop, config.device));
        // Mapped memory takes no device memory; managed pages migrate into it during a run, one buffer's at a time.
        if (config.hostMemory != HostMemory::Mapped) {
            if (auto tooBig = checkFitsDevice(config, freeBytes, prop.name))
                return *tooBig;
        }
        if (auto tooBig = checkFitsHost(config, availableHostMemory()))
            return *tooBig;
    }

    auto r = std::make_unique<Resources>();
    r->config = config;
    r->copies = hasCopies(config);
    const std::size_t bytes = config.bytes();

    if (hasDeviceBuffer(config)) {
        void* device = nullptr;
        ASYNCSCOPE_CUDA_TRY(cudaMalloc(&device, bytes));
        r->device.reset(static_cast<int*>(device));
    }

    for (std::size_t i = 0; i < 2; ++i) {
        auto buffer = HostBuffer::allocate(config, bytes);  // zeroed, registered or mapped as its kind needs
        if (!buffer)
            return i == 0 ? buffer.error() : secondBufferFailed(config, buffer.error());
        r->registerMs += buffer->registerMs();
        r->hosts.push_back(std::move(*buffer));
        r->held.push_back(0);
    }
    r->checker = std::make_unique<HostChecker>(static_cast<std::size_t>(config.checkThreads));

    r->chunks = chunkRanges(config.elements, config.chunks);
    for (int i = 0; i < config.streams; ++i) {
        cudaStream_t stream = nullptr;
        ASYNCSCOPE_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        r->streams.emplace_back(stream);
    }

    const unsigned stopFlags = config.waitMode == WaitMode::Blocking ? cudaEventBlockingSync : cudaEventDefault;
    auto make = [](Event& slot, unsigned flags) -> Status {
        auto event = makeEvent(flags);
        if (!event)
            return event.error();
        slot = std::move(*event);
        return std::nullopt;
    };
    r->joins.resize(static_cast<std::size_t>(config.streams - 1));
    r->opEnds.resize(config.stageEvents ? (r->copies ? kStages : 1) * r->chunks.size() : 0);
    std::vector<std::pair<Event*, unsigned>> events { { &r->start, cudaEventDefault }, { &r->stop, stopFlags },
        { &r->fork, cudaEventDisableTiming } };
    for (Event& join : r->joins)
        events.emplace_back(&join, cudaEventDisableTiming);
    for (Event& end : r->opEnds)
        events.emplace_back(&end, cudaEventDefault);
    for (auto [slot, flags] : events) {
        if (auto failed = make(*slot, flags))
            return *failed;
    }
    if (config.submission == Submission::Graph) {
        if (auto failed = r->buildGraphs())
            return *failed;
    }
    if (config.submission == Submission::Batch) {
        if (auto failed = r->prepareBatches())
            return *failed;
    }
    if (config.traceSource == TraceSource::Cupti) {
        if (auto trace = CuptiTrace::start(config.device)) {
            r->cupti = std::move(*trace);
            if (config.hostMemory == HostMemory::Managed)
                r->traceNote = r->cupti->migrationNote();
        } else
            r->traceNote = trace.error().message() + "; the timeline shows CUDA events";
    }
    return std::unique_ptr<PipelineSession>(new PipelineSession(std::move(r)));
}

Result<PipelineSession::Step> PipelineSession::step(int index, bool warmup, const std::atomic<bool>* cancel)
{
    const PipelineConfig& c = m->config;
    const std::size_t bytes = c.bytes();
    const std::size_t buffer = m->next;
    int* host = m->host(buffer);
    cudaStream_t stream = m->mainStream();

    if (m->unregistered)
        return makeError(ErrorKind::Usage, "the session's host buffers were unregistered: its runs are over");
    ASYNCSCOPE_CUDA_TRY(cudaSetDevice(c.device));

    // Outside the timed region: the device buffer is poisoned so an element the copies miss can never pass. The host
    // buffer needs no rewrite: it holds a known value in every element. (Kinds without a device buffer are worked on
    // in place: what the kernel misses keeps its old value and fails the check.)
    const int expected = incremented(m->held[buffer], c.value);
    if (m->device) {
        ASYNCSCOPE_CUDA_TRY(cudaMemsetAsync(m->device.get(), 0xFF, bytes, stream));
        ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
    }
    // Stopped on every way out of this step, an error's included; the normal ways out stop it and check how.
    auto profiler = ProfilerRange::open(c.profilerRange, startProfiler, stopProfiler);
    if (!profiler)
        return profiler.error();

    RunResult result;
    result.index = index;
    result.warmup = warmup;

    // A graph's CPU submit time is its launch alone: the start and stop events go just outside it. (Event nodes in
    // the graph would cost the launch several microseconds each, and stream calls time their own events as asyncAPI
    // does.)
    if (c.submission == Submission::Graph)
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(m->start.get(), stream));
    const std::uint64_t tracedFrom = m->cupti ? m->cupti->now() : 0;
    const auto submitBegin = Clock::now();
    if (c.submission == Submission::Graph) {
        ASYNCSCOPE_CUDA_TRY(cudaGraphLaunch(m->graphs[buffer].get(), stream));
    } else if (auto failed = m->enqueue(host)) {
        return *failed;
    }
    const auto submitEnd = Clock::now();
    if (!m->firstStart)
        m->firstStart = submitBegin;
    result.startMs = millisecondsBetween(*m->firstStart, submitBegin);
    result.hostClockNs = std::chrono::duration_cast<std::chrono::nanoseconds>(submitBegin.time_since_epoch()).count();
    if (c.submission == Submission::Graph)
        ASYNCSCOPE_CUDA_TRY(cudaEventRecord(m->stop.get(), stream));

    const double cpuBefore = threadCpuMilliseconds();
    bool cancelled = false;
    if (c.waitMode == WaitMode::Spin) {
        for (;;) {
            const cudaError_t state = cudaEventQuery(m->stop.get());
            if (state == cudaSuccess)
                break;
            if (state != cudaErrorNotReady)
                return cudaFailure("cudaEventQuery", state);
            ++result.pollIterations;
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                cancelled = true;
                break;
            }
        }
    } else {
        ASYNCSCOPE_CUDA_TRY(cudaEventSynchronize(m->stop.get()));
    }
    const auto waitEnd = Clock::now();
    const std::uint64_t tracedTo = m->cupti ? m->cupti->now() : 0;
    result.waitCpuMs = threadCpuMilliseconds() - cpuBefore;

    if (cancelled) {
        ASYNCSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));  // the last stream: every other joins it before stop
        restart(buffer);  // the run finished unchecked: its buffer no longer holds a known value
        if (auto failed = profiler->close())
            return *failed;
        return makeError(ErrorKind::Cancelled, "cancelled during run " + std::to_string(index));
    }
    if (auto failed = profiler->close())
        return *failed;

    auto total = elapsed(m->start, m->stop);
    if (!total)
        return total.error();
    result.gpuMs = *total;
    EventTimes times;
    times.device = c.device;
    times.streams = c.streams;
    times.order = c.order;
    times.chunks = m->chunks;
    times.copies = m->copies;
    times.submission = c.submission;
    times.operationEndMs.reserve(m->timedOperations());
    for (std::size_t op = 0; op < m->timedOperations(); ++op) {
        auto end = m->timedEndsAtStop(op) ? total : elapsed(m->start, m->opEnds[op]);
        if (!end)
            return end.error();
        times.operationEndMs.push_back(*end);
    }
    times.submitEndMs = millisecondsBetween(submitBegin, submitEnd);
    times.waitEndMs = millisecondsBetween(submitBegin, waitEnd);
    auto spans = eventSpans(times);
    if (!spans)
        return spans.error();
    result.spans = std::move(*spans);

    if (m->cupti)
        result.traced = m->cupti->take(tracedFrom, tracedTo, m->chunks, c);

    result.expectedValue = expected;
    Step done { result, flush() };
    m->checkBegin = Clock::now();
    m->checker->start(host, c.elements, expected);
    m->pending = result;
    m->pendingStart = submitBegin;
    m->next = 1 - buffer;
    if (c.checkMode == CheckMode::Serial)
        done.checked = flush();
    return done;
}

std::optional<RunResult> PipelineSession::flush()
{
    if (!m->pending)
        return std::nullopt;
    RunResult run = *m->pending;
    m->pending.reset();
    const std::size_t buffer = 1 - m->next;
    const CheckResult found = m->checker->finish();
    run.spans.push_back({ SpanKind::Check, m->config.device, 0, 0, m->config.bytes(),
        millisecondsBetween(m->pendingStart, m->checkBegin), millisecondsBetween(m->pendingStart, found.endedAt) });
    run.firstWrongIndex = found.firstWrongIndex;
    run.firstWrongValue = found.firstWrongValue;
    run.verified = found.firstWrongIndex < 0;
    if (run.verified)
        m->held[buffer] = run.expectedValue;
    else
        restart(buffer);
    return run;
}

std::optional<double> PipelineSession::hostRegisterMs() const
{
    if (m->config.hostMemory != HostMemory::Registered)
        return std::nullopt;
    return m->registerMs;
}

std::uint64_t PipelineSession::hostRegisteredBytes() const
{
    if (m->config.hostMemory != HostMemory::Registered)
        return 0;
    return static_cast<std::uint64_t>(m->hosts.size()) * m->config.bytes();
}

Result<double> PipelineSession::unregisterHost()
{
    if (m->pending)
        return makeError(ErrorKind::Usage, "the host buffers cannot be unregistered while a run is being checked");
    ASYNCSCOPE_CUDA_TRY(cudaSetDevice(m->config.device));
    double ms = 0.0;
    for (HostBuffer& buffer : m->hosts) {
        auto took = buffer.unregister();  // every run has ended: step() waits for each
        if (!took)
            return took.error();
        ms += *took;
    }
    m->unregistered = m->config.hostMemory == HostMemory::Registered;
    return ms;
}

void PipelineSession::restart(std::size_t buffer)
{
    std::fill_n(m->host(buffer), m->config.elements, 0);
    m->held[buffer] = 0;
}

Result<RunResult> PipelineSession::run(int index, bool warmup, const std::atomic<bool>* cancel)
{
    auto done = step(index, warmup, cancel);
    if (!done)
        return done.error();
    if (m->config.checkMode == CheckMode::Serial)
        return *done->checked;
    return *flush();  // overlapped: `checked` held a run still pending from an earlier step(), if any
}

}  // namespace asyncscope
