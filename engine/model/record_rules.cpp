#include "engine/model/record_rules.hpp"

#include "engine/model/display_text.hpp"
#include "engine/model/program_info.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace asyncscope {

namespace {

FieldProblem problem(std::string_view field, std::string found, std::string accepted)
{
    return { std::string(field), std::move(found), std::move(accepted) };
}

// `name` and `index` make the field's name, only for a span refused: a million runs' spans are checked as they are
// read, and most are fine.
// What a time above kMaxTimeMs is refused with.
constexpr const char* kTimeBound = "at most 1e9 ms (11.6 days): no run takes so long";

FieldCheck checkSpan(const Span& s, const char* name, std::size_t index, const PipelineConfig& config)
{
    const auto field = [&] { return std::string(name) + "[" + std::to_string(index) + "]"; };
    if (!std::isfinite(s.beginMs) || !std::isfinite(s.endMs) || s.beginMs < 0.0 || s.endMs < s.beginMs ||
        s.endMs > kMaxTimeMs)
        return problem(field(), "from " + quotedNumber(s.beginMs) + " to " + quotedNumber(s.endMs) + " ms",
            "finite times from 0 to 1e9 ms (a run's own times, which never begin before it), the end not before the "
            "begin");
    if (onGpu(s.kind)) {
        if (s.stream < 0 || s.stream >= config.streams)
            return problem(field() + ".stream", std::to_string(s.stream),
                "a stream from 0 to " + std::to_string(config.streams - 1) + " (the configuration's streams)");
        if (s.chunk < 0 || s.chunk >= config.chunks)
            return problem(field() + ".chunk", std::to_string(s.chunk),
                "a chunk from 0 to " + std::to_string(config.chunks - 1) + " (the configuration's chunks)");
    } else {
        // The pipeline's check threads, or a recorded program's threads (its lanes).
        if (s.stream < 0 || s.stream >= int(kMaxProgramThreads))
            return problem(field() + ".stream", std::to_string(s.stream),
                "a host thread from 0 to " + std::to_string(kMaxProgramThreads - 1));
        if (s.chunk < 0 || s.chunk >= std::max(config.chunks, 1))
            return problem(field() + ".chunk", std::to_string(s.chunk),
                "a chunk from 0 to " + std::to_string(std::max(config.chunks, 1) - 1));
    }
    if (s.device < 0)
        return problem(field() + ".device", std::to_string(s.device), "a device index, 0 or more");
    if (s.bytes > kMaxCopyBytes)
        return problem(field() + ".bytes", std::to_string(s.bytes),
            "a whole number of bytes from 0 to " + std::to_string(kMaxCopyBytes) + " (64 TiB: more than any memory)");
    return std::nullopt;
}

// A choice's value is one its name table holds (a configuration made in code can hold any value of the enum).
template <class Enum>
FieldCheck checkChoice(std::string_view field, Enum value)
{
    for (const auto& entry : EnumNames<Enum>::entries) {
        if (entry.first == value)
            return std::nullopt;
    }
    return problem(field, std::to_string(static_cast<int>(value)), acceptedNames<Enum>());
}

FieldCheck checkSpans(const std::vector<Span>& spans, const char* name, const PipelineConfig& config)
{
    for (std::size_t i = 0; i < spans.size(); ++i) {
        if (auto bad = checkSpan(spans[i], name, i, config))
            return bad;
    }
    return std::nullopt;
}

}  // namespace

std::string quotedValue(std::string_view text)
{
    std::string out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size();) {
        if (chars == kMaxQuotedChars)
            return out + "…";
        const std::size_t length = utf8Length(text.substr(i));
        const unsigned char c = static_cast<unsigned char>(text[i]);
        static const char hex[] = "0123456789abcdef";
        if (length == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) <= 0x9F) {  // a C1 control: "\x9b"
            const unsigned char code = static_cast<unsigned char>(text[i + 1]);
            out += std::string("\\x") + hex[code >> 4] + hex[code & 0xF];
        } else if (length > 1) {
            out.append(text.substr(i, length));
        } else if (length == 1 && c >= 0x20 && c != 0x7F) {
            out += char(c);
        } else {  // a control character, or a byte that is not UTF-8: shown, not passed on
            out += c == '\n' ? std::string("\\n") : std::string("\\x") + hex[c >> 4] + hex[c & 0xF];
        }
        i += std::max<std::size_t>(length, 1);
        ++chars;
    }
    return out;
}

