// What every GPU test starts from: this machine's platform and its default device, or the test skipped with the
// engine's reason when no GPU answers (a machine without one reports the GPU tests as skipped, not failed).
#pragma once

#include "engine/cuda/cuda_backend.hpp"

#include <gtest/gtest.h>

namespace asyncscope::testing {

class GpuFixture : public ::testing::Test {
protected:
    void SetUp() override
    {
        auto discovered = discoverPlatform();
        if (!discovered)
            GTEST_SKIP() << "no GPU: " << discovered.error().message();
        platform = *discovered;
        device = *chooseDefaultDevice(platform.devices);
    }

    Platform platform;
    int device = 0;
};

// The same for a test with parameters.
template <class Param>
class GpuParamFixture : public GpuFixture, public ::testing::WithParamInterface<Param> { };

}  // namespace asyncscope::testing
