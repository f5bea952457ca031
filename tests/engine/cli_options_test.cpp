#include "cli/cli_options.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace asyncscope;

namespace {

Result<CliOptions> parse(std::vector<const char*> args)
{
    args.insert(args.begin(), "asyncscope-cli");
    return parseCommandLine(static_cast<int>(args.size()), args.data());
}

}  // namespace

TEST(CliOptions, DefaultsAreTheSamplesPipeline)
{
    const auto options = parse({});
    ASSERT_TRUE(options.ok());
    EXPECT_EQ(options->config.elements, 16u << 20);
    EXPECT_EQ(options->config.value, 26);
    EXPECT_FALSE(options->deviceGiven);
    EXPECT_EQ(options->format, ReportFormat::Text);
}

TEST(CliOptions, DeviceInBothSpellings)
{
    for (auto args : { std::vector<const char*> { "--device", "3" }, std::vector<const char*> { "--device=3" } }) {
        const auto options = parse(args);
        ASSERT_TRUE(options.ok());
        EXPECT_TRUE(options->deviceGiven);
        EXPECT_EQ(options->config.device, 3);
    }
}

TEST(CliOptions, EverythingParses)
{
    const auto options = parse({ "--size", "64MiB", "--value", "7", "--threads", "256", "--runs", "20", "--warmup",
        "3", "--host-memory", "pageable", "--wait", "blocking", "--check", "serial", "--check-threads", "4", "--no-stages", "--chunks", "16", "--streams", "4", "--order", "stage", "--submit", "graph", "--format", "json", "--output",
        "out.json", "--stop", "noise", "--noise-target", "1.5", "--trace-source", "cupti" });
    ASSERT_TRUE(options.ok()) << options.error().message();
    const PipelineConfig& c = options->config;
    EXPECT_EQ(c.elements, 16u << 20);
    EXPECT_EQ(c.value, 7);
    EXPECT_EQ(c.threadsPerBlock, 256);
    EXPECT_EQ(c.runs, 20);
    EXPECT_EQ(c.warmupRuns, 3);
    EXPECT_EQ(c.hostMemory, HostMemory::Pageable);
    EXPECT_EQ(c.waitMode, WaitMode::Blocking);
    EXPECT_EQ(c.checkMode, CheckMode::Serial);
    EXPECT_EQ(c.checkThreads, 4);
    EXPECT_FALSE(c.stageEvents);
    EXPECT_EQ(c.chunks, 16);
    EXPECT_EQ(c.streams, 4);
    EXPECT_EQ(c.order, IssueOrder::ByStage);
    EXPECT_EQ(c.submission, Submission::Graph);
    EXPECT_EQ(c.traceSource, TraceSource::Cupti);
    EXPECT_EQ(c.stopRule, StopRule::Noise);
    EXPECT_DOUBLE_EQ(c.targetNoisePercent, 1.5);
    EXPECT_EQ(options->format, ReportFormat::Json);
    EXPECT_EQ(options->outputPath, "out.json");
}

class CliUsageError : public ::testing::TestWithParam<std::vector<const char*>> { };

TEST_P(CliUsageError, IsOneClearUsageError)
{
    const auto options = parse(GetParam());
    ASSERT_FALSE(options.ok());
    EXPECT_EQ(options.error().kind, ErrorKind::Usage);
    EXPECT_FALSE(options.error().message().empty());
    EXPECT_EQ(options.error().message().find('\n'), std::string::npos) << options.error().message();
}

INSTANTIATE_TEST_SUITE_P(BadInput, CliUsageError,
    ::testing::Values(std::vector<const char*> { "--size", "0" }, std::vector<const char*> { "--size", "-5" },
        std::vector<const char*> { "--size", "abc" }, std::vector<const char*> { "--runs", "0" },
        std::vector<const char*> { "--runs", "abc" }, std::vector<const char*> { "--host-memory", "cuda" },
        std::vector<const char*> { "--wait", "sleep" }, std::vector<const char*> { "--check", "never" }, std::vector<const char*> { "--check-threads", "-1" },
        std::vector<const char*> { "--check-threads", "65" }, std::vector<const char*> { "--format", "xml" },
        std::vector<const char*> { "--threads", "4096" }, std::vector<const char*> { "--bogus" },
        std::vector<const char*> { "--device", "-1" }, std::vector<const char*> { "--chunks", "0" },
        std::vector<const char*> { "--chunks", "4", "--streams", "8" }, std::vector<const char*> { "--order", "random" },
        std::vector<const char*> { "--submit", "magic" }, std::vector<const char*> { "--size", "3", "--chunks", "4" },
        std::vector<const char*> { "--compare", "chunks" }, std::vector<const char*> { "--trace-source", "nsys" },
        std::vector<const char*> { "--copy", "dma" }, std::vector<const char*> { "--managed-migration", "eager" },
        std::vector<const char*> { "--managed-advice", "prefer-gpu" },
        std::vector<const char*> { "--host-memory", "mapped", "--copy", "sm" },
        std::vector<const char*> { "--host-memory", "managed", "--submit", "batch" },
        std::vector<const char*> { "--submit", "batch", "--copy", "sm" }));

