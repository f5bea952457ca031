// The one matcher of CUPTI records to the calls that issued them, as the built-in pipeline's trace and a recorded
// program's iterations take it: ids per process, a driver call's records as its runtime call's, the first issuer of
// an id standing, and no issuer for an id no call entered.
#include "engine/model/correlation_matcher.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace asyncscope;

TEST(CorrelationMatcher, FindsARecordsCallByItsProcessAndId)
{
    CorrelationMatcher<std::string> calls;
    calls.issued(100, 7, "cudaMemcpyAsync in 100");
    calls.issued(200, 7, "cudaLaunchKernel in 200");
    ASSERT_NE(calls.issuerOf(100, 7), nullptr);
    EXPECT_EQ(*calls.issuerOf(100, 7), "cudaMemcpyAsync in 100");
    ASSERT_NE(calls.issuerOf(200, 7), nullptr);
    EXPECT_EQ(*calls.issuerOf(200, 7), "cudaLaunchKernel in 200");
    EXPECT_EQ(calls.issuerOf(300, 7), nullptr);  // another process's id 7: no call entered made it
    EXPECT_EQ(calls.issuerOf(100, 8), nullptr);
}

TEST(CorrelationMatcher, GivesADriverCallsRecordsToTheRuntimeCallItWasMadeIn)
{
    CorrelationMatcher<std::string> calls;
    calls.within(100, 41, 40);  // cuLaunchKernel (41) inside cudaLaunchKernel (40)
    calls.within(100, 42, 42);  // a call within itself changes nothing
    calls.issued(100, 40, "cudaLaunchKernel");
    EXPECT_EQ(calls.resolved(100, 41), 40u);
    EXPECT_EQ(calls.resolved(100, 42), 42u);
    EXPECT_EQ(calls.resolved(200, 41), 41u);  // only in the process it was made in
    ASSERT_NE(calls.issuerOf(100, 41), nullptr);
    EXPECT_EQ(*calls.issuerOf(100, 41), "cudaLaunchKernel");
    EXPECT_EQ(calls.issuerOf(200, 41), nullptr);
}

TEST(CorrelationMatcher, KeepsTheFirstIssuerOfAnId)
{
    CorrelationMatcher<int> calls;
    calls.issued(1, 5, 10);
    calls.issued(1, 5, 20);
    ASSERT_NE(calls.issuerOf(1, 5), nullptr);
    EXPECT_EQ(*calls.issuerOf(1, 5), 10);
}
