// The CPU adapter's matrix-multiply kernels, one set per x86 instruction set
// (AVX-512, AVX2 with FMA, and a baseline any target compiles), chosen at run
// time by gemm.h's driver so that the portable build runs as fast as a
// -march=native one. Each set is one translation unit compiled with its own
// -m flags from the same source (gemm_kernel.inc).
//
// This header is plain data on purpose: it is included by those translation
// units, and an inline function defined here would be compiled with AVX-512
// there and could be the copy the linker keeps for the whole program.
#ifndef HLOCHECK_ADAPTERS_CPU_GEMM_KERNEL_H_
#define HLOCHECK_ADAPTERS_CPU_GEMM_KERNEL_H_

#include <stdint.h>

namespace hlocheck::cpu {

// c = a x b for a row-major [m, k] a, [k, n] b and [m, n] c with the given
// leading dimensions (elements between rows). k > 0.
template <typename T>
struct GemmProblem {
  int64_t m, n, k;
  const T* a;
  int64_t lda;
  const T* b;
  int64_t ldb;
  T* c;
  int64_t ldc;
};

template <typename T>
struct GemmFunctions {
  // Rows and columns of one register tile: a problem split into pieces at
  // multiples of these wastes no lanes except at its edges.
  int64_t tile_rows, tile_columns;
  // Elements of workspace (64-byte aligned) that multiply() needs.
  int64_t (*workspace_elements)(int64_t m, int64_t n, int64_t k);
  // One thread: packs panels of b into the workspace (kept in L2), rows of
  // a one register tile at a time (kept in L1), and runs the register tile
  // over them, k in blocks; c is written once per block of k.
  void (*multiply)(const GemmProblem<T>& problem, T* workspace);
};

// Whether the CPU runs a kernel is asked in gemm.cc, compiled for the
// baseline: code in a kernel's translation unit may already use its
// instruction set, even a function that only asks.
struct GemmKernel {
  const char* name;
  GemmFunctions<float> f32;
  GemmFunctions<double> f64;
};

extern const GemmKernel kGemmKernelBaseline;
#if defined(__x86_64__)
extern const GemmKernel kGemmKernelAvx2;
extern const GemmKernel kGemmKernelAvx512;
#endif

}  // namespace hlocheck::cpu

#endif  // HLOCHECK_ADAPTERS_CPU_GEMM_KERNEL_H_
