// Notation functions that only the misc op files use.
#include <cctype>
#include <string>

#include "spec/formula/function_support.h"

namespace hlocheck::spec {

void RegisterMiscFunctions(FunctionTable& table) {
  // composite C1 (public spec): is_namespaced_op_name(name). The spec does
  // not define the helper; its example is "my_namespace.my_op". A namespaced
  // op name is a namespace and an op name joined by '.': two or more
  // non-empty parts of letters, digits and '_', separated by single dots
  // (the shape ^[a-zA-Z0-9_]+(\.[a-zA-Z0-9_]+)+$ that StableHLO's verifier
  // checks).
  Define<1>(table, "is_namespaced_op_name", [](Args a) -> absl::StatusOr<Value> {
    if (!a[0].is_string()) return ArgumentError("is_namespaced_op_name", "a string", a[0]);
    const std::string& name = a[0].as_string();
    size_t parts = 0;
    size_t length = 0;  // of the current part
    for (char c : name) {
      if (c == '.') {
        if (length == 0) return Value(false);
        ++parts;
        length = 0;
        continue;
      }
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return Value(false);
      ++length;
    }
    if (length == 0) return Value(false);
    return Value(parts + 1 >= 2);
  });

  // composite C2 (public spec): is_defined_in_parent_scope(decomposition).
  // An op instance holds no module, so composite.yaml gives the function the
  // symbol `decomposition` names as a region signature: present when the
  // parent scope defines it, absent (None) when the symbol resolves to
  // nothing.
  Define<1>(table, "is_defined_in_parent_scope", [](Args a) -> absl::StatusOr<Value> {
    if (a[0].is_none()) return Value(false);
    if (a[0].is_function_type()) return Value(true);
    return ArgumentError("is_defined_in_parent_scope", "a function", a[0]);
  });
}

}  // namespace hlocheck::spec
