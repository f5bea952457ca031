#include "engine/model/error.hpp"

namespace asyncscope {

std::string Error::message() const
{
    std::string text;
    if (!api.empty())
        text = api + " failed: ";
    text += detail;
    if (!codeName.empty())
        text += " (" + codeName + ", " + std::to_string(code) + ")";
    if (!advice.empty()) {
        if (!text.empty() && text.back() != '.')
            text += '.';
        text += ' ' + advice;
    }
    return text;
}

Error makeError(ErrorKind kind, std::string detail, std::string advice)
{
    Error error;
    error.kind = kind;
    error.detail = std::move(detail);
    error.advice = std::move(advice);
    return error;
}

}  // namespace asyncscope
