#include "runners/gate_config.h"

#include <algorithm>

#include <set>

#include "absl/status/status.h"
#include "reports/time_format.h"
#include "yaml-cpp/yaml.h"

namespace hlocheck {
namespace {

// Keys that are `run` flags, and the flag each becomes.
const std::map<std::string, std::string>& FlagKeys() {
  static const std::map<std::string, std::string> keys = {
      {"backend", "backend"},
      {"ops", "ops"},
      {"types", "types"},
      {"cases", "cases"},
      {"seed", "seed"},
      {"max_elements", "max-elements"},
      {"shrink_attempts", "shrink-attempts"},
      {"stop_after_backend_failures", "stop-after-backend-failures"},
      {"workers", "workers"},
      {"threads", "threads"},
      {"profile", "profile"},
      {"case_timeout", "case-timeout"},
      {"batch", "batch"},
      {"inputs", "inputs"},
  };
  return keys;
}

class ConfigError {
 public:
  explicit ConfigError(std::string file) : file_(std::move(file)) {}
  absl::Status At(const YAML::Node& node, const std::string& message) const {
    return absl::InvalidArgumentError(file_ + ":" + std::to_string(node.Mark().line + 1) + ":" +
                                      std::to_string(node.Mark().column + 1) + ": " + message);
  }

