// The copy-peak cache file without a GPU: written and read back, its folder from the environment, and hostile files
// (too large, not JSON, not an object, entries of other shapes, deep nesting) read as clear errors or skipped entries.
#include "engine/io/copy_peak_cache.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace asyncscope;

namespace {

std::filesystem::path freshDir(const std::string& name)
{
    const auto dir = std::filesystem::path(::testing::TempDir()) / ("asyncscope-peak-cache-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

std::string writeFile(const std::filesystem::path& dir, const std::string& text)
{
    const auto file = dir / kCopyPeakCacheFile;
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
}

constexpr const char* kGood =
    R"({"GPU-good": {"name": "H200", "pci_bus_id": "0000:19:00.0", "h2d_gbps": 54.9, "d2h_gbps": 55.1,
        "bidirectional_gbps": 99.7, "bytes": 268435456}})";

}  // namespace

TEST(CopyPeakCache, AGoodEntryReadsBackWithEveryFigure)
{
    const auto dir = freshDir("good");
    const auto cache = readCopyPeakCache(writeFile(dir, kGood));
    ASSERT_TRUE(cache.ok()) << cache.error().message();
    ASSERT_EQ(cache->entries.count({ "GPU-good", CopyPath::Pinned }), 1u);
    const CachedCopyPeak& entry = cache->entries.at({ "GPU-good", CopyPath::Pinned });
    EXPECT_EQ(entry.name, "H200");
    EXPECT_EQ(entry.pciBusId, "0000:19:00.0");
    EXPECT_DOUBLE_EQ(entry.peak.h2dGBps, 54.9);
    EXPECT_DOUBLE_EQ(entry.peak.d2hGBps, 55.1);
    EXPECT_DOUBLE_EQ(entry.peak.bidirectionalGBps, 99.7);
    EXPECT_EQ(entry.peak.bytes, std::size_t(256) << 20);
    EXPECT_TRUE(entry.peak.fromCache);
    EXPECT_TRUE(cache->skipped.empty());
}

TEST(CopyPeakCache, AMissingFileIsAnEmptyCache)
{
    const auto dir = freshDir("missing");
    const auto cache = readCopyPeakCache((dir / kCopyPeakCacheFile).string());
    ASSERT_TRUE(cache.ok()) << cache.error().message();
    EXPECT_TRUE(cache->entries.empty());
}

TEST(CopyPeakCache, WrittenEntriesReadBackAndTheFolderIsMade)
{
    const auto dir = freshDir("written");
    const std::string file = (dir / "deeper" / kCopyPeakCacheFile).string();
    CopyPeakCache cache;
    cache.entries[{ "GPU-a", CopyPath::Pinned }] = { "A100", "0000:01:00.0",
        { 24.5, 25.5, std::size_t(1) << 20, false, 49.0 } };
    cache.entries[{ "GPU-b", CopyPath::Pinned }] = { "H200", "0000:02:00.0",
        { 54.0, 55.0, std::size_t(256) << 20, false, 100.0 } };
    ASSERT_FALSE(writeCopyPeakCache(file, cache));
    EXPECT_FALSE(std::filesystem::exists(file + ".partial"));
    const auto back = readCopyPeakCache(file);
    ASSERT_TRUE(back.ok()) << back.error().message();
    ASSERT_EQ(back->entries.size(), 2u);
    EXPECT_EQ(back->entries.at({ "GPU-a", CopyPath::Pinned }).name, "A100");
    EXPECT_DOUBLE_EQ(back->entries.at({ "GPU-a", CopyPath::Pinned }).peak.bidirectionalGBps, 49.0);
    EXPECT_EQ(back->entries.at({ "GPU-b", CopyPath::Pinned }).peak.bytes, std::size_t(256) << 20);
    EXPECT_EQ(back->entries.at({ "GPU-b", CopyPath::Pinned }).pciBusId, "0000:02:00.0");
}

