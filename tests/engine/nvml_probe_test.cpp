// NvmlProbe on a fake of the driver's NVML library (tests/fakes/fake_nvml.c), whose readings the tests set through
// its environment variables: every reading, the device found by UUID or bus id, the process list however long, in
// each driver's record layout, and however it changes, process names only in this process's PID namespace, and each
// way of being unavailable.
#include "engine/host/nvml_probe.hpp"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace asyncscope;

namespace {

const char* const kFakeVariables[] = { "FAKE_NVML_INIT_FAILS", "FAKE_NVML_DRIVER_VERSION", "FAKE_NVML_UUID",
    "FAKE_NVML_BUS_ID", "FAKE_NVML_SM_MHZ", "FAKE_NVML_SM_MAX_MHZ", "FAKE_NVML_MEM_MHZ", "FAKE_NVML_MEM_MAX_MHZ",
    "FAKE_NVML_REASONS", "FAKE_NVML_TEMP_C", "FAKE_NVML_POWER_MW", "FAKE_NVML_PERSISTENCE", "FAKE_NVML_LINK_GEN",
    "FAKE_NVML_LINK_WIDTH", "FAKE_NVML_LINK_GEN_MAX", "FAKE_NVML_LINK_WIDTH_MAX", "FAKE_NVML_PIDS",
    "FAKE_NVML_PIDS_LATER", "FAKE_NVML_NO_PROCESSES", "FAKE_NVML_PROCESS_RECORD_BYTES" };

std::string commOf(long pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    std::getline(in, name);
    return name;
}

// A PID no process has now.
unsigned freePid()
{
    for (unsigned pid = 3999999; pid > 1000; --pid) {
        if (access(("/proc/" + std::to_string(pid)).c_str(), F_OK) != 0)
            return pid;
    }
    return 3999999;
}

// Each test starts from an H200 the fake knows, at full clocks on a full link, and leaves the environment as it found
// it (ASYNCSCOPE_NVML included).
class NvmlProbeTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        for (const char* name : kFakeVariables)
            unsetenv(name);
        if (const char* chosen = std::getenv("ASYNCSCOPE_NVML"))
            m_chosen = chosen;
        unsetenv("ASYNCSCOPE_NVML");
        set("FAKE_NVML_UUID", device.uuid);
        set("FAKE_NVML_BUS_ID", device.pciBusId);
        set("FAKE_NVML_SM_MHZ", "1980");
        set("FAKE_NVML_SM_MAX_MHZ", "1980");
        set("FAKE_NVML_MEM_MHZ", "3201");
        set("FAKE_NVML_MEM_MAX_MHZ", "3201");
        set("FAKE_NVML_REASONS", "0x0");
        set("FAKE_NVML_TEMP_C", "41");
        set("FAKE_NVML_POWER_MW", "131500");
        set("FAKE_NVML_PERSISTENCE", "1");
        set("FAKE_NVML_LINK_GEN", "5");
        set("FAKE_NVML_LINK_WIDTH", "16");
        set("FAKE_NVML_LINK_GEN_MAX", "5");
        set("FAKE_NVML_LINK_WIDTH_MAX", "16");
        set("FAKE_NVML_PIDS", std::to_string(getpid()) + ":629145600");
    }

    void TearDown() override
    {
        for (const char* name : kFakeVariables)
            unsetenv(name);
        if (m_chosen)
            setenv("ASYNCSCOPE_NVML", m_chosen->c_str(), 1);
        else
            unsetenv("ASYNCSCOPE_NVML");
    }

    static void set(const char* name, const std::string& value) { setenv(name, value.c_str(), 1); }

    static DeviceInfo makeDevice()
    {
        DeviceInfo d;
        d.index = 2;
        d.name = "NVIDIA H200";
        d.uuid = "GPU-4a1b2c3d-0000-1111-2222-333344445555";
        d.pciBusId = "0000:17:00.0";
        return d;
    }

    DeviceInfo device = makeDevice();

private:
    std::optional<std::string> m_chosen;
};

