#include "engine/io/json/device_json.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace asyncscope {

using nlohmann::json;
using json_header::Block;
using json_header::Range;
using json_header::refuseIf;

namespace {

// One field of a block: its key, how it is read from the block and checked (none: written only), and how it is
// written (none: read only).
template <class Record>
struct Field {
    const char* key;
    void (*read)(const Block& block, const char* key, Record& out);
    void (*write)(json& out, const char* key, const Record& in);
};

template <class Record, std::size_t N>
void readFields(const Block& block, const Field<Record> (&fields)[N], Record& out)
{
    for (const Field<Record>& f : fields) {
        if (f.read)
            f.read(block, f.key, out);
    }
}

template <class Record, std::size_t N>
json writeFields(const Field<Record> (&fields)[N], const Record& in)
{
    json out = json::object();
    for (const Field<Record>& f : fields) {
        if (f.write)
            f.write(out, f.key, in);
    }
    return out;
}

template <class>
struct MemberTraits;
template <class R, class T>
struct MemberTraits<T R::*> {
    using Record = R;
    using Type = T;
};
template <auto Member>
using RecordOf = typename MemberTraits<decltype(Member)>::Record;
template <auto Member>
using TypeOf = typename MemberTraits<decltype(Member)>::Type;

// ---- readers of a field, each checked by its rule

// A name, a UUID, a bus id, a CPU list: at most kMaxNameBytes (checkName).
template <auto Member>
void name(const Block& b, const char* key, RecordOf<Member>& r)
{
    b.getOr(key, r.*Member);
    refuseIf(checkName(b.path(key), r.*Member));
}

// A note: at most kMaxNoteBytes (checkNote).
template <auto Member>
void note(const Block& b, const char* key, RecordOf<Member>& r)
{
    b.getOr(key, r.*Member);
    refuseIf(checkNote(b.path(key), r.*Member));
}

// A count or a number that is 0 or more (in a record as it is read; in a header checkDevice says so after).
template <auto Member, std::uint64_t Most = std::uint64_t(std::numeric_limits<TypeOf<Member>>::max())>
void count(const Block& b, const char* key, RecordOf<Member>& r)
{
    b.getOr(key, r.*Member, Range { 0, Most });
}

// A NUMA node, or null where it is unknown: -1 or more in a record.
template <auto Member>
void node(const Block& b, const char* key, RecordOf<Member>& r)
{
    b.getOrNull(key, r.*Member, Range { -1, std::uint64_t(std::numeric_limits<int>::max()) });
}

// ---- writers

template <auto Member>
void put(json& j, const char* key, const RecordOf<Member>& r)
{
    j[key] = r.*Member;
}

template <auto Member>
void putNode(json& j, const char* key, const RecordOf<Member>& r)
{
    j[key] = (r.*Member) ? json(*(r.*Member)) : json(nullptr);
}

// ---- the tables

using D = DeviceInfo;
using T = DeviceTopology;
using L = PcieLink;
using B = CpuBinding;

const Field<PcieLink> kLinkFields[] = {
    { "speed", name<&L::speed>, put<&L::speed> },
    { "generation", count<&L::generation>, put<&L::generation> },
    { "width", count<&L::width>, put<&L::width> },
};

// A link of the topology, where the record gives it.
template <PcieLink DeviceTopology::*Member>
void link(const Block& b, const char* key, DeviceTopology& t)
{
    if (b.has(key))
        readFields(Block(b.object(), key, b.path(key), b.wording()), kLinkFields, t.*Member);
}

template <PcieLink DeviceTopology::*Member>
void putLink(json& j, const char* key, const DeviceTopology& t)
{
    j[key] = linkJson(t.*Member);
}

const Field<DeviceTopology> kTopologyFields[] = {
    { "numa_node", node<&T::numaNode>, putNode<&T::numaNode> },
    { "local_cpus", name<&T::localCpus>, put<&T::localCpus> },
    { "current_link", link<&T::current>, putLink<&T::current> },
    { "max_link", link<&T::max>, putLink<&T::max> },
    { "nominal_gbps", nullptr, [](json& j, const char* key, const T& t) { j[key] = t.nominalGBps(); } },
    { "note", note<&T::note>,
        [](json& j, const char* key, const T& t) {
            if (!t.note.empty())
                j[key] = t.note;
        } },
};

const Field<DeviceInfo> kDeviceFields[] = {
    { "index",
        [](const Block& b, const char* key, D& d) {
            b.get(key, d.index, Range { 0, std::uint64_t(std::numeric_limits<int>::max()) });
        },
        put<&D::index> },
    { "name",
        [](const Block& b, const char* key, D& d) {
            b.get(key, d.name);
            refuseIf(checkName(b.path(key), d.name));
        },
        put<&D::name> },
    { "uuid", name<&D::uuid>, put<&D::uuid> },
    { "pci_bus_id", name<&D::pciBusId>, put<&D::pciBusId> },
    { "compute_capability",
        [](const Block& b, const char* key, D& d) {
            std::string cc = "0.0";
            b.getOr(key, cc);
            refuseIf(parseComputeCapability(b.path(key), cc, d.computeMajor, d.computeMinor));
        },
        [](json& j, const char* key, const D& d) { j[key] = d.computeCapability(); } },
    { "multiprocessors", count<&D::multiprocessors>, put<&D::multiprocessors> },
    { "total_memory_bytes", count<&D::totalMemoryBytes, std::uint64_t(std::numeric_limits<std::int64_t>::max())>,
        put<&D::totalMemoryBytes> },
    { "async_engine_count", count<&D::asyncEngineCount>, put<&D::asyncEngineCount> },
    { "clock_khz", count<&D::clockKHz>, put<&D::clockKHz> },
    // Reports from before topology leave it unknown.
    { "topology",
        [](const Block& b, const char* key, D& d) {
            if (b.has(key))
                readFields(Block(b.object(), key, b.path(key), b.wording()), kTopologyFields, d.topology);
        },
        [](json& j, const char* key, const D& d) { j[key] = writeFields(kTopologyFields, d.topology); } },
};

const Field<CpuBinding> kBindingFields[] = {
    { "bound", [](const Block& b, const char* key, B& binding) { b.get(key, binding.bound); }, put<&B::bound> },
    { "cpus", name<&B::cpus>,
        [](json& j, const char* key, const B& b) {
            if (b.bound)
                j[key] = b.cpus;
        } },
    { "numa_node", node<&B::numaNode>,
        [](json& j, const char* key, const B& b) {
            if (b.bound)
                putNode<&B::numaNode>(j, key, b);
        } },
    { "why", note<&B::why>,
        [](json& j, const char* key, const B& b) {
            if (!b.bound)
                j[key] = b.why;
        } },
    // For people and tools: derived from the others, its type checked, never taken.
    { "text",
        [](const Block& b, const char* key, B&) {
            std::string text;
            b.getOr(key, text);
        },
        [](json& j, const char* key, const B& b) { j[key] = b.text(); } },
};

}  // namespace

json linkJson(const PcieLink& link)
{
    return writeFields(kLinkFields, link);
}

json deviceToJson(const DeviceInfo& device)
{
    return writeFields(kDeviceFields, device);
}

json bindingToJson(const CpuBinding& binding)
{
    return writeFields(kBindingFields, binding);
}

DeviceInfo deviceFrom(const Block& block)
{
    DeviceInfo device;
    readFields(block, kDeviceFields, device);
    // The device as a whole against the rules every reader applies; they name its fields "device.…", as the block is
    // named at the end of its path ("device", "devices[2].device").
    std::string prefix = block.path("");
    prefix.erase(prefix.size() - std::min(prefix.size(), std::string("device.").size()));
    refuseIf(checkDevice(device), prefix);
    return device;
}

CpuBinding bindingFrom(const Block& block)
{
    CpuBinding binding;
    readFields(block, kBindingFields, binding);
    return binding;
}

}  // namespace asyncscope
