// A result file that never has its own name until it is complete. It is written under a hidden temporary name in its
// own folder (".NAME.partial-PID") and renamed to NAME only once everything was written, closed and synced; a write
// that fails, and a file given up or destroyed before it was finished, leave no temporary file behind and leave an
// earlier file of that name as it was. A process killed while writing leaves at most the hidden temporary file, so a
// folder of records (a Slurm job's) never holds a partial record under a record's name. /dev/null, /dev/stdout and
// /dev/stderr are written directly.
#pragma once

#include "engine/model/error.hpp"

#include <fstream>
#include <memory>
#include <string>

namespace asyncscope {

class AtomicOutputFile {
public:
    // Whether opening creates the folders the path names that do not exist yet (as mkdir -p does).
    enum class MissingFolders { Create, Refuse };

    // Opens `path` for writing: checks that it may be written (checkWritableFile: not a directory, a FIFO or a
    // device) and creates its temporary file, so that a path that cannot be written is found before anything runs.
    // An Io error naming the path and the system's words for why otherwise.
    static Result<std::unique_ptr<AtomicOutputFile>> open(
        const std::string& path, MissingFolders folders = MissingFolders::Create);

    // Removes the temporary file unless commit() succeeded.
    ~AtomicOutputFile();
    AtomicOutputFile(const AtomicOutputFile&) = delete;
    AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

    // Where the contents go.
    std::ostream& stream() { return m_stream; }
    // The name the file gets once complete, as given.
    const std::string& path() const { return m_path; }
    // The name it is written under until then; empty where it is written directly (/dev/stdout and the like).
    const std::string& temporaryPath() const { return m_temporary; }

    // Closes the file, syncs it and renames it to its own name, replacing a file of that name. On a failure the
    // temporary file is removed and the Io error names `what` was written ("the report"), the path and why. Only the
    // first call does anything.
    Status commit(const std::string& what = {});
    // Closes the file and removes the temporary file: nothing of it stays.
    void discard();

private:
    AtomicOutputFile(std::string path, std::string target, std::string temporary);

    std::string m_path;       // as given, for messages
    std::string m_target;     // what the temporary file is renamed to: the path, or what a symbolic link points to
    std::string m_temporary;  // empty when written directly
    std::ofstream m_stream;
    bool m_done = false;
};

}  // namespace asyncscope
