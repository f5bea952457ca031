// Devices side by side: one row per GPU (host, index, name, where it sits, H2D and D2H GB/s, GPU time) with flags on
// the GPUs that copy slower than their siblings or than their link allows; one host's record, or many merged into
// one table where each GPU is also measured against the whole set.
#pragma once

#include "engine/model/names.hpp"
#include "engine/model/topology.hpp"
#include "engine/run/device_plan.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace asyncscope {

// Slow: H2D or D2H at least kSlowFraction below the host's median of that direction. BelowLink: H2D or D2H below
// kBelowLinkFraction of the link's nominal rate (only where the link is known). SlowInSet: as Slow, against the
// median of every GPU in a merged set.
enum class RowFlag { Slow, BelowLink, SlowInSet };

template <>
struct EnumNames<RowFlag> {
    static constexpr std::array entries { std::pair { RowFlag::Slow, "slow" },
        std::pair { RowFlag::BelowLink, "below-link" }, std::pair { RowFlag::SlowInSet, "slow-in-set" } };
};

constexpr double kSlowFraction = 0.10;
constexpr double kBelowLinkFraction = 0.80;

struct SideBySideRow {
    std::string host;
    std::string file;  // the record's file, as it was named to be read; empty for a host measured here or missing
    int device = -1;  // -1: a host whose record carries an error instead of devices
    std::string name;
    std::string pciBusId;
    std::optional<int> numaNode;
    PcieLink link;     // the current link state
    PcieLink maxLink;
    std::string binding;  // CpuBinding::text(), empty when the record does not say
    std::size_t runs = 0;  // measured runs the figures come from
    // Medians over the measured runs; 0 when unknown (the device did not run, or ran without stage events or on
    // several streams, where stage bandwidths are not claimed).
    double h2dGBps = 0.0;
    double d2hGBps = 0.0;
    double gpuMs = 0.0;
    std::vector<RowFlag> flags;
    std::string errorKind;  // the ErrorKind's name when the host or the device failed ("no-driver"); else empty
    std::string error;      // its message

    double linkGBps() const { return link.nominalGBps(); }
    bool has(RowFlag flag) const;
    // "slow below-link"; empty without flags.
    std::string flagsText() const;
};

// The median of the positive values; 0 when there are none.
double medianOf(std::vector<double> values);

// One host's devices, flagged against the host's medians and their links; a host with an error gets one row saying
// so. A device that ran several variants (a comparison) shows its first that ran.
std::vector<SideBySideRow> sideBySideRows(const HostReport& host);

// Every host's rows, in the order given, flagged as sideBySideRows() flags them (against each host's own medians)
// and SlowInSet against the medians of every row of the set. `files`, where given, names each host's file (an empty
// name, or none, for a host that left no record): its rows carry it.
std::vector<SideBySideRow> mergeRows(const std::vector<HostReport>& hosts, const std::vector<std::string>& files = {});

// A host's aggregate bandwidth, where its devices ran all at once.
struct HostAggregate {
    std::string host;
    AggregateBandwidth bandwidth;
};
std::vector<HostAggregate> aggregatesOf(const std::vector<HostReport>& hosts);

}  // namespace asyncscope
