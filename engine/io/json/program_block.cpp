#include "engine/io/json/program_block.hpp"

#include "engine/model/record_rules.hpp"

#include <string>

namespace asyncscope::json_header {

using nlohmann::json;

json programJson(const ProgramInfo& p)
{
    json j = { { "command", p.command }, { "iterations", p.iterations }, { "exit_code", p.exitCode },
        { "signal", p.signal }, { "stopped", p.stopped } };
    if (!p.workingFolder.empty())
        j["working_folder"] = p.workingFolder;
    if (!p.notes.empty())
        j["notes"] = p.notes;
    j["copies"] = { { "pageable", p.copies.pageable }, { "pageable_bytes", p.copies.pageableBytes },
        { "pageable_ms", p.copies.pageableMs }, { "synchronous", p.copies.synchronous },
        { "synchronous_ms", p.copies.synchronousMs } };
    if (p.copies.defaultStream) {
        j["copies"]["default_stream"] = *p.copies.defaultStream;
        j["copies"]["default_stream_iterations"] = p.copies.defaultStreamIterations;
    }
    return j;
}

namespace {

// The texts of the list under `key`: at most `most`, each a text of at most kMaxNoteBytes.
std::vector<std::string> textsAt(const Block& b, const char* key, std::size_t most, const char* what)
{
    const json& list = listAt(b, key, most, what);
    std::vector<std::string> texts;
    texts.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string field = b.path(key) + "[" + std::to_string(i) + "]";
        if (!list[i].is_string())
            refuse(field, b.quoted(list[i]), "a text");
        texts.push_back(list[i].get<std::string>());
        refuseIf(checkNote(field, texts.back()));
    }
    return texts;
}

}  // namespace

ProgramInfo programFrom(const Block& b)
{
    ProgramInfo p;
    b.need("command", "a list of the program and its arguments");
    p.command = textsAt(b, "command", kMaxProgramArguments, "words");
    if (p.command.empty() || p.command.front().empty())
        refuse(b.path("command"), "no program", "a list of the program and its arguments");
    b.get("iterations", p.iterations);
    refuseIf(checkNote(b.path("iterations"), p.iterations));
    b.getOr("working_folder", p.workingFolder);
    refuseIf(checkNote(b.path("working_folder"), p.workingFolder));
    b.get("exit_code", p.exitCode);
    if (p.exitCode < -1 || p.exitCode > 255)
        refuse(b.path("exit_code"), std::to_string(p.exitCode), "a whole number from -1 to 255");
    b.get("signal", p.signal);
    if (p.signal < 0 || p.signal > 128)
        refuse(b.path("signal"), std::to_string(p.signal), "a whole number from 0 to 128");
    b.get("stopped", p.stopped);
    if (b.has("notes"))
        p.notes = textsAt(b, "notes", kMaxProgramNotes, "notes");
    if (b.has("copies")) {
        const Block copies(b.object(), "copies", b.path("copies"), b.wording());
        copies.get("pageable", p.copies.pageable);
        copies.get("pageable_bytes", p.copies.pageableBytes);
        copies.get("pageable_ms", p.copies.pageableMs);
        checkAmount(copies, "pageable_ms", p.copies.pageableMs, "ms");
        copies.get("synchronous", p.copies.synchronous);
        copies.get("synchronous_ms", p.copies.synchronousMs);
        checkAmount(copies, "synchronous_ms", p.copies.synchronousMs, "ms");
        if (copies.has("default_stream")) {
            std::uint64_t operations = 0;
            copies.get("default_stream", operations);
            p.copies.defaultStream = operations;
            copies.get("default_stream_iterations", p.copies.defaultStreamIterations);
        }
    }
    return p;
}

}  // namespace asyncscope::json_header
