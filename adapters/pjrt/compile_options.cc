#include "adapters/pjrt/compile_options.h"

#include <cstring>

#include "absl/strings/numbers.h"

namespace hlocheck::pjrt {
namespace {

// Protocol buffers' wire format: a key (field number << 3 | wire type),
// then the value. Wire types: 0 varint, 1 fixed 64 bits, 2 length-delimited.
void AppendVarint(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

void AppendVarintField(int field, uint64_t value, std::string* out) {
  AppendVarint(static_cast<uint64_t>(field) << 3 | 0, out);
  AppendVarint(value, out);
}

void AppendBytesField(int field, const std::string& bytes, std::string* out) {
  AppendVarint(static_cast<uint64_t>(field) << 3 | 2, out);
  AppendVarint(bytes.size(), out);
  out->append(bytes);
}

void AppendDoubleField(int field, double value, std::string* out) {
  AppendVarint(static_cast<uint64_t>(field) << 3 | 1, out);
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>(bits >> (8 * i)));
}

// xla.OptionOverrideProto: oneof string_field = 1, bool_field = 2,
// int_field = 3, double_field = 4.
std::string SerializeOverride(const OptionValue& value) {
  std::string out;
  if (const auto* text = std::get_if<std::string>(&value)) AppendBytesField(1, *text, &out);
  if (const auto* flag = std::get_if<bool>(&value)) AppendVarintField(2, *flag ? 1 : 0, &out);
  if (const auto* number = std::get_if<int64_t>(&value))
    AppendVarintField(3, static_cast<uint64_t>(*number), &out);
  if (const auto* real = std::get_if<double>(&value)) AppendDoubleField(4, *real, &out);
  return out;
}

}  // namespace

std::string SerializeCompileOptions(const CompileOptions& options) {
  // xla.ExecutableBuildOptionsProto: device_ordinal = 1 (-1: not set, as
  // jax leaves it), num_replicas = 4, num_partitions = 5. XLA:CPU CHECK-fails
  // (aborts the process) on 0 replicas, the value of an empty proto.
  std::string build;
  AppendVarintField(1, static_cast<uint64_t>(int64_t{-1}), &build);
  AppendVarintField(4, static_cast<uint64_t>(options.num_replicas), &build);
  AppendVarintField(5, static_cast<uint64_t>(options.num_partitions), &build);
  // xla.CompileOptionsProto: executable_build_options = 3,
  // env_option_overrides = 7 (a map: entries of key = 1, value = 2).
  std::string out;
  AppendBytesField(3, build, &out);
  for (const auto& [key, value] : options.env_option_overrides) {
    std::string entry;
    AppendBytesField(1, key, &entry);
    AppendBytesField(2, SerializeOverride(value), &entry);
    AppendBytesField(7, entry, &out);
  }
  return out;
}

OptionValue ParseOptionValue(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  int64_t number;
  if (absl::SimpleAtoi(text, &number)) return number;
  double real;
  if (absl::SimpleAtod(text, &real)) return real;
  return text;
}

}  // namespace hlocheck::pjrt
