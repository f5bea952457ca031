// A fake engine for tests: invented devices and invented run results, no CUDA. Test code only.
#pragma once

#include "engine/model/overlap_model.hpp"
#include "engine/run/backend.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace asyncscope::testing {

class FakeBackend final : public Backend {
public:
    std::chrono::milliseconds runDelay { 0 };  // how long each invented run "takes"
    std::optional<Error> discoveryError;       // when set, discovery fails with it
    std::chrono::milliseconds discoveryDelay { 0 };  // how long discovery "takes"
    std::size_t hostBytes = std::size_t(100) << 30;  // a series whose two host buffers exceed this cannot start
    int wrongRun = -1;                         // this run index comes back with a wrong element
    double pipelineGBps = 0.0;                 // when set, the GPU time grows with the size, as on a real GPU
    std::function<Status(const PipelineConfig&)> refuse;  // when set, a series it refuses does not start
    std::atomic<int> activeSeries { 0 };       // series currently inside run()
    std::atomic<int> mostActiveSeries { 0 };   // the most series ever inside run() at once
    std::atomic<int> runsDelivered { 0 };
    std::atomic<int> seriesStarted { 0 };
    std::atomic<std::thread::id> discoveryThread {};
    std::atomic<std::thread::id> runThread {};

    static DeviceInfo device(int index, const std::string& name, int sms)
    {
        DeviceInfo d;
        d.index = index;
        d.name = name;
        d.computeMajor = 9;
        d.multiprocessors = sms;
        d.clockKHz = 1980000;
        d.totalMemoryBytes = std::size_t(80) << 30;
        d.uuid = "GPU-fake-" + std::to_string(index);
        d.pciBusId = "0000:0" + std::to_string(index) + ":00.0";
        d.asyncEngineCount = 3;
        return d;
    }

    // The devices discovery finds: by default a small and a big GPU whose place in the host is unknown.
    std::vector<DeviceInfo> devices { device(0, "Fake Small GPU", 20), device(1, "Fake Big GPU", 132) };
    // Per device index: the rate in GB/s its H2D and D2H copies run at (a GPU time that follows). A device not
    // named here runs the fake's usual times.
    std::map<int, double> copyGBps;

    // `count` identical GPUs on PCIe Gen5 x16 links (63.0 GB/s nominal), four to a NUMA node, copying at 55 GB/s.
    void useHostOf(int count)
    {
        devices.clear();
        copyGBps.clear();
        for (int i = 0; i < count; ++i) {
            DeviceInfo d = device(i, "Fake H200", 132);
            d.pciBusId = "0000:" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ":00.0";
            d.topology.numaNode = i / 4;
            d.topology.localCpus = std::to_string(32 * (i / 4)) + "-" + std::to_string(32 * (i / 4) + 31);
            d.topology.current = { "32.0 GT/s PCIe", 5, 16 };
            d.topology.max = d.topology.current;
            devices.push_back(d);
            copyGBps[i] = 55.0;
        }
    }

    Result<Platform> discover() override
    {
        discoveryThread = std::this_thread::get_id();
        std::this_thread::sleep_for(discoveryDelay);
        if (discoveryError)
            return *discoveryError;
        Platform p;
        p.driverVersion = 13000;
        p.runtimeVersion = 13000;
        p.devices = devices;
        return p;
    }

    // The thread that ran the latest series on `device`.
    std::thread::id threadOf(int device) const
    {
        std::lock_guard lock(m_mutex);
        const auto at = m_threads.find(device);
        return at == m_threads.end() ? std::thread::id() : at->second;
    }

