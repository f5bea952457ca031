#include "engine/host_check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using namespace asyncscope;

namespace {

bool allZero(const std::vector<int>& data)
{
    return std::all_of(data.begin(), data.end(), [](int v) { return v == 0; });
}

}  // namespace

TEST(HostCheck, AllRightLeavesTheBufferZeroed)
{
    for (const std::size_t n : { std::size_t(1), std::size_t(4097), std::size_t(3) << 20 }) {
        std::vector<int> data(n, 26);
        const CheckResult r = checkAndClear(data.data(), n, 26);
        EXPECT_EQ(r.firstWrongIndex, -1) << n;
        EXPECT_TRUE(allZero(data)) << n;
    }
}

TEST(HostCheck, ReportsTheFirstWrongElementAndItsValueAndStillZeroesAll)
{
    const std::size_t n = 3 * 4096 + 5;
    for (const std::size_t at : { std::size_t(0), std::size_t(4095), std::size_t(4096), n / 2, n - 1 }) {
        std::vector<int> data(n, 26);
        if (at != n - 1)
            data[n - 1] = 99;  // a later wrong element must not win
        data[at] = -7;
        const CheckResult r = checkAndClear(data.data(), n, 26);
        EXPECT_EQ(r.firstWrongIndex, static_cast<std::int64_t>(at));
        EXPECT_EQ(r.firstWrongValue, -7);
        EXPECT_TRUE(allZero(data)) << at;
    }
}

TEST(HostCheck, HandlesUnalignedStartsAndTails)
{
    std::vector<int> data(4096 + 7, 5);
    for (const std::size_t offset : { 0u, 1u, 2u, 3u }) {
        std::fill(data.begin(), data.end(), 5);
        const CheckResult r = checkAndClear(data.data() + offset, 4096 + 3, 5);  // misaligned start, odd tail
        EXPECT_EQ(r.firstWrongIndex, -1);
        for (std::size_t i = 0; i < data.size(); ++i) {
            const bool inside = i >= offset && i < offset + 4096 + 3;
            ASSERT_EQ(data[i], inside ? 0 : 5) << "offset " << offset << " index " << i;
        }
    }
}

class HostCheckerThreads : public ::testing::TestWithParam<std::size_t> { };

// Buffers large enough to be split across every thread; the lowest wrong index wins whichever thread finds it.
TEST_P(HostCheckerThreads, FindsTheLowestWrongElementAcrossRanges)
{
    HostChecker checker(GetParam());
    EXPECT_EQ(checker.threadCount(), GetParam());
    const std::size_t n = (std::size_t(40) << 20) + 5;
    std::vector<int> data(n, 26);
    checker.start(data.data(), n, 26);
    EXPECT_EQ(checker.finish().firstWrongIndex, -1);
    EXPECT_TRUE(allZero(data));

    for (const std::size_t at : { std::size_t(0), n / 3, n - 1 }) {
        std::fill(data.begin(), data.end(), 26);
        data[n - 1] = 1;
        data[at] = 255;
        checker.start(data.data(), n, 26);
        const CheckResult r = checker.finish();
        EXPECT_EQ(r.firstWrongIndex, static_cast<std::int64_t>(at));
        EXPECT_EQ(r.firstWrongValue, 255);
        EXPECT_TRUE(allZero(data));
    }
}

INSTANTIATE_TEST_SUITE_P(Counts, HostCheckerThreads, ::testing::Values(std::size_t(1), std::size_t(3), std::size_t(8)));

TEST(HostChecker, RunsWhileTheCallerWorksAndTakesManyJobs)
{
    HostChecker checker;
    EXPECT_GE(checker.threadCount(), 1u);
    std::vector<int> a(std::size_t(5) << 20, 26), b(std::size_t(5) << 20, 0);
    for (int round = 0; round < 50; ++round) {  // the two buffers take turns, as in a series
        std::vector<int>& checked = round % 2 ? b : a;
        std::vector<int>& used = round % 2 ? a : b;
        checker.start(checked.data(), checked.size(), 26);
        std::fill(used.begin(), used.end(), 26);  // the caller's own work meanwhile
        const CheckResult r = checker.finish();
        ASSERT_EQ(r.firstWrongIndex, -1) << "round " << round;
        ASSERT_TRUE(allZero(checked)) << "round " << round;
    }
}

TEST(HostChecker, FinishWithoutAJobAndDestroyingWithAJobRunningAreSafe)
{
    std::vector<int> data(std::size_t(20) << 20, 3);
    {
        HostChecker checker(2);
        EXPECT_EQ(checker.finish().firstWrongIndex, -1);
        checker.start(data.data(), data.size(), 3);
    }  // the destructor waits for the job: the buffer is not used after this
    EXPECT_TRUE(allZero(data));
}
