#include "cli/cli_commands.hpp"

#include "cli/cli_outputs.hpp"
#include "cli/output_pattern.hpp"

#include "engine/host/host_name.hpp"
#include "engine/io/result_file.hpp"
#include "engine/io/side_by_side_report.hpp"
#include "engine/model/display_text.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <system_error>
#include <thread>

namespace asyncscope::cli {

namespace {

// The row of a host or Slurm node that should have left a record and left none.
constexpr const char* kNoRecord = "no record: node failed (or was lost before writing)";

// An earlier record of the same Slurm job, host and GPU as `host`: two nodes with one host name, or a node measured
// twice. `sameHost` holds the places in `kept` of the job's earlier records of that host.
struct SharedGpu {
    std::string what;   // "GPU 0", or "error record" where neither record holds a GPU
    std::size_t first;  // the earlier record's place in `kept`
};
std::optional<SharedGpu> sharedGpu(
    const HostReport& host, const std::vector<HostReport>& kept, const std::vector<std::size_t>& sameHost)
{
    for (const std::size_t k : sameHost) {
        const HostReport& other = kept[k];
        for (const DeviceResult& a : host.devices) {
            for (const DeviceResult& b : other.devices) {
                if (a.device.index == b.device.index)
                    return SharedGpu { "GPU " + std::to_string(a.device.index), k };
            }
        }
        if (host.devices.empty() && other.devices.empty())
            return SharedGpu { "error record", k };
    }
    return std::nullopt;
}

// Every file of `paths` read, in their order, on as many threads as the machine has: a Slurm job of thousands of
// nodes leaves thousands of records.
std::vector<Result<HostReport>> readAll(const std::vector<std::string>& paths)
{
    std::vector<std::optional<Result<HostReport>>> read(paths.size());
    std::atomic<std::size_t> next { 0 };
    const auto work = [&paths, &read, &next] {
        for (std::size_t i = next++; i < paths.size(); i = next++)
            read[i].emplace(readResultFile(paths[i]));
    };
    const std::size_t helpers =
        std::min<std::size_t>(std::clamp(std::thread::hardware_concurrency(), 1u, 16u), paths.size() / 16 + 1) - 1;
    std::vector<std::thread> threads;
    for (std::size_t k = 0; k < helpers; ++k) {
        try {
            threads.emplace_back(work);
        } catch (const std::system_error&) {
            break;  // no thread to be had: fewer read at once
        }
    }
    work();
    for (std::thread& t : threads)
        t.join();
    std::vector<Result<HostReport>> all;
    all.reserve(paths.size());
    for (auto& r : read)
        all.push_back(std::move(*r));
    return all;
}

}  // namespace

int runMerge(const CliOptions& options, std::ostream& out, std::ostream& err)
{
    std::vector<HostReport> hosts;
    std::vector<std::string> paths;
    std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> jobHosts;  // (job, host): places in hosts
    int code = kExitOk;
    std::vector<Result<HostReport>> read = readAll(options.mergeFiles);
    for (std::size_t i = 0; i < read.size(); ++i) {
        const std::string& path = options.mergeFiles[i];
        auto& host = read[i];
        if (!host) {
            err << "asyncscope-cli: cannot merge " << displayText(host.error().message()) << '\n';
            code = kExitUsage;  // a refused input, told apart from a node that left no record (1)
            continue;
        }
        if (host->slurm) {
            std::vector<std::size_t>& sameHost = jobHosts[{ host->slurm->job, host->host }];
            if (const auto shared = sharedGpu(*host, hosts, sameHost)) {
                const HostReport& first = hosts[shared->first];
                err << "asyncscope-cli: cannot merge " << displayText(path) << ": it holds host "
                    << cutText(host->host) << "'s " << shared->what << " from Slurm job " << cutText(host->slurm->job)
                    << " (task " << host->slurm->task << " on node " << cutText(host->slurm->node) << "), as "
                    << displayText(paths[shared->first]) << " does (task " << first.slurm->task << " on node "
                    << cutText(first.slurm->node)
                    << "): one job's records cannot share a host and GPU. Give each node a host name of its own; the "
                       "first record is kept.\n";
                code = kExitUsage;
                continue;
            }
            sameHost.push_back(hosts.size());
        }
        hosts.push_back(std::move(*host));
        paths.push_back(path);
    }
    std::set<std::string> recorded;  // the hosts and Slurm nodes that left a record
    for (const HostReport& h : hosts) {
        recorded.insert(h.host);
        if (h.slurm)
            recorded.insert(h.slurm->node);
    }
    for (const std::string& name : options.expectHosts) {
        if (recorded.count(name) == 0) {
            hosts.push_back(hostError(name, makeError(ErrorKind::Io, kNoRecord)));
            code = std::max(code, kExitFailure);
        }
    }
    if (hosts.empty()) {
        err << "asyncscope-cli: none of the " << options.mergeFiles.size() << " files could be read\n";
        return kExitUsage;
    }
    Outputs outputs(out);
    if (!options.outputPath.empty()) {
        if (auto failed = outputs.open(options.outputPath, shortHostName(), kNoDevice))
            return reportFailure(*failed, err);
    }
    const std::vector<SideBySideRow> rows = mergeRows(hosts, paths);  // the hosts expected but missing have none
    std::ostream& to = outputs.at(kNoDevice);
    switch (options.format) {
    case ReportFormat::Text: to << formatSideBySideText(rows, aggregatesOf(hosts)); break;
    case ReportFormat::Csv: writeSideBySideCsv(to, rows); break;
    case ReportFormat::Json: writeSideBySideJson(to, rows, aggregatesOf(hosts)); break;
    }
    if (auto failed = outputs.finish())
        return reportFailure(*failed, err);
    return code;
}

}  // namespace asyncscope::cli
