#include "engine/host/host_memory.hpp"

#include <unistd.h>

#include <fstream>
#include <limits>
#include <string>

namespace asyncscope {

std::size_t availableHostMemory()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::size_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit) {
        if (key == "MemAvailable:")
            return kib * 1024;
    }
    const long pages = sysconf(_SC_AVPHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
        return static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageSize);
    return std::numeric_limits<std::size_t>::max();
}

}  // namespace asyncscope