// `count` processes as FAKE_NVML_PIDS lists them: PIDs from 700000 (no process here has them), each with its own
// memory use.
std::string processList(unsigned count)
{
    std::string list;
    for (unsigned i = 0; i < count; ++i)
        list += (i ? "," : "") + std::to_string(700000 + i) + ":" + std::to_string((i + 1) * 1048576ull);
    return list;
}

std::map<std::uint32_t, GpuProcess> byPid(const std::vector<GpuProcess>& processes)
{
    std::map<std::uint32_t, GpuProcess> out;
    for (const GpuProcess& p : processes)
        out[p.pid] = p;
    return out;
}

}  // namespace

TEST_F(NvmlProbeTest, TheSourceNamesTheDriverVersion)
{
    set("FAKE_NVML_DRIVER_VERSION", "580.95.05");
    NvmlProbe probe(FAKE_NVML_LIBRARY);
    EXPECT_EQ(probe.unavailable(), "");
    EXPECT_EQ(probe.source(), "NVML, driver 580.95.05");
    EXPECT_EQ(probe.ownPid(), static_cast<std::uint32_t>(getpid()));
}

TEST_F(NvmlProbeTest, ASampleReadsEveryField)
{
    // Clocks held low by the power cap, a second process on the GPU, the link trained down to Gen3 x8 of Gen5 x16.
    set("FAKE_NVML_SM_MHZ", "1200");
    set("FAKE_NVML_SM_MAX_MHZ", "1980");
    set("FAKE_NVML_MEM_MHZ", "2619");
    set("FAKE_NVML_REASONS", "0x4");
    set("FAKE_NVML_TEMP_C", "67");
    set("FAKE_NVML_POWER_MW", "699250");
    set("FAKE_NVML_PERSISTENCE", "0");
    set("FAKE_NVML_LINK_GEN", "3");
    set("FAKE_NVML_LINK_WIDTH", "8");
    const std::uint32_t self = static_cast<std::uint32_t>(getpid());
    const unsigned other = freePid();
    set("FAKE_NVML_PIDS", std::to_string(self) + ":629145600," + std::to_string(other) + ":610271232");
    NvmlProbe probe(FAKE_NVML_LIBRARY);
    ASSERT_EQ(probe.unavailable(), "");
    auto s = probe.sample(device);
    ASSERT_TRUE(s.ok()) << s.error().message();
    EXPECT_EQ(s->atMs, 0.0);
    EXPECT_EQ(s->smClockMHz, 1200);
    EXPECT_EQ(s->smClockMaxMHz, 1980);
    EXPECT_EQ(s->memoryClockMHz, 2619);
    EXPECT_EQ(s->memoryClockMaxMHz, 3201);
    EXPECT_EQ(s->clockReasons, clock_reasons::kSwPowerCap);
    EXPECT_EQ(s->temperatureC, 67);
    ASSERT_TRUE(s->powerW.has_value());
    EXPECT_DOUBLE_EQ(*s->powerW, 699.25);
    EXPECT_EQ(s->persistenceMode, false);
    EXPECT_EQ(s->linkGeneration, 3);
    EXPECT_EQ(s->linkWidth, 8);
    EXPECT_EQ(s->linkGenerationMax, 5);
    EXPECT_EQ(s->linkWidthMax, 16);
    ASSERT_TRUE(s->processes.has_value());
    ASSERT_EQ(s->processes->size(), 2u);
    EXPECT_EQ((*s->processes)[0].pid, self);
    EXPECT_EQ((*s->processes)[0].usedBytes, 629145600u);
    EXPECT_EQ((*s->processes)[1].pid, other);
    EXPECT_EQ((*s->processes)[1].usedBytes, 610271232u);

    // The readings are taken anew at every sample.
    set("FAKE_NVML_SM_MHZ", "1980");
    set("FAKE_NVML_REASONS", "0x0");
    set("FAKE_NVML_PIDS", std::to_string(self) + ":629145600");
    auto again = probe.sample(device);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->smClockMHz, 1980);
    EXPECT_EQ(again->clockReasons, 0u);
    ASSERT_TRUE(again->processes.has_value());
    EXPECT_EQ(again->processes->size(), 1u);
}