TEST(CopyPeakCache, EntriesOfAnotherShapeAreSkippedWithTheReason)
{
    const auto dir = freshDir("shapes");
    const std::string file = writeFile(dir, R"({"GPU-number": 5, "GPU-list": [1, 2],
        "GPU-text": {"h2d_gbps": "fast", "d2h_gbps": 1, "bidirectional_gbps": 1, "bytes": 1},
        "GPU-one-way-only": {"h2d_gbps": 54.9, "d2h_gbps": 55.1, "bytes": 268435456},
        "GPU-negative": {"h2d_gbps": -1, "d2h_gbps": 55.1, "bidirectional_gbps": 99.7, "bytes": 268435456},
        "GPU-zero-bytes": {"h2d_gbps": 1, "d2h_gbps": 1, "bidirectional_gbps": 1, "bytes": 0},
        "GPU-fraction-bytes": {"h2d_gbps": 1, "d2h_gbps": 1, "bidirectional_gbps": 1, "bytes": 2.5},
        "GPU-nested": {"h2d_gbps": {"deeper": [1, 2, 3]}, "d2h_gbps": 1, "bidirectional_gbps": 1, "bytes": 1},
        "GPU-good": {"h2d_gbps": 54.9, "d2h_gbps": 55.1, "bidirectional_gbps": 99.7, "bytes": 268435456}})");
    const auto cache = readCopyPeakCache(file);
    ASSERT_TRUE(cache.ok()) << cache.error().message();
    EXPECT_EQ(cache->entries.size(), 1u);
    EXPECT_EQ(cache->entries.count({ "GPU-good", CopyPath::Pinned }), 1u);
    ASSERT_EQ(cache->skipped.size(), 8u);
    auto reason = [&](const std::string& uuid) {
        for (const std::string& line : cache->skipped) {
            if (line.find("\"" + uuid + "\"") != std::string::npos)
                return line;
        }
        return std::string("no line for ") + uuid;
    };
    EXPECT_NE(reason("GPU-number").find("not an object but number"), std::string::npos) << reason("GPU-number");
    EXPECT_NE(reason("GPU-list").find("not an object but array"), std::string::npos);
    EXPECT_NE(reason("GPU-text").find("h2d_gbps is not a positive number"), std::string::npos);
    EXPECT_NE(reason("GPU-one-way-only").find("no bidirectional_gbps"), std::string::npos);
    EXPECT_NE(reason("GPU-negative").find("h2d_gbps"), std::string::npos);
    EXPECT_NE(reason("GPU-zero-bytes").find("bytes"), std::string::npos);
    EXPECT_NE(reason("GPU-fraction-bytes").find("bytes"), std::string::npos);
    EXPECT_NE(reason("GPU-nested").find("h2d_gbps"), std::string::npos);
    EXPECT_NE(reason("GPU-text").find(file), std::string::npos);  // each line names the file
}

TEST(CopyPeakCache, AFileThatIsNoCacheIsAClearErrorNamingIt)
{
    const auto dir = freshDir("hostile");
    auto failure = [&](const std::string& text) {
        const std::string file = writeFile(dir, text);
        const auto cache = readCopyPeakCache(file);
        EXPECT_FALSE(cache.ok()) << text.substr(0, 40);
        if (cache.ok())
            return std::string();
        EXPECT_EQ(cache.error().kind, ErrorKind::Io);
        EXPECT_NE(cache.error().message().find(file), std::string::npos) << cache.error().message();
        return cache.error().message();
    };
    EXPECT_NE(failure("{\"GPU-a\": {\"h2d_gbps\": 1,\n oops}}").find("line 2"), std::string::npos);
    EXPECT_NE(failure("").find("not JSON"), std::string::npos);
    EXPECT_NE(failure(R"({"GPU-a": {"h2d_gbps": 1e999}})").find("a number beyond a double's range"), std::string::npos);
    EXPECT_NE(failure(std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10)).find("not JSON"), std::string::npos);
    EXPECT_NE(failure("[1, 2, 3]").find("array"), std::string::npos);
    EXPECT_NE(failure("\"a string\"").find("string"), std::string::npos);
    EXPECT_NE(failure(std::string(kMaxCopyPeakCacheBytes + 1, ' ')).find("more than a cache's"), std::string::npos);

    const auto folder = dir / "a-folder";
    std::filesystem::create_directories(folder);
    const auto notAFile = readCopyPeakCache(folder.string());
    ASSERT_FALSE(notAFile.ok());
    EXPECT_NE(notAFile.error().message().find(folder.string() + " is a directory"), std::string::npos);
}

TEST(CopyPeakCache, DeepNestingWithinTheSizeBoundIsReadWithoutKeepingIt)
{
    // Half a megabyte of nested arrays inside one entry: read without recursion trouble, the entry skipped.
    const std::size_t depth = 200000;
    const std::string text = R"({"GPU-deep": {"h2d_gbps": )" + std::string(depth, '[') + std::string(depth, ']') +
        R"(, "d2h_gbps": 1, "bidirectional_gbps": 1, "bytes": 1}, "GPU-good": {"h2d_gbps": 2, "d2h_gbps": 3,
        "bidirectional_gbps": 4, "bytes": 5}})";
    ASSERT_LT(text.size(), kMaxCopyPeakCacheBytes);
    const auto cache = readCopyPeakCache(writeFile(freshDir("deep"), text));
    ASSERT_TRUE(cache.ok()) << cache.error().message();
    EXPECT_EQ(cache->entries.size(), 1u);
    EXPECT_DOUBLE_EQ(cache->entries.at({ "GPU-good", CopyPath::Pinned }).peak.bidirectionalGBps, 4.0);
    EXPECT_EQ(cache->skipped.size(), 1u);
}

