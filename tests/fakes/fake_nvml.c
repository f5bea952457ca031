/* A test fake standing in for the driver's NVML library (libnvidia-ml.so.1): no GPU, no driver, only the C functions
 * NvmlProbe (engine/host/nvml_probe) resolves, with NVML's signatures and result codes. Test code only.
 *
 * Its readings come from environment variables read at every call, so that a test can change them between two
 * samples with setenv. A reading whose variable is not set answers NVML_ERROR_NOT_SUPPORTED, as a driver does for a
 * query the GPU does not support.
 *
 *   FAKE_NVML_INIT_FAILS      set: nvmlInit_v2 answers NVML_ERROR_DRIVER_NOT_LOADED
 *   FAKE_NVML_DRIVER_VERSION  what nvmlSystemGetDriverVersion gives (default "580.95.05")
 *   FAKE_NVML_UUID            the one UUID it knows (default "GPU-fake-nvml-0"); any other is NVML_ERROR_NOT_FOUND
 *   FAKE_NVML_BUS_ID          the one PCI bus id it knows (default "00000000:17:00.0"), the same device
 *   FAKE_NVML_SM_MHZ, FAKE_NVML_SM_MAX_MHZ, FAKE_NVML_MEM_MHZ, FAKE_NVML_MEM_MAX_MHZ   clocks now and at most
 *   FAKE_NVML_REASONS         the clock event reasons' mask ("0x4")
 *   FAKE_NVML_TEMP_C, FAKE_NVML_POWER_MW, FAKE_NVML_PERSISTENCE (0 or 1)
 *   FAKE_NVML_LINK_GEN, FAKE_NVML_LINK_WIDTH, FAKE_NVML_LINK_GEN_MAX, FAKE_NVML_LINK_WIDTH_MAX
 *   FAKE_NVML_PIDS            the compute processes, "pid:bytes,pid:bytes" ("na" for bytes: NVML_VALUE_NOT_AVAILABLE);
 *                             unset or empty: none
 *   FAKE_NVML_PIDS_LATER      set: the processes from the process query's second call after nvmlInit_v2 on (a list
 *                             that changes between the call that counts and the call that reads)
 *   FAKE_NVML_NO_PROCESSES    set: the process query answers NVML_ERROR_NOT_SUPPORTED
 *   FAKE_NVML_PROCESS_RECORD_BYTES  "32": the process query fills 32-byte records (the extra usedGpuCcProtectedMemory
 *                             of R535 drivers before 535.104.05, set to the process's bytes); unset or anything else:
 *                             24-byte nvmlProcessInfo_v2_t records, as other drivers fill. Its room, *infoCount, is
 *                             counted in records of that size, as the driver counts it.
 *
 * Built three ways (tests/CMakeLists.txt): as a current driver's library; with FAKE_NVML_OLD_DRIVER, as an older one
 * that has the clock reasons under their former name and neither the driver version, the bus id lookup nor the v3
 * process query; with FAKE_NVML_NOT_NVML, as a library with some of NVML's names but not a device query it needs.
 */
#include <stdlib.h>
#include <string.h>

#define NVML_SUCCESS 0
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_NOT_FOUND 6
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_DRIVER_NOT_LOADED 9
#define NVML_ERROR_UNINITIALIZED 1

#define FAKE_EXPORT __attribute__((visibility("default")))

typedef struct FakeDevice {
    int index;
} *nvmlDevice_t;

typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
} nvmlProcessInfo_v2_t;

/* The record of R535 drivers before 535.104.05 (their nvmlProcessInfo_t): the same and protected memory after it. */
typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
    unsigned long long usedGpuCcProtectedMemory;
} nvmlProcessInfoCc_t;

static struct FakeDevice theDevice = { 0 };
static int initCount = 0;    /* nvmlInit_v2 calls not yet shut down, as NVML counts them */
static int processCalls = 0; /* process queries since the last nvmlInit_v2 */

static const char* env(const char* name, const char* fallback)
{
    const char* value = getenv(name);
    return value ? value : fallback;
}

