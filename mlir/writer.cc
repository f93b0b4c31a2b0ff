#include "mlir/writer.h"

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/literal.h"
#include "mlir/attribute_syntax.h"
#include "mlir/op_attributes.h"

namespace hlocheck::mlir {
namespace {

// "%result = " for one result, "%result:N = " for N, nothing for none (an
// op without results binds no name).
std::string ResultBinding(size_t results) {
  if (results == 0) return "";
  return results == 1 ? "%result = " : "%result:" + std::to_string(results) + " = ";
}

std::string Types(const std::vector<ValueType>& types) {
  std::vector<std::string> parts;
  for (const ValueType& t : types) parts.push_back(t.ToString());
  return absl::StrJoin(parts, ", ");
}

std::string ResultTypes(const std::vector<ValueType>& types) {
  return types.size() == 1 ? types[0].ToString() : "(" + Types(types) + ")";
}

// Attributes of ops outside the spec: verbatim when read from text, else
// in a plain spelling.
std::vector<std::string> PlainAttributes(const Operation& op) {
  std::vector<std::string> entries;
  for (const auto& [name, text] : op.raw_attributes) entries.push_back(name + " = " + text);
  for (const auto& [name, value] : op.attributes) {
    if (op.raw_attributes.count(name)) continue;
    std::string text = std::visit(
        [](const auto& v) -> std::string {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, bool>) {
            return v ? "true" : "false";
          } else if constexpr (std::is_same_v<T, int64_t>) {
            return std::to_string(v) + " : i64";
          } else if constexpr (std::is_same_v<T, double>) {
            return PrintElementLiteral(ElementType::kF64, &v) + " : f64";
          } else if constexpr (std::is_same_v<T, std::string>) {
            return QuoteString(v);
          } else if constexpr (std::is_same_v<T, Tensor>) {
            return PrintDenseAttribute(v);
          } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            std::vector<std::string> parts;
            for (int64_t i : v) parts.push_back(std::to_string(i));
            return "array<i64: " + absl::StrJoin(parts, ", ") + ">";
          } else {
            return AttributeToString(v);
          }
        },
        value);
    if (name == "callee") text = SymbolText(std::get<std::string>(value));
    entries.push_back(name + " = " + text);
  }
  return entries;
}

class Printer {
 public:
  explicit Printer(const spec::SpecRegistry& registry) : registry_(registry) {}

  std::string Value(ValueId id) const {
    auto it = names_.find(id);
    return it != names_.end() ? it->second : "%" + std::to_string(id);
  }
  void Name(ValueId id, const std::string& name) { names_[id] = name; }

  std::string Operation(const hlocheck::Operation& op, int indent) const {
    std::string pad(indent, ' ');
    std::string text = pad;
    if (!op.results.empty()) {
      std::vector<std::string> results;
      for (ValueId id : op.results) results.push_back(Value(id));
      text += absl::StrJoin(results, ", ") + " = ";
    }
    std::vector<std::string> operands;
    for (ValueId id : op.operands) operands.push_back(Value(id));
    text += QuoteString(op.name) + "(" + absl::StrJoin(operands, ", ") + ")";
    if (!op.regions.empty()) {
      std::vector<std::string> regions;
      for (const Region& region : op.regions) regions.push_back(RegionText(region, indent));
      text += " (" + absl::StrJoin(regions, ", ") + ")";
    }
    std::vector<std::string> attributes;
    const spec::OpSpec* spec =
        op.name.rfind("stablehlo.", 0) == 0 ? registry_.Find(op.name.substr(10)) : nullptr;
    if (spec != nullptr) {
      attributes = EncodeAttributes(*spec, op.attributes);
      for (const auto& [name, raw] : op.raw_attributes) attributes.push_back(name + " = " + raw);
    } else {
      attributes = PlainAttributes(op);
    }
    if (!attributes.empty()) text += " {" + absl::StrJoin(attributes, ", ") + "}";
    text += " : (" + Types(op.operand_types) + ") -> " +
            (op.result_types.size() == 1 ? op.result_types[0].ToString()
                                         : "(" + Types(op.result_types) + ")");
    return text;
  }

