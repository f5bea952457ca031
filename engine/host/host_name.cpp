#include "engine/host/host_name.hpp"

#include <unistd.h>

#include <climits>

namespace asyncscope {

std::string shortHostName()
{
#ifdef HOST_NAME_MAX
    char name[HOST_NAME_MAX + 1] = {};
#else
    char name[256] = {};
#endif
    if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0')
        return "unknown-host";
    std::string text(name);
    return text.substr(0, text.find('.'));
}

}  // namespace asyncscope
