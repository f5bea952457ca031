#include "engine/model/device.hpp"

#include <gtest/gtest.h>

using namespace asyncscope;

namespace {

DeviceInfo device(int index, int major, int minor, int sms, int clockMHz, bool prohibited = false)
{
    DeviceInfo d;
    d.index = index;
    d.name = "GPU " + std::to_string(index);
    d.computeMajor = major;
    d.computeMinor = minor;
    d.multiprocessors = sms;
    d.clockKHz = clockMHz * 1000;
    d.computeProhibited = prohibited;
    d.totalMemoryBytes = std::size_t(16) << 30;
    return d;
}

}  // namespace

TEST(DeviceChoice, PicksHighestPeakThroughput)
{
    // sm 8.0 has 64 cores/SM, sm 8.6 has 128: 84 SMs of 8.6 beat 108 SMs of 8.0 at similar clocks.
    const std::vector<DeviceInfo> devices { device(0, 8, 0, 108, 1410), device(1, 8, 6, 84, 1695), device(2, 7, 5, 40, 1590) };
    EXPECT_EQ(chooseDefaultDevice(devices), 1);
}

TEST(DeviceChoice, ClockBreaksEqualSmCounts)
{
    const std::vector<DeviceInfo> devices { device(0, 9, 0, 132, 1755), device(1, 9, 0, 132, 1980) };
    EXPECT_EQ(chooseDefaultDevice(devices), 1);
}

TEST(DeviceChoice, SkipsProhibitedDevices)
{
    const std::vector<DeviceInfo> devices { device(0, 9, 0, 132, 1980, true), device(1, 7, 5, 40, 1590) };
    EXPECT_EQ(chooseDefaultDevice(devices), 1);
}

TEST(DeviceChoice, LowestIndexWinsATie)
{
    const std::vector<DeviceInfo> devices { device(0, 9, 0, 132, 1980), device(1, 9, 0, 132, 1980) };
    EXPECT_EQ(chooseDefaultDevice(devices), 0);
}

TEST(DeviceChoice, NothingToChooseFrom)
{
    EXPECT_FALSE(chooseDefaultDevice({}).has_value());
    EXPECT_FALSE(chooseDefaultDevice({ device(0, 9, 0, 132, 1980, true) }).has_value());
}

TEST(DeviceChoice, CoresPerMultiprocessor)
{
    EXPECT_EQ(coresPerMultiprocessor(7, 5), 64);
    EXPECT_EQ(coresPerMultiprocessor(8, 0), 64);
    EXPECT_EQ(coresPerMultiprocessor(8, 6), 128);
    EXPECT_EQ(coresPerMultiprocessor(8, 9), 128);
    EXPECT_EQ(coresPerMultiprocessor(9, 0), 128);
    EXPECT_EQ(coresPerMultiprocessor(12, 0), 128);
}

TEST(DeviceChoice, FindDeviceListsWhatThereIs)
{
    Platform platform;
    platform.devices = { device(0, 9, 0, 132, 1980) };
    ASSERT_TRUE(findDevice(platform, 0).ok());
    const auto missing = findDevice(platform, 99);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().kind, ErrorKind::Usage);
    EXPECT_NE(missing.error().message().find("no CUDA device 99"), std::string::npos);
    EXPECT_NE(missing.error().message().find("0: GPU 0"), std::string::npos);
}

TEST(DeviceInfo, Summary)
{
    EXPECT_EQ(device(3, 9, 0, 132, 1980).summary(), "3: GPU 3 (sm 9.0, 132 SMs, 16.0 GiB)");
}