  std::string RegionText(const Region& region, int indent) const {
    std::string pad(indent, ' ');
    std::string text = "{\n";
    for (const Block& block : region.blocks) {
      if (!block.arguments.empty()) {
        std::vector<std::string> arguments;
        for (size_t i = 0; i < block.arguments.size(); ++i) {
          arguments.push_back(Value(block.arguments[i]) + ": " +
                              block.argument_types[i].ToString());
        }
        text += pad + "^bb0(" + absl::StrJoin(arguments, ", ") + "):\n";
      }
      for (const hlocheck::Operation& op : block.operations) {
        text += Operation(op, indent + 2) + "\n";
      }
    }
    return text + pad + "}";
  }

 private:
  const spec::SpecRegistry& registry_;
  std::map<ValueId, std::string> names_;
};

}  // namespace

std::string PrintOperation(const Operation& op, const spec::SpecRegistry& registry, int indent) {
  return Printer(registry).Operation(op, indent);
}

std::string PrintModule(const Module& module, const spec::SpecRegistry& registry) {
  Printer printer(registry);
  std::string text;
  bool wrapped = !module.name.empty() || !module.attributes.empty();
  int indent = wrapped ? 2 : 0;
  if (wrapped) {
    text += "module";
    if (!module.name.empty()) text += " " + SymbolText(module.name);
    if (!module.attributes.empty()) text += " attributes " + module.attributes;
    text += " {\n";
  }
  std::string pad(indent, ' ');
  for (const Function& f : module.functions) {
    std::vector<std::string> arguments;
    const std::vector<ValueId>* ids = f.body.blocks.empty() ? nullptr : &f.body.blocks[0].arguments;
    for (size_t i = 0; i < f.type.inputs.size(); ++i) {
      std::string argument = (ids ? printer.Value((*ids)[i]) : "%arg" + std::to_string(i)) + ": " +
                             f.type.inputs[i].ToString();
      if (i < f.argument_attributes.size() && !f.argument_attributes[i].empty()) {
        argument += " " + f.argument_attributes[i];
      }
      arguments.push_back(argument);
    }
    text += pad + "func.func " + (f.is_public ? "" : "private ") + SymbolText(f.name) + "(" +
            absl::StrJoin(arguments, ", ") + ")";
    if (!f.type.outputs.empty()) {
      std::vector<std::string> results;
      for (size_t i = 0; i < f.type.outputs.size(); ++i) {
        std::string result = f.type.outputs[i].ToString();
        if (i < f.result_attributes.size() && !f.result_attributes[i].empty()) {
          result += " " + f.result_attributes[i];
        }
        results.push_back(result);
      }
      text += " -> (" + absl::StrJoin(results, ", ") + ")";
    }
    if (!f.attributes.empty()) text += " attributes " + f.attributes;
    if (f.body.blocks.empty()) {
      text += "\n";
      continue;
    }
    text += " {\n";
    for (const Operation& op : f.body.blocks[0].operations) {
      text += printer.Operation(op, indent + 2) + "\n";
    }
    text += pad + "}\n";
  }
  if (wrapped) text += "}\n";
  return text;
}

