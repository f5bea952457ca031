// Errors as values: every failure the engine can meet, with a sentence for the user.
#pragma once

#include "engine/model/names.hpp"

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace asyncscope {

enum class ErrorKind {
    Usage,         // the request itself is wrong (bad size, bad option, device index out of range)
    NoDriver,      // no NVIDIA driver is installed or loadable
    DriverTooOld,  // a driver is present but older than the CUDA runtime needs
    NoDevice,      // a driver is present but it sees no CUDA device
    TooLarge,      // the buffers do not fit the device's or the host's memory: the request, not the machine, is at fault
    OutOfMemory,   // a device or pinned host allocation failed
    Cuda,          // any other CUDA runtime error
    Verification,  // the pipeline ran but an element came back wrong
    Cancelled,     // the user asked to stop
    Io,            // a file could not be read or written
    Unsupported,   // this device, driver or runtime cannot run the combination asked for (SM copies from pageable
                   // memory without pageable memory access, a batch without cudaMemcpyBatchAsync …)
};

template <>
struct EnumNames<ErrorKind> {
    static constexpr std::array entries { std::pair { ErrorKind::Usage, "usage" },
        std::pair { ErrorKind::NoDriver, "no-driver" }, std::pair { ErrorKind::DriverTooOld, "driver-too-old" },
        std::pair { ErrorKind::NoDevice, "no-device" }, std::pair { ErrorKind::TooLarge, "too-large" },
        std::pair { ErrorKind::OutOfMemory, "out-of-memory" }, std::pair { ErrorKind::Cuda, "cuda" },
        std::pair { ErrorKind::Verification, "verification" }, std::pair { ErrorKind::Cancelled, "cancelled" },
        std::pair { ErrorKind::Io, "io" }, std::pair { ErrorKind::Unsupported, "unsupported" } };
};

// What the user can do differs: a request to change (usage, too large) against a machine or a run to look at.
constexpr bool isRequestError(ErrorKind kind)
{
    return kind == ErrorKind::Usage || kind == ErrorKind::TooLarge;
}

struct Error {
    ErrorKind kind = ErrorKind::Cuda;
    std::string api;       // the CUDA call that failed, e.g. "cudaMalloc"; empty for other errors
    int code = 0;          // cudaError_t value; 0 when the error is not a CUDA one
    std::string codeName;  // e.g. "cudaErrorMemoryAllocation"
    std::string detail;    // what went wrong
    std::string advice;    // what the user can do about it; may be empty

    // One line for a terminal or a status bar: "cudaMalloc failed: out of memory
    // (cudaErrorMemoryAllocation, 2). Choose a smaller size."
    std::string message() const;
};

Error makeError(ErrorKind kind, std::string detail, std::string advice = {});

// Success or failure of an operation that returns nothing.
using Status = std::optional<Error>;

// A value or the Error that prevented it.
template <class T>
class Result {
public:
    Result(T value) : m_state(std::move(value)) {}
    Result(Error error) : m_state(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    T& value() { return std::get<T>(m_state); }
    const T& value() const { return std::get<T>(m_state); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }

    const Error& error() const { return std::get<Error>(m_state); }

private:
    std::variant<T, Error> m_state;
};

}  // namespace asyncscope
