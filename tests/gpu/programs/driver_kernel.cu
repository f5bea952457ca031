// The kernel of record-driver-api (driver_api.cpp): compiled on its own into a fatbin at build time and embedded in the
// program, which loads it with cuModuleLoadData. C linkage, so the program finds it by this name.
extern "C" __global__ void scaleEach(float* data, int n, float factor)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= factor;
}
