// Which API call issued a CUPTI activity record. CUPTI gives each GPU operation, and each CUDA event's record, the
// correlation id of the call that issued it; ids are counted per process. The one matcher of records to calls for the
// built-in pipeline's trace (engine/model/trace_records.cpp: the calls of a run's window) and for a recorded
// program's iterations (engine/record/iterations.cpp: the calls of each iteration): what differs between the two is
// which calls make a run, not how a record finds its call.
// A driver call made within a runtime call is that runtime call's own work: its records carry the driver call's id,
// and are the runtime call's (within()).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>

namespace asyncscope {

template <class Issuer>
class CorrelationMatcher {
public:
    // The records of `correlation` in process `pid` are `issuer`'s; the first issuer entered for an id stands.
    void issued(std::uint32_t pid, std::uint32_t correlation, Issuer issuer)
    {
        m_issuers.emplace(key(pid, resolved(pid, correlation)), std::move(issuer));
    }

    // The driver call `inner` was made within the runtime call `outer` (enter it before their issuer).
    void within(std::uint32_t pid, std::uint32_t inner, std::uint32_t outer)
    {
        if (inner != outer)
            m_aliases.emplace(key(pid, inner), outer);
    }

    // The id whose call a record of `correlation` is: the runtime call's, for a driver call made within one.
    std::uint32_t resolved(std::uint32_t pid, std::uint32_t correlation) const
    {
        const auto alias = m_aliases.find(key(pid, correlation));
        return alias == m_aliases.end() ? correlation : alias->second;
    }

    // The issuer of a record of `correlation` in `pid`; null where no call entered issued it.
    const Issuer* issuerOf(std::uint32_t pid, std::uint32_t correlation) const
    {
        const auto found = m_issuers.find(key(pid, resolved(pid, correlation)));
        return found == m_issuers.end() ? nullptr : &found->second;
    }

    void reserve(std::size_t calls) { m_issuers.reserve(calls); }

private:
    static std::uint64_t key(std::uint32_t pid, std::uint32_t correlation)
    {
        return (std::uint64_t(pid) << 32) | correlation;
    }

    std::unordered_map<std::uint64_t, std::uint32_t> m_aliases;
    std::unordered_map<std::uint64_t, Issuer> m_issuers;
};

}  // namespace asyncscope
