// Which CUPTI library the engine looks for: the one whose soname matches the CUDA runtime of the build, in the
// places a toolkit or the portable bundle put it, or the one path the user chose.
#include "engine/model/cupti_library.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace asyncscope;

TEST(CuptiLibrary, SonameFollowsTheRuntimesMajorVersion)
{
    EXPECT_EQ(cuptiSoname(12000), "libcupti.so.12");
    EXPECT_EQ(cuptiSoname(12080), "libcupti.so.12");
    EXPECT_EQ(cuptiSoname(13000), "libcupti.so.13");
    EXPECT_EQ(cuptiSoname(13020), "libcupti.so.13");
    EXPECT_EQ(cuptiSoname(), cuptiSoname(kBuiltCudaRuntime));
    EXPECT_EQ(cuptiSoname(), "libcupti.so." + std::to_string(kBuiltCudaRuntime / 1000));
}

TEST(CuptiLibrary, EveryCandidateOfACuda12BuildIsCupti12)
{
    CuptiSearch search;
    search.cudartVersion = 12040;
    search.executableDir = "/opt/asyncscope/bin";
    search.toolkitRoots = { "/usr/local/cuda-12.4" };
    const auto paths = cuptiCandidates(search);
    ASSERT_FALSE(paths.empty());
    EXPECT_EQ(paths.front(), "libcupti.so.12");  // the loader's own search first
    for (const std::string& path : paths)
        EXPECT_EQ(path.substr(path.size() - 14), "libcupti.so.12") << path;
    EXPECT_NE(std::find(paths.begin(), paths.end(), "/usr/local/cuda-12.4/extras/CUPTI/lib64/libcupti.so.12"),
        paths.end());
}

TEST(CuptiLibrary, BundleFoldersBesideAndAboveTheExecutableThenEachToolkitRoot)
{
    CuptiSearch search;
    search.cudartVersion = 13000;
    search.executableDir = "/opt/asyncscope/bin";
    search.toolkitRoots = { "/home/me/cuda", "", "/usr/local/cuda" };
    const std::vector<std::string> expected { "libcupti.so.13", "/opt/asyncscope/bin/lib/libcupti.so.13",
        "/opt/asyncscope/lib/libcupti.so.13", "/home/me/cuda/extras/CUPTI/lib64/libcupti.so.13",
        "/home/me/cuda/lib64/libcupti.so.13", "/home/me/cuda/lib/libcupti.so.13",
        "/home/me/cuda/targets/x86_64-linux/lib/libcupti.so.13", "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13",
        "/usr/local/cuda/lib64/libcupti.so.13", "/usr/local/cuda/lib/libcupti.so.13",
        "/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so.13" };
    EXPECT_EQ(cuptiCandidates(search), expected);
}

TEST(CuptiLibrary, AChosenPathIsTheOnlyCandidate)
{
    CuptiSearch search;
    search.chosen = "/somewhere/libcupti.so.2025.1";
    search.executableDir = "/opt/asyncscope/bin";
    search.toolkitRoots = { "/usr/local/cuda" };
    EXPECT_EQ(cuptiCandidates(search), std::vector<std::string> { "/somewhere/libcupti.so.2025.1" });
}

TEST(CuptiLibrary, WithoutExecutableOrRootsOnlyTheLoadersSearch)
{
    CuptiSearch search;
    search.cudartVersion = 13010;
    EXPECT_EQ(cuptiCandidates(search), std::vector<std::string> { "libcupti.so.13" });
}