TEST_F(NvmlProbeTest, ReadingsTheDriverDoesNotSupportStayEmpty)
{
    for (const char* name : { "FAKE_NVML_MEM_MHZ", "FAKE_NVML_MEM_MAX_MHZ", "FAKE_NVML_REASONS", "FAKE_NVML_TEMP_C",
             "FAKE_NVML_POWER_MW", "FAKE_NVML_PERSISTENCE", "FAKE_NVML_LINK_GEN_MAX", "FAKE_NVML_LINK_WIDTH_MAX" })
        unsetenv(name);
    set("FAKE_NVML_NO_PROCESSES", "1");
    NvmlProbe probe(FAKE_NVML_LIBRARY);
    auto s = probe.sample(device);
    ASSERT_TRUE(s.ok()) << s.error().message();
    EXPECT_EQ(s->smClockMHz, 1980);
    EXPECT_EQ(s->linkGeneration, 5);
    EXPECT_FALSE(s->memoryClockMHz.has_value());
    EXPECT_FALSE(s->memoryClockMaxMHz.has_value());
    EXPECT_FALSE(s->clockReasons.has_value());
    EXPECT_FALSE(s->temperatureC.has_value());
    EXPECT_FALSE(s->powerW.has_value());
    EXPECT_FALSE(s->persistenceMode.has_value());
    EXPECT_FALSE(s->linkGenerationMax.has_value());
    EXPECT_FALSE(s->linkWidthMax.has_value());
    EXPECT_FALSE(s->processes.has_value()) << "a process list the driver cannot give is not an empty one";
}

TEST_F(NvmlProbeTest, NoProcessesIsAnEmptyList)
{
    unsetenv("FAKE_NVML_PIDS");
    NvmlProbe probe(FAKE_NVML_LIBRARY);
    auto s = probe.sample(device);
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(s->processes.has_value());
    EXPECT_TRUE(s->processes->empty());
}

TEST_F(NvmlProbeTest, AMemoryUseTheDriverDoesNotKnowIsZero)
{
    set("FAKE_NVML_PIDS", std::to_string(getpid()) + ":na");
    NvmlProbe probe(FAKE_NVML_LIBRARY);
    auto s = probe.sample(device);
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(s->processes.has_value());
    ASSERT_EQ(s->processes->size(), 1u);
    EXPECT_EQ((*s->processes)[0].usedBytes, 0u);
}

TEST_F(NvmlProbeTest, ADeviceUnknownByUuidIsFoundByItsBusId)
{
    set("FAKE_NVML_UUID", "GPU-someone-else");  // a UUID the driver gives otherwise (MIG, a remapped container)
    set("FAKE_NVML_SM_MHZ", "1755");
    NvmlProbe probe(FAKE_NVML_LIBRARY);
    auto s = probe.sample(device);
    ASSERT_TRUE(s.ok()) << s.error().message();
    EXPECT_EQ(s->smClockMHz, 1755);

    DeviceInfo noUuid = device;  // the runtime gave no UUID
    noUuid.uuid.clear();
    auto t = probe.sample(noUuid);
    ASSERT_TRUE(t.ok()) << t.error().message();
    EXPECT_EQ(t->smClockMHz, 1755);
}

TEST_F(NvmlProbeTest, AnUnknownDeviceIsAnErrorThatNamesIt)
{
    set("FAKE_NVML_UUID", "GPU-someone-else");
    set("FAKE_NVML_BUS_ID", "0000:99:00.0");
    NvmlProbe probe(FAKE_NVML_LIBRARY);
    ASSERT_EQ(probe.unavailable(), "");
    auto s = probe.sample(device);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().kind, ErrorKind::Unsupported);
    const std::string message = s.error().message();
    EXPECT_NE(message.find("device 2"), std::string::npos) << message;
    EXPECT_NE(message.find(device.uuid), std::string::npos) << message;
    EXPECT_NE(message.find(device.pciBusId), std::string::npos) << message;

    DeviceInfo noUuid = device;  // looked for by its bus id alone: the message names that
    noUuid.uuid.clear();
    auto t = probe.sample(noUuid);
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.error().message(), "NVML does not know device 2 (bus id 0000:17:00.0)");
}

