#include "cli/cli_app.hpp"

#include "cli/cli_commands.hpp"
#include "cli/cli_outputs.hpp"
#include "cli/output_pattern.hpp"

#include "engine/host/host_name.hpp"
#include "engine/io/text_report.hpp"
#include "engine/model/display_text.hpp"
#include "engine/run/plan_advice.hpp"

#include <cstdlib>

namespace asyncscope {

namespace cli {

namespace {

void listDevices(const Platform& platform, std::ostream& out)
{
    const auto best = chooseDefaultDevice(platform.devices);
    for (const DeviceInfo& d : platform.devices) {
        out << formatDeviceText(d, platform.driverVersion, platform.runtimeVersion);
        out << "    UUID " << d.uuid << ", clock " << d.clockKHz / 1000 << " MHz"
            << (best && *best == d.index ? ", default" : "") << (d.computeProhibited ? ", compute prohibited" : "")
            << '\n';
        out << "    " << d.topology.text() << '\n';
        if (!d.topology.note.empty())
            out << "    (" << d.topology.note << ")\n";
    }
}

}  // namespace

std::optional<SlurmTask> slurmTaskHere()
{
    return slurmTaskOf(std::getenv("SLURM_JOB_ID"), std::getenv("SLURMD_NODENAME"), std::getenv("SLURM_PROCID"));
}

int reportDiscoveryFailure(const CliOptions& options, const Error& error, std::ostream& out, std::ostream& err)
{
    if (!options.outputPath.empty() && !options.listDevices) {
        Outputs outputs(out);
        HostReport host = hostError(shortHostName(), error);
        host.slurm = slurmTaskHere();
        Status failed = outputs.open(options.outputPath, host.host, kNoDevice);
        if (!failed) {
            writeHost(outputs.at(kNoDevice), options.format, host, assessHost(host), sideBySideRows(host));
            failed = outputs.finish();
        }
        if (failed)
            reportFailure(*failed, err);
    }
    return reportFailure(error, err);
}

}  // namespace cli

using namespace cli;

std::optional<SlurmTask> slurmTaskOf(const char* job, const char* node, const char* task)
{
    if (!job || !*job || !node || !*node)
        return std::nullopt;
    SlurmTask t;
    t.job = job;
    t.node = node;
    char* end = nullptr;
    const long id = task ? std::strtol(task, &end, 10) : 0;
    t.task = task && end != task && *end == '\0' && id >= 0 && id <= 10'000'000 ? int(id) : 0;
    return t;
}

int reportFailure(const Error& error, std::ostream& err)
{
    // A kind of host memory, copy or submission this device or runtime cannot run is a request to change, as a size
    // that does not fit is.
    const bool request = isRequestError(error.kind) || error.kind == ErrorKind::Unsupported;
    // A message may name what a file gives (its name, a host): control characters are shown escaped.
    err << "asyncscope-cli: " << (request ? "error: " : "") << displayText(error.message()) << '\n';
    return request ? kExitUsage : kExitFailure;
}

int runCli(const CliOptions& options, Backend& backend, const std::atomic<bool>& cancel, std::ostream& out,
    std::ostream& err, MachineProbe* machine)
{
    if (!options.mergeFiles.empty())
        return runMerge(options, out, err);
    if (options.baselineFiles.size() == 2)
        return runBaselineFiles(options, out, err);

    auto platform = backend.discover();
    if (!platform)
        return reportDiscoveryFailure(options, platform.error(), out, err);
    if (options.listDevices) {
        listDevices(*platform, out);
        out.flush();
        return out ? kExitOk : reportFailure(makeError(ErrorKind::Io, "writing the device list failed"), err);
    }

    return runPlan(options, backend, *platform, cancel, out, err, machine);
}

}  // namespace asyncscope
