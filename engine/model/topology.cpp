#include "engine/model/topology.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>

namespace asyncscope {

namespace {

struct Generation {
    double gtPerS;       // transfer rate per lane
    double efficiency;   // payload bits per transferred bit
};

// PCIe 1.0 to 6.0. Gen6 signals PAM4 at 32 GBaud (64 GT/s) and carries 242 payload bytes in each 256-byte FLIT.
constexpr Generation kGenerations[] = { { 2.5, 8.0 / 10.0 }, { 5.0, 8.0 / 10.0 }, { 8.0, 128.0 / 130.0 },
    { 16.0, 128.0 / 130.0 }, { 32.0, 128.0 / 130.0 }, { 64.0, 242.0 / 256.0 } };
constexpr int kGenerationCount = int(sizeof kGenerations / sizeof kGenerations[0]);

std::string oneDecimal(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", value);
    return text;
}

}  // namespace

int pcieGeneration(std::string_view speed)
{
    const char* begin = speed.data();
    const char* const last = speed.data() + speed.size();
    while (begin != last && (*begin == ' ' || *begin == '\t'))
        ++begin;
    double rate = 0.0;  // from_chars, not strtod: the reading must not depend on the locale's decimal point
    const auto [end, failed] = std::from_chars(begin, last, rate);
    if (failed != std::errc() || end == begin || !(rate > 0.0))
        return 0;
    for (int g = 0; g < kGenerationCount; ++g) {
        if (std::fabs(rate - kGenerations[g].gtPerS) < 0.05 * kGenerations[g].gtPerS)
            return g + 1;
    }
    return 0;
}

double pcieNominalGBps(int generation, int width)
{
    if (generation < 1 || generation > kGenerationCount || width < 1)
        return 0.0;
    const Generation& g = kGenerations[generation - 1];
    return g.gtPerS * g.efficiency * width / 8.0;
}

double PcieLink::nominalGBps() const
{
    return pcieNominalGBps(generation, width);
}

std::string PcieLink::text() const
{
    if (generation == 0 && width == 0)
        return "unknown";
    return (generation > 0 ? "Gen" + std::to_string(generation) : std::string("Gen?")) + " x" +
        (width > 0 ? std::to_string(width) : std::string("?"));
}

std::string DeviceTopology::text() const
{
    std::string t = numaNode ? "NUMA node " + std::to_string(*numaNode) : std::string("NUMA node unknown");
    t += ", CPUs " + (localCpus.empty() ? std::string("unknown") : localCpus);
    t += ", link " + current.text();
    if (max.generation > 0 || max.width > 0)
        t += " (max " + max.text() + (current.known() ? ", " + oneDecimal(nominalGBps()) + " GB/s per direction" : "") +
            ")";
    else if (current.known())
        t += " (" + oneDecimal(nominalGBps()) + " GB/s per direction)";
    return t;
}

std::string CpuBinding::text() const
{
    if (!bound)
        return "not bound: " + (why.empty() ? std::string("no reason given") : why);
    return "bound to CPUs " + cpus + ", NUMA node " + (numaNode ? std::to_string(*numaNode) : std::string("unknown"));
}

}  // namespace asyncscope
