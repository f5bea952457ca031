#include "engine/cuda/host_buffer.hpp"

#include "engine/cuda/cuda_error.hpp"
#include "engine/model/size_parse.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace asyncscope {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kPage = 4096;

Result<bool> attribute(cudaDeviceAttr attr, int device)
{
    int value = 0;
    ASYNCSCOPE_CUDA_TRY(cudaDeviceGetAttribute(&value, attr, device));
    return value != 0;
}

Error unsupported(std::string detail, std::string advice)
{
    return makeError(ErrorKind::Unsupported, std::move(detail), std::move(advice));
}

Status adviseManaged(void* p, std::size_t bytes, const PipelineConfig& c)
{
    switch (c.managedAdvice) {
    case ManagedAdvice::None: return std::nullopt;
    case ManagedAdvice::PreferDevice:
        ASYNCSCOPE_CUDA_TRY(cudaMemAdvise(p, bytes, cudaMemAdviseSetPreferredLocation,
            cudaMemLocation { cudaMemLocationTypeDevice, c.device }));
        return std::nullopt;
    case ManagedAdvice::PreferHost:
        ASYNCSCOPE_CUDA_TRY(cudaMemAdvise(p, bytes, cudaMemAdviseSetPreferredLocation,
            cudaMemLocation { cudaMemLocationTypeHost, 0 }));
        return std::nullopt;
    case ManagedAdvice::ReadMostly:
        ASYNCSCOPE_CUDA_TRY(cudaMemAdvise(p, bytes, cudaMemAdviseSetReadMostly,
            cudaMemLocation { cudaMemLocationTypeDevice, c.device }));
        return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

Result<HostAccess> queryHostAccess(int device)
{
    HostAccess access;
    const std::pair<cudaDeviceAttr, bool*> wanted[] = {
        { cudaDevAttrCanMapHostMemory, &access.canMapHostMemory },
        { cudaDevAttrPageableMemoryAccess, &access.pageableMemoryAccess },
        { cudaDevAttrConcurrentManagedAccess, &access.concurrentManagedAccess },
        { cudaDevAttrHostRegisterSupported, &access.hostRegisterSupported },
    };
    for (auto [attr, slot] : wanted) {
        auto value = attribute(attr, device);
        if (!value)
            return value.error();
        *slot = *value;
    }
    return access;
}

Status checkHostAccess(const PipelineConfig& c, const HostAccess& access)
{
    const bool smCopies = hasCopies(c) && c.copy == CopyMechanism::Sm && c.hostMemory != HostMemory::Managed;
    if ((c.hostMemory == HostMemory::Mapped || (smCopies && c.hostMemory != HostMemory::Pageable)) &&
        !access.canMapHostMemory)
        return unsupported("this device cannot map host memory into its address space, which " +
                std::string(c.hostMemory == HostMemory::Mapped ? "mapped memory" : "an SM copy") + " needs",
            "Choose copy engines and pinned memory.");
    if (smCopies && c.hostMemory == HostMemory::Pageable && !access.pageableMemoryAccess)
        return unsupported("SM copies from pageable memory need a device that reads plain host memory (pageable "
                           "memory access, HMM), and this one does not",
            "Choose pinned, write-combined or registered memory for SM copies.");
    if (c.hostMemory == HostMemory::Managed && !access.concurrentManagedAccess)
        return unsupported("managed memory here cannot migrate page by page while the CPU uses it (no concurrent "
                           "managed access on this device or system)",
            "Choose another host memory kind.");
    if (c.hostMemory == HostMemory::Registered && !access.hostRegisterSupported)
        return unsupported("this device does not support cudaHostRegister", "Choose pinned memory.");
    return std::nullopt;
}

Result<HostBuffer> HostBuffer::allocate(const PipelineConfig& c, std::size_t bytes)
{
    HostBuffer b;
    b.m_kind = c.hostMemory;
    b.m_bytes = bytes;
    void* p = nullptr;
    auto outOfMemory = [&](const char* what) {
        return makeError(ErrorKind::OutOfMemory, "could not allocate " + formatBytes(bytes) + " of " + what,
            "Choose a smaller size.");
    };
    switch (c.hostMemory) {
    case HostMemory::Pinned:
        ASYNCSCOPE_CUDA_TRY(cudaMallocHost(&p, bytes));
        break;
    case HostMemory::WriteCombined:
        ASYNCSCOPE_CUDA_TRY(cudaHostAlloc(&p, bytes, cudaHostAllocWriteCombined));
        break;
    case HostMemory::Mapped:
        ASYNCSCOPE_CUDA_TRY(cudaHostAlloc(&p, bytes, cudaHostAllocMapped));
        break;
    case HostMemory::Managed:
        ASYNCSCOPE_CUDA_TRY(cudaMallocManaged(&p, bytes, cudaMemAttachGlobal));
        break;
    case HostMemory::Pageable:
    case HostMemory::Registered:
        p = std::aligned_alloc(kPage, (bytes + kPage - 1) / kPage * kPage);
        if (!p)
            return outOfMemory("pageable host memory");
        break;
    }
    b.m_host = static_cast<int*>(p);
    // Zeroed before anything else touches it: first touch places plain pages on this thread's NUMA node, and managed
    // pages start on the host, where each run expects them.
    std::memset(p, 0, bytes);
    if (c.hostMemory == HostMemory::Registered) {
        const auto begin = Clock::now();
        ASYNCSCOPE_CUDA_TRY(cudaHostRegister(p, bytes, cudaHostRegisterDefault));
        b.m_registerMs = std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
        b.m_registered = true;
    }
    if (c.hostMemory == HostMemory::Managed) {
        b.m_device = b.m_host;
        if (auto failed = adviseManaged(p, bytes, c))
            return *failed;
    } else if (c.hostMemory == HostMemory::Pageable) {
        b.m_device = b.m_host;  // a kernel may use it only with pageable memory access (checkHostAccess)
    } else if (c.hostMemory == HostMemory::Mapped || c.copy == CopyMechanism::Sm) {
        void* mapped = nullptr;
        ASYNCSCOPE_CUDA_TRY(cudaHostGetDevicePointer(&mapped, p, 0));
        b.m_device = static_cast<int*>(mapped);
    }
    return b;
}

Result<double> HostBuffer::unregister()
{
    if (!m_registered)
        return 0.0;
    const auto begin = Clock::now();
    ASYNCSCOPE_CUDA_TRY(cudaHostUnregister(m_host));
    m_registered = false;
    return std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
}

HostBuffer::HostBuffer(HostBuffer&& other) noexcept
    : m_kind(other.m_kind)
    , m_host(std::exchange(other.m_host, nullptr))
    , m_device(std::exchange(other.m_device, nullptr))
    , m_bytes(other.m_bytes)
    , m_registerMs(other.m_registerMs)
    , m_registered(std::exchange(other.m_registered, false))
{
}

HostBuffer& HostBuffer::operator=(HostBuffer&& other) noexcept
{
    if (this != &other) {
        release();
        m_kind = other.m_kind;
        m_host = std::exchange(other.m_host, nullptr);
        m_device = std::exchange(other.m_device, nullptr);
        m_bytes = other.m_bytes;
        m_registerMs = other.m_registerMs;
        m_registered = std::exchange(other.m_registered, false);
    }
    return *this;
}

HostBuffer::~HostBuffer()
{
    release();
}

// Destructors cannot report errors; a failure to free at teardown leaves nothing to act on.
void HostBuffer::release() noexcept
{
    if (!m_host)
        return;
    if (m_registered)
        static_cast<void>(cudaHostUnregister(m_host));
    switch (m_kind) {
    case HostMemory::Pinned:
    case HostMemory::WriteCombined:
    case HostMemory::Mapped: static_cast<void>(cudaFreeHost(m_host)); break;
    case HostMemory::Managed: static_cast<void>(cudaFree(m_host)); break;
    case HostMemory::Pageable:
    case HostMemory::Registered: std::free(m_host); break;
    }
    m_host = nullptr;
    m_device = nullptr;
    m_registered = false;
}

}  // namespace asyncscope
