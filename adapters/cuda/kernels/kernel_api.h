// What the CUDA adapter's host code asks of a machine: memory, and a few
// families of kernels over plain buffers. Two machines implement it with the
// same kernel templates (kernels/*_kernels.h): the GPU (device_machine.cu,
// a grid of CUDA threads) and the host (host_machine.cc, the same functors
// in a loop), so that the kernels' indexing and dispatch are tested on every
// machine, and only their arithmetic differs (CUDA's math library on the
// GPU, the C library on the host).
//
// This header is compiled by nvcc as well as g++: plain structs only, no
// project headers beyond the kernels' own, no Abseil.
#ifndef HLOCHECK_ADAPTERS_CUDA_KERNELS_KERNEL_API_H_
#define HLOCHECK_ADAPTERS_CUDA_KERNELS_KERNEL_API_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "adapters/cuda/kernels/float_codec.h"

namespace hlocheck::cuda {

// How an element is stored and computed. Sub-byte integers sit sign- or
// zero-extended in one byte (`bits` says their width); the float formats
// narrower than f32 are bit patterns of `mini`, computed in float.
enum class Storage : uint8_t {
  kBool,
  kSigned,
  kUnsigned,
  kMini8,
  kMini16,
  kF32,
  kF64,
  // complex<f32> and complex<f64>, the real part first: only the
  // elementwise kernels take them (KindOf gives them to no other op).
  kComplex64,
  kComplex128,
};

struct ElementKind {
  Storage storage = Storage::kF32;
  int bits = 32;  // the value's width: 1 for bool, 2..64 for integers, the format's for floats
  int bytes = 4;  // the container's
  MiniFloat mini = {};  // kMini8, kMini16
};

// Elementwise ops. Unary ops read a; binary a and b; select reads the
// predicate from a and chooses b or c; clamp is clamp(a = min, b = x, c = max).
enum class ElementOp : uint8_t {
  // unary, result of the operand's kind
  kAbs,
  kNegate,
  kSign,
  kSqrt,
  kRsqrt,
  kCbrt,
  kExponential,
  kExponentialMinusOne,
  kLog,
  kLogPlusOne,
  kLogistic,
  kSine,
  kCosine,
  kTan,
  kTanh,
  kFloor,
  kCeil,
  kRoundNearestEven,
  kRoundNearestAfz,
  kNot,
  kPopcnt,
  kCountLeadingZeros,
  kReducePrecision,  // to reduce_exponent_bits / reduce_mantissa_bits
  // unary, result of another kind
  kIsFinite,  // -> bool
  kConvert,   // -> out kind, as the spec's convert
  // binary
  kAdd,
  kSubtract,
  kMultiply,
  kDivide,
  kRemainder,
  kMaximum,
  kMinimum,
  kPower,
  kAtan2,
  kAnd,
  kOr,
  kXor,
  kShiftLeft,
  kShiftRightArithmetic,
  kShiftRightLogical,
  kCompare,  // -> bool, by `direction` and `compare_type`
  // ternary
  kSelect,
  kClamp,
};

enum class CompareDirection : uint8_t { kEq, kNe, kGe, kGt, kLe, kLt };
enum class CompareType : uint8_t { kFloat, kTotalOrder, kSigned, kUnsigned };

struct ElementwiseArgs {
  ElementOp op = ElementOp::kAdd;
  ElementKind in;   // the operands' (select: b's and c's)
  ElementKind out;  // the result's
  const void* a = nullptr;
  const void* b = nullptr;
  const void* c = nullptr;
  // Element strides: 0 reads element 0 everywhere (a scalar that
  // broadcasts: clamp's bounds, select's predicate).
  int64_t a_stride = 1;
  int64_t b_stride = 1;
  int64_t c_stride = 1;
  void* z = nullptr;
  int64_t n = 0;
  CompareDirection direction = CompareDirection::kEq;
  CompareType compare_type = CompareType::kFloat;
  // A planted fault (faulty-cuda-ftz): f32 inputs and results below the
  // smallest normal become zero of their sign, as with nvcc -ftz=true.
  bool flush_subnormals = false;
  int reduce_exponent_bits = 0;  // kReducePrecision
  int reduce_mantissa_bits = 0;
};

inline constexpr int kMaxRank = 8;

// Copies a box of the result from the operand, element by element (the
// data-movement ops are all one of these, or a few): result element at
// coordinates r (0 <= r[d] < dims[d]) is at out_base + sum r[d] *
// out_strides[d]. Per result dimension, q = r[d] * mul[d] + add[d] is valid
// when q % div[d] == 0 and 0 <= q / div[d] < in_dims[d], and then adds
// (q / div[d]) * in_strides[d] to in_base; an element with any invalid
// dimension takes `padding` (bytes of one element).
//   transpose: in_strides[d] = the operand's stride of perm[d]
//   broadcast: in_strides[d] = 0 for new dimensions
//   slice: mul = stride, add = start;  reverse: mul = -1, add = size - 1
//   pad: add = -low, div = interior + 1
struct StridedCopyArgs {
  int rank = 0;
  int element_bytes = 4;
  int64_t dims[kMaxRank] = {};
  int64_t out_strides[kMaxRank] = {};
  int64_t out_base = 0;
  int64_t mul[kMaxRank] = {};
  int64_t add[kMaxRank] = {};
  int64_t div[kMaxRank] = {};
  int64_t in_dims[kMaxRank] = {};
  int64_t in_strides[kMaxRank] = {};
  int64_t in_base = 0;
  const void* in = nullptr;
  void* out = nullptr;
  uint8_t padding[16] = {};
  // A planted fault, for the faulty CUDA backends (adapters/cuda/cuda_faults.h).
  bool fault_tile_edge = false;
};

// out[i] = the coordinate of element i along `dimension` of `dims`,
// converted to `kind` exactly as convert would from an integer.
struct IotaArgs {
  ElementKind kind;
  int64_t n = 0;
  int64_t inner = 1;   // product of the dimensions after `dimension`
  int64_t extent = 1;  // size of `dimension`
  void* out = nullptr;
};

enum class Combiner : uint8_t { kAdd, kMultiply, kMaximum, kMinimum, kAnd, kOr, kXor };

// rows x columns, row-major: out[r] = init combined with every element of
// row r, in a tree: `lanes` partial results per row (lane l takes columns
// l, l + lanes, ...), then halving pairs. Float types narrower than f32 are
// accumulated in f32 and rounded once at the end (as XLA does).
struct ReduceRowsArgs {
  Combiner combiner = Combiner::kAdd;
  ElementKind kind;
  int64_t rows = 0;
  int64_t columns = 0;
  const void* in = nullptr;
  const void* init = nullptr;  // one element, in machine memory
  void* out = nullptr;
  bool fault_drop_last_block = false;
};

// reduce_window of one input: per result element at coordinates o, the init
// value combined with every element of its window, in the window's order;
// window position w of dimension d is padded coordinate o[d] * strides[d] +
// w * window_dilations[d], which holds the operand's element (q = that -
// pad_low[d]) where q is a multiple of base_dilations[d] inside the
// operand, and the init value everywhere else (padding and dilation holes).
struct ReduceWindowArgs {
  Combiner combiner = Combiner::kAdd;
  ElementKind kind;
  int rank = 0;
  int64_t out_dims[kMaxRank] = {};
  int64_t in_dims[kMaxRank] = {};
  int64_t in_strides[kMaxRank] = {};
  int64_t window[kMaxRank] = {};
  int64_t strides[kMaxRank] = {};
  int64_t base_dilations[kMaxRank] = {};
  int64_t window_dilations[kMaxRank] = {};
  int64_t pad_low[kMaxRank] = {};
  const void* in = nullptr;
  const void* init = nullptr;  // one element, in machine memory
  void* out = nullptr;
};

// Batched row-major matrix product in the element type: out[b] (m x n) =
// lhs[b] (m x k) * rhs[b] (k x n), accumulated in f32 for float types up to
// f32 (f64 for f64), in 64 bits wrapped to the width for integers, and
// rounded once to the result. `tf32` truncates f32 operands to TF32 first
// (only the faulty backend sets it).
struct MatmulArgs {
  ElementKind in;
  ElementKind out;
  int64_t batch = 1;
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  const void* lhs = nullptr;
  const void* rhs = nullptr;
  void* out_data = nullptr;
  bool tf32 = false;
};

// Sorts positions 0..length-1 of each of `rows` rows of `keys` (row-major,
// row r at r * length) into `order` by the keys' comparison: ascending with
// LT, descending with GT, under `compare_type`. The schedule is the
// top-down merge sort's (halves split at the middle, an element of the
// right half taken only when strictly less), merged bottom-up one level per
// launch, one thread per pair of halves: stable, and a permutation whatever
// the comparison answers (NaN under FLOAT), the same one on every machine.
struct SortRowsArgs {
  ElementKind key_kind;
  CompareType compare_type = CompareType::kFloat;
  bool descending = false;
  int64_t rows = 0;
  int64_t length = 0;
  const void* keys = nullptr;
  uint32_t* order = nullptr;    // rows * length positions, the result
  uint32_t* scratch = nullptr;  // as many, for merging
};

// out[r * length + i] = in[r * length + order[r * length + i]], elements of
// `element_bytes`.
struct PermuteRowsArgs {
  int element_bytes = 4;
  int64_t rows = 0;
  int64_t length = 0;
  const void* in = nullptr;
  const uint32_t* order = nullptr;
  void* out = nullptr;
};

// gather, per result element: its coordinates r split into offset and
// batch dimensions; it reads the operand at
//   sum_d r[d] * operand_strides[d]     (offset: the slice; batch: a paired
//                                         operand batching dimension, or 0)
//   + sum_k clamp(index_k, 0, start_max[k]) * start_strides[k]
// where index_k is start_indices[sum_d r[d] * index_strides[d] + k *
// index_vector_step], an integer of `index_kind` (saturated to int64).
struct GatherArgs {
  int element_bytes = 4;
  int rank = 0;  // the result's
  int64_t dims[kMaxRank] = {};
  int64_t operand_strides[kMaxRank] = {};
  int64_t index_strides[kMaxRank] = {};
  int starts = 0;
  int64_t start_max[kMaxRank] = {};
  int64_t start_strides[kMaxRank] = {};
  int64_t index_vector_step = 0;
  ElementKind index_kind;
  const void* operand = nullptr;
  const void* indices = nullptr;
  void* out = nullptr;
};

// scatter of one input, per update element u (coordinates r): the result
// coordinates are, per input dimension d, the window coordinate of the
// update dimension that window_dim_of names (or 0), plus the batching
// coordinate of the one batching_dim_of names, plus, for the k-th of
// `starts` scatter dimensions, index_k at input dimension start_dims[k]
// (index_k read as gather reads it). Where they lie inside the input, the
// result element becomes combine(it, update): with `replace`, the update;
// otherwise `combiner`. Updates to one element are combined atomically on
// the GPU, in any order, as the spec allows; in order on the host.
struct ScatterArgs {
  ElementKind kind;
  Combiner combiner = Combiner::kAdd;
  bool replace = false;
  int input_rank = 0;
  int64_t input_dims[kMaxRank] = {};
  int64_t input_strides[kMaxRank] = {};
  int update_rank = 0;
  int64_t update_dims[kMaxRank] = {};
  int window_dim_of[kMaxRank] = {};      // per update dimension: an input dimension, or -1
  int batching_dim_of[kMaxRank] = {};    // per update dimension: an input dimension, or -1
  int64_t index_strides[kMaxRank] = {};  // per update dimension: 0 for window dimensions
  int starts = 0;
  int start_dims[kMaxRank] = {};
  int64_t index_vector_step = 0;
  ElementKind index_kind;
  const void* indices = nullptr;
  const void* updates = nullptr;
  void* result = nullptr;
};

inline constexpr int kMaxSpatial = kMaxRank - 2;

// convolution, one thread per result element (batch b, feature f, spatial
// position o): the sum over the kernel's input features i and spatial
// positions k of lhs at (its batch, its input feature, padded position o *
// window_strides + k * rhs_dilation) times rhs at (i, f, k, or its mirror
// where window_reversal says). A padded position that is padding or a
// dilation hole is a zero that still multiplies (0 * inf is NaN, as the
// spec's pad-then-dot gives). With feature groups, f's group g = f /
// group_outputs reads input features g * group_inputs + i; with batch
// groups, input batch g * out_batch + b and input feature i. Sums as
// MatmulArgs's: f32 for floats up to f32, f64 for f64, 64-bit integers.
struct ConvolutionArgs {
  ElementKind kind;  // the operands', already that of the result
  int spatial = 0;
  int64_t out_batch = 0;
  int64_t out_features = 0;
  int64_t out_spatial[kMaxSpatial] = {};
  int64_t out_batch_stride = 0;
  int64_t out_feature_stride = 0;
  int64_t out_spatial_strides[kMaxSpatial] = {};
  int64_t lhs_batch_stride = 0;
  int64_t lhs_feature_stride = 0;
  int64_t lhs_spatial[kMaxSpatial] = {};
  int64_t lhs_spatial_strides[kMaxSpatial] = {};
  int64_t rhs_input_stride = 0;
  int64_t rhs_output_stride = 0;
  int64_t rhs_spatial[kMaxSpatial] = {};
  int64_t rhs_spatial_strides[kMaxSpatial] = {};
  int64_t window_strides[kMaxSpatial] = {};
  int64_t pad_low[kMaxSpatial] = {};
  int64_t lhs_dilation[kMaxSpatial] = {};
  int64_t rhs_dilation[kMaxSpatial] = {};
  bool reversal[kMaxSpatial] = {};
  int64_t group_inputs = 0;
  int64_t group_outputs = 1;
  bool batch_groups = false;
  const void* lhs = nullptr;
  const void* rhs = nullptr;
  void* out = nullptr;
};

// select_and_scatter, one thread per source element (window): the window's
// positions over the padded operand in order, padding skipped; the first
// is selected, and each later one replaces the selection unless
// select(selected, candidate) holds, where select is one comparison
// (`direction`, `compare_type`; `swapped`: compare(candidate, selected)).
// The result, filled with the init value before, then gets combine(it,
// source element) at the selected position, atomically on the GPU.
struct SelectAndScatterArgs {
  ElementKind operand_kind;
  ElementKind kind;  // the source's and the result's
  CompareDirection direction = CompareDirection::kGe;
  CompareType compare_type = CompareType::kFloat;
  bool swapped = false;
  Combiner combiner = Combiner::kAdd;
  int rank = 0;
  int64_t in_dims[kMaxRank] = {};
  int64_t in_strides[kMaxRank] = {};
  int64_t source_dims[kMaxRank] = {};
  int64_t window[kMaxRank] = {};
  int64_t strides[kMaxRank] = {};
  int64_t pad_low[kMaxRank] = {};
  const void* operand = nullptr;
  const void* source = nullptr;
  void* result = nullptr;
};

// Batch normalisation in double, each result rounded once to the element
// type (kernels/batch_norm_kernels.h): inference as (x - mean) * (scale /
// sqrt(variance + epsilon)) + offset; training's mean and variance per
// feature in two passes over the feature's elements (in index order, one
// thread per feature), then the output; grad as the spec's i1..i6.
// `epsilon` and `count` (elements per feature) are already rounded to the
// element type, as the spec's constant() makes them.
enum class BatchNormOp : uint8_t { kInference, kTraining, kGrad };

struct BatchNormArgs {
  BatchNormOp op = BatchNormOp::kInference;
  ElementKind kind;
  int64_t n = 0;  // operand elements
  int64_t features = 0;
  int64_t inner = 1;  // the stride of the feature dimension
  double epsilon = 0;
  double count = 1;
  const void* x = nullptr;
  const void* scale = nullptr;
  const void* offset = nullptr;       // inference, training
  const void* mean = nullptr;         // inference, grad
  const void* variance = nullptr;     // inference, grad
  const void* grad_output = nullptr;  // grad
  void* out = nullptr;                // of the operand's shape
  void* feature_out0 = nullptr;       // training: batch_mean; grad: grad_scale
  void* feature_out1 = nullptr;       // training: batch_var; grad: grad_offset
  double* stats = nullptr;            // 3 doubles per feature, scratch
};

// cholesky of each n x n matrix of a batch, one thread per matrix, in
// double: the lower factor L of the lower triangle (or, with !lower, L^T of
// the upper triangle's transpose), the other triangle zero; a matrix whose
// pivot is not positive gives NaN everywhere (the spec leaves it undefined).
struct CholeskyArgs {
  ElementKind kind;
  int64_t batches = 0;
  int64_t n = 0;
  bool lower = true;
  const void* a = nullptr;
  void* out = nullptr;
  double* scratch = nullptr;  // batches * n * n doubles
};

// triangular_solve of op(a) x = b (left_side) or x op(a) = b, one thread
// per column (left) or row (right) of each right-hand side, in double:
// op(a) is a's `lower` triangle (the other triangle zero, the diagonal one
// with unit_diagonal), transposed with `transpose`.
struct TriangularSolveArgs {
  ElementKind kind;
  int64_t batches = 0;
  int64_t n = 0;     // a's size
  int64_t rows = 0;  // b's
  int64_t cols = 0;
  bool left_side = true;
  bool lower = true;
  bool unit_diagonal = false;
  bool transpose = false;
  const void* a = nullptr;
  const void* b = nullptr;
  void* out = nullptr;
  double* scratch = nullptr;  // batches * rows * cols doubles
};

// rng_bit_generator's output bits, one thread per element, in XLA's layout
// (the de facto convention the oracle names): Philox-4x32-10 blocks of four
// 32-bit (two 64-bit) outputs at counters low + j (carrying into high), or
// Threefry-2x32-20 at counter + i for 64-bit outputs and, for narrower ones,
// one block per pair of elements of the shape halved along `axis`. Each
// element takes its value's low `bytes` bytes (booleans the lowest bit).
struct RngBitsArgs {
  bool philox = false;
  bool wide = false;  // 64-bit outputs
  uint64_t key = 0;
  uint64_t counter = 0;  // Threefry's counter; Philox's low word
  uint64_t high = 0;     // Philox's high word
  int64_t n = 0;
  int bytes = 4;
  bool boolean = false;
  int rank = 0;
  int axis = 0;  // Threefry, narrow outputs
  int64_t dims[kMaxRank] = {};
  void* out = nullptr;
};

// rng, one thread per element: Philox-4x32 of (element index, seed) gives
// each element 128 random bits. UNIFORM floats: a (1 - u) + b u for u in
// [0, 1) with 53 bits, rounded once to the type, and where that rounds up to
// b the type's largest value below b (`below_b`, its container bytes);
// NORMAL: Box-Muller, a + b z. Integers: a + (r * span) / 2^64 for span =
// b - a, wrapped to the width (no modulo bias).
struct RngArgs {
  ElementKind kind;
  bool normal = false;
  uint64_t seed = 0;
  int64_t n = 0;
  double a = 0;  // floats
  double b = 0;
  uint64_t a_bits = 0;  // integers: their 64-bit patterns
  uint64_t span = 0;
  uint8_t below_b[8] = {};
  void* out = nullptr;
};

// A quantized tensor's parameters on the machine: the expressed type
// (storage kF32, kF64 or kMini16), the storage range, and the scale and
// zero point of each element, per tensor or along the quantization
// dimension (index (i / stride) % size).
struct Quantization {
  ElementKind expressed;
  int64_t storage_min = 0;
  int64_t storage_max = 0;
  int64_t stride = 1;
  int64_t size = 1;  // 1: per tensor
  const double* scales = nullptr;
  const int64_t* zero_points = nullptr;
};

// uniform_quantize and uniform_dequantize, one thread per element, the way
// integer inference kernels do them: storage integers widened to int64, the
// float steps in double each rounded once to the expressed type, quantize in
// seed 002's order (round x / scale to nearest even, then add the zero
// point, saturating). `in_quantized`: the operand is quantized (`in`
// describes it), else a float of `in_kind`; `quantize`: the result is
// quantized (`out`), else a float of `out_kind`.
struct QuantizeArgs {
  bool in_quantized = false;
  bool quantize = true;
  ElementKind in_kind;   // storage or float type of the operand
  ElementKind out_kind;  // storage or float type of the result
  Quantization in;
  Quantization out;
  int64_t n = 0;
  const void* operand = nullptr;
  void* result = nullptr;
};

// One step of fft on complex<double> values (interleaved, row-major of
// `shape`): along `dimension`, out[.., k, ..] = sum_j in[.., j, ..] *
// e^(-+2 pi i j k / n), one thread per output element, the angle's index j k
// reduced mod n first; the inverse scaled by 1 / n.
struct DftArgs {
  int rank = 0;
  int64_t dims[kMaxRank] = {};
  int dimension = 0;
  bool inverse = false;
  const double* in = nullptr;
  double* out = nullptr;
};

// A machine: memory and kernels. Errors are returned as text ("" is
// success); a kernel's own error surfaces at the next Synchronize.
class Machine {
 public:
  virtual ~Machine() = default;
  virtual std::string Describe() const = 0;
  virtual bool on_device() const = 0;

