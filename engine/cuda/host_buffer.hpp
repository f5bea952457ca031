// One host buffer of any HostMemory kind: allocated (and pinned, registered, mapped or advised) as its kind needs on
// the calling thread, zeroed there (so its pages come from that thread's NUMA node), freed when it goes.
#pragma once

#include "engine/model/config.hpp"
#include "engine/model/error.hpp"

#include <cstddef>
#include <memory>

namespace asyncscope {

// What the device can do with host memory, read once per device.
struct HostAccess {
    bool canMapHostMemory = false;        // cudaDevAttrCanMapHostMemory: mapped pinned memory, SM copies
    bool pageableMemoryAccess = false;    // cudaDevAttrPageableMemoryAccess: kernels read plain malloc'ed memory
    bool concurrentManagedAccess = false; // cudaDevAttrConcurrentManagedAccess: managed pages migrate on fault
    bool hostRegisterSupported = false;   // cudaDevAttrHostRegisterSupported
};
Result<HostAccess> queryHostAccess(int device);

// Whether `config` can run on a device that can do `access`: ErrorKind::Unsupported, with the reason and what to
// choose instead, when it cannot (mapped memory or SM copies without mapping, SM copies from pageable memory without
// pageable memory access, managed memory without concurrent managed access, registration not supported).
Status checkHostAccess(const PipelineConfig& config, const HostAccess& access);

class HostBuffer {
public:
    // `bytes` of `config.hostMemory` for `config.device` (the current device), zeroed. Managed memory gets
    // config.managedAdvice; registered memory's cudaHostRegister is timed (registerMs()).
    static Result<HostBuffer> allocate(const PipelineConfig& config, std::size_t bytes);

    HostBuffer(HostBuffer&&) noexcept;
    HostBuffer& operator=(HostBuffer&&) noexcept;
    ~HostBuffer();

    int* host() const { return m_host; }
    // The pointer a kernel reads and writes this memory through: the mapped device pointer of pinned, write-combined,
    // registered and mapped memory, the managed pointer itself, and plain memory's own pointer (usable only where the
    // device has pageable memory access).
    int* device() const { return m_device; }
    std::size_t bytes() const { return m_bytes; }
    HostMemory kind() const { return m_kind; }
    double registerMs() const { return m_registerMs; }  // 0 for the kinds that are not registered
    // Registered memory: cudaHostUnregister, timed, in ms; the memory stays allocated (plain) until the buffer goes.
    // 0 for other kinds or when already unregistered.
    Result<double> unregister();

private:
    HostBuffer() = default;
    void release() noexcept;

    HostMemory m_kind = HostMemory::Pinned;
    int* m_host = nullptr;
    int* m_device = nullptr;
    std::size_t m_bytes = 0;
    double m_registerMs = 0.0;
    bool m_registered = false;
};

}  // namespace asyncscope
