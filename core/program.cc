#include "core/program.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace hlocheck {

FunctionType Region::type() const {
  FunctionType type;
  if (blocks.empty()) return type;
  type.inputs = blocks.front().argument_types;
  if (!blocks.front().operations.empty())
    type.outputs = blocks.front().operations.back().operand_types;
  return type;
}

void ShiftValueIds(Region& region, ValueId offset) {
  for (Block& block : region.blocks) {
    for (ValueId& v : block.arguments) v += offset;
    for (Operation& op : block.operations) {
      for (ValueId& v : op.operands) v += offset;
      for (ValueId& v : op.results) v += offset;
      for (Region& inner : op.regions) ShiftValueIds(inner, offset);
    }
  }
}

ValueId MaxValueId(const Region& region) {
  ValueId largest = -1;
  for (const Block& block : region.blocks) {
    for (ValueId v : block.arguments) largest = std::max(largest, v);
    for (const Operation& op : block.operations) {
      for (ValueId v : op.operands) largest = std::max(largest, v);
      for (ValueId v : op.results) largest = std::max(largest, v);
      for (const Region& inner : op.regions) largest = std::max(largest, MaxValueId(inner));
    }
  }
  return largest;
}

namespace {

void NumberDefinitions(const Region& region, std::map<ValueId, ValueId>& numbers) {
  for (const Block& block : region.blocks) {
    for (ValueId v : block.arguments) numbers.emplace(v, static_cast<ValueId>(numbers.size()));
    for (const Operation& op : block.operations) {
      for (const Region& inner : op.regions) NumberDefinitions(inner, numbers);
      for (ValueId v : op.results) numbers.emplace(v, static_cast<ValueId>(numbers.size()));
    }
  }
}

void Renumber(Region& region, const std::map<ValueId, ValueId>& numbers) {
  auto renumber = [&](ValueId& v) {
    if (auto it = numbers.find(v); it != numbers.end()) v = it->second;
  };
  for (Block& block : region.blocks) {
    for (ValueId& v : block.arguments) renumber(v);
    for (Operation& op : block.operations) {
      for (ValueId& v : op.operands) renumber(v);
      for (ValueId& v : op.results) renumber(v);
      for (Region& inner : op.regions) Renumber(inner, numbers);
    }
  }
}

}  // namespace

void RenumberValues(Function& function) {
  std::map<ValueId, ValueId> numbers;
  NumberDefinitions(function.body, numbers);
  Renumber(function.body, numbers);
}

const std::string* CalledFunction(const Operation& op) {
  const char* key = op.name == "func.call"             ? "callee"
                    : op.name == "stablehlo.composite" ? "decomposition"
                                                       : nullptr;
  if (key == nullptr) return nullptr;
  auto it = op.attributes.find(key);
  if (it == op.attributes.end()) return nullptr;
  return std::get_if<std::string>(&it->second);
}

const Function* Module::Find(const std::string& function) const {
  for (const Function& f : functions) {
    if (f.name == function) return &f;
  }
  return nullptr;
}

namespace {

bool SameAttributes(const std::map<std::string, Attribute>& a,
                    const std::map<std::string, Attribute>& b) {
  if (a.size() != b.size()) return false;
  for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
    if (ia->first != ib->first || ia->second.index() != ib->second.index()) return false;
    if (const auto* ta = std::get_if<Tensor>(&ia->second)) {
      if (!ta->BitwiseEquals(std::get<Tensor>(ib->second))) return false;
    } else if (const auto* da = std::get_if<double>(&ia->second)) {
      // Bit for bit, so that NaN equals itself and -0 differs from +0.
      double db = std::get<double>(ib->second);
      if (std::memcmp(da, &db, sizeof db) != 0) return false;
    } else if (!(ia->second == ib->second)) {
      return false;
    }
  }
  return true;
}

bool Differ(std::string* difference, const std::string& what) {
  if (difference != nullptr) *difference = what;
  return false;
}

bool SameOperation(const Operation& a, const Operation& b, std::string* difference) {
  std::string where = a.name + " (line " + std::to_string(a.location.line) + ")";
  if (a.name != b.name) return Differ(difference, "op " + a.name + " vs " + b.name);
  if (a.operands != b.operands) return Differ(difference, where + ": operands differ");
  if (a.results != b.results) return Differ(difference, where + ": results differ");
  if (a.operand_types != b.operand_types)
    return Differ(difference, where + ": operand types differ");
  if (a.result_types != b.result_types) return Differ(difference, where + ": result types differ");
  if (!SameAttributes(a.attributes, b.attributes)) {
    return Differ(difference, where + ": attributes differ");
  }
  if (a.regions.size() != b.regions.size()) return Differ(difference, where + ": regions differ");
  for (size_t i = 0; i < a.regions.size(); ++i) {
    if (!SameRegion(a.regions[i], b.regions[i], difference)) return false;
  }
  return true;
}

}  // namespace

bool SameRegion(const Region& a, const Region& b, std::string* difference) {
  if (a.blocks.size() != b.blocks.size()) return Differ(difference, "block counts differ");
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    const Block& x = a.blocks[i];
    const Block& y = b.blocks[i];
    if (x.arguments != y.arguments || x.argument_types != y.argument_types) {
      return Differ(difference, "block arguments differ");
    }
    if (x.operations.size() != y.operations.size()) {
      return Differ(difference, "op counts differ (" + std::to_string(x.operations.size()) +
                                    " vs " + std::to_string(y.operations.size()) + ")");
    }
    for (size_t k = 0; k < x.operations.size(); ++k) {
      if (!SameOperation(x.operations[k], y.operations[k], difference)) return false;
    }
  }
  return true;
}

bool SameModule(const Module& a, const Module& b, std::string* difference) {
  if (a.name != b.name) return Differ(difference, "module names differ");
  if (a.functions.size() != b.functions.size()) return Differ(difference, "function counts differ");
  for (size_t i = 0; i < a.functions.size(); ++i) {
    const Function& f = a.functions[i];
    const Function& g = b.functions[i];
    if (f.name != g.name || f.is_public != g.is_public || !(f.type == g.type)) {
      return Differ(difference, "function @" + f.name + ": signature differs");
    }
    if (!SameRegion(f.body, g.body, difference)) {
      if (difference != nullptr) *difference = "@" + f.name + ": " + *difference;
      return false;
    }
  }
  return true;
}

}  // namespace hlocheck
