// Instantiating an op's indexing-map templates for one op instance.
#include <algorithm>
#include <limits>

#include "absl/status/status.h"
#include "core/element_type.h"
#include "core/status_macros.h"
#include "spec/formula/evaluator.h"
#include "spec/indexing_map_template.h"
#include "spec/instance.h"
#include "spec/verifier.h"

namespace hlocheck::spec {

namespace {

using Piece = AffineTemplate::Piece;

absl::Status At(const SourceLocation& location, const std::string& message) {
  return absl::InvalidArgumentError(location.ToString() + ": " + message);
}

class Instantiator {
 public:
  Instantiator(const OpSpec& op, const OpInstance& instance) : op_(op), instance_(instance) {}

  absl::StatusOr<OpIndexingMaps> Run() {
    const IndexingMapsSpec& spec = *op_.indexing_maps;
    if (auto s = BindInstance(op_, instance_, &evaluator_); !s.ok()) return s;
    for (const auto& [name, formula] : spec.definitions) {
      evaluator_.AddDefinition(name, formula.expr, formula.text);
    }
    if (op_.results.empty() || instance_.results.empty() || instance_.results[0].size() != 1 ||
        !instance_.results[0][0].is_tensor()) {
      return absl::InvalidArgumentError(op_.name + ": indexing maps need one tensor result");
    }
    output_shape_ = instance_.results[0][0].shape;
    OpIndexingMaps result;
    result.uncovered = spec.uncovered;
    for (const MapTemplate& map : spec.maps) {
      auto group = OperandGroup(map.input);
      HLOCHECK_RETURN_IF_ERROR(group.status());
      bool variadic = op_.operands[*group].variadic;
      const std::vector<ValueType>& values = instance_.operands[*group];
      for (size_t e = 0; e < values.size(); ++e) {
        evaluator_.SetMember("i", Value(static_cast<int64_t>(e)));
        auto instantiated = Instantiate(map, values[e]);
        HLOCHECK_RETURN_IF_ERROR(instantiated.status());
        InputIndexingMap input;
        input.input = map.input;
        input.element = variadic ? static_cast<int64_t>(e) : -1;
        input.operand_index = FlatIndex(*group, e);
        input.role = map.role;
        input.map = *std::move(instantiated);
        result.maps.push_back(std::move(input));
      }
    }
    if (spec.value_of_index) {
      AffineMap value;
      value.num_dims = Rank();
      auto expr = Expression(*spec.value_of_index, value.num_dims, 0);
      HLOCHECK_RETURN_IF_ERROR(expr.status());
      value.results.push_back(*expr);
      result.value_of_index = std::move(value);
    }
    return result;
  }

 private:
  int64_t Rank() const { return static_cast<int64_t>(output_shape_.size()); }

  absl::StatusOr<size_t> OperandGroup(const std::string& name) const {
    for (size_t g = 0; g < op_.operands.size(); ++g) {
      if (op_.operands[g].name == name) {
        if (g >= instance_.operands.size()) break;
        return g;
      }
    }
    return absl::InvalidArgumentError(op_.name + ": the instance has no operand " + name);
  }

  int64_t FlatIndex(size_t group, size_t element) const {
    int64_t index = 0;
    for (size_t g = 0; g < group; ++g) index += static_cast<int64_t>(instance_.operands[g].size());
    return index + static_cast<int64_t>(element);
  }

  absl::StatusOr<Value> Evaluate(const Formula& formula) {
    EvalError error;
    auto value = evaluator_.Evaluate(*formula.expr, formula.text, nullptr, &error);
    if (!value.ok()) {
      SourceLocation at = formula.location;
      at.column += error.offset;
      return At(at, "'" + formula.text + "': " + std::string(value.status().message()));
    }
    return value;
  }

  absl::StatusOr<int64_t> Integer(const Formula& formula) {
    auto value = Evaluate(formula);
    HLOCHECK_RETURN_IF_ERROR(value.status());
    if (!value->is_int()) {
      return At(formula.location,
                "'" + formula.text + "' gave " + value->ToString() + "; expected an integer");
    }
    return value->as_int();
  }

  absl::StatusOr<bool> Holds(const std::optional<Formula>& when) {
    if (!when) return true;
    auto value = Evaluate(*when);
    HLOCHECK_RETURN_IF_ERROR(value.status());
    if (!value->is_bool()) {
      return At(when->location,
                "'" + when->text + "' gave " + value->ToString() + "; expected true or false");
    }
    return value->as_bool();
  }

  absl::StatusOr<Interval> IntervalOf(const Formula& formula) {
    auto value = Evaluate(formula);
    HLOCHECK_RETURN_IF_ERROR(value.status());
    if (!value->is_list() || value->items().size() != 2 || !value->items()[0].is_int() ||
        !value->items()[1].is_int()) {
      return At(formula.location,
                "'" + formula.text + "' gave " + value->ToString() + "; expected [lower, upper]");
    }
    return Interval{value->items()[0].as_int(), value->items()[1].as_int()};
  }

