#include "engine/io/side_by_side_report.hpp"

#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/device_json.hpp"
#include "engine/io/text_report.hpp"
#include "engine/model/display_text.hpp"
#include "engine/model/number_text.hpp"
#include "engine/model/size_parse.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace asyncscope {

namespace {

// A figure for a table; "-" (or empty for CSV) when unknown.
std::string figure(double value, int places, const char* unknown = "-")
{
    return value > 0.0 ? fixedText(value, places) : unknown;
}

std::string numaText(const SideBySideRow& r, const char* unknown = "-")
{
    return r.numaNode ? std::to_string(*r.numaNode) : unknown;
}

std::string linkText(const PcieLink& l, const char* unknown = "-")
{
    return l.generation == 0 && l.width == 0 ? unknown : l.text();
}

nlohmann::json number(double value)
{
    return value > 0.0 ? nlohmann::json(value) : nlohmann::json(nullptr);
}

std::string aggregateText(const HostAggregate& a)
{
    const AggregateBandwidth& b = a.bandwidth;
    const std::string gpus = std::to_string(b.devices) + (b.devices == 1 ? " GPU" : " GPUs");
    if (b.overlapMs <= 0.0)
        return cutText(a.host) + ": all at once, " + gpus + ": their measured runs did not overlap";
    return cutText(a.host) + ": all at once, " + gpus + " copied " +
        fixedText(double(b.bytes) / 1e9, 3) + " GB in the " + fixedText(b.overlapMs, 1) + " ms they all ran: aggregate " +
        fixedText(b.gbps, 1) + " GB/s";
}

}  // namespace

std::string formatSideBySideText(const std::vector<SideBySideRow>& rows, const std::vector<HostAggregate>& aggregates)
{
    // Rows merged from files name theirs, in a last column (or after a host's error).
    const bool files = std::any_of(rows.begin(), rows.end(), [](const SideBySideRow& r) { return !r.file.empty(); });
    std::vector<std::string> headers { "host", "GPU", "name", "bus id", "NUMA", "link", "link GB/s", "H2D GB/s",
        "D2H GB/s", "GPU time (ms)", "flags" };
    if (files)
        headers.push_back("file");
    const std::size_t columns = headers.size();
    const std::size_t firstNumber = 6;  // right-aligned from "link GB/s" to the GPU time
    const std::size_t flagsColumn = 10;
    // What a record gives is shown escaped and cut (a host's name or its error may be anything a file holds).
    std::vector<std::vector<std::string>> cells;
    for (const SideBySideRow& r : rows) {
        const std::string error = cutText(r.errorKind) + ": " + cutText(r.error, kMaxShownMessageChars);
        const std::string file = r.file.empty() ? "-" : cutText(r.file);
        if (r.device < 0) {
            cells.push_back({ cutText(r.host), "-", "error: " + error + (r.file.empty() ? "" : " (" + file + ")") });
            continue;
        }
        std::string flags = r.flagsText();
        if (!r.error.empty())
            flags += (flags.empty() ? "" : " ") + error;
        cells.push_back({ cutText(r.host), std::to_string(r.device), cutText(r.name),
            r.pciBusId.empty() ? "-" : cutText(r.pciBusId),
            numaText(r), linkText(r.link), figure(r.linkGBps(), 1), figure(r.h2dGBps, 1), figure(r.d2hGBps, 1),
            figure(r.gpuMs, 4), flags });
        if (files)
            cells.back().push_back(file);
    }
    std::vector<std::size_t> widths(columns);
    for (std::size_t c = 0; c < columns; ++c)
        widths[c] = headers[c].size();
    for (const auto& line : cells) {
        if (line.size() < columns)
            continue;  // a host's error runs across the columns
        for (std::size_t c = 0; c < columns; ++c)
            widths[c] = std::max(widths[c], line[c].size());
    }
    auto render = [&](const std::vector<std::string>& line) {
        std::string text;
        for (std::size_t c = 0; c < line.size(); ++c) {
            const bool last = c + 1 == line.size();
            const std::size_t pad = line[c].size() < widths[c] ? widths[c] - line[c].size() : 0;
            if (c > 0)
                text += "  ";
            if (c >= firstNumber && c < flagsColumn && !last)
                text += std::string(pad, ' ') + line[c];
            else
                text += line[c] + (last ? "" : std::string(pad, ' '));
        }
        text.erase(text.find_last_not_of(' ') + 1);
        return text + "\n";
    };
    std::string text = render(headers);
    for (const auto& line : cells)
        text += render(line);
    for (const HostAggregate& a : aggregates)
        text += aggregateText(a) + "\n";
    const bool flagged = std::any_of(rows.begin(), rows.end(), [](const SideBySideRow& r) { return !r.flags.empty(); });
    if (flagged)
        text += "flags: slow = H2D or D2H at least " + fixedText(kSlowFraction * 100.0, 0) +
            " % below the host's median; below-link = below " + fixedText(kBelowLinkFraction * 100.0, 0) +
            " % of the link's nominal rate; slow-in-set = at least " + fixedText(kSlowFraction * 100.0, 0) +
            " % below the median of every GPU listed\n";
    return text;
}

