#include "engine/host/nvml_probe.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <vector>

namespace asyncscope {

namespace {

// NVML's C interface as far as it is used here, declared from its documentation: handles are opaque pointers,
// results are ints (0: success), enums are ints.
using NvmlDevice = void*;
constexpr int kSuccess = 0;
constexpr int kInsufficientSize = 7;
constexpr int kClockSm = 1;
constexpr int kClockMemory = 2;
constexpr int kTemperatureGpu = 0;

// nvmlProcessInfo_t as nvmlDeviceGetComputeRunningProcesses_v3 fills it.
struct NvmlProcessInfo {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
};

constexpr unsigned long long kNotAvailable = ~0ull;  // NVML_VALUE_NOT_AVAILABLE for usedGpuMemory
constexpr unsigned int kMaxProcesses = 1024;

template <class F>
bool resolve(void* handle, const char* name, F& fn)
{
    fn = reinterpret_cast<F>(dlsym(handle, name));
    return fn != nullptr;
}

std::string commandName(std::uint32_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    if (in)
        std::getline(in, name);
    return name.size() > 64 ? name.substr(0, 64) : name;
}

}  // namespace

struct NvmlProbe::Api {
    void* handle = nullptr;
    int (*init)() = nullptr;
    int (*shutdown)() = nullptr;
    const char* (*errorString)(int) = nullptr;
    int (*driverVersion)(char*, unsigned) = nullptr;
    int (*byUuid)(const char*, NvmlDevice*) = nullptr;
    int (*byBusId)(const char*, NvmlDevice*) = nullptr;
    int (*processes)(NvmlDevice, unsigned*, NvmlProcessInfo*) = nullptr;
    int (*clock)(NvmlDevice, int, unsigned*) = nullptr;
    int (*maxClock)(NvmlDevice, int, unsigned*) = nullptr;
    int (*reasons)(NvmlDevice, unsigned long long*) = nullptr;
    int (*temperature)(NvmlDevice, int, unsigned*) = nullptr;
    int (*power)(NvmlDevice, unsigned*) = nullptr;
    int (*persistence)(NvmlDevice, int*) = nullptr;
    int (*linkGen)(NvmlDevice, unsigned*) = nullptr;
    int (*linkWidth)(NvmlDevice, unsigned*) = nullptr;
    int (*linkGenMax)(NvmlDevice, unsigned*) = nullptr;
    int (*linkWidthMax)(NvmlDevice, unsigned*) = nullptr;

    std::string error(int code) const
    {
        const char* text = errorString ? errorString(code) : nullptr;
        return text ? std::string(text) : "NVML error " + std::to_string(code);
    }
};

NvmlProbe::NvmlProbe(const std::string& library)
    : m_api(std::make_unique<Api>())
{
    std::string path = library;
    if (path.empty()) {
        const char* chosen = std::getenv("ASYNCSCOPE_NVML");
        path = chosen && *chosen ? chosen : kNvmlSoname;
    }
    Api& a = *m_api;
    a.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!a.handle) {
        const char* why = dlerror();
        m_unavailable = path + " did not load" + (why ? std::string(": ") + why : std::string());
        return;
    }
    // The clock event reasons took a new name in later drivers; the old one stays for older drivers.
    const bool complete = resolve(a.handle, "nvmlInit_v2", a.init) && resolve(a.handle, "nvmlShutdown", a.shutdown)
        && resolve(a.handle, "nvmlErrorString", a.errorString)
        && resolve(a.handle, "nvmlDeviceGetHandleByUUID", a.byUuid)
        && resolve(a.handle, "nvmlDeviceGetClockInfo", a.clock)
        && resolve(a.handle, "nvmlDeviceGetMaxClockInfo", a.maxClock);
    if (!complete) {
        m_unavailable = path + " is not an NVML library of a known version (nvmlInit_v2 or a device query is missing)";
        dlclose(a.handle);
        a.handle = nullptr;
        return;
    }
    resolve(a.handle, "nvmlSystemGetDriverVersion", a.driverVersion);
    resolve(a.handle, "nvmlDeviceGetHandleByPciBusId_v2", a.byBusId);
    resolve(a.handle, "nvmlDeviceGetComputeRunningProcesses_v3", a.processes);
    if (!resolve(a.handle, "nvmlDeviceGetCurrentClocksEventReasons", a.reasons))
        resolve(a.handle, "nvmlDeviceGetCurrentClocksThrottleReasons", a.reasons);
    resolve(a.handle, "nvmlDeviceGetTemperature", a.temperature);
    resolve(a.handle, "nvmlDeviceGetPowerUsage", a.power);
    resolve(a.handle, "nvmlDeviceGetPersistenceMode", a.persistence);
    resolve(a.handle, "nvmlDeviceGetCurrPcieLinkGeneration", a.linkGen);
    resolve(a.handle, "nvmlDeviceGetCurrPcieLinkWidth", a.linkWidth);
    resolve(a.handle, "nvmlDeviceGetMaxPcieLinkGeneration", a.linkGenMax);
    resolve(a.handle, "nvmlDeviceGetMaxPcieLinkWidth", a.linkWidthMax);
    if (const int rc = a.init(); rc != kSuccess) {
        m_unavailable = "NVML did not start (nvmlInit_v2: " + a.error(rc) + ")";
        dlclose(a.handle);
        a.handle = nullptr;
        return;
    }
    std::array<char, 96> version {};
    if (a.driverVersion && a.driverVersion(version.data(), static_cast<unsigned>(version.size())) == kSuccess) {
        version.back() = '\0';
        m_source = std::string("NVML, driver ") + version.data();
    } else {
        m_source = "NVML";
    }
}

