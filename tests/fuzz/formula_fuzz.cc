// libFuzzer target: the formula parser and evaluator on arbitrary text must
// return a value or an error with its offset, never crash, throw, hang or leak.
// An input is an op's name, a newline and a formula: the formula is evaluated
// with that op's spec example bound (operands, results, attributes and the
// op's definitions), as the verifier binds an instance. Without a known op
// name the whole input is a formula evaluated with no names bound.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include "spec/formula/evaluator.h"
#include "spec/formula/parser.h"
#include "spec/instance.h"
#include "spec/registry.h"
#include "spec/verifier.h"

namespace {

using hlocheck::spec::Evaluator;

[[noreturn]] void Fail(const char* what, std::string_view formula, std::string_view message) {
  std::fprintf(stderr, "%s\nformula: %.*s\nmessage: %.*s\n", what, static_cast<int>(formula.size()),
               formula.data(), static_cast<int>(message.size()), message.data());
  std::abort();
}

// The evaluator with op's example bound, made once per op; every input gets a
// fresh copy, so that definitions evaluated by one input are not cached for the next.
const Evaluator* BoundEvaluator(std::string_view op_name) {
  static const hlocheck::spec::SpecRegistry* registry = [] {
    auto loaded = hlocheck::spec::DefaultRegistry();
    if (!loaded.ok()) std::abort();  // a broken spec directory is not the formula code's bug
    return *loaded;
  }();
  static std::map<std::string, Evaluator, std::less<>> bound;
  if (auto it = bound.find(op_name); it != bound.end()) return &it->second;
  const hlocheck::spec::OpSpec* op = registry->Find(op_name);
  if (op == nullptr) return nullptr;
  auto instance = hlocheck::spec::ExampleInstance(*op);
  if (!instance.ok()) return nullptr;
  Evaluator evaluator;
  if (!hlocheck::spec::BindInstance(*op, *instance, &evaluator).ok()) return nullptr;
  return &bound.emplace(std::string(op_name), std::move(evaluator)).first->second;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string_view formula = input;
  Evaluator evaluator;
  if (size_t newline = input.find('\n'); newline != std::string_view::npos) {
    if (const Evaluator* bound = BoundEvaluator(input.substr(0, newline))) {
      evaluator = *bound;
      formula = input.substr(newline + 1);
    }
  }
  hlocheck::spec::ParseError parse_error;
  auto expr = hlocheck::spec::ParseFormula(formula, &parse_error);
  if (!expr.ok()) {
    if (parse_error.offset < 0 || parse_error.offset > static_cast<int>(formula.size())) {
      Fail("parse error offset outside the formula", formula, parse_error.message);
    }
    return 0;
  }
  hlocheck::spec::Trace trace;
  hlocheck::spec::EvalError eval_error;
  auto value = evaluator.Evaluate(**expr, formula, &trace, &eval_error);
  if (!value.ok() &&
      (eval_error.offset < 0 || eval_error.offset > static_cast<int>(formula.size()))) {
    Fail("evaluation error offset outside the formula", formula, eval_error.message);
  }
  return 0;
}
