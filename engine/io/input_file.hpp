// Files the user names, checked before they are opened. A reader opens only a regular file: a directory fails late
// with a library's exception, a FIFO blocks the reading thread for ever (and with it the window's shutdown), a device
// never ends. A writer writes to a regular file or to one it creates, and says why it could not.
#pragma once

#include "engine/model/error.hpp"

#include <cstddef>
#include <istream>
#include <string>

namespace asyncscope {

// Nothing when `path` is a regular file this process may read; otherwise an Io error naming it:
// "results.json is a directory", "f.json is not a regular file (a FIFO)", "x.json does not exist".
Status checkReadableFile(const std::string& path);
// Nothing when `path` may be written: it does not exist yet, or is a regular file (or /dev/null, /dev/stdout,
// /dev/stderr); otherwise an Io error naming it: a directory, a FIFO or a device.
Status checkWritableFile(const std::string& path);
// `path` as a message names it: as the user gave it, or, where it lies in the working folder or below it, relative to
// that ("results/h200.json" for /home/me/results/h200.json, the working folder /home/me). A name alone would not tell
// two files of one name in different folders apart.
std::string shownPath(const std::string& path);
// The system's words for errno `error`: "Permission denied".
std::string systemErrorText(int error);

// Reads up to `bytes` more from `in` onto the end of `buffer`; how many came. The buffer grows by what came only
// (growing it by `bytes` first would clear them all, however few come: a merge of 10 000 small records spent most of
// its time so).
std::size_t readMore(std::istream& in, std::string& buffer, std::size_t bytes);

}  // namespace asyncscope
