#include "cli/cli_commands.hpp"

#include "engine/io/baseline_report.hpp"
#include "engine/model/number_text.hpp"

#include <algorithm>

namespace asyncscope::cli {

namespace {

// The quantity whose verdict decides: the first gated one both series hold, else GPU time.
const QuantityComparison* decidingQuantity(const BaselineComparison& c)
{
    for (const QuantityComparison& q : c.quantities) {
        if (q.gated && q.distribution)
            return &q;
    }
    const QuantityComparison* gpu = c.quantity(keys::kGpuTime);
    return gpu && gpu->distribution ? gpu : nullptr;
}

// `more`'s runs after `into`'s, as block `block`: their indices go on from the last run's, and their starts from the
// series' first run (by the host clock where both runs have it).
void appendBlock(Report& into, const Report& more, int block)
{
    const int indexFrom = into.runs.empty() ? 0 : into.runs.index(into.runs.size() - 1) + 1;
    const std::int64_t firstClock = into.runs.empty() ? 0 : into.runs.hostClockNs(0);
    for (std::size_t i = 0; i < more.runs.size(); ++i) {
        RunResult run = more.runs[i];
        run.block = block;
        run.index += indexFrom;
        if (firstClock != 0 && run.hostClockNs != 0)
            run.startMs = double(run.hostClockNs - firstClock) / 1e6;
        into.runs.push_back(run);
    }
}

}  // namespace

HostReport runUntilDecided(const CliOptions& options, Backend& backend, const Platform& platform,
    const DevicePlan& plan, const std::atomic<bool>& cancel, DevicePlanSink& sink, const RunnerOptions& runner,
    std::ostream& err)
{
    HostReport all;
    int blocks = 0;
    for (; blocks < options.autoMostBlocks; ++blocks) {
        HostReport round = runDevicePlan(backend, platform, plan, cancel, sink, runner);
        if (blocks == 0) {
            all = round;
            all.devices.front().plan.variants.front().report.runs.clear();
        }
        VariantResult& kept = all.devices.front().plan.variants.front();
        const VariantResult& ran = round.devices.front().plan.variants.front();
        appendBlock(kept.report, ran.report, blocks);
        if (ran.failure || ran.notRun || round.error) {
            kept.failure = ran.failure;
            kept.notRun = ran.notRun;
            all.error = round.error;
            return all;
        }
        if (blocks == 0)
            continue;  // a verdict on blocks needs two of them
        const BaselineComparison c = compareWithBaseline(*options.baseline, kept.report, options.baselineSettings);
        const QuantityComparison* q = decidingQuantity(c);
        if (!q)
            break;
        const bool decided = verdictDecided(*q, options.baselineSettings);
        err << "asyncscope-cli: block " << blocks + 1 << ": " << q->name << " "
            << (q->differencePercent ? signedPercentText(*q->differencePercent) : std::string()) << " "
            << intervalText(*q) << (decided ? ": decided" : ": not decided yet") << '\n';
        if (decided) {
            ++blocks;
            break;
        }
    }
    Report& report = all.devices.front().plan.variants.front().report;
    report.config.blocks = std::max(1, blocks);
    report.config.runs = int(measuredRunsOf(report));
    if (report.outcome)  // the first block's, for every block together
        report.outcome->measuredRuns = report.config.runs;
    if (blocks >= options.autoMostBlocks)
        err << "asyncscope-cli: --runs auto: the verdict is not decided after " << options.autoMostBlocks
            << " blocks (the most --blocks allows); the comparison below is of what ran\n";
    return all;
}

}  // namespace asyncscope::cli
