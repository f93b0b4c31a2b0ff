#include "spec/formula/operators.h"

#include <cmath>
#include <functional>

#include "absl/status/status.h"

namespace hlocheck::spec {
namespace {

using ScalarOp = std::function<absl::StatusOr<Value>(const Value&, const Value&)>;

absl::Status TypeError(std::string_view op, const Value& lhs, const Value& rhs) {
  return absl::InvalidArgumentError("cannot apply '" + std::string(op) + "' to " + lhs.ToString() +
                                    " and " + rhs.ToString());
}

// Applies a scalar operation element by element, broadcasting scalars.
absl::StatusOr<Value> Broadcast(std::string_view op, const Value& lhs, const Value& rhs,
                                const ScalarOp& scalar) {
  if (lhs.is_list() && rhs.is_list()) {
    if (lhs.items().size() != rhs.items().size()) {
      return absl::InvalidArgumentError("'" + std::string(op) +
                                        "' needs lists of equal length, got " + lhs.ToString() +
                                        " and " + rhs.ToString());
    }
    std::vector<Value> items;
    for (size_t i = 0; i < lhs.items().size(); ++i) {
      auto item = Broadcast(op, lhs.items()[i], rhs.items()[i], scalar);
      if (!item.ok()) return item;
      items.push_back(*std::move(item));
    }
    return Value(std::move(items));
  }
  if (lhs.is_list()) {
    std::vector<Value> items;
    for (const Value& item : lhs.items()) {
      auto result = Broadcast(op, item, rhs, scalar);
      if (!result.ok()) return result;
      items.push_back(*std::move(result));
    }
    return Value(std::move(items));
  }
  if (rhs.is_list()) {
    std::vector<Value> items;
    for (const Value& item : rhs.items()) {
      auto result = Broadcast(op, lhs, item, scalar);
      if (!result.ok()) return result;
      items.push_back(*std::move(result));
    }
    return Value(std::move(items));
  }
  return scalar(lhs, rhs);
}

bool BothIntegral(const Value& a, const Value& b) {
  return (a.is_int() || a.is_bool()) && (b.is_int() || b.is_bool());
}

int64_t AsInt(const Value& v) { return v.is_bool() ? (v.as_bool() ? 1 : 0) : v.as_int(); }

absl::StatusOr<Value> ScalarArithmetic(std::string_view op, const Value& a, const Value& b) {
  if (op == "+" && a.is_string() && b.is_string()) return Value(a.as_string() + b.as_string());
  if (!a.is_number() || !b.is_number()) return TypeError(op, a, b);
  if (BothIntegral(a, b)) {
    int64_t x = AsInt(a);
    int64_t y = AsInt(b);
    int64_t result = 0;
    if (op == "+") {
      if (__builtin_add_overflow(x, y, &result)) return TypeError("+ (overflow)", a, b);
      return Value(result);
    }
    if (op == "-") {
      if (__builtin_sub_overflow(x, y, &result)) return TypeError("- (overflow)", a, b);
      return Value(result);
    }
    if (op == "*") {
      if (__builtin_mul_overflow(x, y, &result)) return TypeError("* (overflow)", a, b);
      return Value(result);
    }
    if (y == 0 && (op == "/" || op == "//" || op == "%")) {
      return absl::InvalidArgumentError("division by zero: " + a.ToString() + " " +
                                        std::string(op) + " 0");
    }
    if (op == "//" || op == "%") {
      if (x == INT64_MIN && y == -1) return TypeError(op, a, b);
      // Python semantics: floor division, remainder with the divisor's sign.
      int64_t quotient = x / y;
      int64_t remainder = x % y;
      if (remainder != 0 && ((remainder < 0) != (y < 0))) {
        quotient -= 1;
        remainder += y;
      }
      return Value(op == "//" ? quotient : remainder);
    }
    if (op == "/") return Value(static_cast<double>(x) / static_cast<double>(y));
  }
  double x = a.ToDouble();
  double y = b.ToDouble();
  if (op == "+") return Value(x + y);
  if (op == "-") return Value(x - y);
  if (op == "*") return Value(x * y);
  if (op == "/") return Value(x / y);
  if (op == "//") return Value(std::floor(x / y));
  if (op == "%") return Value(x - std::floor(x / y) * y);
  return TypeError(op, a, b);
}

int CompareScalars(const Value& a, const Value& b, bool* comparable) {
  *comparable = a.is_number() && b.is_number();
  if (!*comparable) return 0;
  if (BothIntegral(a, b)) {
    int64_t x = AsInt(a);
    int64_t y = AsInt(b);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  double x = a.ToDouble();
  double y = b.ToDouble();
  return x < y ? -1 : (x > y ? 1 : 0);
}

}  // namespace

absl::StatusOr<Value> ApplyUnary(std::string_view op, const Value& operand) {
  if (operand.is_list()) {
    std::vector<Value> items;
    for (const Value& item : operand.items()) {
      auto result = ApplyUnary(op, item);
      if (!result.ok()) return result;
      items.push_back(*std::move(result));
    }
    return Value(std::move(items));
  }
  if (!operand.is_number()) {
    return absl::InvalidArgumentError("cannot apply unary '" + std::string(op) + "' to " +
                                      operand.ToString());
  }
  if (op == "+") return operand;
  if (operand.is_float()) return Value(-operand.as_float());
  int64_t value = AsInt(operand);
  if (value == INT64_MIN) return absl::InvalidArgumentError("integer overflow in negation");
  return Value(-value);
}

absl::StatusOr<Value> ApplyBinary(std::string_view op, const Value& lhs, const Value& rhs) {
  if (op == "+" && lhs.is_list() && rhs.is_list()) {
    std::vector<Value> items = lhs.items();
    items.insert(items.end(), rhs.items().begin(), rhs.items().end());
    return Value(std::move(items));
  }
  return Broadcast(op, lhs, rhs,
                   [op](const Value& a, const Value& b) { return ScalarArithmetic(op, a, b); });
}

absl::StatusOr<Value> ElementwiseAdd(const Value& lhs, const Value& rhs) {
  return Broadcast("+", lhs, rhs,
                   [](const Value& a, const Value& b) { return ScalarArithmetic("+", a, b); });
}

absl::StatusOr<Value> ApplyCompare(std::string_view op, const Value& lhs, const Value& rhs) {
  if (op == "in" || op == "not in") {
    if (!rhs.is_list()) return TypeError(op, lhs, rhs);
    bool found = false;
    for (const Value& item : rhs.items()) {
      if (item == lhs) {
        found = true;
        break;
      }
    }
    return Value(op == "in" ? found : !found);
  }
  if (op == "=" || op == "!=") {
    bool equal;
    if (lhs.is_list() && rhs.is_list()) {
      equal = lhs == rhs;
    } else if (lhs.is_list() || rhs.is_list()) {
      // A scalar against a list: broadcast, then all must be equal.
      const Value& list = lhs.is_list() ? lhs : rhs;
      const Value& scalar = lhs.is_list() ? rhs : lhs;
      equal = true;
      for (const Value& item : list.items()) equal = equal && item == scalar;
    } else {
      equal = lhs == rhs;
    }
    return Value(op == "=" ? equal : !equal);
  }
  return Broadcast(op, lhs, rhs, [op](const Value& a, const Value& b) -> absl::StatusOr<Value> {
    bool comparable;
    int order = CompareScalars(a, b, &comparable);
    if (!comparable) return TypeError(op, a, b);
    if (op == "<") return Value(order < 0);
    if (op == "<=") return Value(order <= 0);
    if (op == ">") return Value(order > 0);
    if (op == ">=") return Value(order >= 0);
    return TypeError(op, a, b);
  });
}

}  // namespace hlocheck::spec
