// The cudaMemcpyBatchAsync wrapper without a GPU: what a runtime or driver without the call is told as, the copies a
// batch holds, and a session asked for batches on a machine without a driver.
#include "engine/cuda/memcpy_batch.hpp"
#include "engine/cuda/pipeline.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

using namespace asyncscope;

TEST(MemcpyBatch, AnOldRuntimeIsUnsupportedNamingItsVersionAndTheOneNeeded)
{
    const Error e = batchUnavailable(12060);
    EXPECT_EQ(e.kind, ErrorKind::Unsupported);
    EXPECT_NE(e.message().find("batch submission is not available with CUDA runtime 12.6 (cudaMemcpyBatchAsync "
                               "needs 12.8)"),
        std::string::npos)
        << e.message();
    EXPECT_FALSE(e.advice.empty());
}

TEST(MemcpyBatch, ADriverWithoutTheCallIsUnsupportedWithItsAnswer)
{
    for (cudaError_t status : { cudaErrorNotSupported, cudaErrorCallRequiresNewerDriver }) {
        const Error e = memcpyBatchFailure(status);
        EXPECT_EQ(e.kind, ErrorKind::Unsupported) << e.message();
        EXPECT_EQ(e.code, static_cast<int>(status));
        EXPECT_EQ(e.codeName, cudaGetErrorName(status));
        EXPECT_NE(e.message().find("batch submission is not available with CUDA runtime"), std::string::npos)
            << e.message();
        EXPECT_NE(e.message().find("answered cudaMemcpyBatchAsync with"), std::string::npos) << e.message();
        int driver = 0;
        if (cudaDriverGetVersion(&driver) == cudaSuccess && driver != 0) {  // without one, init's failure stays
            EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);  // reported now, not left for the next launch check
        }
    }
}

TEST(MemcpyBatch, OtherFailuresAreTheUsualCudaErrors)
{
    const Error e = memcpyBatchFailure(cudaErrorInvalidValue);
    EXPECT_NE(e.kind, ErrorKind::Unsupported);
    EXPECT_EQ(e.api, "cudaMemcpyBatchAsync");
    EXPECT_EQ(e.codeName, "cudaErrorInvalidValue");
}

TEST(MemcpyBatch, ThisBuildHasTheCallWhereItsRuntimeDoes)
{
    const Status built = memcpyBatchBuilt();
    if (CUDART_VERSION >= kMemcpyBatchRuntime) {
        EXPECT_FALSE(built.has_value());
    } else {
        ASSERT_TRUE(built.has_value());
        EXPECT_EQ(built->kind, ErrorKind::Unsupported);
    }
}

TEST(MemcpyBatch, HoldsItsCopiesAndAnEmptyBatchEnqueuesNothing)
{
    MemcpyBatch batch(true);
    EXPECT_EQ(batch.size(), 0u);
    EXPECT_FALSE(batch.submit(nullptr).has_value());  // no call made at all, so no driver needed
    int a[4] = {}, b[4] = {};
    batch.add(a, b, sizeof a);
    batch.add(b + 1, a + 1, 3 * sizeof(int));
    EXPECT_EQ(batch.size(), 2u);
    EXPECT_EQ(batch.bytes(), sizeof a + 3 * sizeof(int));
    for (cudaStream_t legacy : { cudaStream_t(nullptr), cudaStreamLegacy }) {  // refused before any call
        const Status refused = batch.submit(legacy);
        ASSERT_TRUE(refused.has_value());
        EXPECT_EQ(refused->kind, ErrorKind::Usage);
        EXPECT_NE(refused->message().find("legacy default stream"), std::string::npos) << refused->message();
    }
}

TEST(MemcpyBatch, ASessionForBatchesWithoutADriverSaysThereIsNoDriver)
{
    int driver = 0;
    if (cudaDriverGetVersion(&driver) == cudaSuccess && driver != 0)
        GTEST_SKIP() << "a CUDA driver is installed here (" << driver << ")";
    PipelineConfig config;
    config.submission = Submission::Batch;
    config.chunks = 7;
    config.streams = 3;
    const auto session = PipelineSession::open(config);
    ASSERT_FALSE(session.ok());
    EXPECT_EQ(session.error().kind, ErrorKind::NoDriver);
}
