// Cases built from their parts, shared by the tests of every backend (the
// oracle's and the adapters' tests alike; this library links neither):
// tensors from literals, one-result cases, and the ops whose attributes or
// structure take more than a line to fill in (sort, gather, scatter, tuple,
// get_tuple_element, optimization_barrier).
#ifndef HLOCHECK_TESTS_SUPPORT_CASE_BUILDERS_H_
#define HLOCHECK_TESTS_SUPPORT_CASE_BUILDERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/case.h"
#include "core/program.h"
#include "core/tensor.h"
#include "core/types.h"

namespace hlocheck::testing {

// `dense<...> : tensor<...>`, which must parse (the test fails, and an
// empty tensor comes back, where it does not).
Tensor Literal(const std::string& text);

// A type as MLIR writes it (`tensor<2xf32>`, `tuple<...>`,
// `!stablehlo.token`), which must parse.
ValueType ValueTypeOf(const std::string& text);

// A quantized tensor of `type` (MLIR's spelling) holding the storage
// integers of `storage` (`dense<...> : tensor<...xi8>`).
Tensor QuantizedLiteral(const std::string& type, const std::string& storage);

// A case of `op` with one result.
Case MakeCase(std::string op, std::vector<Tensor> operands, TensorType result,
              std::vector<int64_t> operand_segments = {});

// -------------------------------------------------------------------- sort

// sort of `inputs` along `dimension` by `comparator`; result i has input
// i's type.
Case SortCase(std::vector<Tensor> inputs, int64_t dimension, bool is_stable, Region comparator);

// ------------------------------------------------------------------ reduce

// reduce of `inputs` with one init value each over `dimensions`; the
// results take the inputs' element types, or `result_types` (a promoted body).
Case ReduceCase(std::vector<Tensor> inputs, std::vector<Tensor> init_values,
                std::vector<int64_t> dimensions, Region body,
                std::vector<ElementType> result_types = {});

// reduce_window of `inputs` with one init value each; the attributes a
// window leaves out are ones and no padding. The result
// shape is `result_shape` (the test states what the windows give).
struct WindowAttributes {
  std::vector<int64_t> window_dimensions = {};
  std::vector<int64_t> window_strides = {};
  std::vector<int64_t> base_dilations = {};
  std::vector<int64_t> window_dilations = {};
  std::vector<std::pair<int64_t, int64_t>> padding = {};  // low, high per dimension
};
Case ReduceWindowCase(std::vector<Tensor> inputs, std::vector<Tensor> init_values,
                      const WindowAttributes& window, Shape result_shape, Region body,
                      std::vector<ElementType> result_types = {});

// select_and_scatter with windows of `window_dimensions`, strides and
// padding (ones and none where empty); the result has operand's shape and
// the element type `result_type` (operand's where left out).
Case SelectAndScatterCase(Tensor operand, Tensor source, Tensor init_value,
                          std::vector<int64_t> window_dimensions,
                          std::vector<int64_t> window_strides,
                          std::vector<std::pair<int64_t, int64_t>> padding, Region select,
                          Region scatter, std::optional<ElementType> result_type = std::nullopt);

// ------------------------------------------------------------ convolution

// convolution's attributes; spatial ones left empty are ones (no padding,
// no reversal); the dimension numbers default to [b, 0, 1, ..., f] x
// [0, 1, ..., i, o] -> [b, 0, 1, ..., f] for `spatial` dimensions.
struct ConvolutionAttributes {
  int64_t spatial = 1;
  std::vector<int64_t> window_strides = {};
  std::vector<std::pair<int64_t, int64_t>> padding = {};
  std::vector<int64_t> lhs_dilation = {};
  std::vector<int64_t> rhs_dilation = {};
  std::vector<bool> window_reversal = {};
  std::vector<int64_t> input_dimensions = {};   // batch, spatial..., feature
  std::vector<int64_t> kernel_dimensions = {};  // spatial..., input feature, output feature
  std::vector<int64_t> output_dimensions = {};  // batch, spatial..., feature
  int64_t feature_group_count = 1;
  int64_t batch_group_count = 1;
};
Case ConvolutionCase(Tensor lhs, Tensor rhs, const ConvolutionAttributes& a, Shape result_shape,
                     ElementType result_type);

// ------------------------------------------------------------ other ops

// map of `inputs` with `computation` over every dimension.
Case MapCase(std::vector<Tensor> inputs, Region computation, ElementType result);

// fft of `operand` (fft_type FFT, IFFT, RFFT or IRFFT).
Case FftCase(Tensor operand, const std::string& type, std::vector<int64_t> lengths,
             TensorType result);

// batch_norm_inference; the result has operand's type.
Case BatchNormCase(Tensor operand, Tensor scale, Tensor offset, Tensor mean, Tensor variance,
                   double epsilon, int64_t feature_index);
// batch_norm_training: output of operand's type, batch_mean and batch_var
// of scale's.
Case BatchNormTrainingCase(Tensor operand, Tensor scale, Tensor offset, double epsilon,
                           int64_t feature_index);
// batch_norm_grad: grad_operand of operand's type, grad_scale and
// grad_offset of scale's.
Case BatchNormGradCase(Tensor operand, Tensor scale, Tensor mean, Tensor variance,
                       Tensor grad_output, double epsilon, int64_t feature_index);

// cholesky of a batch of square matrices; the result has a's type.
// dot_general's algorithm attribute, the same precision type and component
// count for lhs and rhs; precision_config DEFAULT, as C21 asks.
void SetDotAlgorithm(Case& c, const std::string& precision, const std::string& accumulation,
                     int64_t components, int64_t products, bool imprecise = false);

Case CholeskyCase(Tensor a, bool lower);
// triangular_solve (transpose_a NO_TRANSPOSE, TRANSPOSE or ADJOINT); the
// result has b's type.
Case TriangularSolveCase(Tensor a, Tensor b, bool left_side, bool lower, bool unit_diagonal,
                         const std::string& transpose_a);

// ------------------------------------------------------------------ gather

struct GatherDims {
  std::vector<int64_t> offset_dims{}, collapsed_slice_dims{}, operand_batching_dims{},
      start_indices_batching_dims{}, start_index_map{}, slice_sizes{};
  int64_t index_vector_dim = 0;
  bool indices_are_sorted = false;
};

// gather of `operand` at `start_indices`; the result has the operand's
// element type and the given shape.
Case GatherCase(Tensor operand, Tensor start_indices, const GatherDims& dims, Shape result);

// ----------------------------------------------------------------- scatter

struct ScatterDims {
  std::vector<int64_t> update_window_dims{}, inserted_window_dims{}, input_batching_dims{},
      scatter_indices_batching_dims{}, scatter_dims_to_operand_dims{};
  int64_t index_vector_dim = 0;
};

// scatter of `updates` into `inputs` at `indices` with the update
// computation `body`; result i has input i's type, or its shape and
// result_types[i] where result_types is given.
Case ScatterCase(std::vector<Tensor> inputs, Tensor indices, std::vector<Tensor> updates,
                 const ScatterDims& dims, Region body, bool sorted = false, bool unique = false,
                 std::vector<ElementType> result_types = {});

// ------------------------------------------------------- tuples and tokens

// tuple of the values `elements` (tensors, tokens, tuples) holding the
// tensors `operands`; its one result is the tuple of them.
Case TupleCase(std::vector<Tensor> operands, std::vector<ValueType> elements);

// get_tuple_element of the one tuple value `tuple`, which holds the tensors
// `operands`, at `index`; no result types or structure yet (the test sets
// the ones it means).
Case GetTupleElementCase(std::vector<Tensor> operands, ValueType tuple, int64_t index);

// optimization_barrier of the values `values` (tensors and tokens) holding
// the tensors `operands`; its results are the same values.
Case OptimizationBarrierCase(std::vector<Tensor> operands, std::vector<ValueType> values);

}  // namespace hlocheck::testing

#endif  // HLOCHECK_TESTS_SUPPORT_CASE_BUILDERS_H_