void writeSideBySideCsv(std::ostream& out, const std::vector<SideBySideRow>& rows)
{
    out << "Host,Device,Name,PCI Bus Id,NUMA Node,Link,Max Link,Link GB/s,Binding,Runs,H2D GB/s,D2H GB/s,"
           "GPU Time (ms),Flags,Error Kind,Error,File\n";
    for (const SideBySideRow& r : rows) {
        const bool device = r.device >= 0;
        out << csvField(r.host) << ',' << (device ? std::to_string(r.device) : "") << ',' << csvField(r.name) << ','
            << csvField(r.pciBusId) << ',' << numaText(r, "") << ',' << linkText(r.link, "") << ','
            << linkText(r.maxLink, "") << ',' << figure(r.linkGBps(), 3, "") << ',' << csvField(r.binding) << ','
            << (device ? std::to_string(r.runs) : "") << ',' << figure(r.h2dGBps, 3, "") << ','
            << figure(r.d2hGBps, 3, "") << ',' << figure(r.gpuMs, 6, "") << ',' << r.flagsText() << ','
            << csvField(r.errorKind) << ',' << csvField(r.error) << ',' << csvField(r.file) << '\n';
    }
}

void writeSideBySideJson(std::ostream& out, const std::vector<SideBySideRow>& rows,
    const std::vector<HostAggregate>& aggregates)
{
    using nlohmann::ordered_json;
    ordered_json list = ordered_json::array();
    for (const SideBySideRow& r : rows) {
        ordered_json j;
        j["host"] = r.host;
        if (!r.file.empty())
            j["file"] = r.file;
        j["device"] = r.device >= 0 ? ordered_json(r.device) : ordered_json(nullptr);
        if (r.device >= 0) {
            j["name"] = r.name;
            j["pci_bus_id"] = r.pciBusId;
            j["numa_node"] = r.numaNode ? ordered_json(*r.numaNode) : ordered_json(nullptr);
            j["link"] = linkJson(r.link);
            j["max_link"] = linkJson(r.maxLink);
            j["link_gbps"] = number(r.linkGBps());
            j["binding"] = r.binding;
            j["runs"] = r.runs;
            j["h2d_gbps"] = number(r.h2dGBps);
            j["d2h_gbps"] = number(r.d2hGBps);
            j["gpu_time_ms"] = number(r.gpuMs);
            ordered_json flags = ordered_json::array();
            for (const RowFlag f : r.flags)
                flags.push_back(nameOf(f));
            j["flags"] = std::move(flags);
        }
        if (!r.error.empty())
            j["error"] = { { "kind", r.errorKind }, { "message", r.error } };
        list.push_back(std::move(j));
    }
    ordered_json totals = ordered_json::array();
    for (const HostAggregate& a : aggregates)
        totals.push_back({ { "host", a.host }, { "devices", a.bandwidth.devices },
            { "overlap_ms", a.bandwidth.overlapMs }, { "bytes", a.bandwidth.bytes },
            { "gbps", number(a.bandwidth.gbps) } });
    ordered_json j;
    j["format"] = "asyncscope-side-by-side";
    j["format_version"] = 1;
    j["thresholds"] = { { "slow_fraction", kSlowFraction }, { "below_link_fraction", kBelowLinkFraction } };
    j["rows"] = std::move(list);
    j["aggregates"] = std::move(totals);
    out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';  // U+FFFD for bad UTF-8
}

std::string formatHostReportText(
    const HostReport& host, const std::vector<std::vector<Assessment>>& assessed, const std::vector<SideBySideRow>& rows)
{
    std::string text = "host " + cutText(host.host);
    if (host.error) {
        return text + ": nothing ran: " + cutText(host.error->message(), kMaxShownMessageChars) + "\n";
    }
    text += ": " + std::to_string(host.devices.size()) + (host.devices.size() == 1 ? " GPU, " : " GPUs, ") +
        (host.mode == DeviceMode::AllAtOnce ? "all at once" : "one at a time") + "\n";
    for (std::size_t i = 0; i < host.devices.size(); ++i) {
        const DeviceResult& d = host.devices[i];
        text += "\n" + formatDeviceText(d.device, host.driverVersion, host.runtimeVersion);
        text += "  " + displayText(d.device.topology.text()) + "\n";
        text += "  worker thread " + displayText(d.binding.text()) + "\n";
        for (std::size_t k = 0; k < d.plan.variants.size(); ++k) {
            const VariantResult& v = d.plan.variants[k];
            if (host.comparison)
                text += "  " + cutText(v.label) + ":\n";
            if (v.notRun)
                text += "  not run: " + cutText(v.notRun->message(), kMaxShownMessageChars) + "\n";
            else if (!v.report.runs.empty())
                text += formatSummaryText(v.report, assessed.at(i).at(k));
            if (v.failure)
                text += std::string(v.failure->kind == ErrorKind::Cancelled ? "  cancelled: " : "  failed: ") +
                    cutText(v.failure->message(), kMaxShownMessageChars) + "\n";
        }
    }
    return text + "\n" + formatSideBySideText(rows, aggregatesOf({ host }));
}

}  // namespace asyncscope
