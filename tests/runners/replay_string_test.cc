// Replay strings that tests/fuzz/replay_key_fuzz.cc found not to round-trip.
#include <gtest/gtest.h>

#include <string>

#include "runners/gate.h"

namespace hlocheck {
namespace {

// FormatReplay turned the first " (public)" of a constraint id into "@public"
// and ParseReplay cut the id at the first "@public", both dropping what followed:
// "slice!C3 (public)@public" parsed to "C3 (public) (public)", printed as
// "slice!C3@public" and parsed again to "C3 (public)", another key. The mark
// is now a suffix on both sides.
TEST(ReplayStringTest, PublicMarkIsASuffixOnly) {
  auto key = ParseReplay("hlocheck1:slice!C3 (public)@public:f32:0:1:1:-");
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(key->violates, "C3 (public) (public)");
  std::string printed = FormatReplay(*key);
  EXPECT_EQ(printed, "hlocheck1:slice!C3 (public)@public:f32:0000000000000000:1:1:-");
  auto again = ParseReplay(printed);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->violates, key->violates);

  // The fuzzer's own finding, shortened: text after " (public)" was dropped.
  auto middle = ParseReplay("hlocheck1:slice!C3 (public)X:f32:0:1:1:-");
  ASSERT_TRUE(middle.ok()) << middle.status();
  EXPECT_EQ(middle->violates, "C3 (public)X");
  EXPECT_EQ(FormatReplay(*middle), "hlocheck1:slice!C3 (public)X:f32:0000000000000000:1:1:-");

  auto inner = ParseReplay("hlocheck1:slice!C3@publicX:f32:0:1:1:-");
  ASSERT_TRUE(inner.ok()) << inner.status();
  EXPECT_EQ(inner->violates, "C3@publicX");
  EXPECT_EQ(FormatReplay(*inner), "hlocheck1:slice!C3@publicX:f32:0000000000000000:1:1:-");

  // What a run prints (version 9 since quantized region ops; the seed is 5).
  ReplayKey public_one{"dot_general", ElementType::kF32, 5, 50, 4096, {2, 0}, "C21 (public)"};
  EXPECT_EQ(FormatReplay(public_one),
            "hlocheck9:dot_general!C21@public:f32:0000000000000005:50:4096:2.0");
  auto parsed = ParseReplay(FormatReplay(public_one));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->violates, "C21 (public)");
}

// Every version's prefix parses to its version, and prints back the same.
TEST(ReplayStringTest, EveryVersionRoundTrips) {
  for (int version : {1, 2, 3, 4, 5, 6, 7, 8, 9}) {
    const std::string text =
        "hlocheck" + std::to_string(version) + ":add:f32:000000000000002a:10:4096:1.0";
    auto key = ParseReplay(text);
    ASSERT_TRUE(key.ok()) << key.status();
    EXPECT_EQ(key->version, version);
    EXPECT_EQ(FormatReplay(*key), text);
  }
  EXPECT_FALSE(ParseReplay("hlocheck10:add:f32:2a:10:4096:-").ok());
  EXPECT_FALSE(ParseReplay("hlocheck0:add:f32:2a:10:4096:-").ok());
}

}  // namespace
}  // namespace hlocheck
