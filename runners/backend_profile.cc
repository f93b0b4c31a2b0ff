#include "runners/backend_profile.h"

#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "adapters/external/external_backend.h"
#include "yaml-cpp/yaml.h"

namespace hlocheck {
namespace {

absl::Status Error(const std::string& file, const YAML::Node& node, const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrCat(file, ":", node.Mark().line + 1, ":", node.Mark().column + 1, ": ", what));
}

absl::Status ReadTypes(const std::string& file, const YAML::Node& node,
                       std::set<ElementType>& types) {
  if (!node) return absl::OkStatus();
  if (!node.IsSequence()) return Error(file, node, "expected a list of element types");
  for (const YAML::Node& entry : node) {
    std::optional<ElementType> type = ParseElementType(entry.as<std::string>());
    if (!type) return Error(file, entry, "unknown element type '" + entry.as<std::string>() + "'");
    types.insert(*type);
  }
  return absl::OkStatus();
}

absl::Status ReadOps(const std::string& file, const YAML::Node& node,
                     const spec::SpecRegistry& registry, std::set<std::string>& ops) {
  if (!node) return absl::OkStatus();
  if (!node.IsSequence()) return Error(file, node, "expected a list of ops");
  for (const YAML::Node& entry : node) {
    std::string op = entry.as<std::string>();
    if (registry.Find(op) == nullptr) return Error(file, entry, "no op '" + op + "' in spec/ops");
    ops.insert(op);
  }
  return absl::OkStatus();
}

// A declaration is only as good as its source: a reason and a public link.
absl::Status ReadSource(const std::string& file, const YAML::Node& entry, std::string& reason,
                        std::string& link) {
  if (!entry["reason"] || entry["reason"].as<std::string>().empty()) {
    return Error(file, entry, "expected a reason");
  }
  if (!entry["link"] || !absl::StartsWith(entry["link"].as<std::string>(), "https://")) {
    return Error(file, entry["link"] ? entry["link"] : entry,
                 "expected a link: a public source (https://...) for the declaration");
  }
  reason = entry["reason"].as<std::string>();
  link = entry["link"].as<std::string>();
  return absl::OkStatus();
}

}  // namespace

const char* DeviationKindName(Deviation::Kind kind) {
  switch (kind) {
    case Deviation::Kind::kFlushSubnormals:
      return "flush_subnormals";
    case Deviation::Kind::kNanMinMax:
      return "nan_min_max";
    case Deviation::Kind::kMaxUlp:
      return "max_ulp";
  }
  return "?";
}

const Unsupported* BackendProfile::FindUnsupported(const std::string& op, ElementType type) const {
  for (const Unsupported& u : unsupported) {
    if (!u.quantized && (u.ops.empty() || u.ops.count(op)) &&
        (u.types.empty() || u.types.count(type))) {
      return &u;
    }
  }
  return nullptr;
}

const Unsupported* BackendProfile::FindUnsupportedQuantized(const std::string& op) const {
  for (const Unsupported& u : unsupported) {
    if (u.quantized && (u.ops.empty() || u.ops.count(op))) return &u;
  }
  return nullptr;
}

absl::StatusOr<BackendProfile> LoadBackendProfile(const std::string& file,
                                                  const spec::SpecRegistry& registry) {
  BackendProfile profile;
  profile.file = file;
  try {
    YAML::Node root;
    try {
      root = YAML::LoadFile(file);
    } catch (const YAML::BadFile&) {
      return absl::NotFoundError("cannot read the backend profile " + file);
    }
    if (!root.IsMap()) return Error(file, root, "expected a map (description, deviations, ...)");
    if (root["description"]) profile.description = root["description"].as<std::string>();
    if (const YAML::Node deviations = root["deviations"]) {
      if (!deviations.IsSequence()) return Error(file, deviations, "expected a list of deviations");
      std::set<std::string> ids;
      for (const YAML::Node& entry : deviations) {
        Deviation d;
        if (!entry["id"]) return Error(file, entry, "expected an id");
        d.id = entry["id"].as<std::string>();
        if (!ids.insert(d.id).second) return Error(file, entry["id"], d.id + " appears twice");
        const std::string kind = entry["kind"] ? entry["kind"].as<std::string>() : "";
        if (kind == "flush_subnormals") {
          d.kind = Deviation::Kind::kFlushSubnormals;
        } else if (kind == "nan_min_max") {
          d.kind = Deviation::Kind::kNanMinMax;
        } else if (kind == "max_ulp") {
          d.kind = Deviation::Kind::kMaxUlp;
          if (!entry["max_ulp"] || entry["max_ulp"].as<int64_t>() <= 0) {
            return Error(file, entry, "a max_ulp deviation needs max_ulp: N (N > 0)");
          }
          d.max_ulp = entry["max_ulp"].as<int64_t>();
        } else {
          return Error(file, entry["kind"] ? entry["kind"] : entry,
                       "expected kind: flush_subnormals, nan_min_max or max_ulp");
        }
        if (auto s = ReadOps(file, entry["ops"], registry, d.ops); !s.ok()) return s;
        if (auto s = ReadTypes(file, entry["types"], d.types); !s.ok()) return s;
        if (auto s = ReadSource(file, entry, d.reason, d.link); !s.ok()) return s;
        profile.deviations.push_back(std::move(d));
      }
    }
    if (const YAML::Node unsupported = root["unsupported"]) {
      if (!unsupported.IsSequence()) return Error(file, unsupported, "expected a list");
      for (const YAML::Node& entry : unsupported) {
        Unsupported u;
        if (auto s = ReadOps(file, entry["ops"], registry, u.ops); !s.ok()) return s;
        if (auto s = ReadTypes(file, entry["types"], u.types); !s.ok()) return s;
        if (const YAML::Node quantized = entry["quantized"]) u.quantized = quantized.as<bool>();
        if (u.ops.empty() && u.types.empty() && !u.quantized) {
          return Error(file, entry, "an unsupported entry names ops, types or both");
        }
        if (u.quantized && !u.types.empty()) {
          return Error(file, entry["types"],
                       "a quantized: true entry names ops only (a quantized tensor's type is its "
                       "own)");
        }
        if (auto s = ReadSource(file, entry, u.reason, u.link); !s.ok()) return s;
        profile.unsupported.push_back(std::move(u));
      }
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(file, ":", e.mark.line + 1, ":", e.mark.column + 1, ": ", e.msg));
  }
  return profile;
}

std::string DefaultProfilePath(const std::string& backend) {
  // The CUDA adapter on a GPU is held to backends/cuda.yaml (its math
  // library's documented bounds); cuda-host runs the C library instead.
  if (backend == "cuda") {
    std::string path = external::BackendsDirectory() + "/cuda.yaml";
    return std::filesystem::exists(path) ? path : "";
  }
  for (const char* prefix : {"pjrt:", "external:"}) {
    if (!absl::StartsWith(backend, prefix)) continue;
    std::string name = backend.substr(std::string(prefix).size());
    if (absl::EndsWith(name, ".yaml")) return name;
    std::string path = external::BackendsDirectory() + "/" + name + ".yaml";
    return std::filesystem::exists(path) ? path : "";
  }
  return "";
}

}  // namespace hlocheck