TEST_F(NvmlProbeTest, MoreProcessesThanTheFirstBufferAreAllRead)
{
    std::string list;
    for (unsigned i = 0; i < 40; ++i)
        list += (i ? "," : "") + std::to_string(700000 + i) + ":" + std::to_string((i + 1) * 1048576ull);
    set("FAKE_NVML_PIDS", list);
    NvmlProbe probe(FAKE_NVML_LIBRARY);
    auto s = probe.sample(device);
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(s->processes.has_value());
    ASSERT_EQ(s->processes->size(), 40u);
    for (unsigned i = 0; i < 40; ++i) {
        EXPECT_EQ((*s->processes)[i].pid, 700000 + i);
        EXPECT_EQ((*s->processes)[i].usedBytes, (i + 1) * 1048576ull);
    }
}

TEST_F(NvmlProbeTest, EachDriversProcessRecordsAreReadAtTheirOwnSize)
{
    // R535 before 535.104.05 fills 32-byte records for the v3 process query, every other driver 24-byte ones. One
    // process, a few, and more than twelve (where 32-byte records overran room for 24-byte ones): every PID and
    // memory use as listed, and no PID that is not.
    const struct {
        const char* driver;
        const char* recordBytes;
    } drivers[] = { { "580.95.05", "24" }, { "530.41.03", "24" }, { "535.183.01", "24" }, { "535.104.05", "24" },
        { "535.43.02", "32" }, { "535.54.03", "32" }, { "535.86.10", "32" }, { "535.98", "32" } };
    for (const auto& driver : drivers) {
        set("FAKE_NVML_DRIVER_VERSION", driver.driver);
        set("FAKE_NVML_PROCESS_RECORD_BYTES", driver.recordBytes);
        NvmlProbe probe(FAKE_NVML_LIBRARY);
        ASSERT_EQ(probe.source(), std::string("NVML, driver ") + driver.driver);
        for (const unsigned count : { 1u, 3u, 20u }) {
            SCOPED_TRACE(std::string("driver ") + driver.driver + ", " + driver.recordBytes + "-byte records, "
                + std::to_string(count) + " processes");
            set("FAKE_NVML_PIDS", processList(count));
            auto s = probe.sample(device);
            ASSERT_TRUE(s.ok()) << s.error().message();
            ASSERT_TRUE(s->processes.has_value());
            std::vector<std::pair<std::uint32_t, std::uint64_t>> read;
            std::vector<std::pair<std::uint32_t, std::uint64_t>> listed;
            for (const GpuProcess& p : *s->processes)
                read.emplace_back(p.pid, p.usedBytes);
            for (unsigned i = 0; i < count; ++i)
                listed.emplace_back(700000 + i, (i + 1) * 1048576ull);
            EXPECT_EQ(read, listed);
        }
    }
}

TEST_F(NvmlProbeTest, ADriverVersionThatDoesNotParseReadsTheSymbolsLayoutAndStaysInItsBuffer)
{
    // A version of no known form: the 24-byte records the v3 query stands for are read right.
    for (const char* version : { "", "r535", "535", "535.", ".54.03", "535x54", "99999999999999999999.1" }) {
        SCOPED_TRACE(std::string("driver version \"") + version + "\"");
        set("FAKE_NVML_DRIVER_VERSION", version);
        set("FAKE_NVML_PROCESS_RECORD_BYTES", "24");
        set("FAKE_NVML_PIDS", processList(20));
        NvmlProbe probe(FAKE_NVML_LIBRARY);
        auto s = probe.sample(device);
        ASSERT_TRUE(s.ok()) << s.error().message();
        ASSERT_TRUE(s->processes.has_value());
        ASSERT_EQ(s->processes->size(), 20u);
        EXPECT_EQ(s->processes->back().pid, 700019u);
        EXPECT_EQ(s->processes->back().usedBytes, 20 * 1048576ull);

        // Were such a driver to fill 32-byte records, they are misread but written within the buffer (the test
        // binary's sanitizer sees any byte past it), and no more are read than the driver counted.
        set("FAKE_NVML_PROCESS_RECORD_BYTES", "32");
        auto t = probe.sample(device);
        ASSERT_TRUE(t.ok()) << t.error().message();
        ASSERT_TRUE(t->processes.has_value());
        ASSERT_EQ(t->processes->size(), 20u);
        EXPECT_EQ(t->processes->front().pid, 700000u);
    }
}

