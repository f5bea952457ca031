#include "allocation_meter.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

#include <malloc.h>

namespace asyncscope::fuzz {

namespace {

std::atomic<std::size_t> g_held { 0 };
std::atomic<std::size_t> g_peak { 0 };

void* counted(void* p)
{
    if (!p)
        return nullptr;
    const std::size_t bytes = malloc_usable_size(p);
    const std::size_t held = g_held.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    std::size_t peak = g_peak.load(std::memory_order_relaxed);
    while (held > peak && !g_peak.compare_exchange_weak(peak, held, std::memory_order_relaxed)) {
    }
    return p;
}

void release(void* p)
{
    if (!p)
        return;
    g_held.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
    std::free(p);
}

void* allocate(std::size_t size, std::size_t alignment = 0)
{
    void* p = nullptr;
    if (alignment > alignof(std::max_align_t)) {
        if (::posix_memalign(&p, alignment, size ? size : 1) != 0)
            p = nullptr;
    } else {
        p = std::malloc(size ? size : 1);
    }
    return counted(p);
}

}  // namespace

std::size_t heldBytes()
{
    return g_held.load(std::memory_order_relaxed);
}

void resetPeak()
{
    g_peak.store(g_held.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

std::size_t peakBytes()
{
    return g_peak.load(std::memory_order_relaxed);
}

}  // namespace asyncscope::fuzz

// The replaced global allocation functions, each counted (the nothrow and aligned forms too: simdjson uses them).
void* operator new(std::size_t size)
{
    if (void* p = asyncscope::fuzz::allocate(size))
        return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size)
{
    return operator new(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept
{
    return asyncscope::fuzz::allocate(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept
{
    return asyncscope::fuzz::allocate(size);
}
void* operator new(std::size_t size, std::align_val_t alignment)
{
    if (void* p = asyncscope::fuzz::allocate(size, std::size_t(alignment)))
        return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t alignment)
{
    return operator new(size, alignment);
}
void* operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept
{
    return asyncscope::fuzz::allocate(size, std::size_t(alignment));
}
void* operator new[](std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept
{
    return asyncscope::fuzz::allocate(size, std::size_t(alignment));
}
void operator delete(void* p) noexcept
{
    asyncscope::fuzz::release(p);
}
void operator delete[](void* p) noexcept
{
    asyncscope::fuzz::release(p);
}
void operator delete(void* p, std::size_t) noexcept
{
    asyncscope::fuzz::release(p);
}
void operator delete[](void* p, std::size_t) noexcept
{
    asyncscope::fuzz::release(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept
{
    asyncscope::fuzz::release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept
{
    asyncscope::fuzz::release(p);
}
void operator delete(void* p, std::align_val_t) noexcept
{
    asyncscope::fuzz::release(p);
}
void operator delete[](void* p, std::align_val_t) noexcept
{
    asyncscope::fuzz::release(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept
{
    asyncscope::fuzz::release(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept
{
    asyncscope::fuzz::release(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept
{
    asyncscope::fuzz::release(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept
{
    asyncscope::fuzz::release(p);
}
