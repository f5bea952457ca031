// The rules a record read back from a file must meet: the values a run of the pipeline can produce, and the limits
// the CLI and the window apply to what they run (validate() for the configuration). One table for every reader
// (JSON formats 1 to 4, CSV, host records, the copy-peak cache), so that a file is accepted or refused the same way
// whichever format holds it. Each check names the field, quotes what was found (cut) and says what is accepted.
#pragma once

#include "engine/model/config.hpp"
#include "engine/model/device.hpp"
#include "engine/model/error.hpp"
#include "engine/model/outcome.hpp"
#include "engine/model/run_result.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace asyncscope {

constexpr int kMaxStreams = kMaxChunks;          // streams take at least one chunk each
constexpr std::size_t kMaxNameBytes = 256;       // a device's name, UUID or bus id; longer is refused
constexpr int kMaxComputeCapabilityPart = 99;    // each of a compute capability's two numbers, "99.99" at most
constexpr std::size_t kMaxQuotedChars = 80;      // what a message quotes of a value it refuses
constexpr std::size_t kMaxNoteBytes = 4096;      // a note a record carries (why CUPTI was not used, topology gaps)
constexpr int kMaxNestingDepth = 64;             // lists and objects within each other in a JSON record
// The longest time a record may give, in ms: 10^9 ms, about 11.6 days. No run of any size on any GPU takes so long
// and a series' start times stay below it; a time such as 1e308 could only turn the statistics into inf and NaN.
constexpr double kMaxTimeMs = 1e9;
// A copy bandwidth a host can have, in decimal GB/s: above a thousandth (1 MB/s; a slower copy is a broken
// measurement) and below 10 000 (ten times the fastest host link there is).
constexpr double kMinCopyGBps = 1e-3;
constexpr double kMaxCopyGBps = 1e4;
// An operation's fixed cost a calibration gives (OperationCosts), in µs: at most a second, far above any copy's or
// launch's; the pipeline kernel's rate in GB/s at most 10^5, far above any GPU memory's.
constexpr double kMaxOperationCostUs = 1e6;
constexpr double kMaxKernelGBps = 1e5;
// The variants a plan can hold: a size sweep over every power of two a size_t has, the longest plan there is.
constexpr std::size_t kMaxPlanVariants = 64;
// Host memory a series registers: its two host buffers together, each at most the largest byte count a configuration
// can have; 2^50 bytes (a pebibyte) is far above any host's memory.
constexpr std::uint64_t kMaxRegisteredBytes = std::uint64_t(1) << 50;
// The bytes one copy or set moves: 2^46 (64 TiB), more than any GPU's or host's memory. A run's spans (at most 2^17 a
// reader takes) then add up below 2^63: a sum of a run's bytes never wraps past 2^64 to a small number.
constexpr std::uint64_t kMaxCopyBytes = std::uint64_t(1) << 46;
// A count or a byte total added up from a record's values: at most 2^64 - 1, never wrapped round to a small number.
constexpr std::uint64_t addCounts(std::uint64_t total, std::uint64_t more)
{
    return total > ~std::uint64_t(0) - more ? ~std::uint64_t(0) : total + more;
}

// A value a reader refuses: the field, what was found and what the field accepts.
struct FieldProblem {
    std::string field;     // "gpu_time_ms", "spans[3].end_ms", "config.streams"
    std::string found;     // as read, cut by quotedValue()
    std::string accepted;  // "a finite number of ms, 0 or more"
};
using FieldCheck = std::optional<FieldProblem>;

// `text` cut to kMaxQuotedChars characters (a UTF-8 sequence is never split), "…" marking the cut; a control
// character (C0, DEL, C1) or a byte that is not well-formed UTF-8 shown as "\n", "\x1b" or "\xff", so that a message
// is one line of UTF-8 that a terminal shows as it is. (display_text.hpp has the forms for values a report shows.)
std::string quotedValue(std::string_view text);
// A number as a message quotes it: shortest round-trip form, "nan", "inf".
std::string quotedNumber(double value);

// An error of kind Io naming the file, where in it (e.g. "line 12", "run 3"; may be empty) and the field. The file
// may be empty too, where the caller adds it: "line 12: gpu_time_ms is -1; accepted: …".
// "results.json, line 12: gpu_time_ms is -1; accepted: a finite number of ms, 0 or more"
Error fieldError(std::string_view file, std::string_view where, const FieldProblem& problem);

// A duration in ms: finite, 0 or more, at most kMaxTimeMs.
FieldCheck checkDurationMs(std::string_view field, double ms);
// A format version: a whole number from 1 to `newest` (read as a double so that 4294967297 or 2.5 are seen).
FieldCheck checkFormatVersion(double version, int newest);
// "9.0": digits, a dot, digits, each part up to 99. Sets major and minor on success.
FieldCheck parseComputeCapability(std::string_view field, std::string_view text, int& major, int& minor);
// A copy bandwidth in GB/s: finite, from kMinCopyGBps to kMaxCopyGBps.
FieldCheck checkCopyGBps(std::string_view field, double gbps);
// A calibration's operation cost or rate (OperationCosts' fields): finite, from 0 to `most` (of `unit`).
FieldCheck checkCalibrationAmount(std::string_view field, double value, double most, const char* unit);
// A name, UUID or bus id: at most kMaxNameBytes bytes.
FieldCheck checkName(std::string_view field, std::string_view text);

// A note a record carries, shown as it is: at most kMaxNoteBytes bytes.
FieldCheck checkNote(std::string_view field, std::string_view text);
// A name a recorded program's spans give (a kernel's, mangled: templates make long ones): at most kMaxSpanNameBytes.
constexpr std::size_t kMaxSpanNameBytes = 16384;
FieldCheck checkSpanName(std::string_view field, std::string_view text);

// The configuration as the CLI and the window would take it (validate()), and its numbers finite.
FieldCheck checkConfig(const PipelineConfig& config);
// The host registration a series' outcome holds (registered host memory): the times finite and 0 or more, the bytes
// at most kMaxRegisteredBytes. `prefix` begins each field's name ("outcome.").
FieldCheck checkHostRegistration(const SeriesOutcome& outcome, std::string_view prefix);
// A device's record: names bounded, counts not negative.
FieldCheck checkDevice(const DeviceInfo& device);
// One run of a series run with `config`: index not negative, times finite and 0 or more, every span's end at or
// after its begin, its stream below config.streams (GPU spans) and its chunk below config.chunks.
// Its block from 0 to kMaxBlocks - 1.
FieldCheck checkRun(const RunResult& run, const PipelineConfig& config);
// A run's block against the block of the run before it in the file: a series' blocks come in order, so it is not
// below it.
FieldCheck checkBlockOrder(int block, int before);

}  // namespace asyncscope