/* An unsigned reading from `name`: NVML_ERROR_NOT_SUPPORTED when it is not set. */
static int reading(nvmlDevice_t device, const char* name, unsigned long long* out)
{
    const char* value = getenv(name);
    if (initCount <= 0)
        return NVML_ERROR_UNINITIALIZED;
    if (device != &theDevice || !out)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (!value || !*value)
        return NVML_ERROR_NOT_SUPPORTED;
    *out = strtoull(value, NULL, 0);
    return NVML_SUCCESS;
}

static int readingUnsigned(nvmlDevice_t device, const char* name, unsigned int* out)
{
    unsigned long long value = 0;
    const int rc = reading(device, name, &value);
    if (rc == NVML_SUCCESS)
        *out = (unsigned int)value;
    return rc;
}

/* Whether the process query fills the 32-byte records (FAKE_NVML_PROCESS_RECORD_BYTES). */
static int ccRecords(void)
{
    return strcmp(env("FAKE_NVML_PROCESS_RECORD_BYTES", ""), "32") == 0;
}

/* Writes record `index` of `infos` in the layout ccRecords() chooses, as raw bytes at its stride. */
static void writeRecord(void* infos, unsigned int index, unsigned int pid, unsigned long long bytes)
{
    nvmlProcessInfoCc_t record;
    memset(&record, 0, sizeof record);
    record.pid = pid;
    record.usedGpuMemory = bytes;
    record.gpuInstanceId = ~0u;
    record.computeInstanceId = ~0u;
    record.usedGpuCcProtectedMemory = bytes;
    if (ccRecords()) {
        memcpy((unsigned char*)infos + (size_t)index * sizeof(nvmlProcessInfoCc_t), &record, sizeof record);
    } else {
        nvmlProcessInfo_v2_t small;
        memset(&small, 0, sizeof small);
        small.pid = record.pid;
        small.usedGpuMemory = record.usedGpuMemory;
        small.gpuInstanceId = record.gpuInstanceId;
        small.computeInstanceId = record.computeInstanceId;
        memcpy((unsigned char*)infos + (size_t)index * sizeof(nvmlProcessInfo_v2_t), &small, sizeof small);
    }
}

/* How many processes FAKE_NVML_PIDS lists; fills `infos` up to `room` of them. */
static unsigned int processes(const char* list, void* infos, unsigned int room)
{
    const char* at = list;
    unsigned int count = 0;
    while (*at) {
        char* end = NULL;
        const unsigned long pid = strtoul(at, &end, 10);
        unsigned long long bytes = 0;
        if (end == at)
            break;
        at = end;
        if (*at == ':') {
            ++at;
            if (strncmp(at, "na", 2) == 0) {
                bytes = ~0ull;
                at += 2;
            } else {
                bytes = strtoull(at, &end, 10);
                at = end;
            }
        }
        if (infos && count < room)
            writeRecord(infos, count, (unsigned int)pid, bytes);
        ++count;
        while (*at == ',' || *at == ' ')
            ++at;
    }
    return count;
}

FAKE_EXPORT int fake_nvml_init_count(void)
{
    return initCount;
}

FAKE_EXPORT int nvmlInit_v2(void)
{
    if (getenv("FAKE_NVML_INIT_FAILS"))
        return NVML_ERROR_DRIVER_NOT_LOADED;
    ++initCount;
    processCalls = 0;
    return NVML_SUCCESS;
}

FAKE_EXPORT int nvmlShutdown(void)
{
    if (initCount <= 0)
        return NVML_ERROR_UNINITIALIZED;
    --initCount;
    return NVML_SUCCESS;
}

FAKE_EXPORT const char* nvmlErrorString(int result)
{
    switch (result) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_NOT_FOUND: return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    default: return "Unknown Error";
    }
}

FAKE_EXPORT int nvmlDeviceGetHandleByUUID(const char* uuid, nvmlDevice_t* device)
{
    if (initCount <= 0)
        return NVML_ERROR_UNINITIALIZED;
    if (!uuid || !device)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (strcmp(uuid, env("FAKE_NVML_UUID", "GPU-fake-nvml-0")) != 0)
        return NVML_ERROR_NOT_FOUND;
    *device = &theDevice;
    return NVML_SUCCESS;
}

