#include "runners/replay_key.h"

#include <cinttypes>
#include <cstdio>
#include <exception>

#include "absl/status/status.h"
#include "absl/strings/str_split.h"

namespace hlocheck {
namespace {

uint64_t Mix(uint64_t x) {  // splitmix64's finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

uint64_t CaseSeed(uint64_t run_seed, std::string_view op, ElementType type, int64_t index) {
  uint64_t h = Mix(run_seed);
  for (char ch : op) h = Mix(h ^ static_cast<uint8_t>(ch));
  h = Mix(h ^ (static_cast<uint64_t>(type) + 0x100));
  return Mix(h ^ static_cast<uint64_t>(index));
}

int CaseSize(int64_t index, int64_t cases) {
  if (cases <= 1) return 50;
  return static_cast<int>((index * 100) / (cases - 1));
}

std::string FormatReplay(const ReplayKey& key) {
  char seed[17];
  std::snprintf(seed, sizeof(seed), "%016" PRIx64, key.seed);
  std::string path;
  for (size_t i = 0; i < key.shrink_path.size(); ++i) {
    path += (i ? "." : "") + std::to_string(key.shrink_path[i]);
  }
  std::string op = key.op;
  if (!key.violates.empty()) {
    std::string id = key.violates;
    // Only a trailing " (public)" is the public spec's mark (ParseReplay's inverse).
    constexpr std::string_view kPublic = " (public)";
    if (id.ends_with(kPublic)) id = id.substr(0, id.size() - kPublic.size()) + "@public";
    op += "!" + id;
  }
  return "hlocheck" + std::to_string(key.version) + ":" + op + ":" +
         (key.type ? std::string(Name(*key.type)) : std::string("any")) + ":" + seed + ":" +
         std::to_string(key.size) + ":" + std::to_string(key.max_elements) + ":" +
         (path.empty() ? "-" : path);
}

absl::StatusOr<ReplayKey> ParseReplay(const std::string& text) {
  auto bad = [&](const std::string& why) {
    return absl::InvalidArgumentError(
        "bad replay string '" + text + "': " + why + "; expected hlocheck" +
        std::to_string(ReplayKey::kReplayVersion) +
        ":OP:TYPE:SEED(hex):SIZE:MAX_ELEMENTS:SHRINK_PATH as printed by a run "
        "(or hlocheck1:..., as earlier versions printed)");
  };
  // The type may contain ':'? No: type names never do, so split plainly.
  std::vector<std::string> parts = absl::StrSplit(text, ':');
  if (parts.size() != 7) return bad("wrong number of fields");
  ReplayKey key;
  // hlocheckN for every version up to this one: a key of an earlier version
  // rebuilds the case that version generated.
  key.version = 0;
  for (int version = 1; version <= ReplayKey::kReplayVersion; ++version) {
    if (parts[0] == "hlocheck" + std::to_string(version)) key.version = version;
  }
  if (key.version == 0) return bad("unknown prefix '" + parts[0] + "'");
  key.op = parts[1];
  if (size_t bang = key.op.find('!'); bang != std::string::npos) {
    key.violates = key.op.substr(bang + 1);
    key.op = key.op.substr(0, bang);
    // "@public" ends the id or is part of it; text after it is not dropped.
    constexpr std::string_view kPublic = "@public";
    if (key.violates.ends_with(kPublic)) {
      key.violates = key.violates.substr(0, key.violates.size() - kPublic.size()) + " (public)";
    }
    if (key.violates.empty()) return bad("no constraint after '!'");
  }
  if (parts[2] != "any") {
    auto type = ParseElementType(parts[2]);
    if (!type) return bad("unknown element type '" + parts[2] + "'");
    key.type = *type;
  }
  try {
    size_t used = 0;
    key.seed = std::stoull(parts[3], &used, 16);
    if (used != parts[3].size()) return bad("seed is not hexadecimal");
    key.size = std::stoi(parts[4], &used);
    if (used != parts[4].size() || key.size < 0) return bad("size is not a number");
    key.max_elements = std::stoll(parts[5], &used);
    if (used != parts[5].size() || key.max_elements < 1) return bad("bad max elements");
    if (parts[6] != "-") {
      for (const auto& step : absl::StrSplit(parts[6], '.')) {
        std::string s(step);
        int index = std::stoi(s, &used);
        if (used != s.size() || index < 0) return bad("bad shrink path");
        key.shrink_path.push_back(index);
      }
    }
  } catch (const std::exception&) {
    return bad("a field is not a number");
  }
  return key;
}

}  // namespace hlocheck
