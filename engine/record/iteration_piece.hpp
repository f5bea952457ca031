// An iteration as the matcher (engine/record/iterations) gathers it, and the run it makes: the part of the split
// that turns one iteration's calls, operations and events into a RunResult. Internal to engine/record.
#pragma once

#include "engine/model/correlation_matcher.hpp"
#include "engine/model/program_info.hpp"
#include "engine/model/record_rules.hpp"
#include "engine/model/run_result.hpp"
#include "engine/model/call_names.hpp"
#include "engine/record/recording.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace asyncscope::iteration {

inline std::uint64_t key(std::uint32_t pid, std::uint32_t id)
{
    return (std::uint64_t(pid) << 32) | id;
}

// A call as the matcher takes it.
struct Call {
    const RecordedCall* call = nullptr;
    const CallName* name = nullptr;
    std::uint32_t lane = 0;
};

// An iteration being gathered: its calls, the operations and events they issued.
struct Piece {
    std::uint32_t lane = 0;
    std::uint64_t from = 0;  // a range's start; 0 for one between waits (it begins at its first issuing call)
    bool byRange = false;
    bool closed = false;       // a wait ended it, or its range did: nothing more of its thread joins it
    bool unfinished = false;   // the last of a thread that waited before, never ended by a wait (the program ended)
    bool endedByCopy = false;  // a synchronous copy ended it, not a synchronize or a poll loop
    std::vector<const Call*> calls;
    std::vector<const RecordedOperation*> ops;
    std::vector<const RecordedEvent*> events;
};

// The call that issued a record, and the piece it is in.
struct Issuer {
    const Call* call = nullptr;
    std::size_t piece = SIZE_MAX;
};
using Issuers = CorrelationMatcher<Issuer>;
// (pid, context, stream): the stream's CUpti_ActivityStreamFlag.
using StreamFlags = std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t>;

// How far before its iteration's beginning a GPU record may begin and be taken as beginning at it.
inline constexpr std::uint64_t kClockSlackNs = 1'000'000;

// What the runs of a split add up as they are made.
struct PieceTally {
    ProgramCopies copies;
    std::size_t outOfTime = 0;  // records whose times lie outside their iteration's, left out
    std::map<std::string, std::size_t> undrawn;  // what an operation with no span of its own is: how many
};

// The names the runs' spans give by number (Span::name: 1 + the place here), each kept once, in the order they came:
// kernels' as compiled, calls' as CUPTI names them. Shared by every process of a recording.
class SpanNames {
public:
    // 0 for an empty name, or a new one past kMaxProgramNames (its spans then name nothing).
    std::uint32_t numberOf(std::string_view name);
    const std::vector<std::string>& names() const { return m_names; }

private:
    std::vector<std::string> m_names;
    std::unordered_map<std::string, std::uint32_t> m_numbers;
    std::string m_key;  // the name looked up, in a buffer kept between lookups
};

// The run a piece is, `t0` set to where it begins; none where it issued no GPU work. Its kernels and calls are named
// from `names`.
std::optional<RunResult> runOfPiece(
    Piece& piece, const Issuers& issuers, PieceTally& tally, SpanNames& names, std::uint64_t& t0);

// The operations of one iteration on the legacy default stream, where the iteration also used a blocking stream of
// the same context (the two then wait for each other); 0 otherwise. Work a per-thread default stream build issued
// (calls named …_ptsz, …_ptds) waits for no other stream and is not counted.
std::uint64_t defaultStreamWork(const Piece& piece, const StreamFlags& flags, const Issuers& issuers);

// A wait on nothing but events recorded after a synchronous copy to the host joins the iteration that copy ended.
void mergeEventWaits(std::vector<Piece>& pieces);

}  // namespace asyncscope::iteration
