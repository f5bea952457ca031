#include "engine/model/kernel_names.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace asyncscope {

std::string demangledName(std::string_view name)
{
    if (name.size() < 3 || name.compare(0, 2, "_Z") != 0)
        return std::string(name);
    const std::string mangled(name);  // the demangler takes a terminated text
    int status = 0;
    const std::unique_ptr<char, void (*)(void*)> plain(
        abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && plain ? std::string(plain.get()) : mangled;
}

namespace {

// Where the bracket that `close` (at `end - 1`) closes opens, counting nested ones; npos where none does.
std::size_t openingOf(std::string_view text, std::size_t end, char open, char close)
{
    int depth = 0;
    for (std::size_t i = end; i-- > 0;) {
        if (text[i] == close)
            ++depth;
        else if (text[i] == open && --depth == 0)
            return i;
    }
    return std::string_view::npos;
}

}  // namespace

std::string shortFunctionName(std::string_view demangled)
{
    std::string_view name = demangled;
    // Parameters last (a member function's qualifiers after them: " const").
    const std::size_t close = name.rfind(')');
    if (close != std::string_view::npos) {
        const std::size_t open = openingOf(name, close + 1, '(', ')');
        if (open != std::string_view::npos && open > 0)
            name = name.substr(0, open);
    }
    // Template arguments.
    if (!name.empty() && name.back() == '>') {
        const std::size_t open = openingOf(name, name.size(), '<', '>');
        if (open != std::string_view::npos && open > 0)
            name = name.substr(0, open);
    }
    // Namespaces and classes, and the return type before the name, outside any brackets.
    std::size_t from = 0;
    int depth = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '<' || c == '(')
            ++depth;
        else if ((c == '>' || c == ')') && depth > 0)
            --depth;
        else if (depth == 0 && c == ' ')
            from = i + 1;
        else if (depth == 0 && c == ':' && i + 1 < name.size() && name[i + 1] == ':')
            from = i + 2;
    }
    name = name.substr(std::min(from, name.size()));
    return name.empty() ? std::string(demangled) : std::string(name);
}

}  // namespace asyncscope
