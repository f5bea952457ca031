// A result file has its own name only once it is complete: written under a hidden temporary name in its folder,
// renamed on success, and removed, leaving an earlier file of that name as it was, on a failure or when given up.
#include "engine/io/atomic_output_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <sys/stat.h>

using namespace asyncscope;
namespace fs = std::filesystem;

namespace {

// An empty folder of its own for each test.
fs::path freshFolder(const std::string& name)
{
    const fs::path dir = fs::path(::testing::TempDir()) / ("asyncscope-atomic-output-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// The names in `dir`, hidden ones included.
std::set<std::string> namesIn(const fs::path& dir)
{
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        names.insert(entry.path().filename().string());
    return names;
}

std::string contentsOf(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeText(const fs::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

std::unique_ptr<AtomicOutputFile> opened(const fs::path& path)
{
    auto file = AtomicOutputFile::open(path.string());
    EXPECT_TRUE(file) << (file ? std::string() : file.error().message());
    return file ? std::move(*file) : nullptr;
}

}  // namespace

TEST(AtomicOutputFile, IsWrittenUnderAHiddenNameAndRenamedOnSuccess)
{
    const fs::path dir = freshFolder("success");
    const fs::path path = dir / "n1-n1-t0-0.json";
    auto file = opened(path);
    ASSERT_TRUE(file);
    // The temporary file exists from the start (a folder that refuses it costs nothing yet), hidden, beside the
    // record, and under a name no record pattern matches.
    const fs::path temporary = file->temporaryPath();
    EXPECT_EQ(temporary.parent_path(), dir);
    EXPECT_EQ(temporary.filename().string().rfind(".n1-n1-t0-0.json.partial-", 0), 0u) << temporary;
    EXPECT_EQ(namesIn(dir), (std::set<std::string> { temporary.filename().string() }));
    file->stream() << "{\"host\": \"n1\"}\n";
    file->stream().flush();
    EXPECT_FALSE(fs::exists(path)) << "a record not yet complete has its final name";

    EXPECT_FALSE(file->commit("the report"));
    EXPECT_EQ(namesIn(dir), (std::set<std::string> { "n1-n1-t0-0.json" }));
    EXPECT_EQ(contentsOf(path), "{\"host\": \"n1\"}\n");
    file.reset();
    EXPECT_EQ(contentsOf(path), "{\"host\": \"n1\"}\n") << "destroying a committed file undid it";
}

TEST(AtomicOutputFile, DestroyedOrDiscardedUnfinishedLeavesNothing)
{
    const fs::path dir = freshFolder("unfinished");
    {
        auto file = opened(dir / "record.json");
        ASSERT_TRUE(file);
        file->stream() << "half a record";
    }
    EXPECT_TRUE(namesIn(dir).empty());
    auto file = opened(dir / "record.json");
    ASSERT_TRUE(file);
    file->stream() << "half a record";
    file->discard();
    EXPECT_TRUE(namesIn(dir).empty());
    EXPECT_FALSE(file->commit()) << "a discarded file has nothing left to commit";
    EXPECT_TRUE(namesIn(dir).empty());
}

TEST(AtomicOutputFile, AFailedWriteLeavesNoFileAndTheEarlierOneAsItWas)
{
    const fs::path dir = freshFolder("failed-write");
    const fs::path path = dir / "record.json";
    writeText(path, "earlier record");
    auto file = opened(path);
    ASSERT_TRUE(file);
    file->stream() << "new record";
    file->stream().setstate(std::ios::badbit);  // as a write the system refused leaves the stream
    const Status failed = file->commit("the report");
    ASSERT_TRUE(failed);
    EXPECT_NE(failed->message().find("writing the report to '" + path.string() + "' failed"), std::string::npos)
        << failed->message();
    EXPECT_EQ(namesIn(dir), (std::set<std::string> { "record.json" }));
    EXPECT_EQ(contentsOf(path), "earlier record");
}

TEST(AtomicOutputFile, AFailedRenameLeavesNoTemporaryFile)
{
    const fs::path dir = freshFolder("failed-rename");
    const fs::path path = dir / "record.json";
    auto file = opened(path);
    ASSERT_TRUE(file);
    file->stream() << "new record";
    // Something took the name meanwhile that a file cannot replace: a folder that is not empty.
    fs::create_directories(path / "inside");
    const Status failed = file->commit("the report");
    ASSERT_TRUE(failed);
    EXPECT_NE(failed->message().find(path.string()), std::string::npos) << failed->message();
    EXPECT_EQ(namesIn(dir), (std::set<std::string> { "record.json" }));
    EXPECT_TRUE(fs::is_directory(path / "inside"));
}

TEST(AtomicOutputFile, AnEarlierFileIsReplacedOnlyOnSuccess)
{
    const fs::path dir = freshFolder("replace");
    const fs::path path = dir / "record.json";
    writeText(path, "earlier record");
    ::chmod(path.c_str(), 0640);
    {
        auto file = opened(path);
        ASSERT_TRUE(file);
        file->stream() << "unfinished";
        EXPECT_EQ(contentsOf(path), "earlier record") << "opening truncated the earlier file";
    }
    EXPECT_EQ(contentsOf(path), "earlier record");
    EXPECT_EQ(namesIn(dir), (std::set<std::string> { "record.json" }));

    auto file = opened(path);
    ASSERT_TRUE(file);
    file->stream() << "new record";
    EXPECT_FALSE(file->commit());
    EXPECT_EQ(contentsOf(path), "new record");
    EXPECT_EQ(namesIn(dir), (std::set<std::string> { "record.json" }));
    EXPECT_EQ(fs::status(path).permissions() & fs::perms::all,
        fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST(AtomicOutputFile, TwoFilesOfOneNameInOneProcessDoNotShareATemporaryFile)
{
    const fs::path dir = freshFolder("two");
    auto first = opened(dir / "record.json");
    auto second = opened(dir / "record.json");
    ASSERT_TRUE(first && second);
    EXPECT_NE(first->temporaryPath(), second->temporaryPath());
    first->stream() << "first";
    second->stream() << "second";
    EXPECT_FALSE(first->commit());
    EXPECT_FALSE(second->commit());
    EXPECT_EQ(contentsOf(dir / "record.json"), "second");
    EXPECT_EQ(namesIn(dir), (std::set<std::string> { "record.json" }));
}

TEST(AtomicOutputFile, ASymbolicLinkKeepsPointingAtTheFileItNames)
{
    const fs::path dir = freshFolder("link");
    fs::create_directories(dir / "real");
    writeText(dir / "real" / "record.json", "earlier record");
    fs::create_symlink(dir / "real" / "record.json", dir / "link.json");
    auto file = opened(dir / "link.json");
    ASSERT_TRUE(file);
    EXPECT_EQ(fs::path(file->temporaryPath()).parent_path(), fs::canonical(dir / "real"));
    file->stream() << "new record";
    EXPECT_FALSE(file->commit());
    EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
    EXPECT_EQ(contentsOf(dir / "real" / "record.json"), "new record");
}

TEST(AtomicOutputFile, MissingFoldersAreCreatedOrRefusedAsAsked)
{
    const fs::path dir = freshFolder("folders");
    const fs::path deep = dir / "a" / "b" / "record.json";
    auto refused = AtomicOutputFile::open(deep.string(), AtomicOutputFile::MissingFolders::Refuse);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message().find("does not exist"), std::string::npos) << refused.error().message();
    EXPECT_TRUE(namesIn(dir).empty());

    auto file = opened(deep);
    ASSERT_TRUE(file);
    file->stream() << "record";
    EXPECT_FALSE(file->commit());
    EXPECT_EQ(contentsOf(deep), "record");
}

TEST(AtomicOutputFile, WhatCannotBeAFileIsRefusedBeforeAnythingIsWritten)
{
    const fs::path dir = freshFolder("refused");
    fs::create_directories(dir / "folder.json");
    auto folder = AtomicOutputFile::open((dir / "folder.json").string());
    ASSERT_FALSE(folder);
    EXPECT_NE(folder.error().message().find("is a directory"), std::string::npos) << folder.error().message();
    ASSERT_EQ(::mkfifo((dir / "pipe.json").c_str(), 0600), 0);
    auto fifo = AtomicOutputFile::open((dir / "pipe.json").string());
    ASSERT_FALSE(fifo);
    EXPECT_NE(fifo.error().message().find("a FIFO"), std::string::npos) << fifo.error().message();
    EXPECT_EQ(namesIn(dir), (std::set<std::string> { "folder.json", "pipe.json" }));
}

TEST(AtomicOutputFile, DevNullIsWrittenDirectly)
{
    auto file = opened("/dev/null");
    ASSERT_TRUE(file);
    EXPECT_TRUE(file->temporaryPath().empty());
    file->stream() << "nothing kept";
    EXPECT_FALSE(file->commit());
    EXPECT_TRUE(fs::exists("/dev/null"));
    EXPECT_FALSE(fs::is_regular_file("/dev/null"));
}