TEST(CliOptions, EveryHostMemoryKindParses)
{
    for (const auto& entry : EnumNames<HostMemory>::entries) {
        const HostMemory kind = entry.first;
        const char* name = entry.second;
        const auto options = parse({ "--host-memory", name });
        ASSERT_TRUE(options.ok()) << name << ": " << options.error().message();
        EXPECT_TRUE(options->config.hostMemory == kind) << name;
    }
}

TEST(CliOptions, CopyMechanismManagedOptionsAndBatchParse)
{
    const auto defaults = parse({});
    ASSERT_TRUE(defaults.ok());
    EXPECT_EQ(defaults->config.copy, CopyMechanism::CopyEngine);
    EXPECT_EQ(defaults->config.managedMigration, ManagedMigration::Prefetch);
    EXPECT_EQ(defaults->config.managedAdvice, ManagedAdvice::None);
    EXPECT_FALSE(defaults->config.preferOverlap);

    const auto sm = parse({ "--host-memory", "registered", "--copy", "sm" });
    ASSERT_TRUE(sm.ok()) << sm.error().message();
    EXPECT_EQ(sm->config.hostMemory, HostMemory::Registered);
    EXPECT_EQ(sm->config.copy, CopyMechanism::Sm);

    const auto managed = parse({ "--host-memory", "managed", "--managed-migration", "on-demand", "--managed-advice",
        "read-mostly" });
    ASSERT_TRUE(managed.ok()) << managed.error().message();
    EXPECT_EQ(managed->config.managedMigration, ManagedMigration::OnDemand);
    EXPECT_EQ(managed->config.managedAdvice, ManagedAdvice::ReadMostly);

    const auto batch = parse({ "--submit", "batch", "--prefer-overlap", "--chunks", "8", "--streams", "2" });
    ASSERT_TRUE(batch.ok()) << batch.error().message();
    EXPECT_EQ(batch->config.submission, Submission::Batch);
    EXPECT_TRUE(batch->config.preferOverlap);

    const auto memory = parse({ "--compare", "memory", "--size", "1GiB" });
    ASSERT_TRUE(memory.ok()) << memory.error().message();
    EXPECT_EQ(memory->comparison, Comparison::Memory);
}

TEST(CliOptions, ASeriesThatCannotRunIsAUsageErrorWithTheReason)
{
    const auto mapped = parse({ "--host-memory", "mapped", "--copy", "sm" });
    ASSERT_FALSE(mapped.ok());
    EXPECT_EQ(mapped.error().kind, ErrorKind::Usage);
    EXPECT_NE(mapped.error().message().find("cannot run"), std::string::npos) << mapped.error().message();
    EXPECT_NE(mapped.error().message().find("mapped host memory"), std::string::npos) << mapped.error().message();
    const auto batch = parse({ "--host-memory", "managed", "--submit", "batch" });
    ASSERT_FALSE(batch.ok());
    EXPECT_NE(batch.error().message().find("batch submission"), std::string::npos) << batch.error().message();
    // A comparison sets the memory itself: the series' own options do not stop it.
    EXPECT_TRUE(parse({ "--compare", "memory", "--copy", "sm" }).ok());
}

TEST(CliOptions, HelpNamesTheMemoryLabsOptions)
{
    const auto help = parse({ "--help" });
    ASSERT_TRUE(help.ok());
    for (const char* text : { "write-combined", "registered", "mapped", "managed", "--copy", "--managed-migration",
             "--managed-advice", "--prefer-overlap", "batch", "memory (" }) {
        EXPECT_NE(help->helpText->find(text), std::string::npos) << text;
    }
}