namespace {

// One name per operand value (a tuple or a token is one value).
std::vector<std::string> OperandNames(const spec::OpSpec& op, const Case& c) {
  const size_t values = c.OperandValueTypes().size();
  std::vector<std::string> names;
  size_t next = 0;
  for (size_t i = 0; i < op.operands.size() && next < values; ++i) {
    int64_t count = c.operand_segments.empty() ? 1 : c.operand_segments[i];
    for (int64_t k = 0; k < count; ++k, ++next) {
      names.push_back("%" + op.operands[i].name +
                      (op.operands[i].variadic ? std::to_string(k) : ""));
    }
  }
  return names;
}

// The attributes MLIR passes as operands after the spec's (rng's shape), as
// 1-D si64 tensors, in spec order.
std::vector<std::pair<std::string, Tensor>> OperandAttributes(const spec::OpSpec& op,
                                                              const Case& c) {
  std::vector<std::pair<std::string, Tensor>> found;
  for (const spec::AttributeSpec& a : op.attributes) {
    if (!a.mlir.operand) continue;
    const Attribute* value = c.FindAttribute(a.name);
    if (value == nullptr || !std::holds_alternative<std::vector<int64_t>>(*value)) continue;
    const std::vector<int64_t>& ints = std::get<std::vector<int64_t>>(*value);
    Tensor tensor({static_cast<int64_t>(ints.size())}, ElementType::kSI64);
    std::copy(ints.begin(), ints.end(), tensor.values<ElementType::kSI64>().begin());
    found.emplace_back(a.name, std::move(tensor));
  }
  return found;
}

// The constants that make those operands, one line each after `pad`.
std::string OperandAttributeConstants(const spec::OpSpec& op, const Case& c,
                                      const std::string& pad) {
  std::string text;
  for (const auto& [name, tensor] : OperandAttributes(op, c)) {
    text += pad + "%" + name + " = stablehlo.constant " + PrintDenseAttribute(tensor) + "\n";
  }
  return text;
}

Operation CaseOperation(const Case& c) {
  Operation op;
  op.name = "stablehlo." + c.op;
  op.operand_types = c.OperandValueTypes();
  op.result_types = c.ResultValueTypes();
  op.attributes = c.attributes;
  op.regions = c.regions;
  return op;
}

// `"stablehlo.op"(%a, %b) ({...}) {...} : (...) -> ...` with the case's
// operands named by spec name.
std::string CaseOperationText(const spec::SpecRegistry& registry, const spec::OpSpec& spec,
                              const Case& c) {
  Operation op = CaseOperation(c);
  if (spec.name == "call") {
    // func.call names its callee, which the caller has printed as a
    // function (CalleeFunction) and named in the attribute `callee`.
    const Attribute* callee = c.FindAttribute("callee");
    const std::string name = callee != nullptr && std::holds_alternative<std::string>(*callee)
                                 ? std::get<std::string>(*callee)
                                 : std::string("callee");
    return "func.call @" + name + "(" + absl::StrJoin(OperandNames(spec, c), ", ") + ") : (" +
           Types(op.operand_types) + ") -> " + ResultTypes(op.result_types);
  }
  std::vector<std::string> operands = OperandNames(spec, c);
  for (const auto& [name, tensor] : OperandAttributes(spec, c)) {
    operands.push_back("%" + name);
    op.operand_types.push_back(ValueType::Of(tensor.type()));
  }
  std::string text = QuoteString(op.name) + "(" + absl::StrJoin(operands, ", ") + ")";
  if (!op.regions.empty()) {
    Printer printer(registry);
    std::vector<std::string> regions;
    for (const Region& region : op.regions) regions.push_back(printer.RegionText(region, 2));
    text += " (" + absl::StrJoin(regions, ", ") + ")";
  }
  std::vector<std::string> attributes = EncodeAttributes(spec, op.attributes);
  if (!attributes.empty()) text += " {" + absl::StrJoin(attributes, ", ") + "}";
  return text + " : (" + Types(op.operand_types) + ") -> " + ResultTypes(op.result_types);
}

// A quantized tensor's storage integers, as a tensor of the storage type.
Tensor Storage(const Tensor& tensor) {
  return Tensor::Reusing(TensorType(tensor.shape(), tensor.element_type()), Tensor(tensor));
}

// `name = ` the constant `tensor`: a quantized one in generic form, its
// value the storage integers (a dense attribute holds no quantized type).
std::string ConstantText(const std::string& name, const Tensor& tensor) {
  if (tensor.type().quantization) {
    return name + " = \"stablehlo.constant\"() {value = " + PrintDenseAttribute(Storage(tensor)) +
           "} : () -> " + tensor.type().ToString();
  }
  return name + " = stablehlo.constant " + PrintDenseAttribute(tensor);
}

// Lines that build the value `name` of `type` from `leaves` (taken in
// order): a constant per tensor (a quantized one in generic form, its value
// the storage integers), after_all for a token, tuple for a tuple. With
// `arguments` set, each tensor is instead an argument of @main, appended
// there as `name: type`.
void BuildValue(const ValueType& type, const std::string& name, const std::vector<Tensor>& leaves,
                size_t* next_leaf, std::string* text,
                std::vector<std::string>* arguments = nullptr) {
  switch (type.kind) {
    case ValueType::Kind::kTensor: {
      const Tensor& leaf = leaves.at((*next_leaf)++);
      if (arguments != nullptr && leaf.type().quantization) {
        // A compiler's runtime takes the storage integers; the quantized
        // value is their bitcast (spec: bitcast_convert on quantized types).
        const std::string storage = Storage(leaf).type().ToString();
        arguments->push_back(name + "_storage: " + storage);
        *text += "  " + name + " = stablehlo.bitcast_convert " + name + "_storage : (" + storage +
                 ") -> " + leaf.type().ToString() + "\n";
      } else if (arguments != nullptr) {
        arguments->push_back(name + ": " + leaf.type().ToString());
      } else {
        *text += "  " + ConstantText(name, leaf) + "\n";
      }
      return;
    }
    case ValueType::Kind::kToken:
      *text += "  " + name + " = \"stablehlo.after_all\"() : () -> !stablehlo.token\n";
      return;
    case ValueType::Kind::kTuple: {
      std::vector<std::string> elements;
      for (size_t i = 0; i < type.elements.size(); ++i) {
        elements.push_back(name + "_" + std::to_string(i));
        BuildValue(type.elements[i], elements.back(), leaves, next_leaf, text, arguments);
      }
      *text += "  " + name + " = \"stablehlo.tuple\"(" + absl::StrJoin(elements, ", ") + ") : (" +
               Types(type.elements) + ") -> " + type.ToString() + "\n";
      return;
    }
  }
}

// The names of the tensors inside `value` of `type`, depth-first, with the
// get_tuple_element lines (their results named `base`_i) that reach those
// inside tuples.
void UnpackValue(const ValueType& type, const std::string& value, const std::string& base,
                 std::vector<std::string>* tensors, std::string* text) {
  if (type.is_tensor()) tensors->push_back(value);
  for (size_t i = 0; i < type.elements.size(); ++i) {
    const std::string element = base + "_" + std::to_string(i);
    *text += "  " + element + " = \"stablehlo.get_tuple_element\"(" + value +
             ") {index = " + std::to_string(i) + " : i32} : (" + type.ToString() + ") -> " +
             type.elements[i].ToString() + "\n";
    UnpackValue(type.elements[i], element, element, tensors, text);
  }
}

// The checks of a case module, one per result tensor (`tensors` names them).
std::string CheckLines(const std::vector<CaseCheck>& checks,
                       const std::vector<std::string>& tensors) {
  std::string text;
  for (size_t i = 0; i < checks.size() && i < tensors.size(); ++i) {
    const CaseCheck& check = checks[i];
    const std::string& value = tensors[i];
    // A quantized tensor is checked on its storage integers.
    const Tensor expected =
        check.expected.type().quantization ? Storage(check.expected) : check.expected;
    std::string type = expected.type().ToString();
    switch (check.kind) {
      case CaseCheck::Kind::kExact:
        text += "  check.expect_eq_const " + value + ", " + PrintDenseAttribute(expected) + "\n";
        break;
      case CaseCheck::Kind::kUlp: {
        std::string name = "%expected" + std::to_string(i);
        text += "  " + name + " = stablehlo.constant " + PrintDenseAttribute(expected) +
                "\n  check.expect_close " + value + ", " + name +
                ", max_ulp_difference = " + std::to_string(check.max_ulp) + " : " + type + ", " +
                type + "\n";
        break;
      }
      case CaseCheck::Kind::kTolerance:
        text += "  check.expect_almost_eq_const " + value + ", " + PrintDenseAttribute(expected) +
                " {tolerance = " + PrintElementLiteral(ElementType::kF64, &check.tolerance) +
                " : f64}\n";
        break;
      case CaseCheck::Kind::kComment:
        text += "  // " + value + ": " + check.comment + "\n";
        break;
    }
  }
  return text;
}

// A case on a process grid: the op in a function @process that every
// process runs, and @main running it on the grid with
// interpreter.run_parallel (as the public interpreter's tests do), each
// process's operands constants of @main, the checks on every process's
// results in process order.
std::string PrintGridCaseModule(const spec::SpecRegistry& registry, const spec::OpSpec& spec,
                                const Case& c, const std::vector<CaseCheck>& checks,
                                const std::vector<std::string>& comments) {
  std::string text;
  for (const std::string& comment : comments) text += "// " + comment + "\n";
  const Case one = OneProcess(c, 0);
  const std::vector<std::string> names = OperandNames(spec, one);
  std::vector<std::string> arguments;
  std::vector<std::string> argument_types;
  for (size_t i = 0; i < one.operands.size() && i < names.size(); ++i) {
    arguments.push_back(names[i] + ": " + one.operands[i].type().ToString());
    argument_types.push_back(one.operands[i].type().ToString());
  }
  std::vector<std::string> result_types;
  for (const TensorType& type : one.result_types) result_types.push_back(type.ToString());
  const size_t n = one.result_types.size();
  std::vector<std::string> returned;
  for (size_t i = 0; i < n; ++i)
    returned.push_back(n == 1 ? "%result" : "%result#" + std::to_string(i));
  text +=
      "module @hlocheck_case {\n  func.func @process(" + absl::StrJoin(arguments, ", ") + ") -> (" +
      absl::StrJoin(result_types, ", ") + ") {\n" + OperandAttributeConstants(spec, one, "    ") +
      "    " + ResultBinding(n) + CaseOperationText(registry, spec, one) + "\n    func.return " +
      absl::StrJoin(returned, ", ") + (n == 0 ? "" : " : " + absl::StrJoin(result_types, ", ")) +
      "\n  }\n  func.func @main() {\n";
  std::vector<std::string> inputs;
  std::vector<std::string> input_types;
  for (int64_t p = 0; p < c.ProcessCount(); ++p) {
    const Case process = OneProcess(c, p);
    for (size_t i = 0; i < process.operands.size() && i < names.size(); ++i) {
      inputs.push_back(names[i] + "_" + std::to_string(p));
      input_types.push_back(process.operands[i].type().ToString());
      text += "    " + ConstantText(inputs.back(), process.operands[i]) + "\n";
    }
  }
  std::vector<std::string> rows;
  for (int64_t r = 0; r < c.num_replicas; ++r) {
    std::vector<std::string> row(static_cast<size_t>(c.num_partitions), "@process");
    rows.push_back("[" + absl::StrJoin(row, ", ") + "]");
  }
  std::vector<std::string> all_result_types;
  for (const TensorType& type : c.result_types) all_result_types.push_back(type.ToString());
  const size_t total = c.result_types.size();
  text += "    " + (total == 0 ? std::string() : "%results:" + std::to_string(total) + " = ") +
          "\"interpreter.run_parallel\"(" + absl::StrJoin(inputs, ", ") + ") {programs = [" +
          absl::StrJoin(rows, ", ") + "]} : (" + absl::StrJoin(input_types, ", ") + ") -> (" +
          absl::StrJoin(all_result_types, ", ") + ")\n";
  std::vector<std::string> tensors;
  for (size_t i = 0; i < total; ++i) tensors.push_back("%results#" + std::to_string(i));
  std::string checks_text = CheckLines(checks, tensors);
  for (absl::string_view line : absl::StrSplit(checks_text, '\n', absl::SkipEmpty())) {
    text += "  " + std::string(line) + "\n";
  }
  return text + "    func.return\n  }\n}\n";
}

}  // namespace