 private:
  std::string file_;
};

bool IsDate(const std::string& text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  const int month = std::stoi(text.substr(5, 2));
  const int day = std::stoi(text.substr(8, 2));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

std::string Words(const Waiver& w, const std::string& file) {
  std::string types;
  for (ElementType t : w.types) types += (types.empty() ? "" : ",") + std::string(Name(t));
  return w.op + (types.empty() ? "" : " " + types) + ": " + w.reason + " (until " + w.expires +
         ", " + file + ":" + std::to_string(w.line) + ")";
}

}  // namespace

absl::StatusOr<GateConfig> LoadGateConfig(const std::string& file,
                                          const spec::SpecRegistry& registry) {
  GateConfig config;
  config.file = file;
  ConfigError error(file);
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const YAML::BadFile&) {
    return absl::NotFoundError(file + ": cannot read the gate config");
  } catch (const YAML::ParserException& e) {
    return absl::InvalidArgumentError(file + ":" + std::to_string(e.mark.line + 1) + ":" +
                                      std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  if (!root.IsMap()) return error.At(root, "expected a mapping of settings (docs/gate-config.md)");
  auto op_known = [&](const YAML::Node& node, const std::string& op) -> absl::Status {
    if (registry.Find(op) == nullptr) return error.At(node, "unknown op '" + op + "'");
    return absl::OkStatus();
  };
  auto parse_types = [&](const YAML::Node& node, std::vector<ElementType>& out) -> absl::Status {
    if (!node.IsSequence()) return error.At(node, "expected a list of element types");
    for (const YAML::Node& item : node) {
      auto type = item.IsScalar() ? ParseElementType(item.Scalar()) : std::nullopt;
      if (!type) return error.At(item, "unknown element type (hlocheck types lists them)");
      out.push_back(*type);
    }
    return absl::OkStatus();
  };
  for (const auto& entry : root) {
    const YAML::Node& key_node = entry.first;
    const YAML::Node& value = entry.second;
    const std::string key = key_node.Scalar();
    if (auto flag = FlagKeys().find(key); flag != FlagKeys().end()) {
      std::string text;
      if (value.IsSequence()) {
        for (const YAML::Node& item : value) {
          if (!item.IsScalar()) return error.At(item, "expected a plain value");
          if (key == "ops") {
            if (auto s = op_known(item, item.Scalar()); !s.ok()) return s;
          }
          text += (text.empty() ? "" : ",") + item.Scalar();
        }
      } else if (value.IsScalar()) {
        text = value.Scalar();
      } else {
        return error.At(value, "expected a value or a list for '" + key + "'");
      }
      if (key == "types") {
        std::vector<ElementType> ignored;
        if (value.IsSequence()) {
          if (auto s = parse_types(value, ignored); !s.ok()) return s;
        }
      }
      config.flags.push_back("--" + flag->second);
      config.flags.push_back(text);
    } else if (key == "case_budgets") {
      if (!value.IsMap()) return error.At(value, "expected op: cases pairs");
      for (const auto& budget : value) {
        const std::string op = budget.first.Scalar();
        if (auto s = op_known(budget.first, op); !s.ok()) return s;
        int64_t cases = 0;
        try {
          cases = budget.second.as<int64_t>();
        } catch (const YAML::Exception&) {
          cases = 0;
        }
        if (cases < 1) return error.At(budget.second, "expected a positive number of cases");
        config.case_budgets[op] = cases;
      }
    } else if (key == "waivers") {
      if (!value.IsSequence()) return error.At(value, "expected a list of waivers");
      for (const YAML::Node& item : value) {
        if (!item.IsMap()) return error.At(item, "expected a waiver: op, types, reason, expires");
        Waiver w;
        w.line = item.Mark().line + 1;
        for (const auto& field : item) {
          const std::string name = field.first.Scalar();
          if (name == "op") {
            w.op = field.second.Scalar();
            if (auto s = op_known(field.second, w.op); !s.ok()) return s;
          } else if (name == "types") {
            if (auto s = parse_types(field.second, w.types); !s.ok()) return s;
          } else if (name == "reason") {
            w.reason = field.second.Scalar();
          } else if (name == "expires") {
            w.expires = field.second.Scalar();
            if (!IsDate(w.expires)) return error.At(field.second, "expected a date YYYY-MM-DD");
          } else {
            return error.At(field.first,
                            "unknown waiver field '" + name + "' (op, types, reason, expires)");
          }
        }
        if (w.op.empty()) return error.At(item, "a waiver needs the op it waives");
        if (w.reason.empty()) {
          return error.At(item, "a waiver needs a reason (a bug link, say): why is it known?");
        }
        if (w.expires.empty()) {
          return error.At(item, "a waiver needs an expiry date (expires: YYYY-MM-DD)");
        }
        config.waivers.push_back(std::move(w));
      }
    } else if (key == "tolerances") {
      if (!value.IsSequence()) return error.At(value, "expected a list of tolerance overrides");
      for (const YAML::Node& item : value) {
        if (!item.IsMap()) {
          return error.At(item, "expected a tolerance override: op, types, backend, max_ulp");
        }
        ToleranceOverride t;
        t.line = item.Mark().line + 1;
        bool has_max_ulp = false;
        const YAML::Node* max_ulp_node = nullptr;
        for (const auto& field : item) {
          const std::string name = field.first.Scalar();
          if (name == "op") {
            t.op = field.second.Scalar();
            if (auto s = op_known(field.second, t.op); !s.ok()) return s;
          } else if (name == "types") {
            if (auto s = parse_types(field.second, t.types); !s.ok()) return s;
          } else if (name == "backend") {
            t.backend = field.second.Scalar();
          } else if (name == "max_ulp") {
            int64_t ulp = -1;
            try {
              ulp = field.second.as<int64_t>();
            } catch (const YAML::Exception&) {
              ulp = -1;
            }
            if (ulp < 0 || ulp > 1000000) {
              return error.At(field.second, "expected a number of ULPs (0 or more)");
            }
            t.max_ulp = static_cast<int>(ulp);
            has_max_ulp = true;
            max_ulp_node = &field.second;
          } else {
            return error.At(field.first,
                            "unknown tolerance field '" + name + "' (op, types, backend, max_ulp)");
          }
        }
        if (t.op.empty()) return error.At(item, "a tolerance override needs its op");
        if (!has_max_ulp) return error.At(item, "a tolerance override needs max_ulp");
        const spec::OpSpec* spec = registry.Find(t.op);
        for (ElementType type : t.types) {
          const int allowed = spec->numerics.AllowedUlp(type);
          if (t.max_ulp > allowed) {
            return error.At(*max_ulp_node,
                            "max_ulp " + std::to_string(t.max_ulp) + " is wider than " + t.op +
                                "'s bound for " + std::string(Name(type)) + " (" +
                                std::to_string(allowed) +
                                " ULP): a gate config only tightens; a wider bound is a "
                                "deviation, declared in the backend's profile with a public "
                                "source");
          }
        }
        config.tolerances.push_back(std::move(t));
      }
    } else {
      return error.At(key_node, "unknown setting '" + key + "' (docs/gate-config.md lists them)");
    }
  }
  return config;
}

std::string WaiverFor(const GateConfig& config, const std::string& op, ElementType type,
                      const std::string& today) {
  for (const Waiver& w : config.waivers) {
    if (w.op != op || today > w.expires) continue;
    bool covers = w.types.empty();
    for (ElementType t : w.types) covers = covers || t == type;
    if (covers) return Words(w, config.file);
  }
  return "";
}

std::optional<int> MaxUlpFor(const GateConfig& config, const std::string& backend,
                             const std::string& op, ElementType type) {
  std::optional<int> tightest;
  for (const ToleranceOverride& t : config.tolerances) {
    if (t.op != op || (!t.backend.empty() && t.backend != backend)) continue;
    if (!t.types.empty() && std::find(t.types.begin(), t.types.end(), type) == t.types.end()) {
      continue;
    }
    if (!tightest || t.max_ulp < *tightest) tightest = t.max_ulp;
  }
  return tightest;
}

std::vector<std::string> ExpiredWaivers(const GateConfig& config, const std::string& today) {
  std::vector<std::string> expired;
  for (const Waiver& w : config.waivers) {
    if (today > w.expires) expired.push_back(Words(w, config.file));
  }
  return expired;
}

std::string TodayUtc() { return UtcNow("%Y-%m-%d"); }

}  // namespace hlocheck
