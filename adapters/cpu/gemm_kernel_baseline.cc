// The matrix-multiply kernel every target runs: 6 rows x 2 vectors of
// 16 bytes (SSE2 on x86-64, NEON elsewhere), compiled with the build's own
// flags, so HLOCHECK_ARCH widens it like the rest of the code.
#define HLOCHECK_GEMM_KERNEL kGemmKernelBaseline
#define HLOCHECK_GEMM_NAME "baseline"
#define HLOCHECK_GEMM_VECTOR_BYTES 16
#define HLOCHECK_GEMM_TILE_ROWS 6
#include "adapters/cpu/gemm_kernel.inc"
