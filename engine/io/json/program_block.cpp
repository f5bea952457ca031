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
    if (!p.processes.empty()) {
        json processes = json::array();
        for (const ProgramProcess& process : p.processes) {
            json one = { { "pid", process.pid }, { "parent", process.parent }, { "executable", process.executable },
                { "exited", process.exited } };
            if (process.signal != 0)
                one["signal"] = process.signal;
            processes.push_back(std::move(one));
        }
        j["processes"] = std::move(processes);
    }
    if (!p.pids.empty())
        j["pids"] = p.pids;
    if (!p.threads.empty()) {
        json threads = json::array();
        for (const ProgramThread& t : p.threads)
            threads.push_back({ { "pid", t.pid }, { "thread", t.thread }, { "runs", t.runs } });
        j["threads"] = std::move(threads);
    }
    if (p.droppedRecords > 0)
        j["dropped_records"] = p.droppedRecords;
    if (!p.names.empty())
        j["names"] = p.names;
    return j;
}

namespace {

// The texts of the list under `key`: at most `most`, each one `check` takes (a text of at most kMaxNoteBytes).
std::vector<std::string> textsAt(const Block& b, const char* key, std::size_t most, const char* what,
    FieldCheck (*check)(std::string_view, std::string_view) = checkNote)
{
    const json& list = listAt(b, key, most, what);
    std::vector<std::string> texts;
    texts.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string field = b.path(key) + "[" + std::to_string(i) + "]";
        if (!list[i].is_string())
            refuse(field, b.quoted(list[i]), "a text");
        texts.push_back(list[i].get<std::string>());
        refuseIf(check(field, texts.back()));
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
    if (b.has("processes")) {
        const json& list = listAt(b, "processes", kMaxProgramProcesses, "processes");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Block one(list[i], b.path("processes") + "[" + std::to_string(i) + "]", b.wording());
            ProgramProcess process;
            one.get("pid", process.pid);
            one.get("parent", process.parent);
            one.get("executable", process.executable);
            refuseIf(checkNote(one.path("executable"), process.executable));
            one.get("exited", process.exited);
            one.getOr("signal", process.signal);
            if (process.signal < 0 || process.signal > 128)
                refuse(one.path("signal"), std::to_string(process.signal), "a whole number from 0 to 128");
            p.processes.push_back(std::move(process));
        }
    }
    if (b.has("pids")) {
        const json& list = listAt(b, "pids", kMaxProgramProcesses, "processes");
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!list[i].is_number_unsigned() || list[i].get<std::uint64_t>() > 0xffffffffu)
                refuse(b.path("pids") + "[" + std::to_string(i) + "]", b.quoted(list[i]), "a process id");
            p.pids.push_back(list[i].get<std::uint32_t>());
        }
    }
    if (b.has("threads")) {
        const json& list = listAt(b, "threads", kMaxProgramThreads, "threads");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Block one(list[i], b.path("threads") + "[" + std::to_string(i) + "]", b.wording());
            ProgramThread t;
            one.get("pid", t.pid);
            one.get("thread", t.thread);
            one.get("runs", t.runs);
            p.threads.push_back(t);
        }
    }
    b.getOr("dropped_records", p.droppedRecords);
    if (b.has("names"))
        p.names = textsAt(b, "names", kMaxProgramNames, "names", checkSpanName);
    return p;
}

}  // namespace asyncscope::json_header
