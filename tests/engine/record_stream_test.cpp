// The record stream's version 2: names sent once on `name` lines and referred to by ID, as the injection library
// writes them (its NameTable and LineWriter), read back by the recording reader.
#include "engine/record/record_stream.hpp"
#include "engine/record/recording.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace asyncscope {
namespace {

// Lines as the injection library writes them: each name through the table, its `name` line sent first when new.
class Writer {
public:
    Writer() { m_text << record::kMagic << ' ' << record::kVersion << "\nprocess 7 1 /opt/app\n"; }
    Writer& api(std::uint32_t correlation, std::uint64_t from, std::uint64_t to, const char* name)
    {
        record::LineWriter line;
        line.word("api").number(7).number(1).number(correlation).number(from).number(to).number(0).number(1);
        finish(line, name);
        return *this;
    }
    Writer& kernel(std::uint32_t correlation, std::uint64_t from, std::uint64_t to, const char* name)
    {
        record::LineWriter line;
        line.word("kernel").number(7).number(0).number(1).number(13).number(correlation).number(from).number(to)
            .number(0).number(1).number(32);
        finish(line, name);
        return *this;
    }
    Writer& raw(const std::string& text)
    {
        m_text << text << '\n';
        return *this;
    }
    std::string text() const { return m_text.str(); }
    std::size_t nameLines() const { return m_nameLines; }

private:
    void finish(record::LineWriter& line, const char* name)
    {
        const record::NameTable::Found found = m_names->find(name);
        if (found.fresh) {
            record::LineWriter given;
            given.word("name").number(7).number(found.id).text(name).end();
            m_text.write(given.data(), std::streamsize(given.length()));
            ++m_nameLines;
        }
        if (found.id != 0)
            line.nameId(found.id);
        else
            line.nameText(name);
        line.end();
        m_text.write(line.data(), std::streamsize(line.length()));
    }

    std::unique_ptr<record::NameTable> m_names = std::make_unique<record::NameTable>();  // 1.4 MB: not on the stack
    std::ostringstream m_text;
    std::size_t m_nameLines = 0;
};

Result<Recording> read(const std::string& text)
{
    std::istringstream in(text);
    return readRecording(in, "app.record");
}

TEST(RecordStream, EachNameIsSentOnceAndReadBackWhereverItIsUsed)
{
    Writer writer;
    for (std::uint32_t i = 0; i < 100; ++i)
        writer.api(2 * i + 1, 1000 * i, 1000 * i + 400, "cudaLaunchKernel_v7000")
            .kernel(2 * i + 1, 1000 * i + 500, 1000 * i + 900, i % 2 ? "_Z3oddv" : "_Z4evenv")
            .api(2 * i + 2, 1000 * i + 950, 1000 * i + 999, "cudaStreamSynchronize_v3020");
    EXPECT_EQ(writer.nameLines(), 4u);
    const std::string text = writer.text();
    EXPECT_EQ(text.find("cudaLaunchKernel_v7000"), text.rfind("cudaLaunchKernel_v7000"));  // written once
    const auto r = read(text);
    ASSERT_TRUE(r.ok()) << r.error().message();
    ASSERT_EQ(r->calls.size(), 200u);
    ASSERT_EQ(r->operations.size(), 100u);
    EXPECT_EQ(r->calls[198].name, "cudaLaunchKernel_v7000");
    EXPECT_EQ(r->calls[199].name, "cudaStreamSynchronize_v3020");
    EXPECT_EQ(r->operations[98].name, "_Z4evenv");
    EXPECT_EQ(r->operations[99].name, "_Z3oddv");
}

TEST(RecordStream, ANameInFullAndTheFirstVersionAreReadToo)
{
    Writer writer;
    writer.raw("api 7 1 1 10 20 0 1 :cudaMalloc_v3020").raw("mark 7 1 3 start 5 :step: 1 of 2");
    const auto r = read(writer.text());
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->calls[0].name, "cudaMalloc_v3020");
    EXPECT_EQ(r->marks[0].name, "step: 1 of 2");
    // Version 1: every name is its text alone, whatever it begins with.
    const auto old = read(std::string(record::kMagic) + " 1\nprocess 7 1 app\napi 7 1 1 10 20 0 1 =5\n");
    ASSERT_TRUE(old.ok()) << old.error().message();
    EXPECT_EQ(old->calls[0].name, "=5");
}

TEST(RecordStream, ABadNameOrReferenceIsRefusedNamingItsLineAndField)
{
    const std::string head = std::string(record::kMagic) + " 2\nprocess 7 1 app\nname 7 1 cudaFree\n";
    const std::vector<std::pair<std::string, std::string>> cases {
        { head + "api 7 1 1 10 20 0 1 =2\n",
            "line 4: api: NAME refers to name 2, which no earlier name line of process 7" },
        { head + "api 8 1 1 10 20 0 1 =1\n",
            "line 4: api: NAME refers to name 1, which no earlier name line of process 8" },
        { head + "api 7 1 1 10 20 0 1 cudaFree\n", "line 4: api: NAME is 'cudaFree', neither =ID nor :TEXT" },
        { head + "api 7 1 1 10 20 0 1 =1x\n", "line 4: api: NAME is '=1x', neither" },
        { head + "kernel 7 0 1 13 5 10 20 0 1 32 \n", "line 4: kernel: NAME is '', neither" },
        { head + "name 7 1 cudaMalloc\n", "line 4: name: ID 1 was given to another name before: 'cudaFree'" },
        { head + "name 7 0 x\n", "line 4: name: ID is 0: IDs count from 1" },
        { head + "name 7 99999999999 x\n", "line 4: name: ID is 99999999999, above its limit" },
        { head + "asyncscope-record 1\n", "line 4: 'asyncscope-record 1' follows a stream of version 2" },
        { std::string(record::kMagic) + " 1\nname 7 1 x\n", "line 2: name: ID is given in a recording of version 1" },
    };
    for (const auto& [text, message] : cases) {
        const auto r = read(text);
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_NE(r.error().message().find(message), std::string::npos)
            << "expected '" << message << "' in: " << r.error().message();
    }
    EXPECT_TRUE(read(head + "name 7 1 cudaFree\napi 7 1 1 10 20 0 1 =1\n").ok());  // the same name again is no harm
}

TEST(RecordStream, TheNameTableRemembersWhatItHasRoomForAndNoMore)
{
    auto table = std::make_unique<record::NameTable>();
    const record::NameTable::Found first = table->find("_Z6kernelPfi");
    EXPECT_TRUE(first.fresh);
    EXPECT_EQ(first.id, 1u);
    const record::NameTable::Found again = table->find("_Z6kernelPfi");
    EXPECT_FALSE(again.fresh);
    EXPECT_EQ(again.id, 1u);
    EXPECT_EQ(table->find("").id, 2u);  // an empty name (a range's end) is a name too
    EXPECT_EQ(table->find(std::string(3000, 'x').c_str()).id, 0u);  // too long to remember: written in full
    // Names past its room are written in full, and those it kept keep their IDs.
    std::uint32_t kept = 2;
    for (int i = 0; i < 20000; ++i) {
        const record::NameTable::Found found = table->find(("_Z6kernel" + std::to_string(i)).c_str());
        if (found.id == 0)
            break;
        EXPECT_TRUE(found.fresh);
        kept = found.id;
    }
    EXPECT_GT(kept, 10000u);
    EXPECT_LT(kept, 20000u);
    EXPECT_EQ(table->find("_Z6kernel19999").id, 0u);
    EXPECT_EQ(table->find("_Z6kernelPfi").id, 1u);
}

}  // namespace
}  // namespace asyncscope
