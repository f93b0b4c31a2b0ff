#include "runners/flags.h"

#include "absl/status/status.h"
#include "absl/strings/str_split.h"

namespace hlocheck {

void Flags::Add(std::string name, std::string placeholder, std::string help,
                std::string default_value) {
  order_.push_back(name);
  specs_[std::move(name)] = {std::move(placeholder), std::move(help), std::move(default_value)};
}

void Flags::AddSwitch(std::string name, std::string help) {
  order_.push_back(name);
  specs_[std::move(name)] = {"", std::move(help), ""};
}

absl::Status Flags::Parse(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("--", 0) != 0 || arg == "--") {
      positional_.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2);
    std::optional<std::string> value;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    auto spec = specs_.find(name);
    if (spec == specs_.end()) {
      return absl::InvalidArgumentError("unknown flag --" + name + " (see --help)");
    }
    if (spec->second.placeholder.empty()) {
      if (value) return absl::InvalidArgumentError("--" + name + " takes no value");
      values_[name] = "true";
      continue;
    }
    if (!value) {
      if (i + 1 >= args.size()) {
        return absl::InvalidArgumentError("--" + name + " needs a value (" +
                                          spec->second.placeholder + ")");
      }
      value = args[++i];
    }
    values_[name] = *value;
    all_values_[name].push_back(*value);
  }
  return absl::OkStatus();
}

std::vector<std::string> Flags::GetAll(const std::string& name) const {
  auto it = all_values_.find(name);
  return it == all_values_.end() ? std::vector<std::string>{} : it->second;
}

std::string Flags::Get(const std::string& name) const {
  auto it = values_.find(name);
  if (it != values_.end()) return it->second;
  auto spec = specs_.find(name);
  return spec == specs_.end() ? "" : spec->second.default_value;
}

bool Flags::IsSet(const std::string& name) const { return values_.count(name) > 0; }

bool Flags::Switch(const std::string& name) const { return IsSet(name); }

absl::StatusOr<int64_t> Flags::GetInt(const std::string& name, int64_t min, int64_t max) const {
  std::string text = Get(name);
  try {
    size_t used = 0;
    int64_t value = std::stoll(text, &used);
    if (used == text.size() && value >= min && value <= max) return value;
  } catch (const std::exception&) {
  }
  return absl::InvalidArgumentError("--" + name + " expects a whole number from " +
                                    std::to_string(min) + " to " + std::to_string(max) + ", got '" +
                                    text + "'");
}

absl::StatusOr<uint64_t> Flags::GetUint(const std::string& name) const {
  std::string text = Get(name);
  try {
    size_t used = 0;
    if (!text.empty() && text[0] != '-') {
      uint64_t value = std::stoull(text, &used, 0);
      if (used == text.size()) return value;
    }
  } catch (const std::exception&) {
  }
  return absl::InvalidArgumentError("--" + name + " expects a non-negative whole number, got '" +
                                    text + "'");
}

std::vector<std::string> Flags::GetList(const std::string& name) const {
  std::vector<std::string> items;
  for (const auto& part : absl::StrSplit(Get(name), ',', absl::SkipEmpty())) {
    items.emplace_back(part);
  }
  return items;
}

std::string Flags::Help() const {
  std::string text;
  for (const std::string& name : order_) {
    const Spec& spec = specs_.at(name);
    std::string left = "  --" + name + (spec.placeholder.empty() ? "" : " " + spec.placeholder);
    // A name too long for the column gets its help on the next line.
    left += left.size() < 26 ? std::string(26 - left.size(), ' ') : "\n" + std::string(26, ' ');
    text += left + spec.help;
    if (!spec.default_value.empty()) text += " (default: " + spec.default_value + ")";
    text += "\n";
  }
  return text;
}

}  // namespace hlocheck
