// --output as a pattern: %h the host's short name, %d the device index, %% a percent sign. With %d in it each device
// gets a file of its own. Files are opened before anything runs (AtomicOutputFile), their missing parent folders
// created.
#pragma once

#include "engine/model/error.hpp"

#include <string>

namespace asyncscope {

// What %d becomes in the name of a record that no device wrote (discovery failed).
constexpr const char* kNoDevice = "none";

// A usage error for a % that is not %h, %d or %%.
Status checkOutputPattern(const std::string& pattern);

// The pattern holds %d: one file per device.
bool namesDevice(const std::string& pattern);

// The pattern with its placeholders replaced.
std::string expandOutputPattern(const std::string& pattern, const std::string& host, const std::string& device);

}  // namespace asyncscope
