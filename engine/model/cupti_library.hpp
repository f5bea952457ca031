// Where to look for CUPTI: the library whose soname matches the CUDA runtime the build links (libcupti.so.12 for
// CUDA 12.x, libcupti.so.13 for 13.x), on the loader's own search path, beside the executable and in the toolkit's
// usual folders. Pure: the caller reads the environment and the executable's path, engine/cuda/cupti_trace loads.
#pragma once

#include "engine/model/cuda_versions.hpp"

#include <string>
#include <vector>

namespace asyncscope {

// "libcupti.so.13" for a CUDART_VERSION of 13000 to 13999.
std::string cuptiSoname(int cudartVersion = kBuiltCudaRuntime);

struct CuptiSearch {
    std::string chosen;                     // ASYNCSCOPE_CUPTI: that path and no other; empty when not set
    std::string executableDir;              // the running executable's folder; empty when unknown
    std::vector<std::string> toolkitRoots;  // CUDA_HOME, CUDA_PATH, /usr/local/cuda; empty entries are skipped
    int cudartVersion = kBuiltCudaRuntime;
};

// The paths to try, in order: `chosen` alone when set; else the soname for the loader's search (LD_LIBRARY_PATH,
// ldconfig), the portable bundle's lib folders beside and above the executable, and each toolkit root's CUPTI, lib64,
// lib and targets folders.
std::vector<std::string> cuptiCandidates(const CuptiSearch& search);

}  // namespace asyncscope