TEST_F(NvmlProbeTest, AProcessListThatGrowsBetweenCountAndReadIsReadWhole)
{
    set("FAKE_NVML_PIDS", "500001:1,500002:2");  // what the counting call sees
    std::string later;
    for (unsigned i = 0; i < 12; ++i)
        later += (i ? "," : "") + std::to_string(600000 + i) + ":" + std::to_string(i);
    set("FAKE_NVML_PIDS_LATER", later);  // twelve by the time it reads: more than the room asked for
    NvmlProbe probe(FAKE_NVML_LIBRARY);
    auto s = probe.sample(device);
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(s->processes.has_value());
    ASSERT_EQ(s->processes->size(), 12u);
    EXPECT_EQ(s->processes->front().pid, 600000u);
    EXPECT_EQ(s->processes->back().pid, 600011u);
}

TEST_F(NvmlProbeTest, AProcessListThatShrinksBetweenCountAndReadHoldsOnlyWhatIsThere)
{
    set("FAKE_NVML_PIDS", "500001:1,500002:2,500003:3,500004:4,500005:5");
    set("FAKE_NVML_PIDS_LATER", "500002:2");
    NvmlProbe probe(FAKE_NVML_LIBRARY);
    auto s = probe.sample(device);
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(s->processes.has_value());
    ASSERT_EQ(s->processes->size(), 1u);
    EXPECT_EQ(s->processes->front().pid, 500002u);
    EXPECT_EQ(s->processes->front().usedBytes, 2u);
}

TEST_F(NvmlProbeTest, ProcessNamesOnlyWhereTheListHoldsThisProcess)
{
    const long self = getpid();
    const long parent = getppid();
    const unsigned gone = freePid();
    const std::string others = std::to_string(parent) + ":1048576," + std::to_string(gone) + ":2097152";
    NvmlProbe probe(FAKE_NVML_LIBRARY);

    // This process listed: the driver's PIDs are this namespace's, and /proc names them.
    set("FAKE_NVML_PIDS", std::to_string(self) + ":629145600," + others);
    auto mine = probe.sample(device);
    ASSERT_TRUE(mine.ok());
    ASSERT_TRUE(mine->processes.has_value());
    auto listed = byPid(*mine->processes);
    ASSERT_EQ(listed.size(), 3u);
    EXPECT_FALSE(commOf(self).empty());
    EXPECT_EQ(listed[self].name, commOf(self));
    EXPECT_EQ(listed[parent].name, commOf(parent));
    EXPECT_EQ(listed[gone].name, "") << "a process that is gone has no name";

    // Not listed: the PIDs may be another namespace's (a container's host), where /proc would name strangers.
    set("FAKE_NVML_PIDS", others);
    auto theirs = probe.sample(device);
    ASSERT_TRUE(theirs.ok());
    ASSERT_TRUE(theirs->processes.has_value());
    ASSERT_EQ(theirs->processes->size(), 2u);
    for (const GpuProcess& p : *theirs->processes)
        EXPECT_EQ(p.name, "") << p.pid;
}

TEST_F(NvmlProbeTest, NvmlThatDoesNotStartSaysWhyAndGivesNoSample)
{
    set("FAKE_NVML_INIT_FAILS", "1");
    NvmlProbe probe(FAKE_NVML_LIBRARY);
    EXPECT_EQ(probe.source(), "");
    const std::string why = probe.unavailable();
    EXPECT_NE(why.find("nvmlInit_v2"), std::string::npos) << why;
    EXPECT_NE(why.find("Driver Not Loaded"), std::string::npos) << why;
    auto s = probe.sample(device);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().kind, ErrorKind::Unsupported);
    EXPECT_NE(s.error().message().find("Driver Not Loaded"), std::string::npos) << s.error().message();
}

