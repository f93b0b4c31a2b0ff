// The AVX-512 matrix-multiply kernel: 12 rows x 2 vectors of 16 floats
// (8 doubles), 24 of the 32 vector registers holding sums. Compiled with
// -mavx512f -mfma (CMakeLists.txt) and run only where the CPU has AVX-512F.
#define HLOCHECK_GEMM_KERNEL kGemmKernelAvx512
#define HLOCHECK_GEMM_NAME "avx512"
#define HLOCHECK_GEMM_VECTOR_BYTES 64
#define HLOCHECK_GEMM_TILE_ROWS 12
#include "adapters/cpu/gemm_kernel.inc"
