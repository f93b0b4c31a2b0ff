#include "core/case.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <type_traits>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "core/literal.h"

namespace hlocheck {
namespace {

std::string DoubleToString(double value) {
  char buffer[64];
  // Without a precision, to_chars gives the shortest text that round-trips.
  const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, result.ptr);
  // "2" would read as an integer attribute; "inf" and "nan" are fine as is.
  if (text.find_first_of(".ein") == std::string::npos) text += ".0";
  return text;
}

template <typename T, typename Format>
std::string ListToString(const std::vector<T>& values, Format format) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ", ";
    text += format(values[i]);
  }
  text += ']';
  return text;
}

}  // namespace

std::string AttributeToString(const Attribute& attribute) {
  return std::visit(
      [](const auto& value) -> std::string {
        using V = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<V, bool>) {
          return value ? "true" : "false";
        } else if constexpr (std::is_same_v<V, int64_t>) {
          return std::to_string(value);
        } else if constexpr (std::is_same_v<V, double>) {
          return DoubleToString(value);
        } else if constexpr (std::is_same_v<V, std::string>) {
          // StrCat rather than operator+: g++ 12 warns falsely (-Wrestrict, PR105651) on
          // a literal + std::string&& at -O3.
          return absl::StrCat("\"", absl::CEscape(value), "\"");
        } else if constexpr (std::is_same_v<V, EnumValue>) {
          return value.name;
        } else if constexpr (std::is_same_v<V, std::vector<int64_t>>) {
          return ListToString(value, [](int64_t v) { return std::to_string(v); });
        } else if constexpr (std::is_same_v<V, std::vector<bool>>) {
          return ListToString(value, [](bool v) { return std::string(v ? "true" : "false"); });
        } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
          return ListToString(value, [](const std::string& v) {
            return absl::StrCat("\"", absl::CEscape(v), "\"");
          });
        } else if constexpr (std::is_same_v<V, std::vector<EnumValue>>) {
          return ListToString(value, [](const EnumValue& v) { return v.name; });
        } else {
          static_assert(std::is_same_v<V, Tensor>);
          return PrintDenseAttribute(value);
        }
      },
      attribute);
}

std::vector<ValueType> Case::OperandValueTypes() const {
  if (!operand_structure.empty()) return operand_structure;
  std::vector<ValueType> types;
  for (const Tensor& t : operands) types.push_back(ValueType::Of(t.type()));
  return types;
}

std::vector<ValueType> Case::ResultValueTypes() const {
  if (!result_structure.empty()) return result_structure;
  std::vector<ValueType> types;
  for (const TensorType& t : result_types) types.push_back(ValueType::Of(t));
  return types;
}

int64_t LeafCount(const ValueType& type) {
  switch (type.kind) {
    case ValueType::Kind::kTensor:
      return 1;
    case ValueType::Kind::kToken:
      return 0;
    case ValueType::Kind::kTuple: {
      int64_t count = 0;
      for (const ValueType& element : type.elements) count += LeafCount(element);
      return count;
    }
  }
  return 0;
}

void AppendLeafTypes(const ValueType& type, std::vector<TensorType>* leaves) {
  if (type.kind == ValueType::Kind::kTensor) leaves->push_back(type.tensor());
  for (const ValueType& element : type.elements) AppendLeafTypes(element, leaves);
}

int64_t LeafOffset(const std::vector<ValueType>& values, size_t index) {
  int64_t offset = 0;
  for (size_t i = 0; i < index && i < values.size(); ++i) offset += LeafCount(values[i]);
  return offset;
}

bool HasQuantizedTensor(const Case& c) {
  return std::any_of(c.operands.begin(), c.operands.end(),
                     [](const Tensor& t) { return t.type().quantization.has_value(); }) ||
         std::any_of(c.result_types.begin(), c.result_types.end(),
                     [](const TensorType& t) { return t.quantization.has_value(); });
}

bool LeavesMatchStructure(const Case& c, std::string* why) {
  auto check = [why](const std::vector<ValueType>& structure, const std::vector<TensorType>& leaves,
                     const char* what) {
    if (structure.empty()) return true;
    std::vector<TensorType> expected;
    for (const ValueType& value : structure) AppendLeafTypes(value, &expected);
    if (expected == leaves) return true;
    if (why != nullptr) {
      *why = absl::StrCat("the ", what, " hold ", leaves.size(),
                          " tensors where their types ask for ", expected.size());
      for (size_t i = 0; i < std::min(expected.size(), leaves.size()); ++i) {
        if (!(expected[i] == leaves[i])) {
          *why = absl::StrCat(what, " tensor ", i, " is ", leaves[i].ToString(), " where ",
                              expected[i].ToString(), " is expected");
          break;
        }
      }
    }
    return false;
  };
  std::vector<TensorType> operand_leaves;
  for (const Tensor& t : c.operands) operand_leaves.push_back(t.type());
  // The outgoing message follows the results' own tensors.
  const auto own = static_cast<int64_t>(c.result_types.size()) - c.outgoing;
  if (c.outgoing < 0 || own < 0) {
    if (why != nullptr) *why = "more outgoing tensors than result tensors";
    return false;
  }
  const std::vector<TensorType> result_leaves(c.result_types.begin(), c.result_types.begin() + own);
  return check(c.operand_structure, operand_leaves, "operands") &&
         check(c.result_structure, result_leaves, "results");
}

Transfer TransferOf(std::string_view op) {
  if (op == "infeed" || op == "recv") return Transfer::kIncoming;
  if (op == "outfeed" || op == "send") return Transfer::kOutgoing;
  return Transfer::kNone;
}

Case OneProcess(const Case& c, int64_t process) {
  const int64_t processes = c.ProcessCount();
  if (processes <= 1) return c;
  Case one = c;
  const auto operands = static_cast<int64_t>(c.operands.size()) / processes;
  const auto results = static_cast<int64_t>(c.result_types.size()) / processes;
  one.operands.assign(c.operands.begin() + process * operands,
                      c.operands.begin() + (process + 1) * operands);
  one.result_types.assign(c.result_types.begin() + process * results,
                          c.result_types.begin() + (process + 1) * results);
  return one;
}

}  // namespace hlocheck