  virtual std::string Allocate(size_t bytes, void** pointer) = 0;
  virtual void Free(void* pointer) = 0;
  virtual std::string CopyIn(void* destination, const void* source, size_t bytes) = 0;
  virtual std::string CopyOut(void* destination, const void* source, size_t bytes) = 0;
  virtual std::string Synchronize() = 0;

  virtual std::string Elementwise(const ElementwiseArgs& args) = 0;
  virtual std::string StridedCopy(const StridedCopyArgs& args) = 0;
  virtual std::string Iota(const IotaArgs& args) = 0;
  virtual std::string ReduceRows(const ReduceRowsArgs& args) = 0;
  virtual std::string ReduceWindow(const ReduceWindowArgs& args) = 0;
  virtual std::string Matmul(const MatmulArgs& args) = 0;
  virtual std::string Convolution(const ConvolutionArgs& args) = 0;
  virtual std::string BatchNorm(const BatchNormArgs& args) = 0;
  virtual std::string Cholesky(const CholeskyArgs& args) = 0;
  virtual std::string TriangularSolve(const TriangularSolveArgs& args) = 0;
  virtual std::string RngBits(const RngBitsArgs& args) = 0;
  virtual std::string Dft(const DftArgs& args) = 0;
  virtual std::string Rng(const RngArgs& args) = 0;
  virtual std::string Quantize(const QuantizeArgs& args) = 0;
  virtual std::string SortRows(const SortRowsArgs& args) = 0;
  virtual std::string PermuteRows(const PermuteRowsArgs& args) = 0;
  virtual std::string Gather(const GatherArgs& args) = 0;
  virtual std::string Scatter(const ScatterArgs& args) = 0;
  virtual std::string SelectAndScatter(const SelectAndScatterArgs& args) = 0;
  // Whether Matmul of these kinds goes to the vendor library (cuBLAS).
  virtual bool HasLibraryMatmul(const ElementKind&) const { return false; }
};

}  // namespace hlocheck::cuda

#endif  // HLOCHECK_ADAPTERS_CUDA_KERNELS_KERNEL_API_H_
