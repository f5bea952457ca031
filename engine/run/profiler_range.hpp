// A profiler range (cudaProfilerStart/Stop around a run, for Nsight) that is stopped on every way out of the scope
// that started it: an error or a cancellation half-way through a run cannot leave the profiler recording. The calls
// that start and stop it are handed in, so the range's rules hold, and are tested, without the CUDA runtime.
#pragma once

#include "engine/model/error.hpp"

#include <functional>

namespace asyncscope {

class ProfilerRange {
public:
    using Call = std::function<Status()>;

    // Starts a range with `start` when `wanted` (otherwise the range is empty and calls nothing); `stop` will end it.
    // When `start` fails its error comes back and nothing is left to stop.
    static Result<ProfilerRange> open(bool wanted, Call start, Call stop);

    // Stops the range now and says how that went. Afterwards the range is closed: later calls return no error and
    // call nothing.
    Status close();

    bool isOpen() const { return static_cast<bool>(m_stop); }

    // Stops a range still open. Its error is dropped: the scope is already on its way out, with an error of its own.
    ~ProfilerRange();

    ProfilerRange(ProfilerRange&& other) noexcept;
    ProfilerRange& operator=(ProfilerRange&& other) noexcept;
    ProfilerRange(const ProfilerRange&) = delete;
    ProfilerRange& operator=(const ProfilerRange&) = delete;

private:
    explicit ProfilerRange(Call stop);
    Call m_stop;  // empty once stopped, or when no range was started
};

}  // namespace asyncscope