TEST(CopyPeakCache, AMegabyteOfEntriesIsReadInOnePass)
{
    // Ninety thousand empty entries: the parse callback searched the file's object at the end of each one (minutes).
    std::string text = "{";
    for (int i = 0; i < 90000; ++i)
        text += (i ? ",\"" : "\"") + std::to_string(i) + "\":{}";
    text += "}";
    ASSERT_LT(text.size(), kMaxCopyPeakCacheBytes);
    const auto cache = readCopyPeakCache(writeFile(freshDir("many"), text));
    ASSERT_TRUE(cache.ok()) << cache.error().message();
    EXPECT_TRUE(cache->entries.empty());
    EXPECT_EQ(cache->skipped.size(), 90000u);
}

TEST(CopyPeakCache, AnUnwritablePlaceIsAnError)
{
    const auto dir = freshDir("unwritable");
    std::ofstream(dir / "plain-file") << "x";
    const auto failed = writeCopyPeakCache((dir / "plain-file" / kCopyPeakCacheFile).string(), CopyPeakCache {});
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->kind, ErrorKind::Io);
    EXPECT_NE(failed->message().find("plain-file"), std::string::npos);
}

TEST(CopyPeakCache, DefaultDirFollowsXdg)
{
    setenv("XDG_CACHE_HOME", "/tmp/xdg-cache", 1);
    EXPECT_EQ(defaultCacheDir(), "/tmp/xdg-cache/asyncscope");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/home/someone", 1);
    EXPECT_EQ(defaultCacheDir(), "/home/someone/.cache/asyncscope");
}

TEST(CopyPeakCache, ImplausiblePeaksAreLeftOutSoTheDeviceIsMeasuredAgain)
{
    const auto dir = freshDir("implausible");
    const std::string file = writeFile(dir, R"({
        "GPU-huge": {"h2d_gbps": 1e308, "d2h_gbps": 55.1, "bidirectional_gbps": 99.7, "bytes": 268435456},
        "GPU-tiny": {"h2d_gbps": 54.9, "d2h_gbps": 5e-324, "bidirectional_gbps": 99.7, "bytes": 268435456},
        "GPU-fast": {"h2d_gbps": 54.9, "d2h_gbps": 55.1, "bidirectional_gbps": 20000, "bytes": 268435456},
        "GPU-good": {"h2d_gbps": 54.9, "d2h_gbps": 55.1, "bidirectional_gbps": 99.7, "bytes": 268435456}})");
    const auto cache = readCopyPeakCache(file);
    ASSERT_TRUE(cache.ok()) << cache.error().message();
    EXPECT_EQ(cache->entries.size(), 1u);
    EXPECT_EQ(cache->entries.count({ "GPU-good", CopyPath::Pinned }), 1u);
    ASSERT_EQ(cache->skipped.size(), 3u);
    std::string all;
    for (const std::string& line : cache->skipped)
        all += line + "\n";
    EXPECT_NE(all.find("h2d_gbps is 1e+308; accepted: a finite number of GB/s from 0.001 to 10000"),
        std::string::npos)
        << all;
    EXPECT_NE(all.find("d2h_gbps is 5e-324"), std::string::npos) << all;
    EXPECT_NE(all.find("bidirectional_gbps is 20000"), std::string::npos) << all;
}

TEST(CopyPeakCache, AFifoWhereTheCacheLivesIsAnErrorWithoutBlocking)
{
    const auto dir = freshDir("fifo");
    const std::string file = (dir / kCopyPeakCacheFile).string();
    ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
    auto read = std::async(std::launch::async, [&] { return readCopyPeakCache(file); });
    if (read.wait_for(std::chrono::seconds(10)) == std::future_status::timeout) {
        ADD_FAILURE() << "reading a FIFO blocked";
        // Lets each blocked open go (a writer that comes and goes: the reader sees the end), until the read ends.
        while (read.wait_for(std::chrono::milliseconds(50)) == std::future_status::timeout) {
            const int writer = ::open(file.c_str(), O_WRONLY | O_NONBLOCK);
            if (writer >= 0)
                ::close(writer);
        }
    }
    const auto cache = read.get();
    ASSERT_FALSE(cache.ok());
    EXPECT_NE(cache.error().message().find("is not a regular file (a FIFO)"), std::string::npos)
        << cache.error().message();
}