namespace {

// composite's decomposition or func.call's callee, given in a case as
// region 0, as the function `name` that a program's composite or call names
// by symbol (StableHLO's composite takes no regions): the region's block,
// its stablehlo.return a func.return.
std::string CalleeFunction(const spec::SpecRegistry& registry, const std::string& name,
                           const Region& region) {
  Module module;
  Function function;
  function.name = name;
  function.is_public = false;
  function.type = region.type();
  function.body = region;
  if (!function.body.blocks.empty() && !function.body.blocks[0].operations.empty()) {
    function.body.blocks[0].operations.back().name = "func.return";
  }
  module.functions.push_back(std::move(function));
  std::string text;
  for (absl::string_view line : absl::StrSplit(PrintModule(module, registry), '\n')) {
    if (!line.empty()) text += "  " + std::string(line) + "\n";
  }
  return text;
}

}  // namespace

std::string PrintCaseModule(const spec::SpecRegistry& registry, const spec::OpSpec& spec,
                            const Case& c, const std::vector<CaseCheck>& checks,
                            const std::vector<std::string>& comments) {
  if (c.ProcessCount() > 1) return PrintGridCaseModule(registry, spec, c, checks, comments);
  if (spec.name == "call" && !c.regions.empty()) {
    // func.call: the callee a private function of the module, @main calls it.
    Case call = c;
    call.regions.clear();
    call.region_segments.clear();
    call.attributes["callee"] = std::string("callee");
    std::string text;
    for (const std::string& comment : comments) text += "// " + comment + "\n";
    text += "module @hlocheck_case {\n" + CalleeFunction(registry, "callee", c.regions[0]);
    for (absl::string_view line : absl::StrSplit(PrintCaseModule(registry, spec, call, checks, {}),
                                                 '\n', absl::SkipEmpty())) {
      text += "  " + std::string(line) + "\n";
    }
    return text + "}\n";
  }
  std::string text;
  for (const std::string& comment : comments) text += "// " + comment + "\n";
  // With tokens or tuples, @main returns the op's results: that marks the op
  // under test among the tuple ops that build its inputs and take its
  // results apart (ReadCaseModule).
  const bool structured = !c.operand_structure.empty() || !c.result_structure.empty();
  const std::vector<ValueType> results = c.ResultValueTypes();
  text += "func.func @main()";
  if (structured) text += " -> (" + Types(results) + ")";
  text += " {\n";
  std::vector<std::string> names = OperandNames(spec, c);
  const std::vector<ValueType> operands = c.OperandValueTypes();
  size_t next_leaf = 0;
  for (size_t i = 0; i < operands.size() && i < names.size(); ++i) {
    BuildValue(operands[i], names[i], c.operands, &next_leaf, &text);
  }
  // The other end of a transfer (the host, or the peer the case stands in
  // for): what arrives is queued before the op, what leaves is taken after
  // it, on send's and recv's channel (hlocheck's interpreter.incoming and
  // interpreter.outgoing; ReadCaseModule reads them back).
  const Transfer transfer = TransferOf(c.op);
  std::string channel;
  if (const Attribute* id = c.FindAttribute("channel_id");
      id != nullptr && std::holds_alternative<int64_t>(*id) && (c.op == "send" || c.op == "recv")) {
    channel = " {channel_id = " + std::to_string(std::get<int64_t>(*id)) + " : i64}";
  }
  if (transfer == Transfer::kIncoming) {
    std::vector<std::string> queued;
    std::vector<ValueType> queued_types;
    size_t next_incoming = 0;
    for (size_t i = 0; i < c.incoming.size(); ++i) {
      queued.push_back("%incoming" + std::to_string(i));
      queued_types.push_back(ValueType::Of(c.incoming[i].type()));
      BuildValue(queued_types.back(), queued.back(), c.incoming, &next_incoming, &text);
    }
    text += "  \"interpreter.incoming\"(" + absl::StrJoin(queued, ", ") + ")" + channel + " : (" +
            Types(queued_types) + ") -> ()\n";
  }
  text += OperandAttributeConstants(spec, c, "  ");
  text += "  " + ResultBinding(results.size()) + CaseOperationText(registry, spec, c) + "\n";
  std::vector<std::string> result_names;
  for (size_t i = 0; i < results.size(); ++i) {
    result_names.push_back(results.size() == 1 ? "%result" : "%result#" + std::to_string(i));
  }
  // The checks are per tensor of the results.
  std::vector<std::string> tensors;
  for (size_t i = 0; i < results.size(); ++i) {
    UnpackValue(results[i], result_names[i],
                results.size() == 1 ? "%result" : "%result_" + std::to_string(i), &tensors, &text);
  }
  if (transfer == Transfer::kOutgoing) {
    std::vector<ValueType> taken;
    for (size_t i = c.result_types.size() - c.outgoing; i < c.result_types.size(); ++i) {
      taken.push_back(ValueType::Of(c.result_types[i]));
    }
    for (size_t i = 0; i < taken.size(); ++i) {
      tensors.push_back(taken.size() == 1 ? "%outgoing" : "%outgoing#" + std::to_string(i));
    }
    const std::string binding =
        taken.empty() ? ""
                      : (taken.size() == 1 ? "%outgoing = "
                                           : "%outgoing:" + std::to_string(taken.size()) + " = ");
    text += "  " + binding + "\"interpreter.outgoing\"()" + channel + " : () -> (" + Types(taken) +
            ")\n";
  }
  text += CheckLines(checks, tensors);
  text += structured && !results.empty() ? "  func.return " + absl::StrJoin(result_names, ", ") +
                                               " : " + Types(results) + "\n}\n"
                                         : "  func.return\n}\n";
  return text;
}

