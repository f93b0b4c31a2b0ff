// `hlocheck types`: every element type and its exact format.
#include <cstdio>
#include <iostream>

#include "core/element_type.h"
#include "core/exact_value.h"
#include "runners/commands.h"
#include "runners/flags.h"

namespace hlocheck {
namespace {

std::string Hex(uint64_t bits, int total_bits) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string text;
  for (int digit = (total_bits + 3) / 4 - 1; digit >= 0; --digit) {
    text += kDigits[(bits >> (4 * digit)) & 0xF];
  }
  return "0x" + text;
}

std::string Value(const FloatFormat& f, uint64_t bits) {
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%.9g", DecodeFloat(f, bits).ToDouble());
  return buffer;
}

std::string Cell(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text + " ";
}

const char* OverflowName(OverflowRule rule) {
  switch (rule) {
    case OverflowRule::kInfinity:
      return "Inf";
    case OverflowRule::kNaN:
      return "NaN";
    case OverflowRule::kSaturate:
      return "saturate";
  }
  return "?";
}

}  // namespace

int TypesCommand(const std::vector<std::string>& args) {
  Flags flags;
  flags.AddSwitch("help", "show this help");
  if (auto status = flags.Parse(args); !status.ok() || !flags.positional().empty()) {
    std::cerr << "hlocheck types: " << (status.ok() ? "takes no arguments" : status.message())
              << "\n";
    return kExitUsage;
  }
  if (flags.Switch("help")) {
    std::cout << "usage: hlocheck types\n\n"
                 "Lists every element type: kind, bit width, and for floats the exponent and\n"
                 "mantissa bits, bias, largest finite value, smallest normal and subnormal,\n"
                 "whether Inf, NaN and -0 exist with their encodings, and the overflow rule.\n"
                 "Types marked 'public' come from the newer public spec, not seed 002.\n\nflags:\n"
              << flags.Help();
    return kExitOk;
  }
  std::cout << Cell("type", 14) << Cell("kind", 9) << Cell("bits", 4) << Cell("spec", 6)
            << Cell("E", 2) << Cell("M", 2) << Cell("bias", 5) << Cell("max finite", 14)
            << Cell("min normal", 14) << Cell("min subnormal", 14) << Cell("Inf", 7)
            << Cell("NaN", 7) << Cell("-0", 7) << "overflow\n";
  for (ElementType type : AllElementTypes()) {
    const ElementTypeInfo& info = Info(type);
    const char* kind = "";
    switch (info.kind) {
      case TypeKind::kBool:
        kind = "bool";
        break;
      case TypeKind::kSignedInt:
        kind = "signed";
        break;
      case TypeKind::kUnsignedInt:
        kind = "unsigned";
        break;
      case TypeKind::kFloat:
        kind = "float";
        break;
      case TypeKind::kComplex:
        kind = "complex";
        break;
    }
    std::cout << Cell(std::string(info.name), 14) << Cell(kind, 9)
              << Cell(std::to_string(info.bits), 4)
              << Cell(info.in_seed_spec ? "seed" : "public", 6);
    if (IsInteger(type) || IsBool(type)) {
      std::cout << "values " << IntegerMin(type) << " .. " << IntegerMaxUnsigned(type)
                << (IsBool(type) ? " (false, true)" : "") << "\n";
      continue;
    }
    const FloatFormat& f = Format(type);
    uint64_t min_normal = f.has_zero_and_subnormals ? uint64_t{1} << f.mantissa_bits : 0;
    std::string subnormal = f.has_zero_and_subnormals ? Value(f, 1) : "none";
    std::cout << Cell(std::to_string(f.exponent_bits), 2)
              << Cell(std::to_string(f.mantissa_bits), 2) << Cell(std::to_string(f.bias), 5)
              << Cell(Value(f, f.max_finite_bits()), 14) << Cell(Value(f, min_normal), 14)
              << Cell(subnormal, 14)
              << Cell(f.has_infinity ? Hex(f.infinity_bits(), f.total_bits()) : "none", 7)
              << Cell(f.has_nan() ? Hex(f.nan_bits(), f.total_bits()) : "none", 7)
              << Cell(f.has_negative_zero() ? Hex(f.sign_mask(), f.total_bits()) : "none", 7)
              << OverflowName(f.overflow_rule()) << (IsComplex(type) ? " (each part)" : "") << "\n";
  }
  return kExitOk;
}

}  // namespace hlocheck
