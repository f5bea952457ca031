// What the pipeline's kernel does to one element, as plain arithmetic: the host side checks against it.
#pragma once

namespace asyncscope {

// element + value, wrapping at 32 bits (no signed overflow).
constexpr int incremented(int element, int value)
{
    return static_cast<int>(static_cast<unsigned>(element) + static_cast<unsigned>(value));
}

}  // namespace asyncscope
