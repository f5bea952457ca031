#include "engine/cuda/pipeline.hpp"

#include "engine/cuda/pipeline_resources.hpp"

#include "engine/host/host_memory.hpp"
#include "engine/model/size_parse.hpp"

#include <utility>

namespace asyncscope {

namespace {

Result<Event> makeEvent(unsigned flags)
{
    cudaEvent_t event = nullptr;
    ASYNCSCOPE_CUDA_TRY(cudaEventCreateWithFlags(&event, flags));
    return Event(event);
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

}  // namespace asyncscope