namespace {

// The case as a function: its signature (arguments "%name: type", one per
// tensor leaf when inputs are arguments) and its body, the lines at the
// top level's indentation.
struct CaseFunction {
  std::vector<std::string> arguments;
  std::vector<std::string> result_types;
  std::string body;  // ends in the func.return line
  // Private functions the case's op names by symbol (composite's
  // decomposition), as module-level text.
  std::string helpers;
};

// `prefix` names the helper functions apart from other cases' in a batch.
CaseFunction BuildCaseFunction(const spec::SpecRegistry& registry, const spec::OpSpec& spec,
                               const Case& case_to_print, ProgramInputs inputs,
                               const std::string& prefix) {
  CaseFunction function;
  Case c = case_to_print;
  if ((spec.name == "composite" || spec.name == "call") && !c.regions.empty()) {
    const bool call = spec.name == "call";
    const std::string name = prefix + (call ? "_callee" : "_decomposition");
    function.helpers = CalleeFunction(registry, name, c.regions[0]);
    c.regions.clear();
    c.region_segments.clear();
    c.attributes[call ? "callee" : "decomposition"] = name;
  }
  std::string& body = function.body;
  std::vector<std::string> names = OperandNames(spec, c);
  const std::vector<ValueType> operands = c.OperandValueTypes();
  size_t next_leaf = 0;
  for (size_t i = 0; i < operands.size() && i < names.size(); ++i) {
    BuildValue(operands[i], names[i], c.operands, &next_leaf, &body,
               inputs == ProgramInputs::kArguments ? &function.arguments : nullptr);
  }
  const std::vector<ValueType> results = c.ResultValueTypes();
  body += OperandAttributeConstants(spec, c, "  ");
  body += "  " + ResultBinding(results.size()) + CaseOperationText(registry, spec, c) + "\n";
  // The function returns the tensors inside the results, depth-first: the
  // case's flat result list (a token holds none).
  std::vector<std::string> tensors;
  for (size_t i = 0; i < results.size(); ++i) {
    std::string value = results.size() == 1 ? "%result" : "%result#" + std::to_string(i);
    UnpackValue(results[i], value, results.size() == 1 ? "%result" : "%result_" + std::to_string(i),
                &tensors, &body);
  }
  // A quantized result leaves as its storage integers.
  for (size_t i = 0; i < c.result_types.size() && i < tensors.size(); ++i) {
    const TensorType& type = c.result_types[i];
    if (!type.quantization) {
      function.result_types.push_back(type.ToString());
      continue;
    }
    const std::string storage = TensorType(type.shape, type.element_type).ToString();
    const std::string name = "%result_storage_" + std::to_string(i);
    body += "  " + name + " = stablehlo.bitcast_convert " + tensors[i] + " : (" + type.ToString() +
            ") -> " + storage + "\n";
    tensors[i] = name;
    function.result_types.push_back(storage);
  }
  body += "  func.return " + absl::StrJoin(tensors, ", ") +
          (tensors.empty() ? "" : " : " + absl::StrJoin(function.result_types, ", ")) + "\n";
  return function;
}

// A function of the module: header, body one level deeper than written.
std::string FunctionText(const std::string& header, const std::string& body) {
  std::string text = "  " + header + " {\n";
  for (absl::string_view line : absl::StrSplit(body, '\n', absl::SkipEmpty())) {
    text += "  " + std::string(line) + "\n";
  }
  return text + "  }\n";
}

std::string Signature(const std::string& name, const std::vector<std::string>& arguments,
                      const std::vector<std::string>& result_types) {
  return "func.func " + name + "(" + absl::StrJoin(arguments, ", ") + ") -> (" +
         absl::StrJoin(result_types, ", ") + ")";
}

}  // namespace

