// The one table of rules every reader applies to what it reads, and the check of a file named to be read or written.
#include "engine/io/input_file.hpp"
#include "engine/model/record_rules.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include <sys/stat.h>
#include <unistd.h>

using namespace asyncscope;

namespace {

RunResult goodRun()
{
    RunResult run;
    run.index = 3;
    run.gpuMs = 2.5;
    run.verified = true;
    run.spans = { { SpanKind::H2D, 0, 0, 0, 64, 0.0, 1.2 }, { SpanKind::Submit, 0, 0, 0, 0, 0.0, 0.03 } };
    return run;
}

}  // namespace

TEST(RecordRules, AcceptWhatARunProduces)
{
    EXPECT_FALSE(checkRun(goodRun(), PipelineConfig {}));
    EXPECT_FALSE(checkConfig(PipelineConfig {}));
    EXPECT_FALSE(checkDevice(DeviceInfo {}));
}

TEST(RecordRules, RefuseTimesNoRunCanHave)
{
    const PipelineConfig config;
    for (const double bad : { -1.0, std::nan(""), std::numeric_limits<double>::infinity() }) {
        RunResult run = goodRun();
        run.gpuMs = bad;
        const auto problem = checkRun(run, config);
        ASSERT_TRUE(problem);
        EXPECT_EQ(problem->field, "gpu_time_ms");
        EXPECT_EQ(problem->accepted, "a finite number of ms, 0 or more");
    }
    RunResult backwards = goodRun();
    backwards.spans[0].endMs = -0.5;
    ASSERT_TRUE(checkRun(backwards, config));
    EXPECT_EQ(checkRun(backwards, config)->field, "spans[0]");
    RunResult beyond = goodRun();
    beyond.spans[0].stream = 50000000;  // one stream in the configuration
    ASSERT_TRUE(checkRun(beyond, config));
    EXPECT_EQ(checkRun(beyond, config)->field, "spans[0].stream");
    RunResult negative = goodRun();
    negative.spans[1].stream = -1;
    ASSERT_TRUE(checkRun(negative, config));
}

TEST(RecordRules, RefuseConfigurationsTheCliRefuses)
{
    PipelineConfig streams;
    streams.streams = 1000000000;
    EXPECT_TRUE(checkConfig(streams));
    PipelineConfig noise;
    noise.targetNoisePercent = std::numeric_limits<double>::infinity();
    EXPECT_TRUE(checkConfig(noise));
    PipelineConfig runs;
    runs.runs = 0;
    EXPECT_TRUE(checkConfig(runs));
}

TEST(RecordRules, VersionsAreExactWholeNumbers)
{
    EXPECT_FALSE(checkFormatVersion(4, 4));
    for (const double bad : { 4294967297.0, 2.5, -1.0, 0.0, 5.0, std::nan("") })
        EXPECT_TRUE(checkFormatVersion(bad, 4)) << bad;
    EXPECT_NE(checkFormatVersion(5, 4)->accepted.find("newer"), std::string::npos);
    EXPECT_EQ(checkFormatVersion(-1, 4)->accepted.find("newer"), std::string::npos);
}

TEST(RecordRules, ComputeCapabilityIsMajorDotMinor)
{
    int major = 0, minor = 0;
    EXPECT_FALSE(parseComputeCapability("cc", "9.0", major, minor));
    EXPECT_EQ(major, 9);
    EXPECT_EQ(minor, 0);
    for (const char* bad : { "9", "x", "9.", ".0", "9.0.1", "-9.0", "9.x", "" })
        EXPECT_TRUE(parseComputeCapability("cc", bad, major, minor)) << bad;
}

