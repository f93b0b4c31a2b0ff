#include "tests/support/case_builders.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include "core/literal.h"

namespace hlocheck::testing {

Tensor Literal(const std::string& text) {
  auto tensor = ParseDenseAttribute(text);
  EXPECT_TRUE(tensor.ok()) << text << ": " << tensor.status();
  return tensor.ok() ? *std::move(tensor) : Tensor();
}

ValueType ValueTypeOf(const std::string& text) {
  auto type = ParseValueType(text);
  EXPECT_TRUE(type.ok()) << text << ": " << type.status();
  return type.ok() ? *std::move(type) : ValueType();
}

Tensor QuantizedLiteral(const std::string& type, const std::string& storage) {
  return Tensor::Reusing(ValueTypeOf(type).tensor(), Literal(storage));
}

Case MakeCase(std::string op, std::vector<Tensor> operands, TensorType result,
              std::vector<int64_t> operand_segments) {
  Case c;
  c.op = std::move(op);
  c.operands = std::move(operands);
  c.operand_segments = std::move(operand_segments);
  c.result_types = {std::move(result)};
  return c;
}

Case SortCase(std::vector<Tensor> inputs, int64_t dimension, bool is_stable, Region comparator) {
  Case c;
  c.op = "sort";
  for (const Tensor& t : inputs) c.result_types.push_back(t.type());
  c.operand_segments = {static_cast<int64_t>(inputs.size())};
  c.result_segments = {static_cast<int64_t>(inputs.size())};
  c.operands = std::move(inputs);
  c.attributes["dimension"] = dimension;
  c.attributes["is_stable"] = is_stable;
  c.regions.push_back(std::move(comparator));
  return c;
}

Case GatherCase(Tensor operand, Tensor start_indices, const GatherDims& dims, Shape result) {
  const ElementType type = operand.element_type();
  Case c =
      MakeCase("gather", {std::move(operand), std::move(start_indices)}, {std::move(result), type});
  c.attributes["offset_dims"] = dims.offset_dims;
  c.attributes["collapsed_slice_dims"] = dims.collapsed_slice_dims;
  c.attributes["operand_batching_dims"] = dims.operand_batching_dims;
  c.attributes["start_indices_batching_dims"] = dims.start_indices_batching_dims;
  c.attributes["start_index_map"] = dims.start_index_map;
  c.attributes["index_vector_dim"] = dims.index_vector_dim;
  c.attributes["slice_sizes"] = dims.slice_sizes;
  c.attributes["indices_are_sorted"] = dims.indices_are_sorted;
  return c;
}

Case ScatterCase(std::vector<Tensor> inputs, Tensor indices, std::vector<Tensor> updates,
                 const ScatterDims& dims, Region body, bool sorted, bool unique,
                 std::vector<ElementType> result_types) {
  Case c;
  c.op = "scatter";
  for (size_t i = 0; i < inputs.size(); ++i) {
    TensorType t = inputs[i].type();
    if (!result_types.empty()) t.element_type = result_types[i];
    c.result_types.push_back(t);
  }
  const auto n = static_cast<int64_t>(inputs.size());
  c.operand_segments = {n, 1, n};
  c.result_segments = {n};
  c.operands = std::move(inputs);
  c.operands.push_back(std::move(indices));
  for (Tensor& u : updates) c.operands.push_back(std::move(u));
  c.attributes["update_window_dims"] = dims.update_window_dims;
  c.attributes["inserted_window_dims"] = dims.inserted_window_dims;
  c.attributes["input_batching_dims"] = dims.input_batching_dims;
  c.attributes["scatter_indices_batching_dims"] = dims.scatter_indices_batching_dims;
  c.attributes["scatter_dims_to_operand_dims"] = dims.scatter_dims_to_operand_dims;
  c.attributes["index_vector_dim"] = dims.index_vector_dim;
  c.attributes["indices_are_sorted"] = sorted;
  c.attributes["unique_indices"] = unique;
  c.regions.push_back(std::move(body));
  return c;
}

Case ReduceCase(std::vector<Tensor> inputs, std::vector<Tensor> init_values,
                std::vector<int64_t> dimensions, Region body,
                std::vector<ElementType> result_types) {
  Case c;
  c.op = "reduce";
  for (size_t i = 0; i < inputs.size(); ++i) {
    Shape shape;
    for (int64_t d = 0; d < inputs[i].rank(); ++d) {
      if (std::find(dimensions.begin(), dimensions.end(), d) == dimensions.end()) {
        shape.push_back(inputs[i].shape()[d]);
      }
    }
    c.result_types.emplace_back(shape,
                                result_types.empty() ? inputs[i].element_type() : result_types[i]);
  }
  const auto n = static_cast<int64_t>(inputs.size());
  c.operand_segments = {n, n};
  c.result_segments = {n};
  c.operands = std::move(inputs);
  for (Tensor& t : init_values) c.operands.push_back(std::move(t));
  c.attributes["dimensions"] = std::move(dimensions);
  c.regions.push_back(std::move(body));
  return c;
}

Case ReduceWindowCase(std::vector<Tensor> inputs, std::vector<Tensor> init_values,
                      const WindowAttributes& window, Shape result_shape, Region body,
                      std::vector<ElementType> result_types) {
  Case c;
  c.op = "reduce_window";
  for (size_t i = 0; i < inputs.size(); ++i) {
    c.result_types.emplace_back(result_shape,
                                result_types.empty() ? inputs[i].element_type() : result_types[i]);
  }
  const auto n = static_cast<int64_t>(inputs.size());
  c.operand_segments = {n, n};
  c.result_segments = {n};
  c.operands = std::move(inputs);
  for (Tensor& t : init_values) c.operands.push_back(std::move(t));
  // Seed 002 asks for every attribute: the ones a test leaves out are 1s
  // and no padding.
  const size_t rank = window.window_dimensions.size();
  auto or_ones = [&](const std::vector<int64_t>& list) {
    return list.empty() ? std::vector<int64_t>(rank, 1) : list;
  };
  c.attributes["window_dimensions"] = window.window_dimensions;
  c.attributes["window_strides"] = or_ones(window.window_strides);
  c.attributes["base_dilations"] = or_ones(window.base_dilations);
  c.attributes["window_dilations"] = or_ones(window.window_dilations);
  Tensor padding(Shape{static_cast<int64_t>(rank), 2}, ElementType::kSI64);
  auto values = padding.values<ElementType::kSI64>();
  for (size_t d = 0; d < window.padding.size() && d < rank; ++d) {
    values[2 * d] = window.padding[d].first;
    values[2 * d + 1] = window.padding[d].second;
  }
  c.attributes["padding"] = std::move(padding);
  c.regions.push_back(std::move(body));
  return c;
}

Case SelectAndScatterCase(Tensor operand, Tensor source, Tensor init_value,
                          std::vector<int64_t> window_dimensions,
                          std::vector<int64_t> window_strides,
                          std::vector<std::pair<int64_t, int64_t>> padding, Region select,
                          Region scatter, std::optional<ElementType> result_type) {
  const size_t rank = window_dimensions.size();
  Case c;
  c.op = "select_and_scatter";
  c.result_types.push_back({operand.shape(), result_type.value_or(operand.element_type())});
  c.operands = {std::move(operand), std::move(source), std::move(init_value)};
  c.attributes["window_dimensions"] = window_dimensions;
  c.attributes["window_strides"] =
      window_strides.empty() ? std::vector<int64_t>(rank, 1) : window_strides;
  Tensor pad(Shape{static_cast<int64_t>(rank), 2}, ElementType::kSI64);
  for (size_t d = 0; d < padding.size() && d < rank; ++d) {
    pad.values<ElementType::kSI64>()[2 * d] = padding[d].first;
    pad.values<ElementType::kSI64>()[2 * d + 1] = padding[d].second;
  }
  c.attributes["padding"] = std::move(pad);
  c.regions.push_back(std::move(select));
  c.regions.push_back(std::move(scatter));
  return c;
}

Case ConvolutionCase(Tensor lhs, Tensor rhs, const ConvolutionAttributes& a, Shape result_shape,
                     ElementType result_type) {
  const auto spatial = static_cast<size_t>(a.spatial);
  auto or_ones = [&](const std::vector<int64_t>& list) {
    return list.empty() ? std::vector<int64_t>(spatial, 1) : list;
  };
  auto or_order = [&](const std::vector<int64_t>& list) {
    if (!list.empty()) return list;
    std::vector<int64_t> order(spatial + 2);
    for (size_t d = 0; d < order.size(); ++d) order[d] = static_cast<int64_t>(d);
    return order;
  };
  // Logical orders: input and output (batch, spatial..., feature); kernel
  // (spatial..., input feature, output feature).
  const std::vector<int64_t> input = or_order(a.input_dimensions);
  const std::vector<int64_t> output = or_order(a.output_dimensions);
  std::vector<int64_t> kernel = a.kernel_dimensions;
  if (kernel.empty()) {
    for (size_t d = 0; d < spatial + 2; ++d) kernel.push_back(static_cast<int64_t>(d));
  }
  Case c;
  c.op = "convolution";
  c.operands = {std::move(lhs), std::move(rhs)};
  c.result_types.push_back({std::move(result_shape), result_type});
  c.attributes["window_strides"] = or_ones(a.window_strides);
  Tensor padding(Shape{static_cast<int64_t>(spatial), 2}, ElementType::kSI64);
  for (size_t d = 0; d < a.padding.size() && d < spatial; ++d) {
    padding.values<ElementType::kSI64>()[2 * d] = a.padding[d].first;
    padding.values<ElementType::kSI64>()[2 * d + 1] = a.padding[d].second;
  }
  c.attributes["padding"] = std::move(padding);
  c.attributes["lhs_dilation"] = or_ones(a.lhs_dilation);
  c.attributes["rhs_dilation"] = or_ones(a.rhs_dilation);
  c.attributes["window_reversal"] =
      a.window_reversal.empty() ? std::vector<bool>(spatial, false) : a.window_reversal;
  c.attributes["input_batch_dimension"] = input.front();
  c.attributes["input_feature_dimension"] = input.back();
  c.attributes["input_spatial_dimensions"] =
      std::vector<int64_t>(input.begin() + 1, input.end() - 1);
  c.attributes["kernel_input_feature_dimension"] = kernel[spatial];
  c.attributes["kernel_output_feature_dimension"] = kernel[spatial + 1];
  c.attributes["kernel_spatial_dimensions"] =
      std::vector<int64_t>(kernel.begin(), kernel.begin() + static_cast<int64_t>(spatial));
  c.attributes["output_batch_dimension"] = output.front();
  c.attributes["output_feature_dimension"] = output.back();
  c.attributes["output_spatial_dimensions"] =
      std::vector<int64_t>(output.begin() + 1, output.end() - 1);
  c.attributes["feature_group_count"] = a.feature_group_count;
  c.attributes["batch_group_count"] = a.batch_group_count;
  c.attributes["precision_config"] =
      std::vector<EnumValue>{EnumValue{"DEFAULT"}, EnumValue{"DEFAULT"}};
  return c;
}

Case MapCase(std::vector<Tensor> inputs, Region computation, ElementType result) {
  Case c;
  c.op = "map";
  c.result_types.push_back({inputs.at(0).shape(), result});
  std::vector<int64_t> dimensions;
  for (int64_t d = 0; d < inputs[0].rank(); ++d) dimensions.push_back(d);
  c.operand_segments = {static_cast<int64_t>(inputs.size())};
  c.operands = std::move(inputs);
  c.attributes["dimensions"] = dimensions;
  c.regions.push_back(std::move(computation));
  return c;
}

Case FftCase(Tensor operand, const std::string& type, std::vector<int64_t> lengths,
             TensorType result) {
  Case c;
  c.op = "fft";
  c.operands.push_back(std::move(operand));
  c.result_types.push_back(std::move(result));
  c.attributes["fft_type"] = EnumValue{type};
  c.attributes["fft_length"] = std::move(lengths);
  return c;
}

Case BatchNormCase(Tensor operand, Tensor scale, Tensor offset, Tensor mean, Tensor variance,
                   double epsilon, int64_t feature_index) {
  Case c;
  c.op = "batch_norm_inference";
  c.result_types.push_back(operand.type());
  c.operands = {std::move(operand), std::move(scale), std::move(offset), std::move(mean),
                std::move(variance)};
  c.attributes["epsilon"] = epsilon;
  c.attributes["feature_index"] = feature_index;
  return c;
}

Case BatchNormTrainingCase(Tensor operand, Tensor scale, Tensor offset, double epsilon,
                           int64_t feature_index) {
  Case c;
  c.op = "batch_norm_training";
  c.result_types = {operand.type(), scale.type(), scale.type()};
  c.operands = {std::move(operand), std::move(scale), std::move(offset)};
  c.attributes["epsilon"] = epsilon;
  c.attributes["feature_index"] = feature_index;
  return c;
}

Case BatchNormGradCase(Tensor operand, Tensor scale, Tensor mean, Tensor variance,
                       Tensor grad_output, double epsilon, int64_t feature_index) {
  Case c;
  c.op = "batch_norm_grad";
  c.result_types = {operand.type(), scale.type(), scale.type()};
  c.operands = {std::move(operand), std::move(scale), std::move(mean), std::move(variance),
                std::move(grad_output)};
  c.attributes["epsilon"] = epsilon;
  c.attributes["feature_index"] = feature_index;
  return c;
}

void SetDotAlgorithm(Case& c, const std::string& precision, const std::string& accumulation,
                     int64_t components, int64_t products, bool imprecise) {
  c.attributes["lhs_precision_type"] = precision;
  c.attributes["rhs_precision_type"] = precision;
  c.attributes["accumulation_type"] = accumulation;
  c.attributes["lhs_component_count"] = components;
  c.attributes["rhs_component_count"] = components;
  c.attributes["num_primitive_operations"] = products;
  c.attributes["allow_imprecise_accumulation"] = imprecise;
  c.attributes["precision_config"] =
      std::vector<EnumValue>{EnumValue{"DEFAULT"}, EnumValue{"DEFAULT"}};
}

Case CholeskyCase(Tensor a, bool lower) {
  Case c;
  c.op = "cholesky";
  c.result_types.push_back(a.type());
  c.operands.push_back(std::move(a));
  c.attributes["lower"] = lower;
  return c;
}

Case TriangularSolveCase(Tensor a, Tensor b, bool left_side, bool lower, bool unit_diagonal,
                         const std::string& transpose_a) {
  Case c;
  c.op = "triangular_solve";
  c.result_types.push_back(b.type());
  c.operands = {std::move(a), std::move(b)};
  c.attributes["left_side"] = left_side;
  c.attributes["lower"] = lower;
  c.attributes["unit_diagonal"] = unit_diagonal;
  c.attributes["transpose_a"] = EnumValue{transpose_a};
  return c;
}

namespace {

// A case of `op` on the one variadic input `values` holding the tensors
// `operands`, with a result tensor of the type of each.
Case StructuredCase(std::string op, std::vector<Tensor> operands, std::vector<ValueType> values) {
  Case c;
  c.op = std::move(op);
  c.operands = std::move(operands);
  for (const Tensor& t : c.operands) c.result_types.push_back(t.type());
  c.operand_segments = {static_cast<int64_t>(values.size())};
  c.operand_structure = std::move(values);
  return c;
}

}  // namespace

Case TupleCase(std::vector<Tensor> operands, std::vector<ValueType> elements) {
  Case c = StructuredCase("tuple", std::move(operands), std::move(elements));
  c.result_structure = {ValueType::Tuple(c.operand_structure)};
  return c;
}

Case GetTupleElementCase(std::vector<Tensor> operands, ValueType tuple, int64_t index) {
  Case c;
  c.op = "get_tuple_element";
  c.operands = std::move(operands);
  c.operand_structure = {std::move(tuple)};
  c.attributes["index"] = index;
  return c;
}

Case OptimizationBarrierCase(std::vector<Tensor> operands, std::vector<ValueType> values) {
  Case c = StructuredCase("optimization_barrier", std::move(operands), std::move(values));
  c.result_segments = c.operand_segments;
  c.result_structure = c.operand_structure;
  return c;
}

}  // namespace hlocheck::testing