    // Each path's own invented figures (H2D, D2H, both at once), so that a test can tell which one a variant got.
    static CopyPeak copyPeakValue(CopyPath path = CopyPath::Pinned)
    {
        CopyPeak p { 55.0, 55.0, std::size_t(256) << 20, true, 100.0, path, { 2.0, 2.5, 2500.0, 2.0 } };
        switch (path) {
        case CopyPath::Pinned: break;
        case CopyPath::Pageable: p.h2dGBps = 7.0, p.d2hGBps = 13.0, p.bidirectionalGBps = 15.0; break;
        case CopyPath::WriteCombined: p.h2dGBps = 54.0, p.d2hGBps = 53.0, p.bidirectionalGBps = 98.0; break;
        case CopyPath::Registered: p.h2dGBps = 53.5, p.d2hGBps = 54.5, p.bidirectionalGBps = 99.0; break;
        case CopyPath::Sm: p.h2dGBps = 50.0, p.d2hGBps = 52.0, p.bidirectionalGBps = 90.0; break;
        case CopyPath::ManagedPrefetch: p.h2dGBps = 48.0, p.d2hGBps = 10.0, p.bidirectionalGBps = 45.0; break;
        }
        return p;
    }
    std::chrono::milliseconds calibrationDelay { 0 };  // how long each calibration "takes"
    std::atomic<int> activeCalibrations { 0 };
    std::atomic<int> mostActiveCalibrations { 0 };
    std::vector<CopyPath> unsupportedPaths;  // calibrating these fails with ErrorKind::Unsupported
    std::optional<Error> calibrationError;   // when set, every other calibration fails with it

    // Every calibration asked for, in order: the device's UUID and the path.
    std::vector<std::pair<std::string, CopyPath>> calibrations() const
    {
        std::lock_guard lock(m_mutex);
        return m_calibrations;
    }

    Result<CopyPeak> copyPeak(const DeviceInfo& device, CopyPath path) override
    {
        const int active = ++activeCalibrations;
        int most = mostActiveCalibrations.load();
        while (active > most && !mostActiveCalibrations.compare_exchange_weak(most, active)) {
        }
        std::this_thread::sleep_for(calibrationDelay);
        --activeCalibrations;
        {
            std::lock_guard lock(m_mutex);
            m_calibrations.emplace_back(device.uuid, path);
        }
        if (std::find(unsupportedPaths.begin(), unsupportedPaths.end(), path) != unsupportedPaths.end())
            return makeError(ErrorKind::Unsupported,
                std::string("this fake device cannot calibrate the ") + nameOf(path) + " path");
        if (calibrationError)
            return *calibrationError;
        return copyPeakValue(path);
    }

    // A chunked run's GPU spans, evenly paced so that the last D2H ends at `gpuMs`; none without stage events.
    static std::vector<Span> chunkedSpans(const PipelineConfig& config, double gpuMs)
    {
        std::vector<Span> spans;
        if (!config.stageEvents)
            return spans;
        const auto ranges = chunkRanges(config.elements, config.chunks);
        const double step = gpuMs / (config.chunks + 2);
        for (int c = 0; c < config.chunks; ++c) {
            const std::uint64_t b = ranges[std::size_t(c)].count * sizeof(int);
            const int stream = c % config.streams;
            const double at = c * step;
            spans.push_back({ SpanKind::H2D, config.device, stream, c, b, at, at + step });
            spans.push_back({ SpanKind::Kernel, config.device, stream, c, 2 * b, at + step, at + 1.1 * step });
            spans.push_back({ SpanKind::D2H, config.device, stream, c, b, at + 1.1 * step, at + 2 * step });
        }
        return spans;
    }

    // The configuration of the latest series, as the caller handed it over.
    PipelineConfig lastConfig() const
    {
        std::lock_guard lock(m_mutex);
        return m_lastConfig;
    }