TEST(RecordRules, MessagesQuoteAtMostEightyCharacters)
{
    const std::string huge(100000, 'x');
    const Error error = fieldError("big.json", "line 2", *checkName("device.name", huge));
    EXPECT_LT(error.message().size(), 400u);
    EXPECT_NE(error.message().find("big.json, line 2: device.name is "), std::string::npos);
    EXPECT_EQ(quotedValue(std::string(79, 'a') + "éé"), std::string(79, 'a') + "é…");  // never half a character
    // One line of well-formed UTF-8, whatever the file held.
    EXPECT_EQ(quotedValue("a\xff\xc3" "b\nc\x01\xe2\x82\xac"), "a\\xff\\xc3b\\nc\\x01€");
    EXPECT_EQ(quotedValue("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate: not UTF-8
}

TEST(InputFile, OnlyRegularFilesAreRead)
{
    const auto dir = std::filesystem::temp_directory_path() / ("asyncscope-input-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / "x.json");
    std::ofstream((dir / "good.json").string()) << "{}";
    ASSERT_EQ(::mkfifo((dir / "f.json").c_str(), 0600), 0);
    EXPECT_FALSE(checkReadableFile((dir / "good.json").string()));
    EXPECT_NE(checkReadableFile((dir / "x.json").string())->message().find("is a directory"), std::string::npos);
    EXPECT_NE(checkReadableFile((dir / "f.json").string())->message().find("not a regular file (a FIFO)"),
        std::string::npos);
    EXPECT_NE(checkReadableFile((dir / "none.json").string())->message().find("does not exist"), std::string::npos);
    EXPECT_FALSE(checkWritableFile((dir / "new.json").string()));
    EXPECT_FALSE(checkWritableFile((dir / "good.json").string()));
    EXPECT_TRUE(checkWritableFile((dir / "f.json").string()));
    EXPECT_TRUE(checkWritableFile((dir / "x.json").string()));
    std::filesystem::remove_all(dir);
}

TEST(RecordRules, CopyBandwidthsAreOnesAHostLinkCanHave)
{
    EXPECT_FALSE(checkCopyGBps("h2d_gbps", 54.9));
    EXPECT_FALSE(checkCopyGBps("h2d_gbps", kMinCopyGBps));
    EXPECT_FALSE(checkCopyGBps("h2d_gbps", kMaxCopyGBps));
    for (const double bad : { 1e308, 5e-324, 0.0, -54.9, kMaxCopyGBps * 2, std::numeric_limits<double>::infinity(),
             std::numeric_limits<double>::quiet_NaN() }) {
        const auto problem = checkCopyGBps("h2d_gbps", bad);
        ASSERT_TRUE(problem) << bad;
        EXPECT_EQ(problem->field, "h2d_gbps");
        EXPECT_EQ(problem->found, quotedNumber(bad));
        EXPECT_EQ(problem->accepted, "a finite number of GB/s from 0.001 to 10000");
    }
}

TEST(RecordRules, HostRegistrationTimesAreFiniteAndTheBytesBounded)
{
    SeriesOutcome o;
    EXPECT_FALSE(checkHostRegistration(o, "outcome."));  // no registration: nothing to check
    o.hostRegisterMs = 6.8;
    o.hostUnregisterMs = 0.0;
    o.hostRegisteredBytes = std::uint64_t(128) << 20;
    EXPECT_FALSE(checkHostRegistration(o, "outcome."));
    for (double bad : { -1.0, std::nan(""), std::numeric_limits<double>::infinity() }) {
        SeriesOutcome register_ = o;
        register_.hostRegisterMs = bad;
        const auto problem = checkHostRegistration(register_, "outcome.");
        ASSERT_TRUE(problem) << bad;
        EXPECT_EQ(problem->field, "outcome.host_register_ms");
        EXPECT_EQ(problem->accepted, "a finite number of ms, 0 or more");
        SeriesOutcome unregister = o;
        unregister.hostUnregisterMs = bad;
        ASSERT_TRUE(checkHostRegistration(unregister, "outcome.")) << bad;
        EXPECT_EQ(checkHostRegistration(unregister, "outcome.")->field, "outcome.host_unregister_ms");
    }
    o.hostRegisteredBytes = kMaxRegisteredBytes + 1;
    const auto tooMany = checkHostRegistration(o, "");
    ASSERT_TRUE(tooMany);
    EXPECT_EQ(tooMany->field, "host_registered_bytes");
    EXPECT_EQ(tooMany->found, std::to_string(kMaxRegisteredBytes + 1));
}

TEST(RecordRules, ConfigurationChoicesAreOnesTheirNameTablesHold)
{
    PipelineConfig c;
    EXPECT_FALSE(checkConfig(c));
    c.copy = static_cast<CopyMechanism>(7);
    const auto copy = checkConfig(c);
    ASSERT_TRUE(copy);
    EXPECT_EQ(copy->field, "config.copy");
    EXPECT_EQ(copy->accepted, "ce or sm");
    c = PipelineConfig();
    c.managedAdvice = static_cast<ManagedAdvice>(-1);
    ASSERT_TRUE(checkConfig(c));
    EXPECT_EQ(checkConfig(c)->field, "config.managed_advice");
    c = PipelineConfig();
    c.hostMemory = static_cast<HostMemory>(6);
    ASSERT_TRUE(checkConfig(c));
    EXPECT_EQ(checkConfig(c)->accepted, "pinned, pageable, write-combined, registered, mapped or managed");
}
