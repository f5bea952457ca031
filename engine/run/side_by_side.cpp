#include "engine/run/side_by_side.hpp"

#include "engine/model/series_summary.hpp"

#include <algorithm>
#include <unordered_map>

namespace asyncscope {

namespace {

void addFlag(SideBySideRow& row, RowFlag flag)
{
    if (!row.has(flag))
        row.flags.push_back(flag);
}

// Rows at least kSlowFraction below the medians of `rows` in either direction get `flag`.
void flagSlow(std::vector<SideBySideRow*>& rows, RowFlag flag)
{
    std::vector<double> h2d, d2h;
    for (const SideBySideRow* r : rows) {
        h2d.push_back(r->h2dGBps);
        d2h.push_back(r->d2hGBps);
    }
    const double h2dMedian = medianOf(h2d), d2hMedian = medianOf(d2h);
    for (SideBySideRow* r : rows) {
        const bool slowIn = r->h2dGBps > 0.0 && r->h2dGBps <= (1.0 - kSlowFraction) * h2dMedian;
        const bool slowOut = r->d2hGBps > 0.0 && r->d2hGBps <= (1.0 - kSlowFraction) * d2hMedian;
        if (slowIn || slowOut)
            addFlag(*r, flag);
    }
}

void flagBelowLink(SideBySideRow& r)
{
    const double nominal = r.linkGBps();
    if (nominal <= 0.0)
        return;
    const double floor = kBelowLinkFraction * nominal;
    if ((r.h2dGBps > 0.0 && r.h2dGBps < floor) || (r.d2hGBps > 0.0 && r.d2hGBps < floor))
        addFlag(r, RowFlag::BelowLink);
}

// The first variant that has runs: the series itself, or a comparison's first variant that ran.
const VariantResult* shownVariant(const DeviceResult& d)
{
    for (const VariantResult& v : d.plan.variants) {
        if (!v.report.runs.empty())
            return &v;
    }
    return nullptr;
}

SideBySideRow deviceRow(const HostReport& host, const DeviceResult& d)
{
    SideBySideRow row;
    row.host = host.host;
    row.device = d.device.index;
    row.name = d.device.name;
    row.pciBusId = d.device.pciBusId;
    row.numaNode = d.device.topology.numaNode;
    row.link = d.device.topology.current;
    row.maxLink = d.device.topology.max;
    if (d.binding.bound || !d.binding.why.empty())
        row.binding = d.binding.text();
    if (const VariantResult* v = shownVariant(d)) {
        const SeriesSummary s = summarizeSeries(v->report);
        row.runs = s.measuredRuns;
        row.h2dGBps = s.value(keys::kH2dRate);  // bytes over the median stage time, as the summary gives it
        row.d2hGBps = s.value(keys::kD2hRate);
        row.gpuMs = s.median(keys::kGpuTime);
        if (s.verifiedRuns < v->report.runs.size()) {
            row.errorKind = nameOf(ErrorKind::Verification);
            row.error = std::to_string(v->report.runs.size() - s.verifiedRuns) + " of " +
                std::to_string(v->report.runs.size()) + " runs returned a wrong element";
        }
    }
    const Error* problem = d.plan.failure();
    if (!problem) {
        for (const VariantResult& v : d.plan.variants) {
            if (v.notRun) {
                problem = &*v.notRun;
                break;
            }
        }
    }
    if (problem) {
        row.errorKind = nameOf(problem->kind);
        row.error = problem->message();
    }
    return row;
}

std::vector<SideBySideRow> unflaggedRows(const HostReport& host)
{
    std::vector<SideBySideRow> rows;
    if (host.error) {
        SideBySideRow row;
        row.host = host.host;
        row.errorKind = nameOf(host.error->kind);
        row.error = host.error->message();
        rows.push_back(std::move(row));
    }
    for (const DeviceResult& d : host.devices)
        rows.push_back(deviceRow(host, d));
    return rows;
}

}  // namespace

bool SideBySideRow::has(RowFlag flag) const
{
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

std::string SideBySideRow::flagsText() const
{
    std::string text;
    for (const RowFlag f : flags)
        text += (text.empty() ? "" : " ") + std::string(nameOf(f));
    return text;
}

double medianOf(std::vector<double> values)
{
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !(v > 0.0); }), values.end());
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

std::vector<SideBySideRow> sideBySideRows(const HostReport& host)
{
    std::vector<SideBySideRow> rows = unflaggedRows(host);
    std::vector<SideBySideRow*> all;
    for (SideBySideRow& r : rows) {
        all.push_back(&r);
        flagBelowLink(r);
    }
    flagSlow(all, RowFlag::Slow);
    return rows;
}

std::vector<SideBySideRow> mergeRows(const std::vector<HostReport>& hosts, const std::vector<std::string>& files)
{
    std::vector<SideBySideRow> rows;
    for (std::size_t h = 0; h < hosts.size(); ++h) {
        std::vector<SideBySideRow> own = unflaggedRows(hosts[h]);
        if (h < files.size()) {
            for (SideBySideRow& r : own)
                r.file = files[h];
        }
        rows.insert(rows.end(), std::make_move_iterator(own.begin()), std::make_move_iterator(own.end()));
    }
    for (SideBySideRow& r : rows)
        flagBelowLink(r);
    // Records of one host in several files (one per device) are one host: its medians are over all of them.
    std::unordered_map<std::string, std::vector<SideBySideRow*>> byHost;  // each host's rows, in their order
    for (SideBySideRow& r : rows)
        byHost[r.host].push_back(&r);
    for (auto& [host, same] : byHost)
        flagSlow(same, RowFlag::Slow);
    std::vector<SideBySideRow*> all;
    for (SideBySideRow& r : rows)
        all.push_back(&r);
    flagSlow(all, RowFlag::SlowInSet);
    return rows;
}

std::vector<HostAggregate> aggregatesOf(const std::vector<HostReport>& hosts)
{
    std::vector<HostAggregate> aggregates;
    for (const HostReport& host : hosts) {
        if (host.aggregate)
            aggregates.push_back({ host.host, *host.aggregate });
    }
    return aggregates;
}

}  // namespace asyncscope