std::string quotedNumber(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value < 0 ? "-inf" : "inf";
    char text[64];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
    return ec == std::errc() ? std::string(text, end) : std::string("?");
}

Error fieldError(std::string_view file, std::string_view where, const FieldProblem& p)
{
    std::string detail(file);
    if (!where.empty())
        detail += (detail.empty() ? "" : ", ") + std::string(where);
    detail += (detail.empty() ? "" : ": ") + p.field + " is " +
        (p.found.empty() ? std::string("empty") : quotedValue(p.found)) + "; accepted: " + p.accepted;
    return makeError(ErrorKind::Io, detail);
}

FieldCheck checkDurationMs(std::string_view field, double ms)
{
    if (std::isfinite(ms) && ms >= 0.0 && ms <= kMaxTimeMs)
        return std::nullopt;
    return problem(field, quotedNumber(ms),
        std::isfinite(ms) && ms > kMaxTimeMs ? kTimeBound : "a finite number of ms, 0 or more");
}

FieldCheck checkFormatVersion(double version, int newest)
{
    if (std::isfinite(version) && version == std::floor(version) && version >= 1 && version <= newest)
        return std::nullopt;
    return problem("format_version", quotedNumber(version),
        "a whole number from 1 to " + std::to_string(newest) +
            (std::isfinite(version) && version > newest ? " (a newer AsyncScope wrote it: update to read it)" : ""));
}

FieldCheck parseComputeCapability(std::string_view field, std::string_view text, int& major, int& minor)
{
    const auto fail = [&] { return problem(field, quotedValue(text), "a compute capability such as \"9.0\""); };
    const std::size_t dot = text.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot > 2 || text.size() - dot - 1 < 1 || text.size() - dot - 1 > 2)
        return fail();
    int parts[2] = { 0, 0 };
    const std::string_view pieces[2] = { text.substr(0, dot), text.substr(dot + 1) };
    for (int k = 0; k < 2; ++k) {
        const auto [end, ec] = std::from_chars(pieces[k].data(), pieces[k].data() + pieces[k].size(), parts[k]);
        if (ec != std::errc() || end != pieces[k].data() + pieces[k].size() || parts[k] < 0)
            return fail();
    }
    major = parts[0];
    minor = parts[1];
    return std::nullopt;
}

FieldCheck checkCopyGBps(std::string_view field, double gbps)
{
    if (std::isfinite(gbps) && gbps >= kMinCopyGBps && gbps <= kMaxCopyGBps)
        return std::nullopt;
    return problem(field, quotedNumber(gbps),
        "a finite number of GB/s from " + quotedNumber(kMinCopyGBps) + " to " + quotedNumber(kMaxCopyGBps));
}

FieldCheck checkCalibrationAmount(std::string_view field, double value, double most, const char* unit)
{
    if (std::isfinite(value) && value >= 0.0 && value <= most)
        return std::nullopt;
    return problem(field, quotedNumber(value), std::string("a finite number of ") + unit + " from 0 to " +
        quotedNumber(most));
}

FieldCheck checkName(std::string_view field, std::string_view text)
{
    if (text.size() <= kMaxNameBytes)
        return std::nullopt;
    return problem(field, quotedValue(text), "at most " + std::to_string(kMaxNameBytes) + " bytes");
}

FieldCheck checkNote(std::string_view field, std::string_view text)
{
    if (text.size() <= kMaxNoteBytes)
        return std::nullopt;
    return problem(field, quotedValue(text), "at most " + std::to_string(kMaxNoteBytes) + " bytes");
}

FieldCheck checkSpanName(std::string_view field, std::string_view text)
{
    if (!text.empty() && text.size() <= kMaxSpanNameBytes)
        return std::nullopt;
    return problem(field, quotedValue(text), "a name of 1 to " + std::to_string(kMaxSpanNameBytes) + " bytes");
}

