// The copy-peak cache: copy-peaks.json in the user's cache folder, one entry per device UUID and copy path (CopyPath)
// with the bandwidth measured on this host. The file is read as hostile: bounded in size, every entry checked, an
// entry of another shape (an earlier version's, a hand edit) left out with the reason.
// An entry holds "uuid" and "path" beside its figures; the pinned path's is keyed by the bare UUID (as earlier
// versions wrote and read it), another path's by "<uuid>/<path>". An entry without "path" (an earlier version's) is
// the pinned path's; one without "uuid" is its key's.
#pragma once

#include "engine/model/copy_peak.hpp"
#include "engine/model/error.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace asyncscope {

inline constexpr const char* kCopyPeakCacheFile = "copy-peaks.json";
// A cache holds one short entry per GPU this user has measured: a file larger than this is not a cache of ours.
inline constexpr std::uintmax_t kMaxCopyPeakCacheBytes = std::uintmax_t(1) << 20;

struct CachedCopyPeak {
    std::string name;      // the device's name and PCI bus id when it was measured, for a person reading the file
    std::string pciBusId;
    CopyPeak peak;         // read back with fromCache set
};

using CopyPeakKey = std::pair<std::string, CopyPath>;  // device UUID, path

struct CopyPeakCache {
    std::map<CopyPeakKey, CachedCopyPeak> entries;
    std::vector<std::string> skipped;  // one line per entry left out: its key and why

    // The entry for the device and path; null when there is none.
    const CachedCopyPeak* find(const std::string& uuid, CopyPath path) const;
};

// $XDG_CACHE_HOME/asyncscope or ~/.cache/asyncscope; empty when neither is known.
std::string defaultCacheDir();

// Reads the cache at `path`. A file that does not exist is an empty cache. One that is not a regular file (a
// directory, a FIFO: refused before it is opened, so a read never blocks), cannot be read, is larger than
// kMaxCopyPeakCacheBytes, is not JSON or not a JSON object is an ErrorKind::Io error naming the file (and, for JSON
// errors, the line and column); the caller treats it as absent. Entries whose figures are missing or no bandwidth a
// host link has (checkCopyGBps: 1e308, 5e-324, negative), whose path is not a CopyPath name, or that repeat a device
// and path an entry before them holds are skipped, so those devices' paths are measured again. An entry's "costs"
// (operation_costs_json) may be left out (an earlier version's: read with none, and measured again when asked for);
// costs that are not costs skip the entry.
Result<CopyPeakCache> readCopyPeakCache(const std::string& path);

// Writes every entry of `cache` to `path` (through a file beside it, renamed over it), creating the folder.
Status writeCopyPeakCache(const std::string& path, const CopyPeakCache& cache);

}  // namespace asyncscope
