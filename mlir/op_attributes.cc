#include "mlir/op_attributes.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_join.h"
#include "core/element_value.h"
#include "core/literal.h"

namespace hlocheck::mlir {
namespace {

// How a YAML `mlir: {group: G}` is spelled for an op: the dialect
// attribute's mnemonic (`#stablehlo.<mnemonic><...>`).
std::string GroupMnemonic(const std::string& op, const std::string& group) {
  if (group == "dimension_numbers") {
    return op == "gather" || op == "dynamic_gather" ? "gather" : "conv";
  }
  if (group == "dot_dimension_numbers") return "dot";
  if (group == "scatter_dimension_numbers") return "scatter";
  if (group == "algorithm") return "dot_algorithm";
  return group;  // channel_handle, ...
}

// Members whose MLIR name differs from the spec's.
std::string MemberName(const std::string& group, const std::string& spec_name) {
  if (group == "channel_handle") {
    if (spec_name == "channel_id") return "handle";
    if (spec_name == "channel_type") return "type";
  }
  return spec_name;
}

// channel_handle's `type` is an integer in MLIR, an enum in the spec.
const std::vector<std::string>& ChannelTypes() {
  static const auto* names = new std::vector<std::string>{
      "CHANNEL_TYPE_INVALID", "DEVICE_TO_DEVICE", "DEVICE_TO_HOST", "HOST_TO_DEVICE"};
  return *names;
}

std::string IntList(const std::vector<int64_t>& values) {
  std::vector<std::string> parts;
  for (int64_t v : values) parts.push_back(std::to_string(v));
  return absl::StrJoin(parts, ", ");
}

Tensor ToSi64(const Tensor& integers) {
  Tensor out(integers.shape(), ElementType::kSI64);
  ConvertElements(integers.element_type(), integers.raw(), ElementType::kSI64, out.raw(),
                  integers.num_elements());
  return out;
}

[[noreturn]] void Mismatch(const spec::AttributeSpec& spec, const AttrSyntax& syntax,
                           const Cursor& cursor, const std::string& expected) {
  cursor.FailAt(syntax.location, "attribute '" + spec.name + "' expects " + expected + ", found " +
                                     syntax.KindName() + " '" + syntax.text + "'");
}

std::vector<int64_t> IntsOf(const spec::AttributeSpec& spec, const AttrSyntax& syntax,
                            const Cursor& cursor) {
  std::vector<int64_t> ints;
  if (syntax.kind == AttrSyntax::Kind::kArray || syntax.kind == AttrSyntax::Kind::kList) {
    for (const AttrSyntax& item : syntax.items) {
      if (item.kind != AttrSyntax::Kind::kInteger) Mismatch(spec, item, cursor, "integers");
      ints.push_back(item.integer);
    }
    return ints;
  }
  if (syntax.kind == AttrSyntax::Kind::kDense && syntax.dense.rank() <= 1 &&
      IsInteger(syntax.dense.element_type())) {
    Tensor as_si64 = ToSi64(syntax.dense);
    auto values = as_si64.values<ElementType::kSI64>();
    return {values.begin(), values.end()};
  }
  Mismatch(spec, syntax, cursor, "a list of integers (array<i64: ...>)");
}

std::vector<bool> BoolsOf(const spec::AttributeSpec& spec, const AttrSyntax& syntax,
                          const Cursor& cursor) {
  std::vector<bool> bools;
  if (syntax.kind == AttrSyntax::Kind::kArray || syntax.kind == AttrSyntax::Kind::kList) {
    for (const AttrSyntax& item : syntax.items) {
      if (item.kind == AttrSyntax::Kind::kBool) {
        bools.push_back(item.boolean);
      } else if (item.kind == AttrSyntax::Kind::kInteger &&
                 (item.integer == 0 || item.integer == 1)) {
        bools.push_back(item.integer == 1);
      } else {
        Mismatch(spec, item, cursor, "booleans");
      }
    }
    return bools;
  }
  if (syntax.kind == AttrSyntax::Kind::kDense && syntax.dense.rank() <= 1 &&
      syntax.dense.element_type() == ElementType::kI1) {
    for (uint8_t b : syntax.dense.values<ElementType::kI1>()) bools.push_back(b != 0);
    return bools;
  }
  Mismatch(spec, syntax, cursor, "a list of booleans (array<i1: ...>)");
}

EnumValue EnumOf(const spec::AttributeSpec& spec, const AttrSyntax& syntax, const Cursor& cursor) {
  std::string name;
  if (syntax.kind == AttrSyntax::Kind::kDialect && !syntax.body.empty()) {
    name = syntax.body;
  } else if (syntax.kind == AttrSyntax::Kind::kKeyword ||
             syntax.kind == AttrSyntax::Kind::kString) {
    name = syntax.kind == AttrSyntax::Kind::kString ? syntax.string : syntax.string;
  } else {
    Mismatch(spec, syntax, cursor,
             "an enumerator such as #stablehlo<" +
                 (spec.mlir.enum_attr.empty() ? spec.name : spec.mlir.enum_attr) + " " +
                 (spec.enum_values.empty() ? "X" : spec.enum_values.front()) + ">");
  }
  if (std::find(spec.enum_values.begin(), spec.enum_values.end(), name) == spec.enum_values.end()) {
    cursor.FailAt(syntax.location, "attribute '" + spec.name + "': unknown enumerator '" + name +
                                       "'; expected one of " +
                                       absl::StrJoin(spec.enum_values, ", "));
  }
  return EnumValue{name};
}

// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`: each list names, by position,
// which dimension plays which role.
void DecodeConvolutionDimensions(const std::string& body, const spec::OpSpec& op,
                                 const AttrSyntax& syntax, const Cursor& cursor,
                                 std::map<std::string, Attribute>& values) {
  auto fail = [&](const std::string& what) -> void {
    cursor.FailAt(syntax.location, "convolution dimension numbers '" + body + "': " + what);
  };
  std::vector<std::vector<std::string>> lists;
  size_t i = 0;
  auto skip = [&] {
    while (i < body.size() && body[i] == ' ') ++i;
  };
  for (int part = 0; part < 3; ++part) {
    skip();
    if (part == 1) {
      if (i >= body.size() || body[i] != 'x') fail("expected 'x' between input and kernel");
      ++i;
      skip();
    } else if (part == 2) {
      if (body.compare(i, 2, "->") != 0) fail("expected '->' before the output dimensions");
      i += 2;
      skip();
    }
    if (i >= body.size() || body[i] != '[') fail("expected '['");
    size_t close = body.find(']', i);
    if (close == std::string::npos) fail("expected ']'");
    std::vector<std::string> items;
    std::string item;
    for (size_t k = i + 1; k < close; ++k) {
      if (body[k] == ',') {
        items.push_back(item);
        item.clear();
      } else if (body[k] != ' ') {
        item += body[k];
      }
    }
    if (!item.empty()) items.push_back(item);
    lists.push_back(items);
    i = close + 1;
  }
  skip();
  if (i != body.size()) fail("unexpected text after the output dimensions");
  const char* prefixes[3] = {"input", "kernel", "output"};
  const char* batch_roles[3] = {"b", "i", "b"};
  const char* feature_roles[3] = {"f", "o", "f"};
  const char* batch_names[3] = {"batch_dimension", "input_feature_dimension", "batch_dimension"};
  const char* feature_names[3] = {"feature_dimension", "output_feature_dimension",
                                  "feature_dimension"};
  for (int part = 0; part < 3; ++part) {
    std::string prefix = prefixes[part];
    int64_t batch = -1, feature = -1;
    std::vector<int64_t> spatial(lists[part].size() >= 2 ? lists[part].size() - 2 : 0, -1);
    for (size_t position = 0; position < lists[part].size(); ++position) {
      const std::string& role = lists[part][position];
      if (role == batch_roles[part]) {
        batch = static_cast<int64_t>(position);
      } else if (role == feature_roles[part]) {
        feature = static_cast<int64_t>(position);
      } else if (!role.empty() && role.size() <= 9 &&
                 std::all_of(role.begin(), role.end(), ::isdigit) &&
                 std::stoul(role) < spatial.size()) {
        // At most 9 digits: a longer number is no spatial dimension, and
        // stoul would throw on one beyond unsigned long.
        spatial[std::stoul(role)] = static_cast<int64_t>(position);
      } else {
        fail("unexpected dimension '" + role + "' in the " + prefix + " dimensions");
      }
    }
    if (batch < 0 || feature < 0 || std::count(spatial.begin(), spatial.end(), -1) > 0) {
      fail("the " + prefix + " dimensions do not name every role exactly once");
    }
    auto set = [&](const std::string& name, Attribute value) {
      if (op.FindAttribute(name) == nullptr) fail("the spec has no attribute '" + name + "'");
      values[name] = std::move(value);
    };
    set(prefix + "_" + batch_names[part], batch);
    set(prefix + "_" + feature_names[part], feature);
    set(prefix + "_spatial_dimensions", spatial);
  }
}

std::string EncodeConvolutionDimensions(const std::map<std::string, Attribute>& attributes) {
  std::string text;
  const char* prefixes[3] = {"input", "kernel", "output"};
  const char* roles[3][2] = {{"b", "f"}, {"i", "o"}, {"b", "f"}};
  const char* names[3][2] = {{"batch_dimension", "feature_dimension"},
                             {"input_feature_dimension", "output_feature_dimension"},
                             {"batch_dimension", "feature_dimension"}};
  for (int part = 0; part < 3; ++part) {
    std::string prefix = prefixes[part];
    auto get_int = [&](const std::string& name) {
      auto it = attributes.find(prefix + "_" + name);
      return it == attributes.end() ? int64_t{0} : std::get<int64_t>(it->second);
    };
    auto it = attributes.find(prefix + "_spatial_dimensions");
    std::vector<int64_t> spatial = it == attributes.end()
                                       ? std::vector<int64_t>{}
                                       : std::get<std::vector<int64_t>>(it->second);
    std::vector<std::string> slots(spatial.size() + 2, "?");
    auto place = [&](int64_t position, const std::string& role) {
      if (position >= 0 && position < static_cast<int64_t>(slots.size())) slots[position] = role;
    };
    place(get_int(names[part][0]), roles[part][0]);
    place(get_int(names[part][1]), roles[part][1]);
    for (size_t k = 0; k < spatial.size(); ++k) place(spatial[k], std::to_string(k));
    text += (part == 1 ? "x[" : part == 2 ? "->[" : "[") + absl::StrJoin(slots, ", ") + "]";
  }
  return text;
}

}  // namespace

Attribute DecodeAttribute(const spec::AttributeSpec& spec, const AttrSyntax& syntax,
                          const Cursor& cursor) {
  using Kind = AttrSyntax::Kind;
  switch (spec.type) {
    case spec::AttributeType::kBool:
      if (syntax.kind == Kind::kBool) return syntax.boolean;
      if (syntax.kind == Kind::kUnit) return true;
      Mismatch(spec, syntax, cursor, "true or false");
    case spec::AttributeType::kInt:
      if (syntax.kind == Kind::kInteger) return syntax.integer;
      if (syntax.kind == Kind::kDense && syntax.dense.num_elements() == 1 &&
          IsInteger(syntax.dense.element_type())) {
        return ToSi64(syntax.dense).values<ElementType::kSI64>()[0];
      }
      Mismatch(spec, syntax, cursor, "an integer");
    case spec::AttributeType::kFloat:
      if (syntax.kind == Kind::kFloat || syntax.kind == Kind::kInteger) return syntax.number;
      Mismatch(spec, syntax, cursor, "a number");
    case spec::AttributeType::kString:
      if (syntax.kind == Kind::kDict) {
        // A dictionary held as text (composite_attributes): one spelling.
        std::vector<std::string> entries;
        for (const auto& [key, value] : syntax.entries) entries.push_back(key + " = " + value.text);
        return "{" + absl::StrJoin(entries, ", ") + "}";
      }
      if (syntax.kind == Kind::kString || syntax.kind == Kind::kSymbol ||
          syntax.kind == Kind::kType || syntax.kind == Kind::kKeyword) {
        return syntax.string;
      }
      Mismatch(spec, syntax, cursor, "a string");
    case spec::AttributeType::kEnum:
      return EnumOf(spec, syntax, cursor);
    case spec::AttributeType::kIntArray:
      return IntsOf(spec, syntax, cursor);
    case spec::AttributeType::kBoolArray:
      return BoolsOf(spec, syntax, cursor);
    case spec::AttributeType::kEnumArray: {
      if (syntax.kind != Kind::kList) Mismatch(spec, syntax, cursor, "a list of enumerators");
      std::vector<EnumValue> enums;
      for (const AttrSyntax& item : syntax.items) enums.push_back(EnumOf(spec, item, cursor));
      return enums;
    }
    case spec::AttributeType::kIntMatrix: {
      if (syntax.kind == Kind::kDense && syntax.dense.rank() == 2 &&
          IsInteger(syntax.dense.element_type())) {
        return ToSi64(syntax.dense);
      }
      if (syntax.kind == Kind::kList) {
        std::vector<std::vector<int64_t>> rows;
        for (const AttrSyntax& row : syntax.items) rows.push_back(IntsOf(spec, row, cursor));
        int64_t columns = rows.empty() ? 0 : static_cast<int64_t>(rows[0].size());
        Tensor matrix(Shape{static_cast<int64_t>(rows.size()), columns}, ElementType::kSI64);
        auto out = matrix.values<ElementType::kSI64>();
        for (size_t r = 0; r < rows.size(); ++r) {
          if (static_cast<int64_t>(rows[r].size()) != columns) {
            cursor.FailAt(syntax.location,
                          "attribute '" + spec.name + "': rows of different lengths");
          }
          std::copy(rows[r].begin(), rows[r].end(), out.begin() + r * columns);
        }
        return matrix;
      }
      Mismatch(spec, syntax, cursor, "a 2-D integer constant (dense<...> : tensor<NxMxi64>)");
    }
    case spec::AttributeType::kTensor:
      if (syntax.kind == Kind::kDense) return syntax.dense;
      Mismatch(spec, syntax, cursor, "a dense literal");
    case spec::AttributeType::kStringArray: {
      if (syntax.kind != Kind::kList) Mismatch(spec, syntax, cursor, "a list of symbols");
      std::vector<std::string> names;
      for (const AttrSyntax& item : syntax.items) {
        if (item.kind != Kind::kSymbol && item.kind != Kind::kString) {
          Mismatch(spec, item, cursor, "a symbol");
        }
        names.push_back(item.string);
      }
      return names;
    }
  }
  Mismatch(spec, syntax, cursor, "a value");
}

DecodedAttributes DecodeAttributes(const spec::OpSpec& op, const AttrDict& dict,
                                   const Cursor& cursor) {
  DecodedAttributes decoded;
  std::set<std::string> groups;
  for (const spec::AttributeSpec& a : op.attributes) {
    if (!a.mlir.group.empty()) groups.insert(a.mlir.group);
  }
  for (const auto& [name, syntax] : dict) {
    if (groups.count(name)) {
      if (syntax.kind != AttrSyntax::Kind::kDialect) {
        cursor.FailAt(syntax.location, "attribute '" + name + "' expects #stablehlo." +
                                           GroupMnemonic(op.name, name) + "<...>, found " +
                                           syntax.KindName());
      }
      std::string mnemonic = GroupMnemonic(op.name, name);
      if (syntax.mnemonic != mnemonic) {
        cursor.FailAt(syntax.location, "attribute '" + name + "' expects #stablehlo." + mnemonic +
                                           "<...>, found #" + syntax.dialect + "." +
                                           syntax.mnemonic);
      }
      if (mnemonic == "conv") {
        std::string body = syntax.body;
        if (body.rfind("raw", 0) == 0) {
          // `raw input_batch_dimension = 0, ...`: the members by their spec names.
          const std::string raw = body.substr(3);  // the cursor views it: keep it alive
          Cursor members(raw, cursor.file(), syntax.location.line);
          do {
            auto member = members.BareIdentifier();
            if (!member) members.Expected("a convolution dimension name");
            members.Expect("=");
            const spec::AttributeSpec* target = op.FindAttribute(*member);
            if (target == nullptr || target->mlir.group != name) {
              cursor.FailAt(syntax.location, "#stablehlo.conv has no member '" + *member + "'");
            }
            decoded.values[*member] = DecodeAttribute(*target, ParseAttribute(members), members);
          } while (members.TryConsume(","));
          if (!members.AtEnd()) members.Expected("',' or the end of the dimension numbers");
          continue;
        }
        DecodeConvolutionDimensions(body, op, syntax, cursor, decoded.values);
        continue;
      }
      for (const auto& [member, value] : syntax.entries) {
        const spec::AttributeSpec* target = nullptr;
        for (const spec::AttributeSpec& a : op.attributes) {
          if (a.mlir.group == name && MemberName(name, a.name) == member) target = &a;
        }
        if (target == nullptr) {
          if (name == "channel_handle" && member == "type") continue;  // ops without channel_type
          cursor.FailAt(value.location, "#stablehlo." + mnemonic + " has no member '" + member +
                                            "' that the spec of " + op.name + " knows");
        }
        if (name == "channel_handle" && member == "type") {
          if (value.kind != AttrSyntax::Kind::kInteger || value.integer < 0 ||
              value.integer >= static_cast<int64_t>(ChannelTypes().size())) {
            cursor.FailAt(value.location, "channel_handle type must be 0..3");
          }
          decoded.values[target->name] = EnumValue{ChannelTypes()[value.integer]};
          continue;
        }
        decoded.values[target->name] = DecodeAttribute(*target, value, cursor);
      }
      continue;
    }
    const spec::AttributeSpec* spec = op.FindAttribute(name);
    if (spec != nullptr && spec->mlir.group.empty()) {
      decoded.values[name] = DecodeAttribute(*spec, syntax, cursor);
      continue;
    }
    bool unmodelled = std::find(op.unmodelled_attributes.begin(), op.unmodelled_attributes.end(),
                                name) != op.unmodelled_attributes.end();
    if (name.find('.') != std::string::npos || unmodelled) {
      // Another dialect's discardable attribute, or one of the public spec's
      // that the op's file does not model: kept verbatim.
      decoded.foreign[name] = syntax.text;
      continue;
    }
    bool region_symbol = false;
    for (const spec::RegionSpec& region : op.regions) {
      region_symbol =
          region_symbol || (region.name == name && syntax.kind == AttrSyntax::Kind::kSymbol);
    }
    if (region_symbol) {
      // A function input given as a symbol (composite's decomposition = @f).
      decoded.values[name] = syntax.string;
      continue;
    }
    std::vector<std::string> known;
    for (const spec::AttributeSpec& a : op.attributes) {
      if (a.mlir.group.empty()) known.push_back(a.name);
    }
    known.insert(known.end(), groups.begin(), groups.end());
    cursor.FailAt(syntax.location,
                  "stablehlo." + op.name + " has no attribute '" + name + "'" +
                      (known.empty() ? " (it takes none)"
                                     : "; expected one of " + absl::StrJoin(known, ", ")));
  }
  FillGroupDefaults(op, decoded.values);
  return decoded;
}

void FillGroupDefaults(const spec::OpSpec& op, std::map<std::string, Attribute>& values) {
  // Printers omit the members of a struct attribute that are zero or empty.
  std::set<std::string> present;
  for (const spec::AttributeSpec& a : op.attributes) {
    if (!a.mlir.group.empty() && values.count(a.name)) present.insert(a.mlir.group);
  }
  for (const spec::AttributeSpec& a : op.attributes) {
    if (!present.count(a.mlir.group) || values.count(a.name) || a.mlir.group == "algorithm")
      continue;
    if (a.type == spec::AttributeType::kIntArray) values[a.name] = std::vector<int64_t>{};
    if (a.type == spec::AttributeType::kInt && a.mlir.group != "channel_handle") {
      values[a.name] = int64_t{0};
    }
  }
}

void FillWindowDefaults(const spec::OpSpec& op, const std::vector<ValueType>& operand_types,
                        std::map<std::string, Attribute>& values) {
  // Window attributes MLIR leaves out mean "no striding, padding, dilation or
  // reversal", one entry per window dimension.
  std::vector<std::string> ones, zeros_2d, falses;
  int64_t rank = operand_types.empty() ? 0 : static_cast<int64_t>(operand_types[0].shape.size());
  if (op.name == "convolution") {
    rank -= 2;
    ones = {"window_strides", "lhs_dilation", "rhs_dilation"};
    zeros_2d = {"padding"};
    falses = {"window_reversal"};
  } else if (op.name == "reduce_window") {
    ones = {"window_strides", "base_dilations", "window_dilations"};
    zeros_2d = {"padding"};
  } else if (op.name == "select_and_scatter") {
    ones = {"window_strides"};
    zeros_2d = {"padding"};
  } else {
    return;
  }
  if (rank < 0) return;
  for (const std::string& name : ones) {
    if (!values.count(name)) values[name] = std::vector<int64_t>(rank, 1);
  }
  for (const std::string& name : zeros_2d) {
    if (!values.count(name)) values[name] = Tensor(Shape{rank, 2}, ElementType::kSI64);
  }
  for (const std::string& name : falses) {
    if (!values.count(name)) values[name] = std::vector<bool>(rank, false);
  }
}

std::string EncodeAttributeValue(const spec::AttributeSpec& spec, const Attribute& attribute) {
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return std::to_string(v) + " : " + std::string(MlirName(spec.integer_type));
        } else if constexpr (std::is_same_v<T, double>) {
          return PrintElementLiteral(ElementType::kF64, &v) + " : f32";
        } else if constexpr (std::is_same_v<T, std::string>) {
          // composite_attributes is a dictionary, held as its MLIR text.
          if (spec.name == "composite_attributes") return v;
          return QuoteString(v);
        } else if constexpr (std::is_same_v<T, EnumValue>) {
          return "#stablehlo<" + spec.mlir.enum_attr + " " + v.name + ">";
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          return v.empty() ? "array<i64>" : "array<i64: " + IntList(v) + ">";
        } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
          std::vector<std::string> parts;
          for (bool b : v) parts.push_back(b ? "true" : "false");
          return v.empty() ? "array<i1>" : "array<i1: " + absl::StrJoin(parts, ", ") + ">";
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          std::vector<std::string> parts;
          for (const std::string& name : v) parts.push_back(SymbolText(name));
          return "[" + absl::StrJoin(parts, ", ") + "]";
        } else if constexpr (std::is_same_v<T, std::vector<EnumValue>>) {
          std::vector<std::string> parts;
          for (const EnumValue& e : v) {
            parts.push_back("#stablehlo<" + spec.mlir.enum_attr + " " + e.name + ">");
          }
          return "[" + absl::StrJoin(parts, ", ") + "]";
        } else {
          return PrintDenseAttribute(v);
        }
      },
      attribute);
}

