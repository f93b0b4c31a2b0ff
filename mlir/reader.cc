#include "mlir/reader.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <variant>

#include "core/element_type.h"
#include "core/element_value.h"
#include "core/status_macros.h"
#include "core/tensor.h"
#include "mlir/op_attributes.h"
#include "mlir/parser.h"

namespace hlocheck::mlir {

// ---------------------------------------------------------------- values

ValueId Parser::Declare(const std::string& name, const ValueType& type, TextLocation where) {
  for (const auto& scope : scopes_) {
    // A snippet may show several examples that reuse a name.
    if (scope.count(name) && !snippet_) cursor_.FailAt(where, "redefinition of %" + name);
  }
  ValueId id = static_cast<ValueId>(types_.size());
  types_.push_back(type);
  scopes_.back()[name] = {id};
  return id;
}

ValueId Parser::ParseValueUse() {
  TextLocation where = cursor_.location();
  auto name = cursor_.ValueName();
  if (!name) cursor_.Expected("a value (%name)");
  std::string base = *name;
  int64_t index = 0;
  bool indexed = false;
  if (cursor_.LookingAt("#")) {
    // `%x#1`: the second result of a multi-result op. No blanks allowed.
    cursor_.Expect("#");
    auto number = cursor_.Integer();
    if (!number || *number < 0) cursor_.Expected("a result number after '#'");
    index = *number;
    indexed = true;
  }
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    auto it = scope->find(base);
    if (it == scope->end()) continue;
    if (index >= static_cast<int64_t>(it->second.size())) {
      cursor_.FailAt(where, "%" + base + " has " + std::to_string(it->second.size()) +
                                " results; there is no #" + std::to_string(index));
    }
    if (!indexed && it->second.size() > 1) {
      cursor_.FailAt(where, "%" + base + " has several results; name one as %" + base + "#0");
    }
    return it->second[index];
  }
  if (snippet_ && !indexed) {
    // A snippet's input: its type comes from the op's signature.
    ValueId id = static_cast<ValueId>(types_.size());
    types_.push_back(ValueType{});
    scopes_.front()[base] = {id};
    snippet_inputs_.push_back(id);
    untyped_.insert(id);
    return id;
  }
  cursor_.FailAt(where, "use of undefined value %" + *name);
}

void Parser::CheckOperandTypes(Operation& op) {
  if (op.operand_types.size() != op.operands.size()) {
    cursor_.FailAt(op.location, op.name + " has " + std::to_string(op.operands.size()) +
                                    " operands but its signature gives " +
                                    std::to_string(op.operand_types.size()) + " types");
  }
  for (size_t i = 0; i < op.operands.size(); ++i) {
    ValueId id = op.operands[i];
    if (untyped_.erase(id) > 0) {
      types_[id] = op.operand_types[i];
      snippet_input_types_.push_back(op.operand_types[i]);
    }
    bool input =
        std::find(snippet_inputs_.begin(), snippet_inputs_.end(), id) != snippet_inputs_.end();
    if (input && !(types_[id] == op.operand_types[i])) {
      // A snippet's examples may use one name for inputs of different types.
      ValueId fresh = static_cast<ValueId>(types_.size());
      types_.push_back(op.operand_types[i]);
      snippet_inputs_.push_back(fresh);
      snippet_input_types_.push_back(op.operand_types[i]);
      op.operands[i] = fresh;
      continue;
    }
    if (!(types_[id] == op.operand_types[i])) {
      cursor_.FailAt(op.location, op.name + ": operand " + std::to_string(i) + " has type " +
                                      types_[id].ToString() + " but the signature says " +
                                      op.operand_types[i].ToString());
    }
  }
}

// ----------------------------------------------------------------- types

ValueType Parser::ParseType() {
  TextLocation where = cursor_.location();
  std::string text(cursor_.TypeText());
  auto type = ParseValueType(text);
  if (!type.ok()) {
    cursor_.FailAt(where, "bad type '" + text + "': " + std::string(type.status().message()));
  }
  return *std::move(type);
}