std::string PrintCaseProgram(const spec::SpecRegistry& registry, const spec::OpSpec& spec,
                             const Case& c, ProgramInputs inputs) {
  CaseFunction function = BuildCaseFunction(registry, spec, c, inputs, "main");
  return "module @hlocheck_case {\n" + function.helpers +
         FunctionText(Signature("public @main", function.arguments, function.result_types),
                      function.body) +
         "}\n";
}

std::string PrintBatchProgram(const spec::SpecRegistry& registry,
                              std::span<const BatchedCase> cases, ProgramInputs inputs) {
  std::string functions;
  std::vector<std::string> main_arguments;
  std::vector<std::string> main_results;
  std::vector<std::string> main_result_types;
  std::string main_body;
  for (size_t k = 0; k < cases.size(); ++k) {
    CaseFunction function =
        BuildCaseFunction(registry, *cases[k].op, *cases[k].c, inputs, "case_" + std::to_string(k));
    const std::string callee = "@case_" + std::to_string(k);
    functions += function.helpers;
    functions += FunctionText(
        Signature("private " + callee, function.arguments, function.result_types), function.body);
    // @main's arguments for this case: its own, renamed apart from the
    // other cases' (each argument reads "%name: type").
    std::vector<std::string> call_arguments;
    std::vector<std::string> argument_types;
    for (size_t j = 0; j < function.arguments.size(); ++j) {
      const std::string& argument = function.arguments[j];
      const std::string type = argument.substr(argument.find(": ") + 2);
      call_arguments.push_back("%case" + std::to_string(k) + "_arg" + std::to_string(j));
      argument_types.push_back(type);
      main_arguments.push_back(call_arguments.back() + ": " + type);
    }
    const size_t n = function.result_types.size();
    const std::string value = "%case" + std::to_string(k);
    main_body +=
        "  " + (n == 0 ? std::string() : value + (n == 1 ? "" : ":" + std::to_string(n)) + " = ") +
        "func.call " + callee + "(" + absl::StrJoin(call_arguments, ", ") + ") : (" +
        absl::StrJoin(argument_types, ", ") + ") -> (" +
        absl::StrJoin(function.result_types, ", ") + ")\n";
    for (size_t i = 0; i < n; ++i) {
      main_results.push_back(n == 1 ? value : value + "#" + std::to_string(i));
      main_result_types.push_back(function.result_types[i]);
    }
  }
  main_body += "  func.return " + absl::StrJoin(main_results, ", ") +
               (main_results.empty() ? "" : " : " + absl::StrJoin(main_result_types, ", ")) + "\n";
  return "module @hlocheck_batch {\n" + functions +
         FunctionText(Signature("public @main", main_arguments, main_result_types), main_body) +
         "}\n";
}

}  // namespace hlocheck::mlir
