// Where a GPU sits: sysfs read from a fake tree under a temporary folder, PCIe generations and nominal rates, CPU
// lists and binding a thread to them.
#include "engine/host/cpu_binding.hpp"
#include "engine/host/host_name.hpp"
#include "engine/host/sysfs_topology.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/model/advice.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace asyncscope;
namespace fs = std::filesystem;

namespace {

// A fake /sys with PCI devices in it, removed at the end of the test.
class FakeSysfs {
public:
    FakeSysfs()
        : m_root(fs::temp_directory_path() /
              ("asyncscope-sysfs-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name()))
    {
        fs::remove_all(m_root);
        fs::create_directories(m_root / "bus" / "pci" / "devices");
    }
    ~FakeSysfs() { fs::remove_all(m_root); }

    // Writes the named files of device `id` ("0000:19:00.0"), each with its text and a newline, as sysfs does.
    void device(const std::string& id, std::initializer_list<std::pair<const char*, std::string>> files)
    {
        const fs::path dir = m_root / "bus" / "pci" / "devices" / id;
        fs::create_directories(dir);
        for (const auto& [name, text] : files)
            std::ofstream(dir / name) << text << '\n';
    }
    std::string root() const { return m_root.string(); }

private:
    fs::path m_root;
};

}  // namespace

TEST(Topology, SpeedsOfEveryGenerationNameTheirGeneration)
{
    EXPECT_EQ(pcieGeneration("2.5 GT/s PCIe"), 1);
    EXPECT_EQ(pcieGeneration("2.5 GT/s"), 1);  // older kernels write no "PCIe"
    EXPECT_EQ(pcieGeneration("5.0 GT/s PCIe"), 2);
    EXPECT_EQ(pcieGeneration("5 GT/s"), 2);
    EXPECT_EQ(pcieGeneration("8.0 GT/s PCIe"), 3);
    EXPECT_EQ(pcieGeneration("16.0 GT/s PCIe"), 4);
    EXPECT_EQ(pcieGeneration("32.0 GT/s PCIe"), 5);
    EXPECT_EQ(pcieGeneration("64.0 GT/s PCIe"), 6);
    EXPECT_EQ(pcieGeneration("Unknown"), 0);
    EXPECT_EQ(pcieGeneration("Unknown speed"), 0);
    EXPECT_EQ(pcieGeneration(""), 0);
    EXPECT_EQ(pcieGeneration("12.0 GT/s PCIe"), 0);  // no generation runs at that rate
    EXPECT_EQ(pcieGeneration("-8.0 GT/s"), 0);
}

TEST(Topology, NominalRatesFollowTheLineCode)
{
    // Per lane and direction: 8b/10b up to Gen2, 128b/130b from Gen3, Gen6's FLIT 242 of 256 bytes at 64 GT/s.
    EXPECT_DOUBLE_EQ(pcieNominalGBps(1, 1), 0.25);
    EXPECT_DOUBLE_EQ(pcieNominalGBps(2, 16), 8.0);
    EXPECT_NEAR(pcieNominalGBps(3, 16), 15.754, 0.001);
    EXPECT_NEAR(pcieNominalGBps(4, 16), 31.508, 0.001);
    EXPECT_NEAR(pcieNominalGBps(5, 16), 63.015, 0.001);
    EXPECT_NEAR(pcieNominalGBps(5, 8), 31.508, 0.001);
    EXPECT_NEAR(pcieNominalGBps(6, 16), 121.0, 0.001);
    EXPECT_EQ(pcieNominalGBps(0, 16), 0.0);
    EXPECT_EQ(pcieNominalGBps(5, 0), 0.0);
    EXPECT_EQ(pcieNominalGBps(7, 16), 0.0);
    PcieLink link { "32.0 GT/s PCIe", 5, 16 };
    EXPECT_TRUE(link.known());
    EXPECT_EQ(link.text(), "Gen5 x16");
    EXPECT_EQ(PcieLink {}.text(), "unknown");
    EXPECT_EQ(PcieLink {}.nominalGBps(), 0.0);
}

TEST(Topology, BusIdsAreWrittenAsSysfsNamesThem)
{
    EXPECT_EQ(sysfsBusId("0000:19:00.0"), "0000:19:00.0");
    EXPECT_EQ(sysfsBusId("00000000:9B:00.0"), "0000:9b:00.0");  // CUDA's eight-digit domain, upper case
    EXPECT_EQ(sysfsBusId("10000:01:00.0"), "10000:01:00.0");   // a VMD domain keeps its fifth digit
    EXPECT_EQ(sysfsBusId(""), "");
    EXPECT_EQ(sysfsBusId("19:00.0"), "");
    EXPECT_EQ(sysfsBusId("0000:zz:00.0"), "");
}

TEST(Topology, ReadsAGen5DeviceFromSysfs)
{
    FakeSysfs sys;
    sys.device("0000:19:00.0", { { "numa_node", "1" }, { "local_cpulist", "32-63,96-127" },
                                   { "current_link_speed", "32.0 GT/s PCIe" }, { "current_link_width", "16" },
                                   { "max_link_speed", "32.0 GT/s PCIe" }, { "max_link_width", "16" } });
    const DeviceTopology t = readTopology("00000000:19:00.0", sys.root());
    ASSERT_TRUE(t.numaNode.has_value());
    EXPECT_EQ(*t.numaNode, 1);
    EXPECT_EQ(t.localCpus, "32-63,96-127");
    EXPECT_EQ(t.current.speed, "32.0 GT/s PCIe");
    EXPECT_EQ(t.current.generation, 5);
    EXPECT_EQ(t.current.width, 16);
    EXPECT_EQ(t.max.generation, 5);
    EXPECT_NEAR(t.nominalGBps(), 63.015, 0.001);
    EXPECT_TRUE(t.note.empty()) << t.note;
    EXPECT_EQ(t.text(), "NUMA node 1, CPUs 32-63,96-127, link Gen5 x16 (max Gen5 x16, 63.0 GB/s per direction)");
}

TEST(Topology, ADowngradedLinkShowsBothStates)
{
    FakeSysfs sys;
    sys.device("0000:3b:00.0", { { "numa_node", "0" }, { "local_cpulist", "0-15" },
                                   { "current_link_speed", "8.0 GT/s PCIe" }, { "current_link_width", "8" },
                                   { "max_link_speed", "16.0 GT/s PCIe" }, { "max_link_width", "16" } });
    const DeviceTopology t = readTopology("0000:3B:00.0", sys.root());
    EXPECT_EQ(t.current.text(), "Gen3 x8");
    EXPECT_EQ(t.max.text(), "Gen4 x16");
    EXPECT_NEAR(t.nominalGBps(), 7.877, 0.001);  // what the flags compare against: the link as it runs now
}

TEST(Topology, MissingFilesAndUnknownSpeedsAreUnknownNotErrors)
{
    FakeSysfs sys;
    // A VM's passthrough device: no NUMA node (-1), an "Unknown" speed, a width of 255, no max link files.
    sys.device("0000:00:05.0", { { "numa_node", "-1" }, { "current_link_speed", "Unknown" },
                                   { "current_link_width", "255" } });
    const DeviceTopology t = readTopology("0000:00:05.0", sys.root());
    EXPECT_FALSE(t.numaNode.has_value());
    EXPECT_TRUE(t.localCpus.empty());
    EXPECT_EQ(t.current.generation, 0);
    EXPECT_EQ(t.current.width, 0);
    EXPECT_EQ(t.current.speed, "Unknown");
    EXPECT_FALSE(t.max.known());
    EXPECT_EQ(t.nominalGBps(), 0.0);
    EXPECT_NE(t.note.find("local_cpulist"), std::string::npos) << t.note;
    EXPECT_NE(t.note.find("max_link_speed"), std::string::npos) << t.note;
    EXPECT_EQ(t.text(), "NUMA node unknown, CPUs unknown, link unknown");

    // A device sysfs does not show at all (a container without /sys/bus/pci).
    const DeviceTopology absent = readTopology("0000:99:00.0", sys.root());
    EXPECT_FALSE(absent.current.known());
    EXPECT_NE(absent.note.find("no "), std::string::npos) << absent.note;
    EXPECT_NE(absent.note.find("0000:99:00.0"), std::string::npos) << absent.note;

    // Files that hold rubbish.
    sys.device("0000:01:00.0", { { "numa_node", "zero" }, { "current_link_speed", "fast" },
                                   { "current_link_width", "x16" } });
    const DeviceTopology rubbish = readTopology("0000:01:00.0", sys.root());
    EXPECT_FALSE(rubbish.numaNode.has_value());
    EXPECT_EQ(rubbish.current.generation, 0);
    EXPECT_EQ(rubbish.current.width, 0);

    EXPECT_NE(readTopology("not a bus id", sys.root()).note.find("not a PCI bus id"), std::string::npos);
}

TEST(Topology, TopologyAndBindingTravelThroughJson)
{
    Report r;
    r.host = "node17";
    r.device.name = "Fake";
    r.device.topology.numaNode = 3;
    r.device.topology.localCpus = "48-63";
    r.device.topology.current = { "16.0 GT/s PCIe", 4, 8 };
    r.device.topology.max = { "32.0 GT/s PCIe", 5, 16 };
    r.binding = CpuBinding { true, "48-63", 3, {} };
    RunResult run;  // a file of a header alone is cut short
    run.verified = true;
    r.runs.push_back(run);
    std::stringstream file;
    writeJson(file, r, assessSeries(r));
    const auto back = readJson(file);
    ASSERT_TRUE(back.ok()) << back.error().message();
    EXPECT_EQ(back->host, "node17");
    EXPECT_EQ(back->device.topology.numaNode, std::optional(3));
    EXPECT_EQ(back->device.topology.localCpus, "48-63");
    EXPECT_EQ(back->device.topology.current.text(), "Gen4 x8");
    EXPECT_EQ(back->device.topology.max.text(), "Gen5 x16");
    EXPECT_EQ(back->device.topology.current.speed, "16.0 GT/s PCIe");
    ASSERT_TRUE(back->binding.has_value());
    EXPECT_EQ(back->binding->text(), "bound to CPUs 48-63, NUMA node 3");

    r.binding = CpuBinding { false, {}, std::nullopt, "binding turned off" };
    r.device.topology = {};
    std::stringstream again;
    writeJson(again, r, assessSeries(r));
    const auto unbound = readJson(again);
    ASSERT_TRUE(unbound.ok()) << unbound.error().message();
    EXPECT_EQ(unbound->binding->text(), "not bound: binding turned off");
    EXPECT_FALSE(unbound->device.topology.numaNode.has_value());
}

TEST(CpuList, ParsesAndFormatsLinuxCpuLists)
{
    const auto cpus = parseCpuList("0-3,8,10-11\n");
    ASSERT_TRUE(cpus.ok());
    EXPECT_EQ(*cpus, (std::vector<int> { 0, 1, 2, 3, 8, 10, 11 }));
    EXPECT_EQ(formatCpuList(*cpus), "0-3,8,10-11");
    EXPECT_EQ(formatCpuList({ 5 }), "5");
    EXPECT_TRUE(parseCpuList("")->empty());
    for (const char* bad : { "0-", "a", "3-1", "1,,2", "-4" }) {
        const auto parsed = parseCpuList(bad);
        ASSERT_FALSE(parsed.ok()) << bad;
        EXPECT_NE(parsed.error().message().find("is not a CPU list"), std::string::npos) << parsed.error().message();
    }
}

TEST(CpuBinding, BindsAThreadToTheLocalCpusItMayUse)
{
    const std::vector<int> allowed = threadCpus();
    ASSERT_FALSE(allowed.empty());
    DeviceTopology t;
    t.numaNode = 0;
    // Local CPUs: the first this process may use, and one no host has.
    t.localCpus = std::to_string(allowed.front()) + ",30000";
    CpuBinding binding;
    std::vector<int> after;
    std::thread([&] {
        binding = bindThisThread(t);
        after = threadCpus();
    }).join();
    EXPECT_TRUE(binding.bound) << binding.why;
    EXPECT_EQ(binding.cpus, std::to_string(allowed.front()));
    EXPECT_EQ(after, std::vector<int> { allowed.front() });
    EXPECT_EQ(binding.text(), "bound to CPUs " + std::to_string(allowed.front()) + ", NUMA node 0");
    EXPECT_EQ(threadCpus(), allowed);  // the test's own thread was left alone
}

TEST(CpuBinding, SaysWhyItDidNotBind)
{
    DeviceTopology unknown;
    unknown.note = "no /sys/bus/pci/devices/0000:19:00.0";
    const CpuBinding none = bindThisThread(unknown);
    EXPECT_FALSE(none.bound);
    EXPECT_EQ(none.text(), "not bound: the GPU's local CPUs are unknown (no /sys/bus/pci/devices/0000:19:00.0)");

    DeviceTopology elsewhere;
    elsewhere.localCpus = "30000-30001";  // CPUs this process cannot use
    CpuBinding binding;
    std::thread([&] { binding = bindThisThread(elsewhere); }).join();
    EXPECT_FALSE(binding.bound);
    EXPECT_NE(binding.why.find("none of the GPU's local CPUs 30000-30001 is available"), std::string::npos)
        << binding.why;
}

TEST(HostName, IsShortAndNeverEmpty)
{
    const std::string name = shortHostName();
    EXPECT_FALSE(name.empty());
    EXPECT_EQ(name.find('.'), std::string::npos);
}
