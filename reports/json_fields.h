// Reading the fields of a JSON object with the types they must have, for
// the readers of hlocheck's own JSON files (report.json, coverage.json).
#ifndef HLOCHECK_REPORTS_JSON_FIELDS_H_
#define HLOCHECK_REPORTS_JSON_FIELDS_H_

#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "core/status_macros.h"
#include "nlohmann/json.hpp"

namespace hlocheck {

// Fields of one JSON object, each read with the type it must have; an
// error names the file and the field's path.
class JsonFields {
 public:
  JsonFields(const nlohmann::json& object, std::string file, std::string path)
      : object_(object), file_(std::move(file)), path_(std::move(path)) {}

  absl::Status Error(const std::string& key, const std::string& expected) const {
    return absl::InvalidArgumentError(file_ + ": " + Path(key) + ": expected " + expected);
  }
  std::string Path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  const nlohmann::json* Find(const std::string& key) const {
    auto it = object_.find(key);
    return it == object_.end() || it->is_null() ? nullptr : &*it;
  }
  bool Has(const std::string& key) const { return Find(key) != nullptr; }

  absl::Status String(const std::string& key, std::string& out, bool required = false) const {
    const nlohmann::json* value = Find(key);
    if (value == nullptr) return required ? Error(key, "a string") : absl::OkStatus();
    if (!value->is_string()) return Error(key, "a string");
    out = value->get<std::string>();
    return absl::OkStatus();
  }
  absl::Status Integer(const std::string& key, int64_t& out, bool required = false) const {
    const nlohmann::json* value = Find(key);
    if (value == nullptr) return required ? Error(key, "an integer") : absl::OkStatus();
    if (!value->is_number_integer()) return Error(key, "an integer");
    out = value->get<int64_t>();
    return absl::OkStatus();
  }
  absl::Status Number(const std::string& key, double& out) const {
    const nlohmann::json* value = Find(key);
    if (value == nullptr) return absl::OkStatus();
    if (!value->is_number()) return Error(key, "a number");
    out = value->get<double>();
    return absl::OkStatus();
  }
  // An array of objects at `key`, each handed to `read` with its own Fields.
  template <typename Read>
  absl::Status Objects(const std::string& key, Read read) const {
    const nlohmann::json* value = Find(key);
    if (value == nullptr) return absl::OkStatus();
    if (!value->is_array()) return Error(key, "an array");
    for (size_t i = 0; i < value->size(); ++i) {
      const std::string path = Path(key) + "[" + std::to_string(i) + "]";
      if (!(*value)[i].is_object()) {
        return absl::InvalidArgumentError(file_ + ": " + path + ": expected an object");
      }
      HLOCHECK_RETURN_IF_ERROR(read(JsonFields((*value)[i], file_, path)));
    }
    return absl::OkStatus();
  }
  const std::string& file() const { return file_; }

 private:
  const nlohmann::json& object_;
  std::string file_;
  std::string path_;
};

}  // namespace hlocheck

#endif  // HLOCHECK_REPORTS_JSON_FIELDS_H_
