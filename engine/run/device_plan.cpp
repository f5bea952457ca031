#include "engine/run/device_plan.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <system_error>

namespace asyncscope {

namespace {

Error badSelection(std::string_view text, const std::string& why)
{
    return makeError(ErrorKind::Usage, "'" + std::string(text) + "' is not a device choice: " + why,
        "Give best, all, a device index or a list of indices such as 0,2,5.");
}

std::string indexRange(std::size_t count)
{
    return count == 1 ? "0" : "0 to " + std::to_string(count - 1);
}

}  // namespace

Result<DeviceSelection> parseDeviceSelection(std::string_view text)
{
    DeviceSelection selection;
    if (text == "best")
        return selection;
    if (text == "all") {
        selection.kind = DeviceSelection::Kind::All;
        return selection;
    }
    selection.kind = DeviceSelection::Kind::List;
    std::string_view rest = text;
    for (;;) {
        const auto comma = rest.find(',');
        const std::string_view part = rest.substr(0, comma);
        int index = -1;
        const auto [end, failed] = std::from_chars(part.data(), part.data() + part.size(), index);
        if (part.empty())
            return badSelection(text, "an index is missing");
        if (failed != std::errc() || end != part.data() + part.size() || index < 0)
            return badSelection(text, "'" + std::string(part) + "' is not a device index");
        if (std::find(selection.indices.begin(), selection.indices.end(), index) != selection.indices.end())
            return badSelection(text, "device " + std::to_string(index) + " is named twice");
        selection.indices.push_back(index);
        if (comma == std::string_view::npos)
            break;
        rest.remove_prefix(comma + 1);
    }
    return selection;
}

Result<std::vector<int>> resolveDevices(const DeviceSelection& selection, const Platform& platform)
{
    std::vector<int> indices;
    switch (selection.kind) {
    case DeviceSelection::Kind::Best:
        if (const auto best = chooseDefaultDevice(platform.devices))
            return std::vector<int> { *best };
        return makeError(ErrorKind::NoDevice, "every CUDA device is in compute-prohibited mode",
            "Ask the administrator to change the compute mode (nvidia-smi -c).");
    case DeviceSelection::Kind::All:
        for (const DeviceInfo& d : platform.devices)
            indices.push_back(d.index);
        if (indices.empty())
            return makeError(ErrorKind::NoDevice, "this host has no CUDA device");
        return indices;
    case DeviceSelection::Kind::List:
        for (const int index : selection.indices) {
            const bool known = std::any_of(platform.devices.begin(), platform.devices.end(),
                [index](const DeviceInfo& d) { return d.index == index; });
            if (!known) {
                const std::size_t count = platform.devices.size();
                return makeError(ErrorKind::Usage,
                    "device " + std::to_string(index) + " does not exist; this host has " + std::to_string(count) +
                        (count == 0 ? "" : " (" + indexRange(count) + ")"),
                    "Choose from asyncscope-cli --list-devices, or give all.");
            }
        }
        return selection.indices;
    }
    return indices;
}

Plan planOnDevice(const Plan& plan, int device)
{
    Plan onDevice = plan;
    for (Variant& v : onDevice.variants)
        v.config.device = device;
    return onDevice;
}

std::optional<RunWindow> hostWindow(const RunStore& runs, std::size_t i)
{
    const std::int64_t startNs = runs.hostClockNs(i);
    if (startNs == 0)
        return std::nullopt;
    // The wait span ends when the host saw the run finish; without one, the GPU time is the best guess.
    double endMs = runs.gpuMs(i);
    const RunStore::SpanView spans = runs.spans(i);
    for (std::size_t k = 0; k < spans.size(); ++k) {
        if (spans.kind(k) == SpanKind::Wait)
            endMs = std::max(endMs, spans.endMs(k));
    }
    return RunWindow { startNs, startNs + static_cast<std::int64_t>(endMs * 1e6) };
}

AggregateBandwidth aggregateBandwidth(const std::vector<DeviceResult>& devices)
{
    struct Measured {
        RunWindow window;
        std::uint64_t bytes;
    };
    std::vector<std::vector<Measured>> perDevice;
    for (const DeviceResult& d : devices) {
        std::vector<Measured> runs;
        for (const VariantResult& v : d.plan.variants) {
            const std::uint64_t bytes = 2 * static_cast<std::uint64_t>(v.report.config.bytes());  // H2D and D2H
            for (std::size_t i = 0; i < v.report.runs.size(); ++i) {
                if (v.report.runs.warmup(i))
                    continue;
                if (const auto window = hostWindow(v.report.runs, i))
                    runs.push_back({ *window, bytes });
            }
        }
        if (!runs.empty())
            perDevice.push_back(std::move(runs));
    }
    AggregateBandwidth a;
    a.devices = static_cast<int>(perDevice.size());
    if (perDevice.empty())
        return a;
    // Every device busy: from the last first start to the first last end.
    std::int64_t begin = std::numeric_limits<std::int64_t>::min();
    std::int64_t end = std::numeric_limits<std::int64_t>::max();
    for (const auto& runs : perDevice) {
        std::int64_t first = runs.front().window.beginNs, last = runs.front().window.endNs;
        for (const Measured& m : runs) {
            first = std::min(first, m.window.beginNs);
            last = std::max(last, m.window.endNs);
        }
        begin = std::max(begin, first);
        end = std::min(end, last);
    }
    if (end <= begin)
        return a;
    a.overlapMs = static_cast<double>(end - begin) / 1e6;
    for (const auto& runs : perDevice) {
        for (const Measured& m : runs) {
            const std::int64_t middle = m.window.beginNs + (m.window.endNs - m.window.beginNs) / 2;
            if (middle >= begin && middle <= end)
                a.bytes += m.bytes;
        }
    }
    a.gbps = static_cast<double>(a.bytes) / (a.overlapMs * 1e6);
    return a;
}

const Error* HostReport::failure() const
{
    for (const DeviceResult& d : devices) {
        if (const Error* e = d.plan.failure())
            return e;
    }
    return nullptr;
}

std::size_t HostReport::ranCount() const
{
    return static_cast<std::size_t>(
        std::count_if(devices.begin(), devices.end(), [](const DeviceResult& d) { return d.plan.ranCount() > 0; }));
}

HostReport hostError(std::string host, Error error)
{
    HostReport r;
    r.host = std::move(host);
    r.error = std::move(error);
    return r;
}

}  // namespace asyncscope