NvmlProbe::~NvmlProbe()
{
    if (m_api && m_api->handle) {
        m_api->shutdown();
        dlclose(m_api->handle);
    }
}

std::string NvmlProbe::source() const
{
    return m_source;
}

std::string NvmlProbe::unavailable() const
{
    return m_unavailable;
}

std::uint32_t NvmlProbe::ownPid() const
{
    return static_cast<std::uint32_t>(getpid());
}

Result<MachineSample> NvmlProbe::sample(const DeviceInfo& device)
{
    const std::lock_guard lock(m_mutex);
    if (!m_api->handle)
        return makeError(ErrorKind::Unsupported, "The machine's state cannot be read: " + m_unavailable);
    const Api& a = *m_api;
    NvmlDevice handle = nullptr;
    int rc = device.uuid.empty() ? -1 : a.byUuid(device.uuid.c_str(), &handle);
    if (rc != kSuccess && a.byBusId && !device.pciBusId.empty())
        rc = a.byBusId(device.pciBusId.c_str(), &handle);
    if (rc != kSuccess) {
        std::string known = device.uuid;  // what it was looked for by
        if (a.byBusId && !device.pciBusId.empty())
            known += (known.empty() ? "" : ", ") + ("bus id " + device.pciBusId);
        return makeError(ErrorKind::Unsupported,
            "NVML does not know device " + std::to_string(device.index) + " (" + known + ")");
    }

    MachineSample s;
    auto read = [handle](auto fn, auto&& out, auto... args) {
        unsigned value = 0;
        if (fn && fn(handle, args..., &value) == kSuccess)
            out = static_cast<int>(value);
    };
    read(a.clock, s.smClockMHz, kClockSm);
    read(a.maxClock, s.smClockMaxMHz, kClockSm);
    read(a.clock, s.memoryClockMHz, kClockMemory);
    read(a.maxClock, s.memoryClockMaxMHz, kClockMemory);
    read(a.temperature, s.temperatureC, kTemperatureGpu);
    read(a.linkGen, s.linkGeneration);
    read(a.linkWidth, s.linkWidth);
    read(a.linkGenMax, s.linkGenerationMax);
    read(a.linkWidthMax, s.linkWidthMax);
    if (unsigned long long mask = 0; a.reasons && a.reasons(handle, &mask) == kSuccess)
        s.clockReasons = mask;
    if (unsigned milliwatts = 0; a.power && a.power(handle, &milliwatts) == kSuccess)
        s.powerW = milliwatts / 1000.0;
    if (int mode = 0; a.persistence && a.persistence(handle, &mode) == kSuccess)
        s.persistenceMode = mode != 0;
    if (a.processes) {
        // The count can grow between the two calls: ask again with room for what it said, a few times.
        std::vector<NvmlProcessInfo> infos;
        unsigned count = 0;
        rc = a.processes(handle, &count, nullptr);
        for (int attempt = 0; attempt < 4 && rc == kInsufficientSize && count <= kMaxProcesses; ++attempt) {
            infos.resize(count + 4);
            count = static_cast<unsigned>(infos.size());
            rc = a.processes(handle, &count, infos.data());
        }
        if (rc == kSuccess) {
            std::vector<GpuProcess> list;
            bool ownNamespace = false;  // in a container the driver gives the host's PIDs: /proc here knows others
            for (unsigned i = 0; i < count && i < infos.size(); ++i) {
                const NvmlProcessInfo& p = infos[i];
                list.push_back({ p.pid, p.usedGpuMemory == kNotAvailable ? 0 : p.usedGpuMemory, {} });
                ownNamespace = ownNamespace || p.pid == ownPid();
            }
            for (GpuProcess& p : list)
                p.name = ownNamespace ? commandName(p.pid) : std::string();
            s.processes = std::move(list);
        }
    }
    return s;
}

}  // namespace asyncscope
