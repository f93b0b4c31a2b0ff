// Replay keys: the few numbers that rebuild one generated case on any
// machine (op, type, case seed, size, shrink path), their string form, and
// the per-case seeds and sizes the gate derives from a run's seed.
#ifndef HLOCHECK_RUNNERS_REPLAY_KEY_H_
#define HLOCHECK_RUNNERS_REPLAY_KEY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/element_type.h"
#include "rapidcheck.h"

namespace hlocheck {

// The seed of case `index` of a group: a stable hash, the same on every machine.
uint64_t CaseSeed(uint64_t run_seed, std::string_view op, ElementType type, int64_t index);
// Sizes sweep RapidCheck's range 0..100 over the cases of a group.
int CaseSize(int64_t index, int64_t cases);

struct ReplayKey {
  std::string op;
  std::optional<ElementType> type;  // "any" in the string: the op's first input has no element type
  uint64_t seed;
  int size;
  int64_t max_elements;
  std::vector<int> shrink_path;
  // A negative case: the display id of the one constraint it violates
  // ("C3", "C18 (public)"); written OP!C3 or OP!C18@public in the string.
  std::string violates;
  // The string's "hlocheckN" prefix: which shrink tree the path indexes.
  // 1: the generator's shrinks, then an elementwise case's halves; 2: the
  // halves first (GenerationOptions::halves_first); 3 (what runs write): the
  // draws that version added too (GenerationOptions::version).
  int version = kReplayVersion;
  static constexpr int kReplayVersion = 9;
};

std::string FormatReplay(const ReplayKey& key);
absl::StatusOr<ReplayKey> ParseReplay(const std::string& text);

// Follows a replay string's shrink path down a shrink tree.
template <typename T>
absl::StatusOr<T> FollowShrinkPath(rc::Shrinkable<T> shrinkable, const std::vector<int>& path) {
  for (int step : path) {
    auto shrinks = shrinkable.shrinks();
    std::optional<rc::Shrinkable<T>> chosen;
    for (int i = 0; i <= step; ++i) {
      auto next = shrinks.next();
      if (!next) {
        return absl::InvalidArgumentError(
            "the shrink path does not fit this case (was it made by another hlocheck version?)");
      }
      if (i == step) chosen = *next;
    }
    shrinkable = *chosen;
  }
  return shrinkable.value();
}

}  // namespace hlocheck

#endif  // HLOCHECK_RUNNERS_REPLAY_KEY_H_
