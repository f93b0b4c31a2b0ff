// The reader's recursive-descent parser (internal to mlir/). reader.cc
// holds modules, functions, regions and the generic op form;
// custom_syntax.cc holds the custom (pretty) syntax of each op.
#ifndef HLOCHECK_MLIR_PARSER_H_
#define HLOCHECK_MLIR_PARSER_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/program.h"
#include "core/tensor.h"
#include "mlir/attribute_syntax.h"
#include "mlir/syntax.h"
#include "spec/registry.h"

namespace hlocheck::mlir {

class Parser {
 public:
  Parser(Cursor& cursor, const spec::SpecRegistry& registry, bool snippet = false)
      : cursor_(cursor), registry_(registry), snippet_(snippet) {}

  Module ParseModule();
  Region ParseSnippet();

  // --- used by the custom syntaxes ---
  Cursor& cursor() { return cursor_; }
  const spec::SpecRegistry& registry() const { return registry_; }

  // `%name` or `%name#3`; the value's id (in a snippet, an undefined name is
  // a new input). Fails if absent.
  ValueId ParseValueUse();
  bool AtValue() { return cursor_.Peek() == '%'; }
  ValueType ParseType();
  // `t1, t2, ...` (at least one).
  std::vector<ValueType> ParseTypeList();
  // `(t1, t2) -> t3` or `(t1) -> (t2, t3)`.
  FunctionType ParseFunctionSignature();
  // `{ ^bb0(%a: t, ...): ops }` or `{ ops }`; `arguments` are predeclared
  // block arguments (while's, reduce's `reducer(...)`).
  Region ParseRegion(const std::vector<std::pair<std::string, ValueType>>& arguments = {});
  // Declares `%name: type` as a new value in the innermost scope.
  ValueId Declare(const std::string& name, const ValueType& type, TextLocation where);
  // A value without a name (the body of reduce's `applies` form).
  ValueId NewValue(const ValueType& type) {
    types_.push_back(type);
    return static_cast<ValueId>(types_.size() - 1);
  }
  const ValueType& TypeOf(ValueId id) const { return types_.at(id); }

  // Decodes a dict of attributes onto `op` (by the op's spec for stablehlo
  // ops, generically for others).
  void DecodeOnto(Operation& op, const AttrDict& dict);
  // Checks each operand's declared type against `op.operand_types`.
  void CheckOperandTypes(Operation& op);

 private:
  struct ResultName {
    std::string name;
    int64_t count = 1;
    TextLocation location;
  };
  Function ParseFunction();
  Operation ParseOperation();
  Operation ParseGenericOperation();
  void DefineResults(const std::vector<ResultName>& names, Operation& op);
  // The operands that stand for attributes (the spec's mlir.operand: rng's
  // shape) taken off `op`, their constants' values made its attributes.
  void TakeOperandAttributes(Operation& op);
  void SkipLocation();

  Cursor& cursor_;
  const spec::SpecRegistry& registry_;
  bool snippet_;
  std::vector<std::map<std::string, std::vector<ValueId>>> scopes_;
  std::vector<ValueType> types_;  // by ValueId, per function
  std::vector<ValueId> snippet_inputs_;
  std::vector<ValueType> snippet_input_types_;
  std::set<ValueId> untyped_;            // snippet inputs whose type no signature has given yet
  std::map<ValueId, Tensor> constants_;  // the values of stablehlo.constant results
};

// The custom syntax of `name` (a full op name such as "stablehlo.add" or
// "func.return"), the op name already consumed.
Operation ParseCustomOperation(Parser& parser, const std::string& name, TextLocation where);

// A generic (spec-less) reading of an attribute value, when it has one.
bool GenericAttribute(const AttrSyntax& syntax, Attribute* out);

}  // namespace hlocheck::mlir

#endif  // HLOCHECK_MLIR_PARSER_H_
