#include "engine/io/json/json_block.hpp"

#include <cmath>
#include <utility>

namespace asyncscope::json_header {

using nlohmann::json;

BadField::BadField(const FieldProblem& p)
    : BadField(p, fieldError("", "", p).detail)
{
}

BadField::BadField(const FieldProblem& p, const std::string& text)
    : nlohmann::json::exception(0, text.c_str())
    , problem(p)
{
}

void refuse(std::string field, std::string found, std::string accepted)
{
    throw BadField(FieldProblem { std::move(field), std::move(found), std::move(accepted) });
}

void refuseIf(const FieldCheck& check, const std::string& prefix)
{
    if (!check)
        return;
    FieldProblem p = *check;
    p.field = prefix + p.field;
    throw BadField(p);
}

Block::Block(const json& parent, const char* key, std::string path, Wording wording)
    : m_path(std::move(path))
    , m_wording(wording)
{
    if (!parent.contains(key))
        missing(m_path, "an object");
    take(parent.at(key));
}

Block::Block(const json& object, std::string path, Wording wording)
    : m_path(std::move(path))
    , m_wording(wording)
{
    take(object);
}

void Block::take(const json& object)
{
    if (!object.is_object())
        refuse(m_path, quoted(object), "an object");
    m_object = &object;
    if (!m_path.empty())
        m_path += '.';
}

void Block::missing(const std::string& field, const std::string& accepted) const
{
    const FieldProblem problem { field, "missing", accepted };
    if (m_wording == Wording::Record)
        throw BadField(problem, field + " is missing");
    throw BadField(problem);
}

const json* Block::find(const char* key) const
{
    const auto at = m_object->find(key);
    return at == m_object->end() ? nullptr : &*at;
}

const json& Block::need(const char* key, const std::string& accepted) const
{
    if (const json* v = find(key))
        return *v;
    missing(path(key), accepted);
}

const json& Block::list(const char* key) const
{
    const json& v = need(key, "a list");
    if (!v.is_array())
        refuse(path(key), quoted(v), "a list");
    return v;
}

void Block::getOrNull(const char* key, std::optional<int>& out, Range range) const
{
    if (!has(key) || m_object->at(key).is_null())
        return;
    int value = 0;
    read(key, value, range);
    out = value;
}

std::string Block::choiceText(const char* key, const std::string& names) const
{
    const json& v = m_object->at(key);
    if (!v.is_string())
        refuse(path(key), quoted(v), m_wording == Wording::Record ? "text" : names);
    return v.get<std::string>();
}

std::string Block::quotedName(const std::string& text) const
{
    const char* quote = m_wording == Wording::Record ? "\"" : "'";
    return quote + quotedValue(text) + quote;
}

std::string Block::quoted(const json& value) const
{
    return quotedJson(value, m_wording == Wording::Header);
}

bool Block::fits(const json& v, Range range) const
{
    if (v.is_number_unsigned()) {
        const std::uint64_t u = v.get<std::uint64_t>();
        return u <= range.most && (range.least <= 0 || u >= std::uint64_t(range.least));
    }
    if (!v.is_number_integer())
        return false;
    const std::int64_t i = v.get<std::int64_t>();
    return i >= range.least && (i < 0 || std::uint64_t(i) <= range.most);
}

std::string Block::wholeRange(Range range)
{
    return "a whole number from " + std::to_string(range.least) + " to " + std::to_string(range.most);
}

void checkAmount(const Block& block, const char* key, double value, const char* unit)
{
    if (!std::isfinite(value) || value < 0.0)
        refuse(block.path(key), quotedNumber(value), std::string("a finite number of ") + unit + ", 0 or more");
}

const nlohmann::json& listAt(const Block& block, const char* key, std::size_t most, const char* what)
{
    const nlohmann::json& list = block.object().at(key);
    if (!list.is_array())
        refuse(block.path(key), quotedJson(list), std::string("a list of ") + what);
    if (list.size() > most)
        refuse(block.path(key), "a list of " + std::to_string(list.size()),
            "at most " + std::to_string(most) + " " + what);
    return list;
}

}  // namespace asyncscope::json_header