std::vector<ValueType> Parser::ParseTypeList() {
  std::vector<ValueType> types;
  do {
    types.push_back(ParseType());
  } while (cursor_.TryConsume(","));
  return types;
}

FunctionType Parser::ParseFunctionSignature() {
  FunctionType type;
  cursor_.Expect("(", "'(' opening the operand types");
  if (!cursor_.TryConsume(")")) {
    type.inputs = ParseTypeList();
    cursor_.Expect(")", "',' or ')' after the operand types");
  }
  cursor_.Expect("->", "'->' and the result types");
  if (cursor_.TryConsume("(")) {
    if (!cursor_.TryConsume(")")) {
      type.outputs = ParseTypeList();
      cursor_.Expect(")", "',' or ')' after the result types");
    }
  } else {
    type.outputs.push_back(ParseType());
  }
  return type;
}

// ------------------------------------------------------------ structure

Region Parser::ParseRegion(const std::vector<std::pair<std::string, ValueType>>& arguments) {
  cursor_.Expect("{", "'{' opening a region");
  scopes_.emplace_back();
  Region region;
  Block& block = region.blocks.emplace_back();
  for (const auto& [name, type] : arguments) {
    block.arguments.push_back(Declare(name, type, cursor_.location()));
    block.argument_types.push_back(type);
  }
  if (cursor_.BlockName()) {
    if (!arguments.empty()) cursor_.Fail("this region's arguments are declared before it");
    if (cursor_.TryConsume("(") && !cursor_.TryConsume(")")) {
      do {
        TextLocation where = cursor_.location();
        auto name = cursor_.ValueName();
        if (!name) cursor_.Expected("a block argument (%name: type)");
        cursor_.Expect(":", "':' and the argument's type");
        ValueType type = ParseType();
        SkipLocation();
        block.arguments.push_back(Declare(*name, type, where));
        block.argument_types.push_back(type);
      } while (cursor_.TryConsume(","));
      cursor_.Expect(")", "',' or ')' after the block arguments");
    }
    cursor_.Expect(":", "':' after the block header");
  }
  while (!cursor_.TryConsume("}")) {
    if (cursor_.AtEnd()) cursor_.Expected("'}' closing the region");
    if (cursor_.LookingAt("^")) cursor_.Fail("regions with several blocks are not supported");
    block.operations.push_back(ParseOperation());
  }
  scopes_.pop_back();
  if (block.operations.empty()) cursor_.Fail("a region needs a terminator (a return op)");
  return region;
}

void Parser::SkipLocation() {
  if (cursor_.TryKeyword("loc")) {
    cursor_.Expect("(", "'(' after loc");
    cursor_.BalancedUntil('(', ')');
  }
}

Function Parser::ParseFunction() {
  Function function;
  function.location = cursor_.location();
  if (cursor_.TryKeyword("private")) {
    function.is_public = false;
  } else if (!cursor_.TryKeyword("public")) {
    cursor_.TryKeyword("nested");
  }
  auto name = cursor_.SymbolName();
  if (!name) cursor_.Expected("the function's name (@name)");
  function.name = *name;
  types_.clear();
  scopes_.assign(1, {});
  std::vector<std::pair<std::string, ValueType>> arguments;
  std::vector<TextLocation> argument_locations;
  cursor_.Expect("(", "'(' opening the function's arguments");
  if (!cursor_.TryConsume(")")) {
    do {
      argument_locations.push_back(cursor_.location());
      auto argument = cursor_.ValueName();
      if (!argument) cursor_.Expected("an argument (%name: type)");
      cursor_.Expect(":", "':' and the argument's type");
      ValueType type = ParseType();
      std::string attributes;
      if (cursor_.Peek() == '{') {
        size_t start = cursor_.offset();
        ParseAttributeDict(cursor_);
        attributes = std::string(cursor_.TextFrom(start));
      }
      SkipLocation();
      arguments.emplace_back(*argument, type);
      function.argument_attributes.push_back(attributes);
      function.type.inputs.push_back(type);
    } while (cursor_.TryConsume(","));
    cursor_.Expect(")", "',' or ')' after the function's arguments");
  }
  if (cursor_.TryConsume("->")) {
    bool parenthesized = cursor_.TryConsume("(");
    if (!parenthesized || !cursor_.TryConsume(")")) {
      do {
        function.type.outputs.push_back(ParseType());
        std::string attributes;
        if (parenthesized && cursor_.Peek() == '{') {
          size_t start = cursor_.offset();
          ParseAttributeDict(cursor_);
          attributes = std::string(cursor_.TextFrom(start));
        }
        function.result_attributes.push_back(attributes);
      } while (parenthesized && cursor_.TryConsume(","));
      if (parenthesized) cursor_.Expect(")", "',' or ')' after the result types");
    }
  }
  if (cursor_.TryKeyword("attributes")) {
    size_t start = cursor_.offset();
    ParseAttributeDict(cursor_);
    function.attributes = std::string(cursor_.TextFrom(start));
  }
  if (cursor_.Peek() != '{') {
    // A declaration: no body.
    return function;
  }
  function.body = ParseRegion(arguments);
  return function;
}

