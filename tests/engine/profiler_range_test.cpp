// The profiler range around a run, with start and stop calls that count: every way out of the scope stops a range
// that started, exactly once, and a range that did not start is never stopped.
#include "engine/run/profiler_range.hpp"

#include <gtest/gtest.h>

#include <utility>

using namespace asyncscope;

namespace {

struct Counts {
    int starts = 0;
    int stops = 0;
    bool failStart = false;
    bool failStop = false;

    ProfilerRange::Call start()
    {
        return [this]() -> Status {
            ++starts;
            if (failStart)
                return makeError(ErrorKind::Cuda, "start refused");
            return std::nullopt;
        };
    }
    ProfilerRange::Call stop()
    {
        return [this]() -> Status {
            ++stops;
            if (failStop)
                return makeError(ErrorKind::Cuda, "stop refused");
            return std::nullopt;
        };
    }
};

// A step as the pipeline runs one: a range, then work that may fail half-way and return early.
Status step(Counts& counts, bool wanted, bool failHalfWay)
{
    auto range = ProfilerRange::open(wanted, counts.start(), counts.stop());
    if (!range)
        return range.error();
    if (failHalfWay)
        return makeError(ErrorKind::Cuda, "a call failed inside the range");
    return range->close();
}

}  // namespace

TEST(ProfilerRange, AnErrorInsideTheRangeStillStopsIt)
{
    Counts counts;
    const Status failed = step(counts, true, true);
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->detail, "a call failed inside the range");
    EXPECT_EQ(counts.starts, 1);
    EXPECT_EQ(counts.stops, 1);
}

TEST(ProfilerRange, TheNormalWayOutStopsItOnceAndReportsTheStop)
{
    Counts counts;
    EXPECT_FALSE(step(counts, true, false));
    EXPECT_EQ(counts.starts, 1);
    EXPECT_EQ(counts.stops, 1);

    counts.failStop = true;
    const Status failed = step(counts, true, false);
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->detail, "stop refused");
    EXPECT_EQ(counts.stops, 2);  // once per step: the destructor does not stop a closed range again
}

TEST(ProfilerRange, NotWantedCallsNothing)
{
    Counts counts;
    EXPECT_FALSE(step(counts, false, false));
    EXPECT_TRUE(step(counts, false, true));
    EXPECT_EQ(counts.starts, 0);
    EXPECT_EQ(counts.stops, 0);
}

TEST(ProfilerRange, AStartThatFailsLeavesNothingToStop)
{
    Counts counts;
    counts.failStart = true;
    const Status failed = step(counts, true, false);
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->detail, "start refused");
    EXPECT_EQ(counts.starts, 1);
    EXPECT_EQ(counts.stops, 0);
}

TEST(ProfilerRange, AMovedRangeIsStoppedByItsNewOwnerOnly)
{
    Counts counts;
    {
        auto opened = ProfilerRange::open(true, counts.start(), counts.stop());
        ASSERT_TRUE(opened.ok());
        ProfilerRange owner = std::move(*opened);
        EXPECT_TRUE(owner.isOpen());
        EXPECT_FALSE(opened->isOpen());
        ProfilerRange other = std::move(owner);
        EXPECT_TRUE(other.isOpen());
    }
    EXPECT_EQ(counts.stops, 1);
}

TEST(ProfilerRange, ClosingTwiceStopsOnce)
{
    Counts counts;
    auto range = ProfilerRange::open(true, counts.start(), counts.stop());
    ASSERT_TRUE(range.ok());
    EXPECT_FALSE(range->close());
    EXPECT_FALSE(range->isOpen());
    EXPECT_FALSE(range->close());
    EXPECT_EQ(counts.stops, 1);
}

TEST(ProfilerRange, MissingCallsAreAUsageError)
{
    Counts counts;
    auto range = ProfilerRange::open(true, counts.start(), {});
    ASSERT_FALSE(range.ok());
    EXPECT_EQ(range.error().kind, ErrorKind::Usage);
    EXPECT_EQ(counts.starts, 0);
}
