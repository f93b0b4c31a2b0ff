// Writes the formula fuzzer's seed corpus into DIR: every formula of the spec
// (constraints, their conditions, definitions, recipe steps and the quantized
// type's constraints), one file each, as formula_fuzz reads them: the op's
// name, a newline, the formula. Usage: fuzz_seeds DIR (an existing directory).
#include <cstdio>
#include <fstream>
#include <string>

#include "spec/registry.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_seeds DIR\n");
    return 2;
  }
  auto registry = hlocheck::spec::DefaultRegistry();
  if (!registry.ok()) {
    std::fprintf(stderr, "fuzz_seeds: %s\n", std::string(registry.status().message()).c_str());
    return 1;
  }
  const std::string dir = argv[1];
  int written = 0;
  auto write = [&](const std::string& op, const std::string& formula) {
    std::ofstream out(dir + "/formula_" + std::to_string(written++));
    out << op << '\n' << formula;
    return static_cast<bool>(out);
  };
  bool ok = true;
  for (const hlocheck::spec::OpSpec& op : (*registry)->ops()) {
    for (const auto& [name, formula] : op.definitions) ok &= write(op.name, formula.text);
    for (const hlocheck::spec::ConstraintSpec& c : op.constraints) {
      ok &= write(op.name, c.formula.text);
      if (c.condition) ok &= write(op.name, c.condition->text);
    }
    for (const hlocheck::spec::RecipeStep& step : op.recipe)
      ok &= write(op.name, step.formula.text);
  }
  if (const auto* types = (*registry)->quantized_type()) {
    for (const hlocheck::spec::ConstraintSpec& c : types->constraints)
      ok &= write("", c.formula.text);
  }
  if (!ok) {
    std::fprintf(stderr, "fuzz_seeds: cannot write into %s\n", dir.c_str());
    return 1;
  }
  std::printf("fuzz_seeds: %d formulas\n", written);
  return 0;
}
