#include "engine/run/profiler_range.hpp"

#include <utility>

namespace asyncscope {

Result<ProfilerRange> ProfilerRange::open(bool wanted, Call start, Call stop)
{
    if (!wanted)
        return ProfilerRange(Call {});
    if (!start || !stop)
        return makeError(ErrorKind::Usage, "a profiler range needs both a start and a stop call");
    if (Status failed = start())
        return *failed;
    return ProfilerRange(std::move(stop));
}

ProfilerRange::ProfilerRange(Call stop)
    : m_stop(std::move(stop))
{
}

Status ProfilerRange::close()
{
    if (!m_stop)
        return std::nullopt;
    const Call stop = std::exchange(m_stop, Call {});
    return stop();
}

ProfilerRange::~ProfilerRange()
{
    static_cast<void>(close());
}

ProfilerRange::ProfilerRange(ProfilerRange&& other) noexcept
    : m_stop(std::exchange(other.m_stop, Call {}))
{
}

ProfilerRange& ProfilerRange::operator=(ProfilerRange&& other) noexcept
{
    if (this != &other) {
        static_cast<void>(close());
        m_stop = std::exchange(other.m_stop, Call {});
    }
    return *this;
}

}  // namespace asyncscope
