// The AVX2 matrix-multiply kernel: 6 rows x 2 vectors of 8 floats
// (4 doubles), 12 of the 16 vector registers holding sums. Compiled with
// -mavx2 -mfma (CMakeLists.txt) and run only where the CPU has both.
#define HLOCHECK_GEMM_KERNEL kGemmKernelAvx2
#define HLOCHECK_GEMM_NAME "avx2"
#define HLOCHECK_GEMM_VECTOR_BYTES 32
#define HLOCHECK_GEMM_TILE_ROWS 6
#include "adapters/cpu/gemm_kernel.inc"
