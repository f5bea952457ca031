#include "engine/io/csv/csv_text.hpp"

#include "engine/model/display_text.hpp"
#include "engine/model/record_rules.hpp"

namespace asyncscope::csv {

bool parseDuration(std::string_view text, double& out)
{
    return parseNumber(text, out) && !checkDurationMs({}, out);
}

bool parseFlag(std::string_view text, bool& out)
{
    if (text != "0" && text != "1")
        return false;
    out = text == "1";
    return true;
}

std::string quoted(const std::string& text)
{
    const std::string field = displayText(text);
    if (field.find_first_of(",\"\r\n") == std::string::npos)
        return field;
    std::string q = "\"";
    for (const char c : field) {
        q += c;
        if (c == '"')
            q += '"';
    }
    return q + '"';
}

void appendNumber(std::string& out, double v)
{
    char text[32];
    out.append(text, std::to_chars(text, text + sizeof text, v).ptr);
}

}  // namespace asyncscope::csv
