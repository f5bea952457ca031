#include "engine/model/cupti_library.hpp"

#include <filesystem>

namespace asyncscope {

std::string cuptiSoname(int cudartVersion)
{
    return "libcupti.so." + std::to_string(cudartVersion / 1000);  // CUDART_VERSION is major * 1000 + minor * 10
}

std::vector<std::string> cuptiCandidates(const CuptiSearch& search)
{
    if (!search.chosen.empty())
        return { search.chosen };
    const std::string soname = cuptiSoname(search.cudartVersion);
    std::vector<std::string> paths { soname };
    if (!search.executableDir.empty()) {
        const std::filesystem::path dir(search.executableDir);
        paths.push_back((dir / "lib" / soname).string());  // the portable bundle
        paths.push_back((dir.parent_path() / "lib" / soname).string());
    }
    for (const std::string& root : search.toolkitRoots) {
        if (root.empty())
            continue;
        for (const char* folder : { "extras/CUPTI/lib64", "lib64", "lib", "targets/x86_64-linux/lib" })
            paths.push_back((std::filesystem::path(root) / folder / soname).string());
    }
    return paths;
}

}  // namespace asyncscope