  absl::Status Expand(const std::vector<Piece>& pieces, std::string& out) {
    for (const Piece& piece : pieces) {
      switch (piece.kind) {
        case Piece::Kind::kText:
          out += piece.text;
          break;
        case Piece::Kind::kHole: {
          auto value = Integer(piece.formula);
          HLOCHECK_RETURN_IF_ERROR(value.status());
          out += *value < 0 ? "(" + std::to_string(*value) + ")" : std::to_string(*value);
          break;
        }
        case Piece::Kind::kSum: {
          auto list = Evaluate(piece.formula);
          HLOCHECK_RETURN_IF_ERROR(list.status());
          if (!list->is_list()) {
            return At(piece.formula.location, "'" + piece.formula.text + "' gave " +
                                                  list->ToString() + "; expected a list");
          }
          if (list->items().empty()) {
            out += "0";
            break;
          }
          out += "(";
          for (size_t i = 0; i < list->items().size(); ++i) {
            if (i > 0) out += " + ";
            evaluator_.SetMember(piece.variable, list->items()[i]);
            if (auto s = Expand(piece.body, out); !s.ok()) return s;
          }
          out += ")";
          break;
        }
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<AffineExpr> Expression(const AffineTemplate& t, int64_t dims, int64_t symbols) {
    std::string text;
    if (auto s = Expand(t.pieces, text); !s.ok()) return s;
    AffineParseError error;
    auto expr = ParseAffineExpr(text, dims, symbols, &error);
    if (!expr.ok()) {
      return At(t.location, "template '" + t.text + "' gave '" + text + "': at offset " +
                                std::to_string(error.offset) + ": " + error.message);
    }
    return expr;
  }

  // The first case that applies, for the current bindings.
  absl::StatusOr<AffineExpr> FirstCase(const std::vector<TemplateCase>& cases, int64_t dims,
                                       int64_t symbols) {
    for (const TemplateCase& c : cases) {
      auto holds = Holds(c.when);
      HLOCHECK_RETURN_IF_ERROR(holds.status());
      if (*holds) return Expression(c.expr, dims, symbols);
    }
    return absl::InternalError("no case applies");  // the loader requires a default
  }

  absl::StatusOr<std::vector<AffineExpr>> PerDimension(const std::vector<TemplateCase>& cases,
                                                       int64_t rank, int64_t dims, int64_t symbols,
                                                       const std::string& what,
                                                       const SourceLocation& location) {
    std::vector<AffineExpr> exprs;
    if (rank > 0 && cases.empty()) {
      return At(location, what + " is missing for an input of rank " + std::to_string(rank));
    }
    for (int64_t k = 0; k < rank; ++k) {
      evaluator_.SetMember("k", Value(k));
      auto expr = FirstCase(cases, dims, symbols);
      HLOCHECK_RETURN_IF_ERROR(expr.status());
      exprs.push_back(*expr);
    }
    return exprs;
  }

  absl::Status Symbols(const MapTemplate& t, IndexingMap& map) {
    for (const SymbolGroupTemplate& group : t.symbols) {
      auto count = Integer(group.count);
      HLOCHECK_RETURN_IF_ERROR(count.status());
      for (int64_t p = 0; p < *count; ++p) {
        evaluator_.SetMember("p", Value(p));
        auto range = IntervalOf(group.range);
        HLOCHECK_RETURN_IF_ERROR(range.status());
        if (group.runtime.empty()) {
          map.range_vars.push_back(*range);
          continue;
        }
        RuntimeVar rt;
        rt.feasible = *range;
        rt.operand = group.runtime;
        auto source_group = OperandGroup(group.runtime);
        HLOCHECK_RETURN_IF_ERROR(source_group.status());
        const std::vector<ValueType>& values = instance_.operands[*source_group];
        int64_t element = 0;
        if (group.element) {
          auto e = Integer(*group.element);
          HLOCHECK_RETURN_IF_ERROR(e.status());
          element = rt.element = *e;
        }
        if (element < 0 || element >= static_cast<int64_t>(values.size())) {
          return At(group.location, group.runtime + " has no element " + std::to_string(element));
        }
        rt.operand_index = FlatIndex(*source_group, element);
        rt.access.num_dims = Rank();
        auto access = PerDimension(group.access, static_cast<int64_t>(values[element].shape.size()),
                                   Rank(), 0, "access", group.location);
        HLOCHECK_RETURN_IF_ERROR(access.status());
        rt.access.results = *std::move(access);
        map.rt_vars.push_back(std::move(rt));
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<IndexingMap> Instantiate(const MapTemplate& t, const ValueType& input) {
    IndexingMap map;
    map.map.num_dims = Rank();
    for (int64_t k = 0; k < Rank(); ++k) {
      evaluator_.SetMember("k", Value(k));
      Interval bounds{0, output_shape_[k] - 1};
      for (const BoundsCase& c : t.dims) {
        auto holds = Holds(c.when);
        HLOCHECK_RETURN_IF_ERROR(holds.status());
        if (!*holds) continue;
        auto range = IntervalOf(c.range);
        HLOCHECK_RETURN_IF_ERROR(range.status());
        bounds = *range;
        break;
      }
      map.dim_vars.push_back(bounds);
    }
    if (auto s = Symbols(t, map); !s.ok()) return s;
    map.map.num_symbols = static_cast<int64_t>(map.range_vars.size() + map.rt_vars.size());
    const int64_t input_rank = static_cast<int64_t>(input.shape.size());
    auto results =
        PerDimension(t.results, input_rank, Rank(), map.map.num_symbols, "results", t.location);
    HLOCHECK_RETURN_IF_ERROR(results.status());
    std::vector<Interval> symbols = map.SymbolBounds();
    for (AffineExpr& e : *results) e = SimplifyAffineExpr(e, map.dim_vars, symbols);
    map.map.results = *std::move(results);
    for (int64_t k = 0; k < input_rank; ++k) {
      evaluator_.SetMember("k", Value(k));
      for (const ConstraintTemplate& c : t.constraints) {
        auto holds = Holds(c.when);
        HLOCHECK_RETURN_IF_ERROR(holds.status());
        if (!*holds) continue;
        auto expr = Expression(c.expr, Rank(), map.map.num_symbols);
        HLOCHECK_RETURN_IF_ERROR(expr.status());
        auto range = IntervalOf(c.range);
        HLOCHECK_RETURN_IF_ERROR(range.status());
        AddConstraint(map, *expr, *range);
      }
      if (t.within_input) AddConstraint(map, map.map.results[k], {0, input.shape[k] - 1});
    }
    return map;
  }

  // Simplified; dropped where every point of the box meets it (as XLA
  // does); merged into the bounds of a dim or range variable it names alone.
  static void AddConstraint(IndexingMap& map, const AffineExpr& expr, Interval range) {
    std::vector<Interval> symbols = map.SymbolBounds();
    AffineExpr simplified = SimplifyAffineExpr(expr, map.dim_vars, symbols);
    Interval values = ExprRange(simplified, map.dim_vars, symbols);
    if (!values.empty() && range.lower <= values.lower && values.upper <= range.upper) return;
    Interval* bounds = nullptr;
    if (simplified->kind == AffineKind::kDim) {
      bounds = &map.dim_vars[simplified->value];
    } else if (simplified->kind == AffineKind::kSymbol &&
               simplified->value < static_cast<int64_t>(map.range_vars.size())) {
      bounds = &map.range_vars[simplified->value];
    }
    if (bounds != nullptr) {
      *bounds = {std::max(bounds->lower, range.lower), std::min(bounds->upper, range.upper)};
    } else {
      map.constraints.push_back({simplified, range});
    }
  }

  const OpSpec& op_;
  const OpInstance& instance_;
  Evaluator evaluator_;
  std::vector<int64_t> output_shape_;
};

}  // namespace

std::string InputIndexingMap::Name() const {
  return element >= 0 ? input + "[" + std::to_string(element) + "]" : input;
}

absl::StatusOr<OpIndexingMaps> InstantiateIndexingMaps(const OpSpec& op,
                                                       const OpInstance& instance) {
  if (op.indexing_maps == nullptr) {
    return absl::NotFoundError(op.name + " has no indexing_maps section");
  }
  return Instantiator(op, instance).Run();
}

absl::StatusOr<OpIndexingMaps> InstantiateIndexingMaps(const OpSpec& op, const Case& c) {
  return InstantiateIndexingMaps(op, OpInstance::FromCase(op, c));
}

RuntimeValueReader CaseValueReader(const Case& c) {
  return [&c](const RuntimeVar& var, std::span<const int64_t> index) -> absl::StatusOr<int64_t> {
    if (var.operand_index < 0 || var.operand_index >= static_cast<int64_t>(c.operands.size())) {
      return absl::InvalidArgumentError("the case has no operand " + var.SourceName());
    }
    const Tensor& tensor = c.operands[var.operand_index];
    if (static_cast<int64_t>(index.size()) != tensor.rank()) {
      return absl::InvalidArgumentError("an index of rank " + std::to_string(index.size()) +
                                        " into " + var.SourceName());
    }
    int64_t linear = 0;
    for (int64_t d = 0; d < tensor.rank(); ++d) {
      if (index[d] < 0 || index[d] >= tensor.shape()[d]) {
        return absl::OutOfRangeError("index outside " + var.SourceName());
      }
      linear = linear * tensor.shape()[d] + index[d];
    }
    return DispatchElementType(
        tensor.element_type(), [&]<ElementType T>() -> absl::StatusOr<int64_t> {
          if constexpr (IsSignedInt(T)) {
            return static_cast<int64_t>(tensor.values<T>()[linear]);
          } else if constexpr (IsUnsignedInt(T)) {
            constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
            return static_cast<int64_t>(std::min<uint64_t>(tensor.values<T>()[linear], kMax));
          } else {
            return absl::InvalidArgumentError(var.SourceName() + " is not of an integer type");
          }
        });
  };
}

}  // namespace hlocheck::spec
