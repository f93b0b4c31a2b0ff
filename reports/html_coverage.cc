// The spec coverage heatmap: one row per op, one cell per constraint in
// the spec's order, coloured by what the generated cases did with it.
#include <map>

#include "reports/html_internal.h"

namespace hlocheck::html {
namespace {

// How well the cases exercised one constraint, worst first.
enum class Exercise {
  kNone,       // no valid case exercised it and no invalid case violated it alone
  kOneSide,    // valid cases exercised it, or invalid ones violated it, not both
  kBranchGap,  // a conditional constraint with a branch never taken
  kFull,       // exercised, and violated alone (or not violable alone)
};

Exercise ExerciseOf(const ConstraintCoverage& c) {
  const bool valid = c.held > 0;
  const bool invalid = c.violated_alone > 0 || !c.not_violable_alone.empty();
  if (!valid && c.violated_alone == 0) return Exercise::kNone;
  if (!valid || !invalid) return Exercise::kOneSide;
  if (c.conditional && (c.held == 0 || c.not_applicable == 0)) return Exercise::kBranchGap;
  return Exercise::kFull;
}

const char* ExerciseClass(Exercise e) {
  switch (e) {
    case Exercise::kNone:
      return "c-none";
    case Exercise::kOneSide:
      return "c-one";
    case Exercise::kBranchGap:
      return "c-branch";
    case Exercise::kFull:
      return "c-full";
  }
  return "";
}

// The tooltip: the constraint's id, words and formula, then its counts.
std::string Tooltip(const std::string& op, const ConstraintCoverage& c,
                    const spec::ConstraintSpec* spec) {
  std::string text = op + " " + c.id + " (" +
                     (c.source == "public"   ? "the newer public spec"
                      : c.source == "inputs" ? "seed 002's Inputs/Outputs table"
                                             : "seed 002") +
                     ")\n";
  if (spec != nullptr) {
    text += spec->text + "\nformula: " + spec->formula.text + "\n";
    if (spec->condition) text += "when: " + spec->condition->text + "\n";
  }
  text += "valid cases: held in " + Count(c.held);
  if (c.conditional) text += ", not applicable in " + Count(c.not_applicable);
  text += "\ninvalid cases violating it alone: " + Count(c.violated_alone);
  if (c.from_spec_instance > 0) {
    text += " (" + Count(c.from_spec_instance) + " of them the spec's own violating instance)";
  }
  if (!c.not_violable_alone.empty()) text += "\nnot violable alone: " + c.not_violable_alone;
  if (c.conditional && (c.held == 0 || c.not_applicable == 0)) {
    text += std::string("\nbranch never taken: ") +
            (c.held == 0 ? "the condition never held" : "the condition always held");
  }
  return text;
}

}  // namespace

std::string CoverageSection(const CoverageReport& coverage, const std::string& file,
                            const spec::SpecRegistry* registry) {
  int64_t constraints = 0, exercised = 0, violated = 0, violable = 0, branches = 0,
          untaken_branches = 0;
  std::string rows;
  for (const OpCoverage& op : coverage.ops) {
    const spec::OpSpec* op_spec = registry != nullptr ? registry->Find(op.op) : nullptr;
    std::map<std::string, const spec::ConstraintSpec*> specs;
    if (op_spec != nullptr) {
      for (const spec::ConstraintSpec& c : op_spec->constraints) specs[c.DisplayId()] = &c;
    }
    std::string types;
    for (const auto& [type, n] : op.element_types) types += " " + type + "=" + Count(n);
    std::string features;
    for (const auto& [feature, n] : op.features) features += " " + feature + "=" + Count(n);
    const std::string op_title =
        op.op + ": " + Count(op.valid_cases) + " valid, " + Count(op.invalid_cases) +
        " invalid cases\nelement types:" + types + "\nfeatures:" + features;
    rows += "<tr id=\"cov-" + Escape(op.op) + "\"><th title=\"" + Escape(op_title) + "\">" +
            Escape(op.op) + "</th><td class=\"cov-cases\">" + Compact(op.valid_cases) + " / " +
            Compact(op.invalid_cases) + "</td><td class=\"cells\">";
    if (!op.has_recipe) rows += "<span class=\"norecipe\">no recipe: no cases generated</span>";
    for (const ConstraintCoverage& c : op.constraints) {
      ++constraints;
      exercised += c.held > 0;
      if (c.not_violable_alone.empty()) {
        ++violable;
        violated += c.violated_alone > 0;
      }
      if (c.conditional) {
        branches += 2;
        untaken_branches += (c.held == 0) + (c.not_applicable == 0);
      }
      auto it = specs.find(c.id);
      const Exercise e = ExerciseOf(c);
      std::string id = c.id;
      if (c.source == "public") id = id.substr(0, id.find(' ')) + "\xE1\xB5\x96";  // "C3ᵖ"
      rows += "<span class=\"cc " + std::string(ExerciseClass(e)) + "\" title=\"" +
              Escape(Tooltip(op.op, c, it == specs.end() ? nullptr : it->second)) + "\">" +
              Escape(id) + "<small>" + Compact(c.held) + "\xC2\xB7" + Compact(c.violated_alone) +
              "</small></span>";
    }
    rows += "</td></tr>\n";
  }
  std::string out = "<section id=\"coverage\"><h2>Spec coverage: op &times; constraint</h2>\n";
  out += "<p class=\"meta\">" + Escape(file) + ": seed " + std::to_string(coverage.seed) + ", " +
         Count(coverage.cases_per_op) + " valid cases per op, " +
         Count(coverage.negative_cases_per_constraint) + " invalid cases per constraint.</p>\n";
  out += "<ul class=\"tiles\">";
  auto tile = [&](const std::string& key, int64_t value, int64_t of, const std::string& words) {
    out += "<li><b data-count=\"" + key + "\">" + Count(value) + "</b> of " + Count(of) + " " +
           words + "</li>";
  };
  tile("constraints_exercised", exercised, constraints, "constraints held in valid cases");
  tile("constraints_violated", violated, violable, "violable constraints violated alone");
  tile("branches_untaken", untaken_branches, branches, "conditional branches never taken");
  out += "</ul>\n";
  out +=
      "<p class=\"legend\"><span class=\"cc c-full\">C1</span> exercised and violated alone "
      "<span class=\"cc c-branch\">C1</span> a conditional branch never taken "
      "<span class=\"cc c-one\">C1</span> only valid or only invalid cases "
      "<span class=\"cc c-none\">C1</span> never exercised. Each cell: the constraint "
      "(<i>C1&#x1D56;</i> from the newer public spec), valid cases where it held &middot; "
      "invalid cases violating it alone; hover for its words and formula.</p>\n";
  out +=
      "<table class=\"coverage\"><thead><tr><th>op</th><th>valid / invalid cases</th>"
      "<th>constraints</th></tr></thead><tbody>\n" +
      rows + "</tbody></table></section>\n";
  return out;
}

}  // namespace hlocheck::html