TEST_F(NvmlProbeTest, ALibraryThatIsNotThereIsNamed)
{
    const std::string path = "/nonexistent/asyncscope/libnvidia-ml.so.1";
    NvmlProbe probe(path);
    const std::string why = probe.unavailable();
    EXPECT_NE(why.find(path), std::string::npos) << why;
    EXPECT_NE(why.find("did not load"), std::string::npos) << why;
    EXPECT_EQ(probe.source(), "");
    auto s = probe.sample(device);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message().find(path), std::string::npos) << s.error().message();
}

TEST_F(NvmlProbeTest, ALibraryWithoutNvmlsFunctionsIsNotTakenForNvml)
{
    for (const std::string& path : { std::string("libm.so.6"), std::string(FAKE_NVML_NOT_NVML_LIBRARY) }) {
        NvmlProbe probe(path);
        const std::string why = probe.unavailable();
        EXPECT_NE(why.find(path), std::string::npos) << why;
        EXPECT_NE(why.find("is not an NVML library"), std::string::npos) << why;
        EXPECT_EQ(probe.source(), "");
        EXPECT_FALSE(probe.sample(device).ok());
    }
}

TEST_F(NvmlProbeTest, AnOlderDriversLibraryGivesWhatItHas)
{
    // The clock reasons under their former name; no driver version, no bus id lookup, no v3 process query.
    set("FAKE_NVML_REASONS", "0x40");
    NvmlProbe probe(FAKE_NVML_OLD_LIBRARY);
    ASSERT_EQ(probe.unavailable(), "");
    EXPECT_EQ(probe.source(), "NVML");
    auto s = probe.sample(device);
    ASSERT_TRUE(s.ok()) << s.error().message();
    EXPECT_EQ(s->clockReasons, clock_reasons::kHwThermal);
    EXPECT_EQ(s->smClockMHz, 1980);
    EXPECT_FALSE(s->processes.has_value());

    set("FAKE_NVML_UUID", "GPU-someone-else");  // and without the bus id lookup, nothing else finds it
    auto unknown = probe.sample(device);
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.error().message(), "NVML does not know device 2 (" + device.uuid + ")");
}

TEST_F(NvmlProbeTest, AsyncscopeNvmlIsHonouredWhenNoLibraryIsGiven)
{
    set("ASYNCSCOPE_NVML", FAKE_NVML_LIBRARY);
    {
        NvmlProbe probe;
        EXPECT_EQ(probe.unavailable(), "");
        EXPECT_EQ(probe.source(), "NVML, driver 580.95.05");
    }
    const std::string missing = "/nonexistent/asyncscope/nvml-of-choice.so";
    set("ASYNCSCOPE_NVML", missing);
    {
        NvmlProbe probe;
        EXPECT_NE(probe.unavailable().find(missing), std::string::npos) << probe.unavailable();
        EXPECT_FALSE(probe.sample(device).ok());
    }
    {
        NvmlProbe probe(FAKE_NVML_LIBRARY);  // a library given outranks the variable
        EXPECT_EQ(probe.unavailable(), "");
    }
}

TEST_F(NvmlProbeTest, WithoutAsyncscopeNvmlTheDriversLibraryIsLoaded)
{
    NvmlProbe probe;
    if (probe.unavailable().empty())
        GTEST_SKIP() << "this machine has NVML (" << probe.source() << "): nothing to see of a missing one";
    EXPECT_NE(probe.unavailable().find(kNvmlSoname), std::string::npos) << probe.unavailable();
}

TEST_F(NvmlProbeTest, NvmlIsShutDownWithTheProbe)
{
    void* fake = dlopen(FAKE_NVML_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(fake, nullptr) << dlerror();
    auto initCount = reinterpret_cast<int (*)()>(dlsym(fake, "fake_nvml_init_count"));
    ASSERT_NE(initCount, nullptr);
    {
        NvmlProbe one(FAKE_NVML_LIBRARY);
        NvmlProbe two(FAKE_NVML_LIBRARY);
        EXPECT_EQ(initCount(), 2);
    }
    EXPECT_EQ(initCount(), 0);
    set("FAKE_NVML_INIT_FAILS", "1");
    {
        NvmlProbe failed(FAKE_NVML_LIBRARY);
        EXPECT_EQ(initCount(), 0);
    }
    EXPECT_EQ(initCount(), 0) << "a probe whose NVML did not start shuts nothing down";
    dlclose(fake);
}