TEST(CopyPeakCache, EveryPathOfADeviceHasItsOwnEntryAndReadsBack)
{
    const auto dir = freshDir("paths");
    const std::string file = (dir / kCopyPeakCacheFile).string();
    CopyPeakCache cache;
    double rate = 10.0;
    for (const auto& [path, name] : EnumNames<CopyPath>::entries) {
        rate += 5.0;
        cache.entries[{ "GPU-a", path }] = { "H200", "0000:01:00.0",
            { rate, rate + 1.0, std::size_t(256) << 20, false, 2 * rate, path } };
    }
    cache.entries[{ "GPU-b", CopyPath::Sm }] = { "A100", "0000:02:00.0",
        { 20.0, 21.0, std::size_t(1) << 20, false, 40.0, CopyPath::Sm } };
    ASSERT_FALSE(writeCopyPeakCache(file, cache));

    // The pinned entry keyed by the bare UUID, as earlier versions look it up; the others by UUID and path.
    std::ifstream in(file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("\"GPU-a\": {"), std::string::npos) << text;
    EXPECT_NE(text.find("\"GPU-a/managed-prefetch\": {"), std::string::npos) << text;
    EXPECT_NE(text.find("\"GPU-b/sm\": {"), std::string::npos) << text;
    EXPECT_NE(text.find("\"path\": \"write-combined\""), std::string::npos) << text;

    const auto back = readCopyPeakCache(file);
    ASSERT_TRUE(back.ok()) << back.error().message();
    EXPECT_TRUE(back->skipped.empty());
    ASSERT_EQ(back->entries.size(), EnumNames<CopyPath>::entries.size() + 1);
    for (const auto& [key, written] : cache.entries) {
        const CachedCopyPeak* read = back->find(key.first, key.second);
        ASSERT_NE(read, nullptr) << key.first << " " << nameOf(key.second);
        EXPECT_EQ(read->peak.path, key.second);
        EXPECT_DOUBLE_EQ(read->peak.h2dGBps, written.peak.h2dGBps) << nameOf(key.second);
        EXPECT_DOUBLE_EQ(read->peak.d2hGBps, written.peak.d2hGBps) << nameOf(key.second);
        EXPECT_DOUBLE_EQ(read->peak.bidirectionalGBps, written.peak.bidirectionalGBps) << nameOf(key.second);
        EXPECT_EQ(read->peak.bytes, written.peak.bytes);
        EXPECT_EQ(read->name, written.name);
        EXPECT_TRUE(read->peak.fromCache);
    }
    EXPECT_EQ(back->find("GPU-b", CopyPath::Pinned), nullptr);
    EXPECT_EQ(back->find("GPU-c", CopyPath::Sm), nullptr);
}

TEST(CopyPeakCache, AnEntryWithoutAPathIsThePinnedOne)
{
    const auto cache = readCopyPeakCache(writeFile(freshDir("old"), kGood));
    ASSERT_TRUE(cache.ok()) << cache.error().message();
    const CachedCopyPeak* pinned = cache->find("GPU-good", CopyPath::Pinned);
    ASSERT_NE(pinned, nullptr);
    EXPECT_EQ(pinned->peak.path, CopyPath::Pinned);
    for (const auto& [path, name] : EnumNames<CopyPath>::entries) {
        if (path != CopyPath::Pinned) {
            EXPECT_EQ(cache->find("GPU-good", path), nullptr) << name;  // measured when first asked for
        }
    }
}

TEST(CopyPeakCache, TheUuidAndPathFieldsWinOverTheKey)
{
    const auto cache = readCopyPeakCache(writeFile(freshDir("fields"), R"({
        "any name": {"uuid": "GPU-x", "path": "sm", "h2d_gbps": 50, "d2h_gbps": 51, "bidirectional_gbps": 90,
            "bytes": 4096},
        "GPU-y/sm": {"h2d_gbps": 1, "d2h_gbps": 2, "bidirectional_gbps": 3, "bytes": 4096}})"));
    ASSERT_TRUE(cache.ok()) << cache.error().message();
    ASSERT_NE(cache->find("GPU-x", CopyPath::Sm), nullptr);
    EXPECT_DOUBLE_EQ(cache->find("GPU-x", CopyPath::Sm)->peak.h2dGBps, 50.0);
    // Without the fields, the key is the UUID and the path pinned, as an earlier version's entry.
    ASSERT_NE(cache->find("GPU-y/sm", CopyPath::Pinned), nullptr);
    EXPECT_EQ(cache->find("GPU-y", CopyPath::Sm), nullptr);
}

