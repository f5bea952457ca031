#include "engine/host/sysfs_topology.hpp"

#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>

namespace asyncscope {

namespace {

// The file's first line without surrounding blanks; empty when it cannot be read.
std::optional<std::string> firstLine(const std::filesystem::path& file)
{
    std::ifstream in(file);
    std::string line;
    if (!in || !std::getline(in, line))
        return std::nullopt;
    const auto begin = line.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos)
        return std::string();
    return line.substr(begin, line.find_last_not_of(" \t\r\n") - begin + 1);
}

std::optional<int> wholeNumber(const std::string& text)
{
    int value = 0;
    const auto [end, failed] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (failed != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

bool isHex(std::string_view text)
{
    for (const char c : text) {
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return false;
    }
    return !text.empty();
}

}  // namespace

std::string sysfsBusId(std::string_view busId)
{
    // domain:bus:device.function
    const auto first = busId.find(':');
    const auto second = first == std::string_view::npos ? first : busId.find(':', first + 1);
    const auto dot = second == std::string_view::npos ? second : busId.find('.', second + 1);
    if (dot == std::string_view::npos)
        return {};
    std::string_view domain = busId.substr(0, first);
    const std::string_view bus = busId.substr(first + 1, second - first - 1);
    const std::string_view device = busId.substr(second + 1, dot - second - 1);
    const std::string_view function = busId.substr(dot + 1);
    while (domain.size() > 4 && domain.front() == '0')
        domain.remove_prefix(1);  // CUDA may write eight digits; sysfs writes four, more only for domains above ffff
    if (domain.size() < 4 || bus.size() != 2 || device.size() != 2 || function.size() != 1 || !isHex(domain) ||
        !isHex(bus) || !isHex(device) || !isHex(function))
        return {};
    std::string id = std::string(domain) + ":" + std::string(bus) + ":" + std::string(device) + "." +
        std::string(function);
    for (char& c : id)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return id;
}

DeviceTopology readTopology(std::string_view busId, const std::string& sysfsRoot)
{
    namespace fs = std::filesystem;
    DeviceTopology t;
    const std::string id = sysfsBusId(busId);
    if (id.empty()) {
        t.note = "'" + std::string(busId) + "' is not a PCI bus id";
        return t;
    }
    const fs::path dir = fs::path(sysfsRoot) / "bus" / "pci" / "devices" / id;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        t.note = "no " + dir.string() + " (a container or a VM may hide it)";
        return t;
    }
    std::string missing;
    auto read = [&](const char* name) {
        auto line = firstLine(dir / name);
        if (!line)
            missing += (missing.empty() ? "" : ", ") + std::string(name);
        return line.value_or(std::string());
    };

    // -1: the device is not bound to a node (one node, or the firmware does not say).
    if (const auto node = wholeNumber(read("numa_node")); node && *node >= 0)
        t.numaNode = *node;
    t.localCpus = read("local_cpulist");
    auto link = [&](PcieLink& l, const char* speed, const char* width) {
        l.speed = read(speed);
        l.generation = pcieGeneration(l.speed);
        // Lanes as the spec allows them; 0 (down) or 255 (unknown to the kernel) stay unknown.
        if (const auto lanes = wholeNumber(read(width)); lanes && *lanes >= 1 && *lanes <= 32)
            l.width = *lanes;
    };
    link(t.current, "current_link_speed", "current_link_width");
    link(t.max, "max_link_speed", "max_link_width");
    if (!missing.empty())
        t.note = "not in " + dir.string() + ": " + missing;
    return t;
}

}  // namespace asyncscope