FieldCheck checkConfig(const PipelineConfig& c)
{
    if (auto invalid = validate(c))
        return problem("config", "one the CLI refuses (" + invalid->detail + ")",
            "a configuration the CLI and the window would run");
    if (!std::isfinite(c.targetNoisePercent) || c.targetNoisePercent < 0.0)
        return problem("config.noise_target", quotedNumber(c.targetNoisePercent), "a finite percentage, 0 or more");
    if (!std::isfinite(c.minGpuMs) || c.minGpuMs < 0.0)
        return problem("config.min_time_ms", quotedNumber(c.minGpuMs), "a finite number of ms, 0 or more");
    if (!std::isfinite(c.timeoutS) || c.timeoutS < 0.0)
        return problem("config.timeout_s", quotedNumber(c.timeoutS), "a finite number of seconds, 0 or more");
    if (c.minRuns < 0)
        return problem("config.min_runs", std::to_string(c.minRuns), "0 or more");
    for (const FieldCheck& bad : { checkChoice("config.host_memory", c.hostMemory), checkChoice("config.copy", c.copy),
             checkChoice("config.managed_migration", c.managedMigration),
             checkChoice("config.managed_advice", c.managedAdvice), checkChoice("config.submission", c.submission) }) {
        if (bad)
            return bad;
    }
    return std::nullopt;
}

FieldCheck checkHostRegistration(const SeriesOutcome& o, std::string_view prefix)
{
    const std::string at(prefix);
    for (auto [key, ms] : { std::pair { "host_register_ms", o.hostRegisterMs },
             std::pair { "host_unregister_ms", o.hostUnregisterMs } }) {
        if (ms) {
            if (auto bad = checkDurationMs(at + key, *ms))
                return bad;
        }
    }
    if (o.hostRegisteredBytes > kMaxRegisteredBytes)
        return problem(at + "host_registered_bytes", std::to_string(o.hostRegisteredBytes),
            "a whole number of bytes from 0 to " + std::to_string(kMaxRegisteredBytes));
    return std::nullopt;
}

FieldCheck checkDevice(const DeviceInfo& d)
{
    if (auto bad = checkName("device.name", d.name))
        return bad;
    if (auto bad = checkName("device.uuid", d.uuid))
        return bad;
    if (auto bad = checkName("device.pci_bus_id", d.pciBusId))
        return bad;
    if (d.index < 0)
        return problem("device.index", std::to_string(d.index), "0 or more");
    if (d.computeMajor < 0 || d.computeMinor < 0)
        return problem("device.compute_capability", d.computeCapability(), "a compute capability such as \"9.0\"");
    if (d.multiprocessors < 0)
        return problem("device.multiprocessors", std::to_string(d.multiprocessors), "0 or more");
    if (d.asyncEngineCount < 0)
        return problem("device.async_engines", std::to_string(d.asyncEngineCount), "0 or more");
    if (d.clockKHz < 0)
        return problem("device.clock_khz", std::to_string(d.clockKHz), "0 or more");
    return std::nullopt;
}

FieldCheck checkRun(const RunResult& run, const PipelineConfig& config)
{
    if (run.index < 0)
        return problem("run", std::to_string(run.index), "a run index, 0 or more");
    if (run.block < 0 || run.block >= kMaxBlocks)
        return problem("block", std::to_string(run.block), "a block from 0 to " + std::to_string(kMaxBlocks - 1));
    if (auto bad = checkDurationMs("gpu_time_ms", run.gpuMs))
        return bad;
    if (auto bad = checkDurationMs("wait_cpu_ms", run.waitCpuMs))
        return bad;
    if (auto bad = checkDurationMs("start_ms", run.startMs))
        return bad;
    if (run.firstWrongIndex < -1 || (!run.verified && run.firstWrongIndex >= 0 &&
                                        std::uint64_t(run.firstWrongIndex) >= config.elements))
        return problem("first_wrong_index", std::to_string(run.firstWrongIndex),
            "-1, or an element from 0 to " + std::to_string(config.elements - 1));
    if (auto bad = checkSpans(run.spans, "spans", config))
        return bad;
    return checkSpans(run.traced, "traced", config);
}

FieldCheck checkBlockOrder(int block, int before)
{
    if (block >= before)
        return std::nullopt;
    return problem("block", std::to_string(block),
        std::to_string(before) + " or more, the block of the run before it: a series' blocks in order");
}

}  // namespace asyncscope