    using Backend::run;
    Result<SeriesOutcome> run(const PipelineConfig& config, const std::atomic<bool>& cancel, const RunSink& sink,
        const SeriesReady& ready) override
    {
        runThread = std::this_thread::get_id();
        double gbps = 0.0;
        {
            std::lock_guard lock(m_mutex);
            m_lastConfig = config;
            m_threads[config.device] = std::this_thread::get_id();
            if (const auto rate = copyGBps.find(config.device); rate != copyGBps.end())
                gbps = rate->second;
        }
        if (auto tooBig = checkFitsHost(config, hostBytes))
            return *tooBig;
        if (Status refused = refuse ? refuse(config) : std::nullopt)
            return *refused;
        ++seriesStarted;
        const int active = ++activeSeries;
        int most = mostActiveSeries.load();
        while (active > most && !mostActiveSeries.compare_exchange_weak(most, active)) {
        }
        if (ready)
            ready();
        struct Leave {
            std::atomic<int>& count;
            ~Leave() { --count; }
        } leave { activeSeries };

        const int total = config.warmupRuns + config.runs;
        const std::uint64_t bytes = config.bytes();
        for (int i = 0; i < total; ++i) {
            const auto until = std::chrono::steady_clock::now() + runDelay;
            while (std::chrono::steady_clock::now() < until) {  // the "poll loop": cancel is honoured inside it
                if (cancel.load())
                    return makeError(ErrorKind::Cancelled, "cancelled during run " + std::to_string(i));
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            if (cancel.load())
                return makeError(ErrorKind::Cancelled, "cancelled before run " + std::to_string(i));
            RunResult r;
            r.index = i;
            r.warmup = i < config.warmupRuns;
            // It "ran" for the delay just waited: its window on the host clock ends now.
            const auto endedAt = std::chrono::steady_clock::now();
            r.hostClockNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                (endedAt - runDelay).time_since_epoch()).count();
            r.gpuMs = 2.5 + 0.01 * (i % 7) + (r.warmup ? 1.0 : 0.0);
            if (pipelineGBps > 0.0)
                r.gpuMs = 2.0 * double(bytes) / (pipelineGBps * 1e6) * (1.0 + 0.01 * (i % 7));
            r.pollIterations = 9000 + i % 100;
            // Stream calls cost per operation; a graph launch costs about the same whatever it holds; batches cost a
            // call per stream and direction and a launch per kernel.
            const double submitMs = config.submission == Submission::Graph
                ? 0.004 + 0.0001 * (i % 5)
                : config.submission == Submission::Batch
                ? (0.044 + 0.002 * (2 * config.streams + config.chunks)) + 0.001 * (i % 5)
                : (0.044 + 0.002 * 3 * config.chunks) + 0.001 * (i % 5);
            if (config.chunks > 1) {
                r.gpuMs *= modelledMs(bytes, config.chunks, config.streams, config.submission, copyPeakValue(), 0.06) /
                    modelledMs(bytes, 1, 1, config.submission, copyPeakValue(), 0.06) * 1.05;
                r.spans = chunkedSpans(config, r.gpuMs);
                r.spans.push_back({ SpanKind::Submit, config.device, 0, 0, 0, 0.0, submitMs });
                r.spans.push_back({ SpanKind::Wait, config.device, 0, 0, 0, submitMs, r.gpuMs });
            } else {
                SerialDurations d;
                d.bytes = bytes;
                d.submitMs = submitMs;
                if (gbps > 0.0)
                    r.gpuMs = 2.0 * double(bytes) / (gbps * 1e6) * (1.0 + 0.001 * (i % 7)) + 0.06;
                d.waitMs = r.gpuMs - d.submitMs;
                if (config.stageEvents) {
                    d.h2dMs = gbps > 0.0 ? double(bytes) / (gbps * 1e6) * (1.0 + 0.001 * (i % 7)) : 1.22;
                    d.kernelMs = 0.06;
                    d.d2hMs = std::max(0.0, r.gpuMs - d.h2dMs - d.kernelMs);
                }
                r.spans = serialSpans(config.device, d);
            }
            r.expectedValue = config.value * (i / 2 + 1);
            r.verified = i != wrongRun;
            if (!r.verified) {
                r.firstWrongIndex = 513;
                r.firstWrongValue = -1;
            }
            sink(r);
            ++runsDelivered;
        }
        SeriesOutcome outcome;
        outcome.measuredRuns = config.runs;
        outcome.noisePercent = 0.1;
        return outcome;
    }

private:
    mutable std::mutex m_mutex;
    PipelineConfig m_lastConfig;
    std::map<int, std::thread::id> m_threads;
    std::vector<std::pair<std::string, CopyPath>> m_calibrations;
};

}  // namespace asyncscope::testing
