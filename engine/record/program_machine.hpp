// The machine's state while a program is recorded: every GPU the probe lists (the program picks its own), sampled
// as a series of the built-in pipeline is (engine/run/machine_monitor), and afterwards the state of the GPU its runs
// ran on, placed on the runs' clock, so that the advice on a program can name another process on its GPU, held
// clocks and a narrowed link. The probe is opened (NVML's start takes tens of milliseconds) and the first readings
// taken on a thread of their own while the program starts, so that the program does not wait for them.
#pragma once

#include "engine/host/machine_probe.hpp"
#include "engine/record/iterations.hpp"
#include "engine/record/recording.hpp"
#include "engine/run/machine_monitor.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace asyncscope {

class ProgramMachine {
public:
    using Opener = std::function<std::unique_ptr<MachineProbe>()>;
    // `open` makes the probe when sampling starts; a null probe, or one unable to read: nothing is sampled, and
    // stateOf says why.
    explicit ProgramMachine(Opener open);
    // A probe that outlives the machine.
    explicit ProgramMachine(MachineProbe* probe);
    ~ProgramMachine();
    ProgramMachine(const ProgramMachine&) = delete;
    ProgramMachine& operator=(const ProgramMachine&) = delete;

    // As the program starts, and returning at once: the probe opened, the processes already on each GPU, then
    // sampling.
    void start();
    // When it has ended: the last samples.
    void stop();

    // The state of the GPU `uuid` ("GPU-…") while the program ran, sample times in ms from the first run's start
    // (`split.originNs`, placed on the host's clock by its process's `clock` line), the program's PID told among the
    // samples. Its `unavailable` says why where nothing can be given.
    MachineState stateOf(const std::string& uuid, const Recording& recording, const RecordedRuns& split);

private:
    void begin();   // on m_starting
    void settle();  // waits for begin

    Opener m_open;
    std::unique_ptr<MachineProbe> m_owned;
    MachineProbe* m_probe = nullptr;
    std::thread m_starting;
    std::vector<DeviceInfo> m_devices;
    std::vector<std::unique_ptr<MachineMonitor>> m_monitors;  // one a device, in m_devices' order
    std::vector<std::optional<std::set<std::uint32_t>>> m_before;
    std::vector<std::optional<MachineState>> m_finished;  // each device's state as its monitor finished
    std::vector<std::int64_t> m_finishedAtNs;              // the first run's time its samples count from
};

// The machine block of a report made from a kept recording: nothing sampled it, said so.
MachineState unsampledMachine();

// The program's PID as the driver numbers it: `program`'s own where a sample lists it; else, where `before` is known,
// the one PID listed after it started that was not there before; empty where neither tells.
std::optional<std::uint32_t> programPid(const std::vector<MachineSample>& samples, std::uint32_t program,
    const std::optional<std::set<std::uint32_t>>& before);

}  // namespace asyncscope
