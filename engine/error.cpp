#include "engine/error.hpp"

namespace asyncscope {

const char* toString(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::Usage: return "usage";
    case ErrorKind::NoDriver: return "no-driver";
    case ErrorKind::DriverTooOld: return "driver-too-old";
    case ErrorKind::NoDevice: return "no-device";
    case ErrorKind::OutOfMemory: return "out-of-memory";
    case ErrorKind::Cuda: return "cuda";
    case ErrorKind::Verification: return "verification";
    case ErrorKind::Cancelled: return "cancelled";
    case ErrorKind::Io: return "io";
    }
    return "unknown";
}

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
