// The custom (pretty) syntax of ops. Most stablehlo ops print as
//
//   stablehlo.op %a, %b, keyword = value, ... {attr-dict} : TYPES
//
// where TYPES is a function type, or a type list whose last entry is the
// result type (SameOperandsAndResultType, SelectOpType, ComplexOpType, ...):
// that general form is read here once. Ops with syntax of their own
// (constant, compare, slice, while, reduce, convolution, dot_general,
// custom_call, composite, ...) have a function each.
#include <functional>
#include <map>

#include "mlir/op_attributes.h"
#include "mlir/parser.h"

namespace hlocheck::mlir {
namespace {

// Keywords of the custom syntax that name an attribute differently.
std::string AttributeForKeyword(const std::string& op, const std::string& keyword) {
  static const auto* table = new std::map<std::pair<std::string, std::string>, std::string>{
      {{"broadcast_in_dim", "dims"}, "broadcast_dimensions"},
      {{"transpose", "dims"}, "permutation"},
      {{"reverse", "dims"}, "dimensions"},
      {{"reduce", "dimensions"}, "dimensions"},
      {{"concatenate", "dim"}, "dimension"},
      {{"get_dimension_size", "dim"}, "dimension"},
      {{"iota", "dim"}, "iota_dimension"},
      {{"dynamic_iota", "dim"}, "iota_dimension"},
      {{"dynamic_slice", "sizes"}, "slice_sizes"},
      {{"pad", "low"}, "edge_padding_low"},
      {{"pad", "high"}, "edge_padding_high"},
      {{"pad", "interior"}, "interior_padding"},
      {{"fft", "type"}, "fft_type"},
      {{"fft", "length"}, "fft_length"},
      {{"rng", "distribution"}, "rng_distribution"},
      {{"rng_bit_generator", "algorithm"}, "rng_algorithm"},
      {{"dot_general", "precision"}, "precision_config"},
      {{"dot", "precision"}, "precision_config"},
      {{"convolution", "stride"}, "window_strides"},
      {{"convolution", "pad"}, "padding"},
      {{"convolution", "lhs_dilate"}, "lhs_dilation"},
      {{"convolution", "rhs_dilate"}, "rhs_dilation"},
      {{"convolution", "reverse"}, "window_reversal"},
  };
  auto it = table->find({op, keyword});
  return it == table->end() ? keyword : it->second;
}

struct Pending {
  Operation op;
  std::string mnemonic;  // without "stablehlo."
  const spec::OpSpec* spec = nullptr;
  AttrDict dict;  // attributes by their MLIR (dictionary) names
};

// Sets a spec attribute from custom syntax (by spec name).
void SetAttribute(Parser& p, Pending& pending, const std::string& name, const AttrSyntax& value) {
  if (pending.spec == nullptr) {
    pending.op.raw_attributes[name] = value.text;
    Attribute decoded;
    if (GenericAttribute(value, &decoded)) pending.op.attributes[name] = std::move(decoded);
    return;
  }
  const spec::AttributeSpec* attribute = pending.spec->FindAttribute(name);
  if (attribute == nullptr) {
    p.cursor().FailAt(value.location,
                      "stablehlo." + pending.mnemonic + " has no attribute '" + name + "'");
  }
  pending.op.attributes[name] = DecodeAttribute(*attribute, value, p.cursor());
}

// `e5m10`: reduce_precision's exponent and mantissa bits.
void SetFormat(Parser& p, Pending& pending, const AttrSyntax& value) {
  const std::string& text = value.string;
  size_t m = text.find('m');
  bool ok = value.kind == AttrSyntax::Kind::kKeyword && text.size() >= 4 && text[0] == 'e' &&
            m != std::string::npos && m > 1 && m + 1 < text.size();
  int64_t exponent = 0, mantissa = 0;
  if (ok) {
    try {
      size_t used = 0;
      exponent = std::stoll(text.substr(1, m - 1), &used);
      ok = used == m - 1;
      mantissa = std::stoll(text.substr(m + 1), &used);
      ok = ok && used == text.size() - m - 1;
    } catch (const std::exception&) {
      ok = false;
    }
  }
  if (!ok)
    p.cursor().FailAt(value.location, "expected a format such as e5m10, found '" + text + "'");
  pending.op.attributes["exponent_bits"] = exponent;
  pending.op.attributes["mantissa_bits"] = mantissa;
}

// `[1:3, 0:4:2]`: slice's start, limit and stride per dimension.
void ParseSliceRanges(Parser& p, Pending& pending) {
  Cursor& c = p.cursor();
  c.Expect("[");
  std::vector<int64_t> start, limit, stride;
  if (!c.TryConsume("]")) {
    do {
      auto a = c.Integer();
      if (!a) c.Expected("a start index");
      c.Expect(":", "':' between start and limit");
      auto b = c.Integer();
      if (!b) c.Expected("a limit index");
      int64_t s = 1;
      if (c.TryConsume(":")) {
        auto step = c.Integer();
        if (!step) c.Expected("a stride");
        s = *step;
      }
      start.push_back(*a);
      limit.push_back(*b);
      stride.push_back(s);
    } while (c.TryConsume(","));
    c.Expect("]", "',' or ']' after the slice ranges");
  }
  pending.op.attributes["start_indices"] = start;
  pending.op.attributes["limit_indices"] = limit;
  pending.op.attributes["strides"] = stride;
}

// Bare enumerators (compare's `LT` and `SIGNED`, ...): each goes to the
// first enum attribute not yet set whose values contain it.
void SetEnumerator(Parser& p, Pending& pending, const AttrSyntax& word) {
  if (pending.spec != nullptr) {
    for (const spec::AttributeSpec& a : pending.spec->attributes) {
      if (a.type != spec::AttributeType::kEnum || pending.op.attributes.count(a.name)) continue;
      for (const std::string& v : a.enum_values) {
        if (v == word.string) {
          pending.op.attributes[a.name] = EnumValue{v};
          return;
        }
      }
    }
  }
  p.cursor().FailAt(word.location, "unexpected '" + word.string + "' in " + pending.op.name);
}

// `key = value` in the custom syntax.
void ParseKeywordItem(Parser& p, Pending& pending, const std::string& keyword) {
  Cursor& c = p.cursor();
  if (pending.mnemonic == "dot_general" &&
      (keyword == "batching_dims" || keyword == "contracting_dims")) {
    // `batching_dims = [0] x [0]`.
    AttrSyntax lhs = ParseAttributeValue(c, false);
    c.ExpectKeyword("x");
    AttrSyntax rhs = ParseAttributeValue(c, false);
    std::string suffix =
        keyword == "batching_dims" ? "_batching_dimensions" : "_contracting_dimensions";
    SetAttribute(p, pending, "lhs" + suffix, lhs);
    SetAttribute(p, pending, "rhs" + suffix, rhs);
    return;
  }
  if (pending.mnemonic == "dot_general" && keyword == "algorithm") {
    c.Expect("<", "'<' opening the algorithm");
    AttrSyntax group;
    group.kind = AttrSyntax::Kind::kDialect;
    group.dialect = "stablehlo";
    group.mnemonic = "dot_algorithm";
    group.location = c.location();
    group.entries = ParseAttributeEntries(c, '>');
    pending.dict.push_back({"algorithm", group});
    return;
  }
  if (pending.mnemonic == "convolution" && keyword == "window") {
    // `window = {stride = [..], pad = [[..]], lhs_dilate = [..], ...}`.
    for (const auto& [key, value] : ParseAttributeDict(c)) {
      SetAttribute(p, pending, AttributeForKeyword("convolution", key), value);
    }
    return;
  }
  if (pending.mnemonic == "convolution" && keyword == "dim_numbers") {
    // `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`: up to the next `,` at depth 0.
    AttrSyntax group;
    group.kind = AttrSyntax::Kind::kDialect;
    group.dialect = "stablehlo";
    group.mnemonic = "conv";
    group.location = c.location();
    size_t start = c.offset();
    for (int part = 0; part < 3; ++part) {
      if (part == 1) c.ExpectKeyword("x");
      if (part == 2) c.Expect("->");
      c.Expect("[");
      c.BalancedUntil('[', ']');
    }
    group.body = std::string(c.TextFrom(start));
    pending.dict.push_back({"dimension_numbers", group});
    return;
  }
  AttrSyntax value = ParseAttributeValue(c, false);
  if (pending.mnemonic == "reduce_precision" && keyword == "format") {
    SetFormat(p, pending, value);
    return;
  }
  SetAttribute(p, pending, AttributeForKeyword(pending.mnemonic, keyword), value);
}

bool IsReturn(const std::string& name) {
  return name == "func.return" || name == "stablehlo.return";
}

// Ops whose type list gives operand types and no results.
bool TypesAreOperands(const std::string& name) {
  return IsReturn(name) || name.rfind("check.", 0) == 0 || name == "interpreter.print" ||
         name == "stablehlo.outfeed_no_result";
}

// Reads `: TYPES` and sets operand and result types.
void ParseTypes(Parser& p, Pending& pending) {
  Cursor& c = p.cursor();
  Operation& op = pending.op;
  if (!c.TryConsume(":")) {
    // `func.return` alone, or a check op whose constant carried the type.
    if (!op.operands.empty() && op.operand_types.empty()) {
      for (ValueId id : op.operands) op.operand_types.push_back(p.TypeOf(id));
    }
    if (!TypesAreOperands(op.name) && op.result_types.empty() && op.name != "stablehlo.constant") {
      c.Expected("':' and the op's types");
    }
    return;
  }
  if (c.Peek() == '(') {
    FunctionType signature = p.ParseFunctionSignature();
    op.operand_types = signature.inputs;
    op.result_types = signature.outputs;
    return;
  }
  std::vector<ValueType> types = p.ParseTypeList();
  bool pairwise = pending.mnemonic == "optimization_barrier";
  if (TypesAreOperands(op.name) || pairwise) {
    op.operand_types = types;
    if (pairwise) op.result_types = types;
    if (op.name == "interpreter.print" || op.name.rfind("check.", 0) == 0) {
      // One type for all operands: `check.expect_eq %a, %b : tensor<3xi64>`.
      if (types.size() == 1 && op.operands.size() > 1) {
        op.operand_types.assign(op.operands.size(), types[0]);
      }
    }
    return;
  }
  // The last type is the result's; operands have their declared types (in
  // a snippet, where they are not declared, the types given or the result's).
  op.result_types = {types.back()};
  if (types.size() == 1 && types[0].is_tensor() &&
      (pending.mnemonic == "complex" || pending.mnemonic == "real" || pending.mnemonic == "imag")) {
    // ComplexOpType: complex's type is its result's, of complex elements
    // whose parts are the operands' type; real's and imag's is the
    // operand's part type.
    ValueType other = types[0];
    ElementType element = other.element_type;
    if (pending.mnemonic == "complex" && IsComplex(element)) {
      other.element_type = ComponentType(element);
    } else if (pending.mnemonic != "complex" && element == ElementType::kF32) {
      other.element_type = ElementType::kComplexF32;
    } else if (pending.mnemonic != "complex" && element == ElementType::kF64) {
      other.element_type = ElementType::kComplexF64;
    }
    types = {other};
  }
  for (size_t i = 0; i < op.operands.size(); ++i) {
    ValueType declared = p.TypeOf(op.operands[i]);
    if (!(declared == ValueType{}) || i >= types.size()) {
      op.operand_types.push_back(declared == ValueType{} ? types.back() : declared);
    } else {
      op.operand_types.push_back(types.size() == op.operands.size() ? types[i] : types.back());
    }
  }
  if (pending.mnemonic == "select" && types.size() == 2 && op.operands.size() == 3) {
    if (p.TypeOf(op.operands[0]) == ValueType{}) op.operand_types[0] = types[0];
  }
  if (op.name == "interpreter.probe" && op.operand_types.size() == 1) {
    op.operand_types[0] = types.back();
  }
}

// The general custom form: operands, `keyword = value`, bare enumerators,
// positional constants, `[ranges]`, an attribute dictionary, then types.
void ParseGeneralForm(Parser& p, Pending& pending) {
  Cursor& c = p.cursor();
  bool first = true;
  while (true) {
    char next = c.Peek();
    if (next == ':' || next == '{' || next == '\0' || next == '}' || c.LookingAt("loc(")) break;
    if (!first) {
      // `%t[0]` and slice's `%x [1:2]` come without a comma.
      if (next != '[' && !c.TryConsume(",")) break;
    }
    first = false;
    if (p.AtValue()) {
      pending.op.operands.push_back(p.ParseValueUse());
      continue;
    }
    if (c.Peek() == '[') {
      if (pending.mnemonic == "slice") {
        ParseSliceRanges(p, pending);
      } else if (pending.mnemonic == "get_tuple_element") {
        c.Expect("[");
        auto index = c.Integer();
        if (!index) c.Expected("the tuple index");
        c.Expect("]");
        pending.op.attributes["index"] = *index;
      } else {
        c.Expected("an operand or attribute");
      }
      continue;
    }
    if (c.LookingAt("dense<") || c.LookingAt("dense_resource<")) {
      AttrSyntax value = ParseAttribute(c);
      pending.dict.push_back({"value", std::move(value)});
      continue;
    }
    Cursor probe = c;
    auto word = probe.BareIdentifier();
    if (!word) c.Expected("an operand, 'name = value' or ':'");
    if (probe.TryConsume("=")) {
      c.BareIdentifier();
      c.Expect("=");
      ParseKeywordItem(p, pending, *word);
    } else {
      AttrSyntax keyword;
      keyword.kind = AttrSyntax::Kind::kKeyword;
      keyword.location = c.location();
      keyword.string = *c.BareIdentifier();
      keyword.text = keyword.string;
      SetEnumerator(p, pending, keyword);
    }
  }
  if (c.Peek() == '{') {
    AttrDict more = ParseAttributeDict(c);
    pending.dict.insert(pending.dict.end(), more.begin(), more.end());
  }
  ParseTypes(p, pending);
}

// `(%a, %b)` operand list.
void ParseParenthesizedOperands(Parser& p, Pending& pending) {
  Cursor& c = p.cursor();
  c.Expect("(", "'(' opening the operands");
  if (c.TryConsume(")")) return;
  do {
    pending.op.operands.push_back(p.ParseValueUse());
  } while (c.TryConsume(","));
  c.Expect(")", "',' or ')' after the operands");
}

// stablehlo.constant dense<...> : tensor<...>  (the value carries the type).
void ParseConstant(Parser& p, Pending& pending) {
  Cursor& c = p.cursor();
  if (c.TryConsume("(")) {
    // `stablehlo.constant() <{value = ...}> : () -> T` (quantized constants).
    c.Expect(")", "')'");
    if (c.TryConsume("<{")) {
      pending.dict = ParseAttributeEntries(c, '}');
      c.Expect(">", "'>' closing the properties");
    }
    if (c.Peek() == '{') {
      AttrDict more = ParseAttributeDict(c);
      pending.dict.insert(pending.dict.end(), more.begin(), more.end());
    }
    c.Expect(":", "':' and the constant's function type");
    FunctionType signature = p.ParseFunctionSignature();
    pending.op.result_types = signature.outputs;
    return;
  }
  if (c.Peek() == '{') pending.dict = ParseAttributeDict(c);
  AttrSyntax value = ParseAttribute(c);
  if (value.kind != AttrSyntax::Kind::kDense) {
    c.FailAt(value.location, "expected a dense literal (dense<...> : tensor<...>)");
  }
  auto type = ParseValueType(value.type);
  pending.op.result_types = {*type};
  if (c.TryConsume(":")) pending.op.result_types = {p.ParseType()};
  pending.dict.push_back({"value", value});
}

// stablehlo.while(%iter = %init, ...) : types cond { ... } do { ... }
void ParseWhile(Parser& p, Pending& pending) {
  Cursor& c = p.cursor();
  c.Expect("(", "'(' opening the loop's operands");
  std::vector<std::pair<std::string, TextLocation>> names;
  if (!c.TryConsume(")")) {
    do {
      TextLocation where = c.location();
      auto name = c.ValueName();
      if (!name) c.Expected("a loop variable (%name = %init)");
      c.Expect("=", "'=' and the initial value");
      pending.op.operands.push_back(p.ParseValueUse());
      names.emplace_back(*name, where);
    } while (c.TryConsume(","));
    c.Expect(")", "',' or ')' after the loop's operands");
  }
  if (c.TryConsume(":")) pending.op.operand_types = p.ParseTypeList();
  if (c.TryKeyword("attributes")) {
    AttrDict more = ParseAttributeDict(c);
    pending.dict.insert(pending.dict.end(), more.begin(), more.end());
  }
  if (pending.op.operand_types.size() != names.size()) {
    c.Fail("stablehlo.while: " + std::to_string(names.size()) + " loop variables but " +
           std::to_string(pending.op.operand_types.size()) + " types");
  }
  std::vector<std::pair<std::string, ValueType>> arguments;
  for (size_t i = 0; i < names.size(); ++i) {
    arguments.emplace_back(names[i].first, pending.op.operand_types[i]);
  }
  c.ExpectKeyword("cond");
  pending.op.regions.push_back(p.ParseRegion(arguments));
  c.ExpectKeyword("do");
  pending.op.regions.push_back(p.ParseRegion(arguments));
  pending.op.result_types = pending.op.operand_types;
}

// stablehlo.reduce(%x init: %y) applies stablehlo.add across dimensions = [1] : sig
// stablehlo.reduce(%x init: %y) across dimensions = [1] : sig
//   reducer(%a: t, %c: t) (%b: t, %d: t) { ... }
void ParseReduce(Parser& p, Pending& pending) {
  Cursor& c = p.cursor();
  std::vector<ValueId> inputs, inits;
  do {
    c.Expect("(", "'(' opening an input and its init value");
    inputs.push_back(p.ParseValueUse());
    c.ExpectKeyword("init");
    c.Expect(":");
    inits.push_back(p.ParseValueUse());
    c.Expect(")");
  } while (c.TryConsume(","));
  pending.op.operands = inputs;
  pending.op.operands.insert(pending.op.operands.end(), inits.begin(), inits.end());
  std::string applied;
  TextLocation applied_at = c.location();
  if (c.TryKeyword("applies")) {
    auto name = c.BareIdentifier();
    if (!name) c.Expected("the reduction op (stablehlo.add, ...)");
    applied = *name;
  }
  c.ExpectKeyword("across");
  c.ExpectKeyword("dimensions");
  c.Expect("=");
  SetAttribute(p, pending, "dimensions", ParseAttributeValue(c, false));
  if (c.Peek() == '{') {
    AttrDict more = ParseAttributeDict(c);
    pending.dict.insert(pending.dict.end(), more.begin(), more.end());
  }
  c.Expect(":", "':' and the op's function type");
  FunctionType signature = p.ParseFunctionSignature();
  pending.op.operand_types = signature.inputs;
  pending.op.result_types = signature.outputs;
  if (!applied.empty()) {
    // The body applies one binary op to accumulators and inputs, each a
    // 0-d tensor of the init values' types.
    Region region;
    Block& block = region.blocks.emplace_back();
    size_t n = inits.size();
    if (signature.inputs.size() != 2 * n) c.Fail("stablehlo.reduce: operand types do not match");
    for (size_t k = 0; k < 2; ++k) {
      for (size_t i = 0; i < n; ++i) {
        ValueType scalar = signature.inputs[n + i];
        scalar.shape.clear();
        block.arguments.push_back(p.NewValue(scalar));
        block.argument_types.push_back(scalar);
      }
    }
    Operation ret;
    ret.name = "stablehlo.return";
    ret.location = applied_at;
    for (size_t i = 0; i < n; ++i) {
      Operation apply;
      apply.name = applied;
      apply.location = applied_at;
      apply.operands = {block.arguments[i], block.arguments[n + i]};
      apply.operand_types = {block.argument_types[i], block.argument_types[n + i]};
      apply.result_types = {block.argument_types[i]};
      apply.results = {p.NewValue(apply.result_types[0])};
      ret.operands.push_back(apply.results[0]);
      ret.operand_types.push_back(apply.result_types[0]);
      block.operations.push_back(std::move(apply));
    }
    block.operations.push_back(std::move(ret));
    pending.op.regions.push_back(std::move(region));
    return;
  }
  c.ExpectKeyword("reducer");
  std::vector<std::pair<std::string, ValueType>> arguments;
  std::vector<std::pair<std::string, ValueType>> lhs, rhs;
  for (int side = 0; side < 2; ++side) {
    c.Expect("(", "'(' opening the reducer's arguments");
    do {
      auto name = c.ValueName();
      if (!name) c.Expected("a reducer argument (%name: type)");
      c.Expect(":");
      (side == 0 ? lhs : rhs).emplace_back(*name, p.ParseType());
    } while (c.TryConsume(","));
    c.Expect(")");
  }
  arguments = lhs;
  arguments.insert(arguments.end(), rhs.begin(), rhs.end());
  pending.op.regions.push_back(p.ParseRegion(arguments));
}

// stablehlo.custom_call @target(%a, %b) {attrs} : sig
void ParseCustomCall(Parser& p, Pending& pending) {
  Cursor& c = p.cursor();
  AttrSyntax target;
  target.location = c.location();
  auto name = c.SymbolName();
  if (!name) c.Expected("the call target (@name)");
  target.kind = AttrSyntax::Kind::kString;
  target.string = *name;
  target.text = "\"" + *name + "\"";
  pending.dict.push_back({"call_target_name", target});
  ParseParenthesizedOperands(p, pending);
  ParseGeneralForm(p, pending);
}

// stablehlo.composite "name" %a, %b {attrs} : sig
void ParseComposite(Parser& p, Pending& pending) {
  Cursor& c = p.cursor();
  AttrSyntax name;
  name.location = c.location();
  auto text = c.StringLiteral();
  if (!text) c.Expected("the composite's name (a string)");
  name.kind = AttrSyntax::Kind::kString;
  name.string = *text;
  name.text = "\"" + *text + "\"";
  pending.dict.push_back({"name", name});
  ParseGeneralForm(p, pending);
}

// func.call @f(%a) : (t) -> t
void ParseCall(Parser& p, Pending& pending) {
  Cursor& c = p.cursor();
  auto callee = c.SymbolName();
  if (!callee) c.Expected("the callee (@name)");
  pending.op.attributes["callee"] = *callee;
  ParseParenthesizedOperands(p, pending);
  if (c.Peek() == '{') pending.dict = ParseAttributeDict(c);
  c.Expect(":", "':' and the call's function type");
  FunctionType signature = p.ParseFunctionSignature();
  pending.op.operand_types = signature.inputs;
  pending.op.result_types = signature.outputs;
}

// stablehlo.convolution(%lhs, %rhs) dim_numbers = ..., window = {...} {attrs} : sig
void ParseConvolution(Parser& p, Pending& pending) {
  ParseParenthesizedOperands(p, pending);
  Cursor& c = p.cursor();
  bool first = true;
  while (c.Peek() != '{' && c.Peek() != ':') {
    if (!first) c.Expect(",", "',' or ':'");
    first = false;
    auto keyword = c.BareIdentifier();
    if (!keyword) c.Expected("dim_numbers or window");
    c.Expect("=");
    ParseKeywordItem(p, pending, *keyword);
  }
  if (c.Peek() == '{') {
    AttrDict more = ParseAttributeDict(c);
    pending.dict.insert(pending.dict.end(), more.begin(), more.end());
  }
  ParseTypes(p, pending);
}

// An op outside the spec in a custom syntax this reader does not know
// (chlo.scan(...) inits(...) dimension=0 {...} : ...): values, regions and
// `name = value` attributes are taken wherever they appear, up to the `:`
// that starts the types. Enough to run the file's other functions and to
// report this op as unsupported by name.
void ParseOpaque(Parser& p, Pending& pending, int depth = 0) {
  Cursor& c = p.cursor();
  while (true) {
    char next = c.Peek();
    if (next == '\0') c.Expected("':' and the types of " + pending.op.name);
    if (depth == 0 && next == ':') break;
    if (depth > 0 && (next == ')' || next == ']')) {
      c.TryConsume(std::string(1, next));
      return;
    }
    if (p.AtValue()) {
      pending.op.operands.push_back(p.ParseValueUse());
    } else if (next == '(' || next == '[') {
      c.TryConsume(std::string(1, next));
      ParseOpaque(p, pending, depth + 1);
    } else if (next == '{') {
      Cursor probe = c;
      probe.Expect("{");
      char inner = probe.Peek();
      auto word = probe.BareIdentifier();
      bool dict = inner == '}' || (word && probe.TryConsume("=")) ||
                  (word && word->find('.') == std::string::npos);
      if (dict) {
        AttrDict more = ParseAttributeDict(c);
        pending.dict.insert(pending.dict.end(), more.begin(), more.end());
      } else {
        pending.op.regions.push_back(p.ParseRegion());
      }
    } else if (next == ',') {
      c.Expect(",");
    } else if (next == '"') {
      c.StringLiteral();
    } else if (next == '@') {
      if (!c.SymbolName()) c.Expected("a symbol name after '@'");
    } else {
      Cursor probe = c;
      auto word = probe.BareIdentifier();
      if (word && probe.TryConsume("=")) {
        c.BareIdentifier();
        c.Expect("=");
        AttrSyntax value = ParseAttributeValue(c, false);
        pending.dict.push_back({*word, std::move(value)});
      } else if (word) {
        c.BareIdentifier();
      } else if (!c.NumberText()) {
        c.Expected("the operands, attributes or types of " + pending.op.name);
      }
    }
  }
  ParseTypes(p, pending);
}

std::string CanonicalName(const std::string& name) {
  if (name == "return") return "func.return";
  if (name == "call") return "func.call";
  return name;
}

}  // namespace

Operation ParseCustomOperation(Parser& p, const std::string& written, TextLocation where) {
  Pending pending;
  pending.op.name = CanonicalName(written);
  pending.op.location = where;
  const std::string& name = pending.op.name;
  if (name.rfind("stablehlo.", 0) == 0) {
    pending.mnemonic = name.substr(10);
    pending.spec = p.registry().Find(pending.mnemonic);
  }
  static const auto* special = new std::map<std::string, std::function<void(Parser&, Pending&)>>{
      {"stablehlo.constant", ParseConstant},
      {"stablehlo.while", ParseWhile},
      {"stablehlo.reduce", ParseReduce},
      {"stablehlo.custom_call", ParseCustomCall},
      {"stablehlo.composite", ParseComposite},
      {"stablehlo.convolution", ParseConvolution},
      {"func.call", ParseCall},
  };
  auto it = special->find(name);
  bool known_syntax = pending.spec != nullptr || name.rfind("func.", 0) == 0 ||
                      name.rfind("check.", 0) == 0 || name.rfind("interpreter.", 0) == 0;
  if (it != special->end()) {
    it->second(p, pending);
  } else if (known_syntax) {
    ParseGeneralForm(p, pending);
  } else {
    ParseOpaque(p, pending);
  }
  if (pending.op.operand_types.size() < pending.op.operands.size()) {
    for (size_t i = pending.op.operand_types.size(); i < pending.op.operands.size(); ++i) {
      pending.op.operand_types.push_back(p.TypeOf(pending.op.operands[i]));
    }
  }
  p.CheckOperandTypes(pending.op);
  // Attributes set by custom syntax are already decoded; the dictionary's
  // go through the op's spec.
  std::map<std::string, Attribute> custom = std::move(pending.op.attributes);
  pending.op.attributes.clear();
  p.DecodeOnto(pending.op, pending.dict);
  for (auto& [key, value] : custom) pending.op.attributes[key] = std::move(value);
  if (pending.spec != nullptr) {
    FillGroupDefaults(*pending.spec, pending.op.attributes);
    FillWindowDefaults(*pending.spec, pending.op.operand_types, pending.op.attributes);
  }
  return std::move(pending.op);
}

}  // namespace hlocheck::mlir
