#include "engine/record/nvtx_ranges.hpp"

#include <algorithm>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace asyncscope {

namespace {

std::uint64_t key(std::uint32_t pid, std::uint32_t id)
{
    return (std::uint64_t(pid) << 32) | id;
}

}  // namespace

std::vector<Range> rangesOf(const Recording& recording, std::optional<std::uint32_t> pid, std::uint64_t lastTime)
{
    std::vector<Range> ranges;
    std::unordered_map<std::uint64_t, std::size_t> open;  // (pid, id): its range
    for (const RecordedMark& m : recording.marks) {
        if (pid && m.pid != *pid)
            continue;
        if (m.kind == MarkKind::Start) {
            open[key(m.pid, m.id)] = ranges.size();
            ranges.push_back({ m.pid, m.thread, m.name, m.timestamp, lastTime, false });
        } else if (m.kind == MarkKind::End) {
            if (auto found = open.find(key(m.pid, m.id)); found != open.end()) {
                Range& r = ranges[found->second];
                r.to = std::max(m.timestamp, r.from);
                r.ended = true;
                open.erase(found);
            }
        }
    }
    return ranges;
}

// Ranges in order of start (the longer first at a tie), each process's open ranges on a stack.
std::string outermostRepeated(const std::vector<Range>& ranges)
{
    std::unordered_map<std::string_view, std::size_t> counts;
    for (const Range& r : ranges)
        ++counts[r.name];
    std::vector<const Range*> repeated;
    for (const Range& r : ranges)
        if (counts[r.name] >= 2)
            repeated.push_back(&r);
    std::sort(repeated.begin(), repeated.end(), [](const Range* a, const Range* b) {
        return std::tie(a->pid, a->from, b->to) < std::tie(b->pid, b->from, a->to);
    });
    std::unordered_set<std::string_view> inside;  // names with a range held by another name's range
    std::vector<const Range*> open;
    for (const Range* r : repeated) {
        while (!open.empty() && (open.back()->pid != r->pid || open.back()->to < r->to))
            open.pop_back();
        for (auto o = open.rbegin(); o != open.rend(); ++o) {
            if ((*o)->name != r->name && !((*o)->from == r->from && (*o)->to == r->to)) {
                inside.insert(r->name);
                break;
            }
        }
        open.push_back(r);
    }
    std::string best;
    std::size_t bestCount = 0;
    for (const auto& [name, count] : counts) {
        if (count < 2 || inside.count(name) > 0)
            continue;
        if (count > bestCount || (count == bestCount && name < best)) {
            best = std::string(name);
            bestCount = count;
        }
    }
    return best;
}

}  // namespace asyncscope
