#include "engine/host_check.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace asyncscope;

TEST(HostCheck, ClearHostZeroesEverything)
{
    for (const std::size_t n : { std::size_t(1), std::size_t(4097), std::size_t(40) << 20 }) {  // up to the threaded path
        std::vector<int> data(n, 7);
        clearHost(data.data(), n);
        EXPECT_EQ(findFirstMismatch(data.data(), n, 0), -1) << n;
    }
}

TEST(HostCheck, FindsTheFirstWrongElementAnywhere)
{
    const std::size_t n = (std::size_t(40) << 20) + 5;  // large enough to be split across threads
    std::vector<int> data(n, 26);
    EXPECT_EQ(findFirstMismatch(data.data(), n, 26), -1);
    for (const std::size_t at : { std::size_t(0), std::size_t(4095), std::size_t(4096), n / 2, n - 1 }) {
        data[at] = 25;
        EXPECT_EQ(findFirstMismatch(data.data(), n, 26), static_cast<std::int64_t>(at)) << at;
        data[at] = 26;
    }
}

TEST(HostCheck, ReportsTheLowestOfSeveral)
{
    const std::size_t n = std::size_t(40) << 20;
    std::vector<int> data(n, 26);
    data[n - 3] = 0;
    data[n / 3] = -1;
    data[n / 5 * 4] = 255;
    EXPECT_EQ(findFirstMismatch(data.data(), n, 26), static_cast<std::int64_t>(n / 3));
}

TEST(HostCheck, ClearHostHandlesUnalignedStartsAndTails)
{
    std::vector<int> data(4096 + 7, 5);
    for (const std::size_t offset : { 0u, 1u, 2u, 3u }) {
        std::fill(data.begin(), data.end(), 5);
        clearHost(data.data() + offset, 4096 + 3);  // misaligned start, odd tail
        for (std::size_t i = 0; i < data.size(); ++i) {
            const bool inside = i >= offset && i < offset + 4096 + 3;
            ASSERT_EQ(data[i], inside ? 0 : 5) << "offset " << offset << " index " << i;
        }
    }
}
