// A recorded program's names on the timeline's blocks, each name worked out once (a run may launch a kernel thousands
// of times): kernels by their function's name on the block and demangled in full in the tooltip, calls by their names
// without suffixes and what they do to the iteration (a synchronous copy: the host waits in it).
#pragma once

#include "gui/timeline/timeline_layout.hpp"

#include "engine/model/program_info.hpp"

#include <QString>

#include <cstdint>
#include <map>

namespace asyncscope {

class SpanNamer {
public:
    // Without a program (the built-in pipeline, an older file) it names nothing.
    explicit SpanNamer(const ProgramInfo* program) : m_program(program) {}

    // A kernel's block: its label the function's name, its name the whole demangled one.
    void kernel(TimelineBlock& block);
    // A call's block: its label and name the call's, its role what the call does.
    void call(TimelineBlock& block);

private:
    struct Named {
        QString full, label, role;
    };
    const Named& named(std::uint32_t number, bool kernel);

    const ProgramInfo* m_program;
    std::map<std::uint32_t, Named> m_named;
};

}  // namespace asyncscope