TEST(CliOptions, HelpAndVersionExitCleanly)
{
    const auto help = parse({ "--help" });
    ASSERT_TRUE(help.ok());
    ASSERT_TRUE(help->helpText.has_value());
    EXPECT_NE(help->helpText->find("--host-memory"), std::string::npos);
    const auto version = parse({ "--version" });
    ASSERT_TRUE(version.ok());
    EXPECT_NE(version->helpText->find(ASYNCSCOPE_VERSION), std::string::npos);
}

TEST(CliOptions, HelpAllPrintsTheFullHelp)
{
    // --help-all was refused as an unknown option; the window's --help-all exists, and the README names both.
    const auto all = parse({ "--help-all" });
    ASSERT_TRUE(all.ok()) << all.error().message();
    ASSERT_TRUE(all->helpText.has_value());
    const auto help = parse({ "--help" });
    ASSERT_TRUE(help.ok());
    for (const char* text : { "Usage:", "--help-all", "--list-devices", "--host-memory", "--baseline", "--save",
             "Exit status:" }) {
        EXPECT_NE(all->helpText->find(text), std::string::npos) << text;
    }
    EXPECT_GE(all->helpText->size(), help->helpText->size());
}

TEST(CliOptions, HelpTellsTheExitStatus)
{
    const auto help = parse({ "--help" });
    ASSERT_TRUE(help.ok());
    for (const char* text : { "Exit status: 0 success", "1 a run failed", "slower than --max-slowdown",
             "2 a usage error", "cannot be read or is refused", "too few measured runs" }) {
        EXPECT_NE(help->helpText->find(text), std::string::npos) << text;
    }
}

TEST(CliOptions, ManPageOptionsAreHelpsOptions)
{
    const std::vector<ManOption> listed = cliManOptions();
    const auto help = parse({ "--help" });
    ASSERT_TRUE(help.ok());
    const auto find = [&listed](const std::string& name) -> const ManOption* {
        for (const ManOption& m : listed) {
            for (const std::string& n : m.names) {
                if (n == name)
                    return &m;
            }
        }
        return nullptr;
    };
    for (const ManOption& m : listed) {
        ASSERT_FALSE(m.names.empty());
        EXPECT_NE(help->helpText->find(m.names.back()), std::string::npos) << m.names.back();
        EXPECT_NE(help->helpText->find(m.description), std::string::npos) << m.description;
    }
    const ManOption* order = find("--order");
    ASSERT_NE(order, nullptr);
    EXPECT_EQ(order->value, "chunk|stage");
    EXPECT_EQ(order->defaultValue, "chunk");
    const ManOption* runs = find("--runs");
    ASSERT_NE(runs, nullptr);
    EXPECT_EQ(runs->defaultValue, "10");
    const ManOption* merge = find("--merge");
    ASSERT_NE(merge, nullptr);
    EXPECT_EQ(merge->value, "FILE ...");
    const ManOption* flag = find("--no-stages");
    ASSERT_NE(flag, nullptr);
    EXPECT_TRUE(flag->value.empty());
    for (const char* name : { "-h", "--help", "--help-all", "--version", "--prefer-overlap", "--trace-source" })
        EXPECT_NE(find(name), nullptr) << name;
}

TEST(CliOptions, EveryFloatingOptionRefusesInfinityAndNan)
{
    // CLI11 reads "inf" and "nan" as numbers: they are refused here, before any device is looked for.
    for (const char* option : { "--noise-target", "--min-time", "--timeout" }) {
        for (const char* value : { "inf", "-inf", "nan", "-1" }) {
            const auto options = parse({ "--stop", "noise", option, value });
            ASSERT_FALSE(options.ok()) << option << ' ' << value;
            EXPECT_EQ(options.error().kind, ErrorKind::Usage);
            const std::string message = options.error().message();
            EXPECT_NE(message.find(std::string(option) + " "), std::string::npos) << message;
            EXPECT_NE(message.find("finite"), std::string::npos) << message;
        }
    }
    // Also where the stop rule leaves them unused.
    EXPECT_FALSE(parse({ "--min-time", "nan" }).ok());
    EXPECT_FALSE(parse({ "--timeout", "inf" }).ok());
    EXPECT_TRUE(parse({ "--stop", "noise", "--noise-target", "0.25", "--min-time", "50", "--timeout", "5" }).ok());
}
