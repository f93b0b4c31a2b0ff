// CompileOptionsProto written by hand: the bytes protoc would write.
#include <gtest/gtest.h>

#include "adapters/pjrt/compile_options.h"

namespace hlocheck::pjrt {
namespace {

std::string Bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out.push_back(static_cast<char>(v));
  return out;
}

TEST(CompileOptionsTest, DefaultsAreOneReplicaOnePartition) {
  // executable_build_options (field 3, length 15): device_ordinal -1 as a
  // ten-byte varint, num_replicas 1, num_partitions 1.
  EXPECT_EQ(SerializeCompileOptions({}), Bytes({0x1a, 15, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                0xff, 0xff, 0xff, 0x01, 0x20, 0x01, 0x28, 0x01}));
}

TEST(CompileOptionsTest, EnvOptionOverridesAreMapEntries) {
  CompileOptions options;
  options.env_option_overrides["xla_cpu_enable_fast_min_max"] = false;
  std::string bytes = SerializeCompileOptions(options);
  std::string defaults = SerializeCompileOptions({});
  ASSERT_EQ(bytes.substr(0, defaults.size()), defaults);
  // field 7 {field 1 "xla_cpu_enable_fast_min_max", field 2 {bool_field (2) = 0}}
  std::string key = "xla_cpu_enable_fast_min_max";
  std::string entry = Bytes({0x0a, static_cast<int>(key.size())}) + key + Bytes({0x12, 2, 0x10, 0});
  EXPECT_EQ(bytes.substr(defaults.size()), Bytes({0x3a, static_cast<int>(entry.size())}) + entry);
}

TEST(CompileOptionsTest, OptionValuesAreTyped) {
  EXPECT_EQ(ParseOptionValue("true"), OptionValue(true));
  EXPECT_EQ(ParseOptionValue("false"), OptionValue(false));
  EXPECT_EQ(ParseOptionValue("-3"), OptionValue(int64_t{-3}));
  EXPECT_EQ(ParseOptionValue("0.5"), OptionValue(0.5));
  EXPECT_EQ(ParseOptionValue("llvm-cpu"), OptionValue(std::string("llvm-cpu")));
}

}  // namespace
}  // namespace hlocheck::pjrt
