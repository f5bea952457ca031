#include "engine/io/copy_peak_cache.hpp"

#include "engine/io/bounded_json.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/operation_costs_json.hpp"
#include "engine/model/record_rules.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>

namespace asyncscope {

namespace {

namespace fs = std::filesystem;

Error cacheError(const std::string& path, const std::string& what)
{
    return makeError(ErrorKind::Io, path + ": " + what,
        "Delete the file: the copy peaks are measured again and the cache written anew.");
}

// A positive, finite bandwidth; empty with the reason in `why` otherwise.
std::optional<double> bandwidth(const nlohmann::json& entry, const char* field, std::string& why)
{
    const auto value = entry.find(field);
    if (value == entry.end()) {
        why = std::string("no ") + field;
        return std::nullopt;
    }
    if (!value->is_number()) {
        why = std::string(field) + " is not a positive number";
        return std::nullopt;
    }
    // A peak no host link has (1e308, 5e-324) would scale every rate shown against it: the entry is measured again.
    if (const auto implausible = checkCopyGBps(field, value->get<double>())) {
        why = implausible->field + " is " + implausible->found + "; accepted: " + implausible->accepted;
        return std::nullopt;
    }
    return value->get<double>();
}

std::string optionalText(const nlohmann::json& entry, const char* field)
{
    const auto value = entry.find(field);
    return value != entry.end() && value->is_string() ? value->get<std::string>() : std::string();
}

// The entry's device and path (an earlier version's entry: its key and the pinned path), or the reason in `why`.
std::optional<CopyPeakKey> keyOf(const std::string& key, const nlohmann::json& entry, std::string& why)
{
    CopyPeakKey found { key, CopyPath::Pinned };
    if (const auto uuid = entry.find("uuid"); uuid != entry.end()) {
        if (!uuid->is_string() || uuid->get_ref<const std::string&>().empty()) {
            why = "uuid is not a device's UUID";
            return std::nullopt;
        }
        if (const auto tooLong = checkName("uuid", uuid->get_ref<const std::string&>())) {
            why = tooLong->field + " is " + tooLong->found + "; accepted: " + tooLong->accepted;
            return std::nullopt;
        }
        found.first = uuid->get<std::string>();
    }
    if (const auto path = entry.find("path"); path != entry.end()) {
        const auto parsed = path->is_string() ? parseName<CopyPath>(path->get_ref<const std::string&>()) : std::nullopt;
        if (!parsed) {
            why = "path is " +
                (path->is_string() ? "'" + quotedValue(path->get_ref<const std::string&>()) + "'" : quotedJson(*path)) +
                ", not a copy path this version knows; accepted: " + acceptedNames<CopyPath>();
            return std::nullopt;
        }
        found.second = *parsed;
    }
    return found;
}

// The entry's figures, or the reason it cannot give them in `why`.
std::optional<CachedCopyPeak> readEntry(const nlohmann::json& entry, std::string& why)
{
    CachedCopyPeak cached;
    cached.name = optionalText(entry, "name");
    cached.pciBusId = optionalText(entry, "pci_bus_id");
    const auto h2d = bandwidth(entry, "h2d_gbps", why);
    if (!h2d)
        return std::nullopt;
    const auto d2h = bandwidth(entry, "d2h_gbps", why);
    if (!d2h)
        return std::nullopt;
    const auto both = bandwidth(entry, "bidirectional_gbps", why);  // an earlier version wrote none
    if (!both)
        return std::nullopt;
    const auto bytes = entry.find("bytes");
    if (bytes == entry.end() || !bytes->is_number_unsigned() || bytes->get<std::uint64_t>() == 0) {
        why = "bytes is not a positive whole number";
        return std::nullopt;
    }
    cached.peak.h2dGBps = *h2d;
    cached.peak.d2hGBps = *d2h;
    cached.peak.bidirectionalGBps = *both;
    // An earlier version's entry has no operation costs (cachedCopyPeak measures the path again for them).
    if (const auto costs = entry.find("costs"); costs != entry.end()) {
        if (const auto problem = readOperationCosts(*costs, "costs", cached.peak.costs)) {
            why = problem->field + " is " + problem->found + "; accepted: " + problem->accepted;
            return std::nullopt;
        }
    }
    cached.peak.bytes = static_cast<std::size_t>(bytes->get<std::uint64_t>());
    cached.peak.fromCache = true;
    return cached;
}

// The JSON key an entry is written under: the bare UUID for the pinned path, which earlier versions look up.
std::string keyText(const CopyPeakKey& key)
{
    return key.second == CopyPath::Pinned ? key.first : key.first + "/" + nameOf(key.second);
}

}  // namespace

const CachedCopyPeak* CopyPeakCache::find(const std::string& uuid, CopyPath path) const
{
    const auto found = entries.find({ uuid, path });
    return found == entries.end() ? nullptr : &found->second;
}

std::string defaultCacheDir()
{
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/asyncscope";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/asyncscope";
    return {};
}

Result<CopyPeakCache> readCopyPeakCache(const std::string& path)
{
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (status.type() == fs::file_type::not_found)
        return CopyPeakCache {};
    if (error)
        return cacheError(path, "cannot be read: " + error.message());
    // A directory, a FIFO (its read would block for ever) or a device is refused before it is opened.
    if (auto unusable = checkReadableFile(path))
        return makeError(ErrorKind::Io, unusable->detail,
            "Remove it: the copy peaks are measured again and the cache written anew.");
    const std::uintmax_t size = fs::file_size(path, error);
    if (error)
        return cacheError(path, "cannot be read: " + error.message());
    if (size > kMaxCopyPeakCacheBytes)
        return cacheError(path,
            "is " + std::to_string(size) + " bytes, more than a cache's " + std::to_string(kMaxCopyPeakCacheBytes));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return cacheError(path, "cannot be opened: " + systemErrorText(errno));
    std::string text;
    text.resize(static_cast<std::size_t>(kMaxCopyPeakCacheBytes) + 1);  // bounded even where the file grew since
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad())
        return cacheError(path, "cannot be read");
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxCopyPeakCacheBytes)
        return cacheError(path, "grew past " + std::to_string(kMaxCopyPeakCacheBytes) + " bytes while being read");

    // Nothing deeper than an entry's fields is kept: depth 0 is the file's object, 1 the entries, 2 their fields, 3
    // the fields of their costs.
    BoundedJson parsed = parseShallow(text, 3);
    if (!parsed.syntaxError.empty())  // a parse error, or a number beyond a double's range
        return cacheError(path, "is not JSON: " + parsed.syntaxError);
    const nlohmann::json root = std::move(parsed.value);
    if (!root.is_object())
        return cacheError(path, std::string("holds ") + root.type_name() + ", not an object of devices");

    CopyPeakCache cache;
    for (const auto& [name, entry] : root.items()) {
        std::string why;
        std::optional<CopyPeakKey> key;
        std::optional<CachedCopyPeak> cached;
        if (!entry.is_object())
            why = std::string("not an object but ") + entry.type_name();
        else if ((key = keyOf(name, entry, why)) && (cached = readEntry(entry, why))) {
            cached->peak.path = key->second;
            if (cache.entries.emplace(*key, std::move(*cached)).second)
                continue;
            why = "an entry before it holds the " + std::string(nameOf(key->second)) + " peak of " +
                quotedValue(key->first);
        }
        cache.skipped.push_back(path + ": entry \"" + name + "\": " + why);
    }
    return cache;
}