std::vector<std::string> EncodeAttributes(const spec::OpSpec& op,
                                          const std::map<std::string, Attribute>& attributes) {
  std::vector<std::string> entries;
  std::map<std::string, std::vector<std::string>> groups;
  std::vector<std::string> group_order;
  for (const spec::AttributeSpec& spec : op.attributes) {
    auto it = attributes.find(spec.name);
    if (it == attributes.end()) continue;
    const Attribute& value = it->second;
    const std::string& group = spec.mlir.group;
    if (spec.mlir.operand) continue;  // an operand in MLIR (OperandAttributeConstants)
    if (spec.mlir.unit && std::holds_alternative<bool>(value)) {
      // StableHLO's unit attributes (use_global_device_ids): present or not.
      if (std::get<bool>(value)) entries.push_back(spec.name);
      continue;
    }
    if (group.empty()) {
      entries.push_back(spec.name + " = " + EncodeAttributeValue(spec, value));
      continue;
    }
    if (!groups.count(group)) group_order.push_back(group);
    std::string member = MemberName(group, spec.name);
    std::string text;
    if (const auto* ints = std::get_if<std::vector<int64_t>>(&value)) {
      text = "[" + IntList(*ints) + "]";
    } else if (const auto* integer = std::get_if<int64_t>(&value)) {
      text = std::to_string(*integer);
    } else if (const auto* e = std::get_if<EnumValue>(&value); e && group == "channel_handle") {
      auto found = std::find(ChannelTypes().begin(), ChannelTypes().end(), e->name);
      text = std::to_string(found - ChannelTypes().begin());
    } else if (const auto* s = std::get_if<std::string>(&value); s && group == "algorithm") {
      text = *s;  // a type
    } else {
      text = EncodeAttributeValue(spec, value);
    }
    groups[group].push_back(member + " = " + text);
  }
  for (const spec::RegionSpec& region : op.regions) {
    // A function input given by name (composite's decomposition).
    auto it = attributes.find(region.name);
    if (it != attributes.end() && std::holds_alternative<std::string>(it->second)) {
      entries.push_back(region.name + " = " + SymbolText(std::get<std::string>(it->second)));
    }
  }
  for (const std::string& group : group_order) {
    std::string mnemonic = GroupMnemonic(op.name, group);
    if (mnemonic == "conv") {
      entries.push_back(group + " = #stablehlo.conv<" + EncodeConvolutionDimensions(attributes) +
                        ">");
      continue;
    }
    std::vector<std::string>& members = groups[group];
    if (group == "channel_handle" &&
        std::none_of(members.begin(), members.end(),
                     [](const std::string& m) { return m.starts_with("type = "); })) {
      // StableHLO's parser requires both members; the collectives' spec has
      // no channel_type, and its examples give 0 (found by XLA:GPU's parser:
      // "expected ','").
      members.push_back("type = 0");
    }
    entries.push_back(group + " = #stablehlo." + mnemonic + "<" + absl::StrJoin(members, ", ") +
                      ">");
  }
  return entries;
}

}  // namespace hlocheck::mlir