Module Parser::ParseModule() {
  Module module;
  module.location = cursor_.location();
  bool wrapped = false;
  if (cursor_.TryKeyword("module")) {
    wrapped = true;
    if (auto name = cursor_.SymbolName()) module.name = *name;
    if (cursor_.TryKeyword("attributes")) {
      size_t start = cursor_.offset();
      ParseAttributeDict(cursor_);
      module.attributes = std::string(cursor_.TextFrom(start));
    }
    cursor_.Expect("{", "'{' opening the module");
  }
  std::set<std::string> names;
  for (;;) {
    if (wrapped && cursor_.TryConsume("}")) break;
    if (cursor_.AtEnd()) {
      if (wrapped) cursor_.Expected("'}' closing the module");
      break;
    }
    TextLocation where = cursor_.location();
    if (cursor_.LookingAt("#")) {
      // `#alias = ...` definitions (locations); skipped.
      cursor_.Fail("attribute alias definitions are not supported");
    }
    if (!cursor_.TryKeyword("func.func")) cursor_.Expected("'func.func'");
    Function function = ParseFunction();
    function.location = where;
    if (!names.insert(function.name).second) {
      cursor_.FailAt(where, "redefinition of function @" + function.name);
    }
    module.functions.push_back(std::move(function));
  }
  SkipLocation();
  if (wrapped && !cursor_.AtEnd()) cursor_.Expected("the end of the input after the module");
  return module;
}

Region Parser::ParseSnippet() {
  types_.clear();
  scopes_.assign(1, {});
  Region region;
  Block& block = region.blocks.emplace_back();
  while (!cursor_.AtEnd()) block.operations.push_back(ParseOperation());
  block.arguments = snippet_inputs_;
  for (ValueId id : snippet_inputs_) block.argument_types.push_back(types_[id]);
  return region;
}

// ----------------------------------------------------------- operations

Operation Parser::ParseOperation() {
  TextLocation where = cursor_.location();
  std::vector<ResultName> results;
  if (AtValue()) {
    do {
      ResultName result;
      result.location = cursor_.location();
      auto name = cursor_.ValueName();
      if (!name) cursor_.Expected("a result name (%name)");
      result.name = *name;
      if (cursor_.LookingAt(":")) {
        Cursor probe = cursor_;
        probe.Expect(":");
        if (probe.Integer()) {
          cursor_.Expect(":");
          result.count = *cursor_.Integer();
          if (result.count < 1) cursor_.FailAt(result.location, "a result group needs ≥ 1 value");
        }
      }
      results.push_back(result);
    } while (cursor_.TryConsume(","));
    cursor_.Expect("=", "'=' after the result names");
  }
  Operation op;
  if (cursor_.Peek() == '"') {
    op = ParseGenericOperation();
  } else {
    auto name = cursor_.BareIdentifier();
    if (!name) cursor_.Expected("an operation");
    op = ParseCustomOperation(*this, *name, where);
  }
  op.location = where;
  SkipLocation();
  TakeOperandAttributes(op);
  DefineResults(results, op);
  if (op.name == "stablehlo.constant" && op.results.size() == 1) {
    auto value = op.attributes.find("value");
    if (value != op.attributes.end() && std::holds_alternative<Tensor>(value->second)) {
      constants_[op.results[0]] = std::get<Tensor>(value->second);
    }
  }
  return op;
}

