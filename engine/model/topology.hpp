// Where a GPU sits in its host: the PCIe link it talks over, its NUMA node and the CPUs local to it, as Linux's
// sysfs gives them; and which CPUs a device's worker thread was bound to. Anything the host does not say (a
// container, a VM, a kernel without the file) is unknown, never an error.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace asyncscope {

// One PCIe link state: the current one or the most the device and its slot can do.
struct PcieLink {
    std::string speed;   // as sysfs writes it: "32.0 GT/s PCIe"; empty when unknown
    int generation = 0;  // 1 to 6; 0 when unknown
    int width = 0;       // lanes; 0 when unknown

    bool known() const { return generation > 0 && width > 0; }
    // The link's nominal data rate per direction in decimal GB/s; 0 when unknown.
    double nominalGBps() const;
    // "Gen5 x16", "Gen5 x?", "unknown".
    std::string text() const;
};

// The PCIe generation a sysfs speed names ("2.5 GT/s", "8.0 GT/s PCIe", "64.0 GT/s PCIe"); 0 for "Unknown",
// an empty text or a rate no generation has.
int pcieGeneration(std::string_view speed);

// Nominal data rate of one direction of a link, in decimal GB/s: the transfer rate times the lanes, less the line
// code (8b/10b up to Gen2, 128b/130b from Gen3, and for Gen6's PAM4 signalling at 64 GT/s the FLIT's 242 payload
// bytes of 256). 0 when the generation or the width is unknown.
double pcieNominalGBps(int generation, int width);

struct DeviceTopology {
    std::optional<int> numaNode;  // empty when unknown or when the host has a single node (sysfs says -1)
    std::string localCpus;        // "0-31,64-95"; empty when unknown
    PcieLink current;
    PcieLink max;
    std::string note;  // why some of it is unknown, e.g. "no /sys/bus/pci/devices/0000:19:00.0"; empty otherwise

    // The current link's nominal rate per direction; 0 when unknown.
    double nominalGBps() const { return current.nominalGBps(); }
    // "NUMA node 0, CPUs 0-31, link Gen5 x16 (max Gen5 x16, 63.0 GB/s per direction)", unknown parts said so.
    std::string text() const;
};

// Which CPUs a device's worker thread ran on, and so which NUMA node its host buffers came from (first touch).
struct CpuBinding {
    bool bound = false;
    std::string cpus;             // the CPUs the thread was bound to, "0-31"
    std::optional<int> numaNode;  // the node those CPUs belong to, where known
    std::string why;              // when not bound: the reason

    // "bound to CPUs 0-31, NUMA node 0" or "not bound: the GPU's local CPUs are unknown".
    std::string text() const;
};

}  // namespace asyncscope
