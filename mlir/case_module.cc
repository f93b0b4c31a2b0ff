// Reading back a case module written by PrintCaseModule: the constants of
// @main are the operands of its one op under test.
#include <algorithm>
#include <map>

#include "mlir/reader.h"
#include "spec/instance.h"

namespace hlocheck::mlir {

absl::StatusOr<Case> ReadCaseModule(std::string_view text, const std::string& file,
                                    const spec::SpecRegistry& registry) {
  auto module = ReadModule(text, file, registry);
  if (!module.ok()) return module.status();
  const Function* main = module->Find("main");
  if (main == nullptr || main->body.blocks.empty()) {
    return absl::InvalidArgumentError(file + ": a case module needs a func.func @main");
  }
  // The op under test is the one whose result the first check reads (the
  // writer puts the inputs first, then the op, then the checks with their
  // expected values); the constants before it are its inputs.
  const auto& operations = main->body.blocks[0].operations;
  const Operation* tested = nullptr;
  ValueId checked = -1;
  for (const Operation& op : operations) {
    if (op.name.rfind("check.", 0) == 0 && !op.operands.empty()) {
      checked = op.operands[0];
      break;
    }
  }
  for (const Operation& op : operations) {
    bool defines = std::find(op.results.begin(), op.results.end(), checked) != op.results.end();
    if (defines || (checked < 0 && op.name.rfind("stablehlo.", 0) == 0)) tested = &op;
    if (defines) break;
  }
  std::map<ValueId, Tensor> constants;
  for (const Operation& op : operations) {
    if (&op == tested) break;
    auto value = op.attributes.find("value");
    if (op.name == "stablehlo.constant" && op.results.size() == 1 && value != op.attributes.end() &&
        std::holds_alternative<Tensor>(value->second)) {
      constants[op.results[0]] = std::get<Tensor>(value->second);
    } else if (op.name.rfind("stablehlo.", 0) == 0) {
      return absl::InvalidArgumentError(file + ": a case module has one op under test; " + op.name +
                                        " comes before " + tested->name);
    }
  }
  if (tested == nullptr) return absl::InvalidArgumentError(file + ": no op under test");
  const spec::OpSpec* spec = registry.Find(tested->name.substr(10));
  if (spec == nullptr) return absl::InvalidArgumentError(tested->name + " is not in the spec");
  Case c;
  c.op = spec->name;
  for (ValueId id : tested->operands) {
    auto it = constants.find(id);
    if (it == constants.end()) {
      return absl::InvalidArgumentError(file + ": an operand of " + tested->name +
                                        " is not a constant");
    }
    c.operands.push_back(it->second);
  }
  for (const ValueType& type : tested->result_types) {
    if (!type.is_tensor()) return absl::InvalidArgumentError("a case has tensor results only");
    c.result_types.push_back(type.tensor());
  }
  auto has_variadic = [](const auto& specs) {
    for (const auto& s : specs) {
      if (s.variadic) return true;
    }
    return false;
  };
  if (has_variadic(spec->operands)) {
    auto sizes = spec::SegmentSizes(spec->operands, c.operands.size());
    if (!sizes.ok()) return sizes.status();
    c.operand_segments = *sizes;
  }
  if (has_variadic(spec->results)) {
    auto sizes = spec::SegmentSizes(spec->results, c.result_types.size());
    if (!sizes.ok()) return sizes.status();
    c.result_segments = *sizes;
  }
  if (has_variadic(spec->regions)) {
    auto sizes = spec::RegionSegmentSizes(spec->regions, tested->regions.size());
    if (!sizes.ok()) return sizes.status();
    c.region_segments = *sizes;
  }
  c.attributes = tested->attributes;
  c.regions = tested->regions;
  return c;
}

}  // namespace hlocheck::mlir
