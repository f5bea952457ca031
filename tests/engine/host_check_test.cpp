#include "engine/model/increment.hpp"
#include "engine/run/host_check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <vector>

using namespace asyncscope;

TEST(HostCheck, AllRightIsNoMismatch)
{
    for (const std::size_t n : { std::size_t(1), std::size_t(4097), std::size_t(3) << 20 }) {
        const std::vector<int> data(n, 26);
        EXPECT_EQ(checkElements(data.data(), n, 26).firstWrongIndex, -1) << n;
    }
}

TEST(HostCheck, ReportsTheFirstWrongElementAndItsValue)
{
    const std::size_t n = 3 * 4096 + 5;
    for (const std::size_t at : { std::size_t(0), std::size_t(4095), std::size_t(4096), n / 2, n - 1 }) {
        std::vector<int> data(n, 26);
        if (at != n - 1)
            data[n - 1] = 99;  // a later wrong element must not win
        data[at] = -7;
        const CheckResult r = checkElements(data.data(), n, 26);
        EXPECT_EQ(r.firstWrongIndex, static_cast<std::int64_t>(at));
        EXPECT_EQ(r.firstWrongValue, -7);
    }
}

TEST(HostCheck, HandlesUnalignedStartsAndTails)
{
    std::vector<int> data(4096 + 7, 5);
    for (const std::size_t offset : { 0u, 1u, 2u, 3u }) {
        data.assign(data.size(), 5);
        data[offset + 4096 + 3] = 0;  // just past the checked range: not looked at
        EXPECT_EQ(checkElements(data.data() + offset, 4096 + 3, 5).firstWrongIndex, -1) << offset;
        data[offset + 4096 + 2] = 0;  // the last checked element
        EXPECT_EQ(checkElements(data.data() + offset, 4096 + 3, 5).firstWrongIndex, 4096 + 2) << offset;
    }
}

TEST(HostCheck, IncrementWrapsAt32Bits)
{
    EXPECT_EQ(incremented(0, 26), 26);
    EXPECT_EQ(incremented(-3, 1), -2);
    EXPECT_EQ(incremented(INT_MAX, 1), INT_MIN);
    EXPECT_EQ(incremented(INT_MAX, INT_MAX), -2);
    EXPECT_EQ(incremented(INT_MIN, -1), INT_MAX);
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

    data[n - 1] = 1;
    for (const std::size_t at : { std::size_t(0), n / 3, n - 1 }) {
        data[at] = 255;
        checker.start(data.data(), n, 26);
        const CheckResult r = checker.finish();
        EXPECT_EQ(r.firstWrongIndex, static_cast<std::int64_t>(at));
        EXPECT_EQ(r.firstWrongValue, 255);
        data[at] = 26;
        data[n - 1] = 1;
    }
}

INSTANTIATE_TEST_SUITE_P(Counts, HostCheckerThreads, ::testing::Values(std::size_t(1), std::size_t(3), std::size_t(8)));

TEST(HostChecker, RunsWhileTheCallerWorksAndTakesManyJobs)
{
    HostChecker checker;
    EXPECT_GE(checker.threadCount(), 1u);
    std::vector<int> a(std::size_t(5) << 20, 0), b(std::size_t(5) << 20, 0);
    int heldA = 0, heldB = 0;
    for (int round = 0; round < 50; ++round) {  // the two buffers take turns, as in a series
        std::vector<int>& checked = round % 2 ? b : a;
        int& held = round % 2 ? heldB : heldA;
        std::vector<int>& other = round % 2 ? a : b;
        const int expected = incremented(held, 26);
        std::transform(checked.begin(), checked.end(), checked.begin(), [](int v) { return incremented(v, 26); });
        if (round == 31)
            checked[12345] = 0;
        checker.start(checked.data(), checked.size(), expected);
        std::fill(other.begin(), other.end(), other.front());  // the caller's own work on the other buffer meanwhile
        const CheckResult r = checker.finish();
        ASSERT_EQ(r.firstWrongIndex, round == 31 ? 12345 : -1) << "round " << round;
        if (round == 31)
            checked[12345] = expected;
        held = expected;
    }
}

TEST(HostChecker, FinishWithoutAJobReportsNothing)
{
    HostChecker idle(2);
    EXPECT_EQ(idle.finish().firstWrongIndex, -1);
}

// The destructor waits for a running job: the buffer, freed right after the checker, is never read afterwards
// (AddressSanitizer, in the dev-asan preset, reports it if it is).
TEST(HostChecker, DestroyingWithAJobRunningWaitsForIt)
{
    for (int i = 0; i < 20; ++i) {
        auto data = std::make_unique<std::vector<int>>(std::size_t(20) << 20, 3);
        HostChecker busy(2);
        busy.start(data->data(), data->size(), 3);
        EXPECT_EQ(busy.threadCount(), 2u);
    }
}
