#include "engine/model/cuda_versions.hpp"

#include <gtest/gtest.h>

using namespace asyncscope;

TEST(ErrorMapping, InsufficientDriverWithNoDriverIsNoDriver)
{
    const Error e = classifyCudaError("cudaGetDeviceCount(&count)", 35, "cudaErrorInsufficientDriver",
        "CUDA driver version is insufficient for CUDA runtime version", { 0, 13000 });
    EXPECT_EQ(e.kind, ErrorKind::NoDriver);
    EXPECT_EQ(e.api, "cudaGetDeviceCount");
    EXPECT_NE(e.advice.find("install the NVIDIA driver"), std::string::npos);
    EXPECT_NE(e.advice.find("13.0"), std::string::npos);
    // A driver version, not a CUDA version, is what a driver is installed by.
    EXPECT_NE(e.advice.find("version 580 or newer (for CUDA 13.0)"), std::string::npos) << e.advice;
}

TEST(ErrorMapping, PlainSentencesForTheStatesWithoutAGpu)
{
    const std::string noDriver = plainSentence(makeError(ErrorKind::NoDriver, "insufficient"));
    EXPECT_EQ(noDriver.rfind("This computer has no NVIDIA driver", 0), 0u) << noDriver;
    EXPECT_NE(noDriver.find("580 or newer"), std::string::npos) << noDriver;
    for (const char* technical : { "cuda", "insufficient", "35" })
        EXPECT_EQ(noDriver.find(technical), std::string::npos) << technical << " in: " << noDriver;
    EXPECT_NE(plainSentence(makeError(ErrorKind::DriverTooOld, "x")).find("too old"), std::string::npos);
    EXPECT_NE(plainSentence(makeError(ErrorKind::NoDevice, "x")).find("sees no GPU"), std::string::npos);
    EXPECT_EQ(minimumDriver(12040), "version 525 or newer (for CUDA 12.4)");
}

TEST(ErrorMapping, InsufficientDriverWithOldDriverIsDriverTooOld)
{
    const Error e = classifyCudaError("cudaGetDeviceCount", 35, "cudaErrorInsufficientDriver", "insufficient",
        { 12040, 13000 });
    EXPECT_EQ(e.kind, ErrorKind::DriverTooOld);
    EXPECT_NE(e.advice.find("12.4"), std::string::npos);
    EXPECT_NE(e.advice.find("update the NVIDIA driver"), std::string::npos);
}

TEST(ErrorMapping, KindsByCode)
{
    const CudaVersions v { 13000, 13000 };
    EXPECT_EQ(classifyCudaError("x", 100, "cudaErrorNoDevice", "", v).kind, ErrorKind::NoDevice);
    EXPECT_EQ(classifyCudaError("x", 101, "cudaErrorInvalidDevice", "", v).kind, ErrorKind::Usage);
    EXPECT_EQ(classifyCudaError("x", 2, "cudaErrorMemoryAllocation", "", v).kind, ErrorKind::OutOfMemory);
    EXPECT_EQ(classifyCudaError("x", 700, "cudaErrorIllegalAddress", "", v).kind, ErrorKind::Cuda);
}

TEST(ErrorMapping, MessageIsOneReadableLine)
{
    const Error e = classifyCudaError("cudaMalloc(&p, bytes)", 2, "cudaErrorMemoryAllocation", "out of memory",
        { 13000, 13000 });
    EXPECT_EQ(e.message(),
        "cudaMalloc failed: out of memory (cudaErrorMemoryAllocation, 2). Choose a smaller size or free memory used "
        "by other programs.");
    EXPECT_EQ(e.message().find('\n'), std::string::npos);
}

TEST(ErrorMapping, VersionsFormat)
{
    EXPECT_EQ(formatCudaVersion(13000), "13.0");
    EXPECT_EQ(formatCudaVersion(12040), "12.4");
    EXPECT_EQ(formatCudaVersion(0), "none");
}