Status writeCopyPeakCache(const std::string& path, const CopyPeakCache& cache)
{
    nlohmann::json root = nlohmann::json::object();
    for (const auto& [key, cached] : cache.entries) {
        root[keyText(key)] = { { "uuid", key.first }, { "path", nameOf(key.second) }, { "name", cached.name },
            { "pci_bus_id", cached.pciBusId }, { "h2d_gbps", cached.peak.h2dGBps }, { "d2h_gbps", cached.peak.d2hGBps },
            { "bidirectional_gbps", cached.peak.bidirectionalGBps },
            { "bytes", static_cast<std::uint64_t>(cached.peak.bytes) },
            { "costs", operationCostsJson(cached.peak.costs) } };
    }
    const fs::path file(path);
    std::error_code error;
    if (file.has_parent_path())
        fs::create_directories(file.parent_path(), error);
    if (error)
        return makeError(ErrorKind::Io, path + ": its folder cannot be made: " + error.message());
    const fs::path partial = file.string() + ".partial";
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        if (!out)
            return makeError(ErrorKind::Io, partial.string() + ": cannot be written");
        out << root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        out.flush();
        if (!out)
            return makeError(ErrorKind::Io, partial.string() + ": cannot be written");
    }
    fs::rename(partial, file, error);
    if (error) {
        std::error_code ignored;  // the rename's error is the one to tell
        fs::remove(partial, ignored);
        return makeError(ErrorKind::Io, path + ": cannot be replaced: " + error.message());
    }
    return std::nullopt;
}

}  // namespace asyncscope