TEST(CopyPeakCache, AnUnknownPathOrUuidIsSkippedWithTheReason)
{
    const auto dir = freshDir("bad-paths");
    const std::string file = writeFile(dir, R"({
        "GPU-a/warp": {"uuid": "GPU-a", "path": "warp", "h2d_gbps": 1, "d2h_gbps": 1, "bidirectional_gbps": 1,
            "bytes": 1},
        "GPU-a/number": {"uuid": "GPU-a", "path": 3, "h2d_gbps": 1, "d2h_gbps": 1, "bidirectional_gbps": 1,
            "bytes": 1},
        "GPU-a/nested": {"uuid": "GPU-a", "path": {"deeper": [1]}, "h2d_gbps": 1, "d2h_gbps": 1,
            "bidirectional_gbps": 1, "bytes": 1},
        "GPU-a/uuid-number": {"uuid": 7, "path": "sm", "h2d_gbps": 1, "d2h_gbps": 1, "bidirectional_gbps": 1,
            "bytes": 1},
        "GPU-a/uuid-empty": {"uuid": "", "path": "sm", "h2d_gbps": 1, "d2h_gbps": 1, "bidirectional_gbps": 1,
            "bytes": 1},
        "GPU-a/uuid-long": {"uuid": ")" + std::string(100000, 'u') + R"(", "path": "sm", "h2d_gbps": 1,
            "d2h_gbps": 1, "bidirectional_gbps": 1, "bytes": 1},
        "GPU-a/sm": {"uuid": "GPU-a", "path": "sm", "h2d_gbps": 1, "d2h_gbps": 1, "bidirectional_gbps": 1,
            "bytes": 1},
        "GPU-a/sm again": {"uuid": "GPU-a", "path": "sm", "h2d_gbps": 2, "d2h_gbps": 2, "bidirectional_gbps": 2,
            "bytes": 1}})");
    const auto cache = readCopyPeakCache(file);
    ASSERT_TRUE(cache.ok()) << cache.error().message();
    ASSERT_EQ(cache->entries.size(), 1u);
    ASSERT_NE(cache->find("GPU-a", CopyPath::Sm), nullptr);
    EXPECT_DOUBLE_EQ(cache->find("GPU-a", CopyPath::Sm)->peak.h2dGBps, 1.0);  // the first of the two
    ASSERT_EQ(cache->skipped.size(), 7u);
    auto reason = [&](const std::string& key) {
        for (const std::string& line : cache->skipped) {
            if (line.find("\"" + key + "\"") != std::string::npos)
                return line;
        }
        return std::string("no line for ") + key;
    };
    EXPECT_NE(reason("GPU-a/warp").find("path is 'warp', not a copy path this version knows; accepted: pinned, "
                                        "pageable, write-combined, registered, sm or managed-prefetch"),
        std::string::npos)
        << reason("GPU-a/warp");
    EXPECT_NE(reason("GPU-a/number").find("path is 3, not a copy path"), std::string::npos) << reason("GPU-a/number");
    EXPECT_NE(reason("GPU-a/nested").find("not a copy path"), std::string::npos) << reason("GPU-a/nested");
    EXPECT_NE(reason("GPU-a/uuid-number").find("uuid is not a device's UUID"), std::string::npos);
    EXPECT_NE(reason("GPU-a/uuid-empty").find("uuid is not a device's UUID"), std::string::npos);
    EXPECT_NE(reason("GPU-a/uuid-long").find("uuid is uuuu"), std::string::npos) << reason("GPU-a/uuid-long");
    EXPECT_LT(reason("GPU-a/uuid-long").size(), 1000u);  // cut, not the whole text
    EXPECT_NE(reason("GPU-a/sm again").find("an entry before it holds the sm peak of GPU-a"), std::string::npos)
        << reason("GPU-a/sm again");
    EXPECT_NE(reason("GPU-a/warp").find(file), std::string::npos);
}

TEST(CopyPeakCache, TheSeedWithEveryPathReadsWhole)
{
    const auto cache = readCopyPeakCache(std::string(ASYNCSCOPE_TEST_DATA) + "/copy_peaks_paths.cache.json");
    ASSERT_TRUE(cache.ok()) << cache.error().message();
    EXPECT_TRUE(cache->skipped.empty());
    for (const auto& [path, name] : EnumNames<CopyPath>::entries)
        EXPECT_NE(cache->find("GPU-0e2150c1-15aa-cf9c-ccc0-fe804a020b61", path), nullptr) << name;
    EXPECT_NE(cache->find("GPU-earlier-version", CopyPath::Pinned), nullptr);
}