#ifndef FAKE_NVML_NOT_NVML
FAKE_EXPORT int nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned int* clock)
{
    return readingUnsigned(device, type == 1 ? "FAKE_NVML_SM_MHZ" : type == 2 ? "FAKE_NVML_MEM_MHZ" : "", clock);
}
#endif

FAKE_EXPORT int nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, int type, unsigned int* clock)
{
    return readingUnsigned(device, type == 1 ? "FAKE_NVML_SM_MAX_MHZ" : type == 2 ? "FAKE_NVML_MEM_MAX_MHZ" : "",
        clock);
}

#ifdef FAKE_NVML_OLD_DRIVER
FAKE_EXPORT int nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t device, unsigned long long* reasons)
{
    return reading(device, "FAKE_NVML_REASONS", reasons);
}
#else
FAKE_EXPORT int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device, unsigned long long* reasons)
{
    return reading(device, "FAKE_NVML_REASONS", reasons);
}

FAKE_EXPORT int nvmlSystemGetDriverVersion(char* version, unsigned int length)
{
    const char* text = env("FAKE_NVML_DRIVER_VERSION", "580.95.05");
    if (initCount <= 0)
        return NVML_ERROR_UNINITIALIZED;
    if (!version)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (strlen(text) + 1 > length)
        return NVML_ERROR_INSUFFICIENT_SIZE;
    memcpy(version, text, strlen(text) + 1);
    return NVML_SUCCESS;
}

FAKE_EXPORT int nvmlDeviceGetHandleByPciBusId_v2(const char* busId, nvmlDevice_t* device)
{
    if (initCount <= 0)
        return NVML_ERROR_UNINITIALIZED;
    if (!busId || !device)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (strcmp(busId, env("FAKE_NVML_BUS_ID", "00000000:17:00.0")) != 0)
        return NVML_ERROR_NOT_FOUND;
    *device = &theDevice;
    return NVML_SUCCESS;
}

/* As the driver's: with `infos` null or `*infoCount` too small for them all, NVML_ERROR_INSUFFICIENT_SIZE and the
 * count needed in `*infoCount`; a list of none is a success with null `infos`. */
FAKE_EXPORT int nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int* infoCount, void* infos)
{
    const char* list = env("FAKE_NVML_PIDS", "");
    unsigned int count;
    if (initCount <= 0)
        return NVML_ERROR_UNINITIALIZED;
    if (device != &theDevice || !infoCount)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (getenv("FAKE_NVML_NO_PROCESSES"))
        return NVML_ERROR_NOT_SUPPORTED;
    if (processCalls++ > 0 && getenv("FAKE_NVML_PIDS_LATER"))
        list = getenv("FAKE_NVML_PIDS_LATER");
    count = processes(list, NULL, 0);
    if (count > *infoCount || (count > 0 && !infos)) {
        *infoCount = count;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    processes(list, infos, *infoCount);
    *infoCount = count;
    return NVML_SUCCESS;
}
#endif

FAKE_EXPORT int nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned int* temperature)
{
    return sensor == 0 ? readingUnsigned(device, "FAKE_NVML_TEMP_C", temperature) : NVML_ERROR_INVALID_ARGUMENT;
}

FAKE_EXPORT int nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int* milliwatts)
{
    return readingUnsigned(device, "FAKE_NVML_POWER_MW", milliwatts);
}

FAKE_EXPORT int nvmlDeviceGetPersistenceMode(nvmlDevice_t device, int* mode)
{
    unsigned int value = 0;
    const int rc = readingUnsigned(device, "FAKE_NVML_PERSISTENCE", &value);
    if (rc == NVML_SUCCESS)
        *mode = value != 0;
    return rc;
}

FAKE_EXPORT int nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t device, unsigned int* generation)
{
    return readingUnsigned(device, "FAKE_NVML_LINK_GEN", generation);
}

FAKE_EXPORT int nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t device, unsigned int* width)
{
    return readingUnsigned(device, "FAKE_NVML_LINK_WIDTH", width);
}

FAKE_EXPORT int nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t device, unsigned int* generation)
{
    return readingUnsigned(device, "FAKE_NVML_LINK_GEN_MAX", generation);
}

FAKE_EXPORT int nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t device, unsigned int* width)
{
    return readingUnsigned(device, "FAKE_NVML_LINK_WIDTH_MAX", width);
}
