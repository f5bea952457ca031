// What the recorder's injection library asks CUPTI for (engine/inject): the activity kinds, the buffers CUPTI fills
// and how often it hands them over. Shared with the bare CUPTI library that measures what CUPTI alone costs a program
// (tests/bench/cupti_floor.cpp), so that the floor enables exactly what the recorder does.
#pragma once

#include <cupti.h>

#include <cstddef>
#include <cstdint>

namespace asyncscope::inject {

// The driver's calls beside the runtime's: those of a program that calls the driver itself, and those within each
// runtime call (the recorder folds them into it). MEMCPY2: copies between devices.
inline constexpr CUpti_ActivityKind kRecordedKinds[] = { CUPTI_ACTIVITY_KIND_DEVICE, CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMCPY2, CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER,
    CUPTI_ACTIVITY_KIND_MARKER, CUPTI_ACTIVITY_KIND_CUDA_EVENT, CUPTI_ACTIVITY_KIND_STREAM };

inline constexpr std::size_t kBufferBytes = std::size_t(4) << 20;
inline constexpr std::size_t kAlignment = 8;
// CUPTI hands its buffers over at least this often: a program that is killed loses no more.
inline constexpr std::uint32_t kFlushPeriodMs = 100;

}  // namespace asyncscope::inject