void Parser::TakeOperandAttributes(Operation& op) {
  const spec::OpSpec* spec =
      op.name.rfind("stablehlo.", 0) == 0 ? registry_.Find(op.name.substr(10)) : nullptr;
  if (spec == nullptr) return;
  std::vector<const spec::AttributeSpec*> trailing;
  for (const spec::AttributeSpec& a : spec->attributes) {
    if (a.mlir.operand) trailing.push_back(&a);
  }
  const size_t first = spec->operands.size();
  // Another count is left to the operand check, which says what fits.
  if (trailing.empty() || op.operands.size() != first + trailing.size()) return;
  for (size_t k = 0; k < trailing.size(); ++k) {
    auto constant = constants_.find(op.operands[first + k]);
    if (constant == constants_.end() || constant->second.rank() != 1 ||
        !IsInteger(constant->second.element_type())) {
      cursor_.FailAt(op.location, op.name + ": its operand " + std::to_string(first + k) + " (" +
                                      trailing[k]->name +
                                      ") must be a 1-D integer tensor made by stablehlo.constant");
    }
    Tensor si64(constant->second.shape(), ElementType::kSI64);
    ConvertElements(constant->second.element_type(), constant->second.raw(), ElementType::kSI64,
                    si64.raw(), constant->second.num_elements());
    const auto values = si64.values<ElementType::kSI64>();
    op.attributes[trailing[k]->name] = std::vector<int64_t>(values.begin(), values.end());
  }
  op.operands.resize(first);
  op.operand_types.resize(first);
}

void Parser::DefineResults(const std::vector<ResultName>& names, Operation& op) {
  int64_t total = 0;
  for (const ResultName& r : names) total += r.count;
  if (total != static_cast<int64_t>(op.result_types.size())) {
    cursor_.FailAt(op.location, op.name + " has " + std::to_string(op.result_types.size()) +
                                    " results but " + std::to_string(total) + " are named");
  }
  size_t next = 0;
  for (const ResultName& r : names) {
    for (const auto& scope : scopes_) {
      if (scope.count(r.name) && !snippet_) {
        cursor_.FailAt(r.location, "redefinition of %" + r.name);
      }
    }
    std::vector<ValueId> ids;
    for (int64_t k = 0; k < r.count; ++k, ++next) {
      ValueId id = static_cast<ValueId>(types_.size());
      types_.push_back(op.result_types[next]);
      ids.push_back(id);
      op.results.push_back(id);
    }
    scopes_.back()[r.name] = ids;
  }
}

Operation Parser::ParseGenericOperation() {
  Operation op;
  op.location = cursor_.location();
  op.name = *cursor_.StringLiteral();
  cursor_.Expect("(", "'(' opening the operands");
  if (!cursor_.TryConsume(")")) {
    do {
      op.operands.push_back(ParseValueUse());
    } while (cursor_.TryConsume(","));
    cursor_.Expect(")", "',' or ')' after the operands");
  }
  if (cursor_.LookingAt("[")) cursor_.Fail("successor blocks are not supported");
  AttrDict dict;
  if (cursor_.TryConsume("<{")) {
    dict = ParseAttributeEntries(cursor_, '}');
    cursor_.Expect(">", "'>' closing the properties");
  }
  Cursor probe = cursor_;
  if (probe.TryConsume("(") && probe.Peek() == '{') {
    cursor_.Expect("(");
    do {
      op.regions.push_back(ParseRegion());
    } while (cursor_.TryConsume(","));
    cursor_.Expect(")", "',' or ')' after the regions");
  }
  if (cursor_.Peek() == '{') {
    AttrDict more = ParseAttributeDict(cursor_);
    dict.insert(dict.end(), more.begin(), more.end());
  }
  cursor_.Expect(":", "':' and the op's function type");
  FunctionType signature = ParseFunctionSignature();
  op.operand_types = signature.inputs;
  op.result_types = signature.outputs;
  CheckOperandTypes(op);
  DecodeOnto(op, dict);
  return op;
}

