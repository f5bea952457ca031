// A vector for the columns of long series. A column of a million runs is megabytes that are filled once, front to
// back: with 4 KiB pages every page costs a fault on first touch (a fifth of the CPU time of opening a million-run file
// on a virtual machine). Allocations of 2 MiB and more are made 2 MiB-aligned and, while the thread holds a
// HugePageScope (reading a file), marked MADV_HUGEPAGE, so that where transparent huge pages are enabled (always, or
// on request as most distributions set it) the kernel backs them with 2 MiB pages: one fault per 512 small ones.
// Outside a scope (a live session, whose columns grow a batch at a time on the window's thread) the pages stay small:
// there a 2 MiB page zeroed at its first touch is a stall of the window, a dozen columns crossing into new pages at
// once one of 60 ms. Smaller allocations, and systems without huge pages, are unchanged.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#include <sys/mman.h>

namespace asyncscope {

inline constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;

namespace detail {
inline thread_local bool tHugePages = false;
}

// While one lives, this thread's big allocations ask for huge pages.
class HugePageScope {
public:
    HugePageScope()
        : m_before(detail::tHugePages)
    {
        detail::tHugePages = true;
    }
    ~HugePageScope() { detail::tHugePages = m_before; }
    HugePageScope(const HugePageScope&) = delete;
    HugePageScope& operator=(const HugePageScope&) = delete;

private:
    bool m_before;
};

template <class T>
struct HugePageAllocator {
    using value_type = T;

    HugePageAllocator() = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept
    {
    }

    T* allocate(std::size_t n)
    {
        if (n > std::size_t(-1) / sizeof(T))
            throw std::bad_array_new_length();
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugePageBytes)
            return static_cast<T*>(::operator new(bytes));
        const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
        void* p = std::aligned_alloc(kHugePageBytes, rounded);
        if (!p)
            throw std::bad_alloc();
        if (detail::tHugePages)
            static_cast<void>(madvise(p, rounded, MADV_HUGEPAGE));  // a hint: refused, the pages are small ones
        return static_cast<T*>(p);
    }

    void deallocate(T* p, std::size_t n) noexcept
    {
        if (n * sizeof(T) < kHugePageBytes)
            ::operator delete(p);
        else
            std::free(p);
    }

    template <class U>
    bool operator==(const HugePageAllocator<U>&) const noexcept
    {
        return true;
    }
    template <class U>
    bool operator!=(const HugePageAllocator<U>&) const noexcept
    {
        return false;
    }
};

template <class T>
using BigVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace asyncscope
