#include "engine/host/nvml_probe.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string_view>
#include <utility>
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

// The records nvmlDeviceGetComputeRunningProcesses_v3 fills are not the same size on every driver, though the symbol
// is: every layout starts with pid (4 bytes at 0), usedGpuMemory (8 at 8), gpuInstanceId (4 at 16) and
// computeInstanceId (4 at 20), and one adds usedGpuCcProtectedMemory (8 at 24).
//  - 24 bytes (nvmlProcessInfo_v2_t): R510 to R530, R535 from 535.104.05 on, and every later branch.
//  - 32 bytes: R535 before 535.104.05. Its first releases (535.43.02 to 535.86.x) gave nvmlProcessInfo_t the
//    protected memory field without a new function version, so their _v3 fills 32-byte records; 535.98 took _v3 out
//    of its nvml.h, and 535.104.05 put it back with the 24-byte record, the protected memory moving to the new
//    nvmlDeviceGetRunningProcessDetailList.
// So the stride is chosen by the driver version: 32 bytes for 535.x with x below 104, else 24, and 24 too where the
// version cannot be read or parsed (the layout the symbol stands for). Read with the wrong stride, every PID after
// the first comes from the middle of a record (strangers on the GPU that are not there), and a buffer with room for N
// 24-byte records overflows when the driver writes more than 12 32-byte ones. The buffer here has room for N records
// of the larger layout whatever the stride, so a wrong stride can misread but never overflow.
constexpr std::size_t kProcessRecordBytes = 24;
constexpr std::size_t kProcessRecordCcBytes = 32;
constexpr std::size_t kPidOffset = 0;
constexpr std::size_t kUsedGpuMemoryOffset = 8;
constexpr unsigned kFirstR535WithSmallRecords = 104;  // 535.104.05

constexpr unsigned long long kNotAvailable = ~0ull;  // NVML_VALUE_NOT_AVAILABLE for usedGpuMemory
constexpr unsigned int kMaxProcesses = 1024;
// NVML lists at most this many GPUs to sample (a node has 16 at most today).
constexpr unsigned kMaxDevices = 64;

// The first two numbers of a driver version such as "535.54.03"; nothing when the text does not start that way.
std::optional<std::pair<unsigned, unsigned>> majorMinor(std::string_view version)
{
    unsigned major = 0;
    unsigned minor = 0;
    const char* const end = version.data() + version.size();
    const auto [afterMajor, majorError] = std::from_chars(version.data(), end, major);
    if (majorError != std::errc() || afterMajor == version.data() || afterMajor == end || *afterMajor != '.')
        return std::nullopt;
    const auto [afterMinor, minorError] = std::from_chars(afterMajor + 1, end, minor);
    if (minorError != std::errc() || afterMinor == afterMajor + 1 || (afterMinor != end && *afterMinor != '.'))
        return std::nullopt;
    return std::make_pair(major, minor);
}

// The size of the records the driver of `version` fills for nvmlDeviceGetComputeRunningProcesses_v3 (see above).
std::size_t processRecordBytes(std::string_view version)
{
    const auto number = majorMinor(version);
    if (number && number->first == 535 && number->second < kFirstR535WithSmallRecords)
        return kProcessRecordCcBytes;
    return kProcessRecordBytes;
}

template <class T>
T fieldAt(const unsigned char* record, std::size_t offset)
{
    T value {};
    std::memcpy(&value, record + offset, sizeof value);
    return value;
}

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
    int (*count)(unsigned*) = nullptr;
    int (*byIndex)(unsigned, NvmlDevice*) = nullptr;
    int (*uuid)(NvmlDevice, char*, unsigned) = nullptr;
    int (*name)(NvmlDevice, char*, unsigned) = nullptr;
    int (*processes)(NvmlDevice, unsigned*, void*) = nullptr;  // records of processRecordBytes each
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
    std::size_t processRecordBytes = kProcessRecordBytes;

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
    resolve(a.handle, "nvmlDeviceGetCount_v2", a.count);
    resolve(a.handle, "nvmlDeviceGetHandleByIndex_v2", a.byIndex);
    resolve(a.handle, "nvmlDeviceGetUUID", a.uuid);
    resolve(a.handle, "nvmlDeviceGetName", a.name);
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
        a.processRecordBytes = processRecordBytes(version.data());
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

std::vector<DeviceInfo> NvmlProbe::devices()
{
    const std::lock_guard lock(m_mutex);
    std::vector<DeviceInfo> found;
    const Api& a = *m_api;
    unsigned count = 0;
    if (!a.handle || !a.count || !a.byIndex || !a.uuid || a.count(&count) != kSuccess)
        return found;
    for (unsigned i = 0; i < std::min(count, kMaxDevices); ++i) {
        NvmlDevice handle = nullptr;
        std::array<char, 96> uuid {}, name {};
        if (a.byIndex(i, &handle) != kSuccess || a.uuid(handle, uuid.data(), unsigned(uuid.size())) != kSuccess)
            continue;
        uuid.back() = '\0';
        DeviceInfo d;
        d.index = int(i);  // NVML's order, which need not be CUDA's
        d.uuid = uuid.data();
        if (a.name && a.name(handle, name.data(), unsigned(name.size())) == kSuccess) {
            name.back() = '\0';
            d.name = name.data();
        }
        found.push_back(std::move(d));
    }
    return found;
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
        // The count can grow between the two calls: ask again with room for what it said, a few times. The room is
        // counted in records of the larger layout, so the count passed fits the buffer whatever the driver fills.
        std::vector<unsigned char> records;
        unsigned room = 0;
        unsigned count = 0;
        rc = a.processes(handle, &count, nullptr);
        for (int attempt = 0; attempt < 4 && rc == kInsufficientSize && count <= kMaxProcesses; ++attempt) {
            room = count + 4;
            records.assign(std::size_t { room } * kProcessRecordCcBytes, 0);
            count = room;
            rc = a.processes(handle, &count, records.data());
        }
        if (rc == kSuccess) {
            std::vector<GpuProcess> list;
            bool ownNamespace = false;  // in a container the driver gives the host's PIDs: /proc here knows others
            const std::size_t stride = a.processRecordBytes;
            for (unsigned i = 0; i < count && i < room && (i + 1) * stride <= records.size(); ++i) {
                const unsigned char* record = records.data() + i * stride;
                const auto pid = fieldAt<std::uint32_t>(record, kPidOffset);
                const auto used = fieldAt<std::uint64_t>(record, kUsedGpuMemoryOffset);
                list.push_back({ pid, used == kNotAvailable ? 0 : used, {} });
                ownNamespace = ownNamespace || pid == ownPid();
            }
            for (GpuProcess& p : list)
                p.name = ownNamespace ? commandName(p.pid) : std::string();
            s.processes = std::move(list);
        }
    }
    return s;
}

}  // namespace asyncscope