bool GenericAttribute(const AttrSyntax& syntax, Attribute* out) {
  using Kind = AttrSyntax::Kind;
  switch (syntax.kind) {
    case Kind::kInteger:
      *out = syntax.integer;
      return true;
    case Kind::kFloat:
      *out = syntax.number;
      return true;
    case Kind::kBool:
      *out = syntax.boolean;
      return true;
    case Kind::kUnit:
      *out = true;
      return true;
    case Kind::kString:
    case Kind::kSymbol:
    case Kind::kKeyword:
    case Kind::kType:
      *out = syntax.string;
      return true;
    case Kind::kDense:
      *out = syntax.dense;
      return true;
    case Kind::kArray: {
      std::vector<int64_t> ints;
      for (const AttrSyntax& item : syntax.items) {
        if (item.kind != Kind::kInteger) return false;
        ints.push_back(item.integer);
      }
      *out = ints;
      return true;
    }
    default:
      return false;
  }
}

void Parser::DecodeOnto(Operation& op, const AttrDict& dict) {
  const spec::OpSpec* spec = nullptr;
  if (op.name.rfind("stablehlo.", 0) == 0) spec = registry_.Find(op.name.substr(10));
  if (spec != nullptr) {
    DecodedAttributes decoded = DecodeAttributes(*spec, dict, cursor_);
    for (auto& [name, value] : decoded.values) op.attributes[name] = std::move(value);
    for (auto& [name, text] : decoded.foreign) op.raw_attributes[name] = text;
    FillWindowDefaults(*spec, op.operand_types, op.attributes);
    return;
  }
  for (const auto& [name, syntax] : dict) {
    op.raw_attributes[name] = syntax.text;
    Attribute value;
    if (GenericAttribute(syntax, &value)) op.attributes[name] = std::move(value);
  }
}

// ---------------------------------------------------------- entry points

namespace {

template <typename Fn>
auto Guarded(Fn&& fn) -> absl::StatusOr<decltype(fn())> {
  try {
    return fn();
  } catch (const SyntaxError& e) {
    return absl::InvalidArgumentError(e.what());
  }
}

}  // namespace

absl::StatusOr<Module> ReadModule(std::string_view text, const std::string& file,
                                  const spec::SpecRegistry& registry, int first_line) {
  return Guarded([&] {
    Cursor cursor(text, file, first_line);
    Parser parser(cursor, registry);
    return parser.ParseModule();
  });
}

absl::StatusOr<Region> ReadSnippet(std::string_view text, const std::string& file,
                                   const spec::SpecRegistry& registry) {
  return Guarded([&] {
    Cursor cursor(text, file, 1);
    Parser parser(cursor, registry, /*snippet=*/true);
    return parser.ParseSnippet();
  });
}

absl::StatusOr<std::vector<Split>> ReadSplits(std::string_view text, const std::string& file,
                                              const spec::SpecRegistry& registry) {
  std::vector<Split> splits;
  size_t start = 0;
  int line = 1;
  int start_line = 1;
  auto finish = [&](size_t end) -> absl::Status {
    auto module = ReadModule(text.substr(start, end - start), file, registry, start_line);
    HLOCHECK_RETURN_IF_ERROR(module.status());
    splits.push_back({*std::move(module), start_line});
    return absl::OkStatus();
  };
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view content = text.substr(pos, end - pos);
    while (!content.empty() && (content.back() == '\r' || content.back() == ' ')) {
      content.remove_suffix(1);
    }
    if (content == "// -----") {
      if (auto status = finish(pos); !status.ok()) return status;
      start = end + 1 > text.size() ? text.size() : end + 1;
      start_line = line + 1;
    }
    ++line;
    pos = end + 1;
  }
  if (auto status = finish(text.size()); !status.ok()) return status;
  return splits;
}

absl::StatusOr<std::vector<Split>> ReadFile(const std::string& path,
                                            const spec::SpecRegistry& registry) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(path + ": cannot open");
  std::stringstream text;
  text << in.rdbuf();
  return ReadSplits(text.str(), path, registry);
}

}  // namespace hlocheck::mlir
