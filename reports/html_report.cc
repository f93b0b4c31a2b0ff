// The gate's HTML report: a header that says how to reproduce the run, the
// headline numbers, the unexpected findings first (what failed and how to
// get it back), the op x element type verdict matrix, every group's details
// with its distance histogram, the spec coverage heatmap and the changes
// since a baseline. Everything inline: the file opens from disk or a CI
// artifact with no network.
#include "reports/html_report.h"

#include <map>
#include <set>
#include <vector>

#include "reports/gate_reports.h"
#include "reports/html_internal.h"

namespace hlocheck {

using html::Compact;
using html::Count;
using html::Escape;

std::string GroupAnchor(const std::string& op, ElementType type) {
  return "g-" + FileNamePart(op) + "-" + FileNamePart(Name(type));
}

std::string FindingAnchor(const std::string& op, ElementType type) {
  return "f-" + FileNamePart(op) + "-" + FileNamePart(Name(type));
}

namespace {

constexpr const char* kStyle = R"css(
:root{--pass:#2e7d32;--pass-bg:#e3f2e5;--fail:#c62828;--fail-bg:#fde7e7;--crash:#6a1b9a;
--crash-bg:#f1e4f7;--error:#d84315;--error-bg:#fdebe3;--bug:#37474f;--bug-bg:#e3e7ea;
--dev:#a66a00;--dev-bg:#fff4d6;--conv:#1565c0;--conv-bg:#e3eefb;--skip:#757575;--skip-bg:#f0f0f0}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0;
color:#1d1d1f;background:#fafafa}
header{padding:16px 24px;color:#fff}
header.ok{background:var(--pass)}header.failed{background:var(--fail)}header.neutral{background:#455a64}
header h1{margin:0 0 4px;font-size:22px}header p{margin:0}
nav{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid #ddd;padding:6px 24px}
nav a{margin-right:16px;color:#1d1d1f;text-decoration:none;font-weight:600}
nav a:hover{text-decoration:underline}
main{padding:0 24px 40px}
section{margin-top:24px}h2{font-size:18px;border-bottom:2px solid #ddd;padding-bottom:4px}
h3{font-size:15px;margin:0 0 6px}
dl.meta{display:grid;grid-template-columns:max-content minmax(0,1fr) max-content minmax(0,1fr);gap:2px 12px;margin:10px 0 0;
font-size:13px}dl.meta dt{opacity:.85}dl.meta dd{margin:0;font-family:ui-monospace,monospace;
word-break:break-all}
p.meta{color:#555;font-size:13px}
ul.tiles{display:flex;flex-wrap:wrap;gap:10px;list-style:none;padding:0;margin:8px 0}
ul.tiles li{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 12px;min-width:120px}
ul.tiles b{display:block;font-size:20px}
ul.tiles li.bad{border-color:var(--fail);background:var(--fail-bg)}
ul.tiles li.warn{border-color:var(--dev);background:var(--dev-bg)}
.card{background:#fff;border:1px solid #ddd;border-left:6px solid var(--fail);border-radius:6px;
padding:10px 14px;margin:10px 0}
.card.crash-hang{border-left-color:var(--crash)}.card.backend-error{border-left-color:var(--error)}
.card.hlocheck-bug{border-left-color:var(--bug)}
pre{background:#f5f5f5;border:1px solid #e0e0e0;border-radius:4px;padding:8px;overflow:auto;
max-height:320px;font:12px/1.4 ui-monospace,"DejaVu Sans Mono",monospace;margin:4px 0}
code{font:12px ui-monospace,"DejaVu Sans Mono",monospace;background:#f0f0f0;padding:1px 3px;
border-radius:3px;word-break:break-all}
button.copy{font-size:12px;padding:2px 8px;margin-left:6px;cursor:pointer}
table{border-collapse:collapse}
table.values td,table.values th{border:1px solid #ddd;padding:2px 8px;text-align:left;
font:12px ui-monospace,"DejaVu Sans Mono",monospace}
table.values th{background:#f5f5f5;font-family:inherit}
table.failing td{font-family:inherit}
.matrix-wrap{overflow:auto;max-height:80vh;border:1px solid #ddd;background:#fff}
table.matrix{font-size:12px}
table.matrix th{position:sticky;background:#fff;z-index:1;font-weight:600;white-space:nowrap}
table.matrix thead th{top:0;writing-mode:vertical-rl;transform:rotate(180deg);padding:4px 2px;
height:110px;text-align:left}
table.matrix tbody th{left:0;text-align:right;padding:0 8px}
table.matrix td{width:22px;height:20px;text-align:center;padding:0;border:1px solid #fff}
table.matrix td a{display:block;color:inherit;text-decoration:none;font-weight:700}
body.only-problems table.matrix tr.clean{display:none}
.v-pass{background:var(--pass-bg);color:var(--pass)}.v-mismatch{background:var(--fail);color:#fff}
.v-crash-hang{background:var(--crash);color:#fff}.v-backend-error{background:var(--error);color:#fff}
.v-hlocheck-bug{background:var(--bug);color:#fff}.v-waived{background:#f8bbd0;color:#880e4f}.v-deviation{background:var(--dev-bg);color:var(--dev)}
.v-convention{background:var(--conv-bg);color:var(--conv)}.v-skipped{background:var(--skip-bg);color:var(--skip)}
.v-not-implemented{background:repeating-linear-gradient(45deg,#f0f0f0 0 3px,#ddd 3px 6px);color:#777}
td.changed{outline:2px solid #000;outline-offset:-2px}
.legend span.key{display:inline-block;min-width:22px;text-align:center;margin:0 4px 0 12px;
border-radius:3px;font-weight:700}
details.group{background:#fff;border:1px solid #e0e0e0;border-radius:4px;margin:3px 0}
details.group>summary{cursor:pointer;padding:3px 8px;list-style-position:inside}
details.group>div{padding:4px 12px 10px}
details.group:target,details.group[open]{border-color:#888}
.badge{display:inline-block;border-radius:3px;padding:0 6px;font-size:12px;font-weight:700;
margin-left:6px}
svg.hist rect.hok{fill:#66bb6a}svg.hist rect.hbad{fill:#e53935}svg.hist rect.h0{fill:#ccc}
svg.hist line.bound{stroke:#000;stroke-dasharray:3 2}svg.hist text{font-size:10px;fill:#333}
table.coverage thead th{text-align:left}
table.coverage th{text-align:right;vertical-align:top;padding:2px 8px;white-space:nowrap}
table.coverage td.cov-cases{font-size:12px;color:#555;white-space:nowrap;vertical-align:top}
span.cc{display:inline-block;margin:1px;padding:0 4px;border-radius:3px;font-size:12px;
font-weight:600;cursor:help}
span.cc small{font-weight:400;margin-left:3px;opacity:.8}
.c-full{background:var(--pass-bg);color:var(--pass)}.c-branch{background:var(--dev-bg);color:var(--dev)}
.c-one{background:#ffe0b2;color:#bf360c}.c-none{background:var(--fail-bg);color:var(--fail)}
.norecipe{color:var(--fail);font-weight:600}
table.changes td,table.changes th{border:1px solid #ddd;padding:2px 8px;text-align:left}
.change-new{color:var(--fail);font-weight:700}.change-fixed{color:var(--pass);font-weight:700}
.change-regression{color:var(--dev);font-weight:700}
footer{color:#777;font-size:12px;padding:12px 24px}
svg.progress{background:#fff;border:1px solid #ddd}svg.progress polyline{fill:none;stroke-width:2}
svg.progress text{font-size:10px;fill:#333}
.p-cases{stroke:#1565c0;background:#1565c0}.p-failed{stroke:#c62828;background:#c62828}
.p-findings{stroke:#a66a00;background:#a66a00;stroke-dasharray:4 2}
.legend span.key.p-cases,.legend span.key.p-failed,.legend span.key.p-findings{height:4px;
min-width:18px;vertical-align:middle}
)css";

// Opens a group's details when its anchor is followed, copies reproducers,
// filters the matrix, and records when the page finished its layout (for
// the browser test). It writes nothing to the console.
constexpr const char* kScript = R"js(
(function () {
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id ? document.getElementById(id) : null;
    if (target && target.tagName === 'DETAILS') target.open = true;
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
  function copied(button, ok) {
    var old = button.textContent;
    button.textContent = ok ? 'copied' : 'select and copy';
    setTimeout(function () { button.textContent = old; }, 1500);
  }
  function fallbackCopy(text, button) {
    var area = document.createElement('textarea');
    area.value = text;
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(area);
    copied(button, ok);
  }
  document.addEventListener('click', function (event) {
    var button = event.target.closest ? event.target.closest('button[data-copy]') : null;
    if (!button) return;
    var source = document.getElementById(button.getAttribute('data-copy'));
    if (!source) return;
    var text = source.textContent;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { copied(button, true); },
                                               function () { fallbackCopy(text, button); });
    } else {
      fallbackCopy(text, button);
    }
  });
  var only = document.getElementById('only-problems');
  if (only) {
    only.addEventListener('change', function () {
      document.body.classList.toggle('only-problems', only.checked);
    });
  }
  window.addEventListener('load', function () {
    void document.body.offsetHeight;  // force style and layout before measuring
    document.documentElement.setAttribute('data-render-ms', String(Math.round(performance.now())));
  });
})();
)js";

const char* VerdictGlyph(GroupVerdict v) {
  switch (v) {
    case GroupVerdict::kHlocheckBug:
      return "B";
    case GroupVerdict::kCrashOrHang:
      return "&#x2620;";  // skull: crash or hang
    case GroupVerdict::kBackendError:
      return "E";
    case GroupVerdict::kMismatch:
      return "&#x2717;";  // ballot x
    case GroupVerdict::kWaived:
      return "W";
    case GroupVerdict::kDeviation:
      return "D";
    case GroupVerdict::kConvention:
      return "C";
    case GroupVerdict::kPass:
      return "&#x2713;";  // check mark
    case GroupVerdict::kNotImplemented:
      return "&#xB7;";
    case GroupVerdict::kSkipped:
      return "&#x2013;";
  }
  return "?";
}

const char* VerdictWords(GroupVerdict v) {
  switch (v) {
    case GroupVerdict::kHlocheckBug:
      return "hlocheck bug (the oracle or generator failed)";
    case GroupVerdict::kCrashOrHang:
      return "backend crash or hang";
    case GroupVerdict::kBackendError:
      return "backend error on a valid case";
    case GroupVerdict::kMismatch:
      return "unexpected mismatch";
    case GroupVerdict::kWaived:
      return "failure waived by the gate config";
    case GroupVerdict::kDeviation:
      return "declared deviation only";
    case GroupVerdict::kConvention:
      return "differs from the de facto convention";
    case GroupVerdict::kPass:
      return "pass";
    case GroupVerdict::kNotImplemented:
      return "not implemented by the backend";
    case GroupVerdict::kSkipped:
      return "skipped";
  }
  return "?";
}

std::string VerdictBadge(GroupVerdict v) {
  return "<span class=\"badge v-" + std::string(VerdictName(v)) + "\">" + VerdictWords(v) +
         "</span>";
}

std::string CopyButton(const std::string& target) {
  return "<button class=\"copy\" type=\"button\" data-copy=\"" + target + "\">copy</button>";
}

std::string ReplayCommand(const GateRun& run, const std::string& key) {
  return "build/hlocheck replay --backend " + run.backend + " " + key;
}

// The counts of one group in a line: "1,000 cases: 998 passed, 2 failed".
std::string CountsLine(const GroupResult& g) {
  std::string line = Count(g.cases) + " cases: " + Count(g.passed) + " passed";
  if (g.failed) line += ", " + Count(g.failed) + " failed";
  if (g.deviating) line += ", " + Count(g.deviating) + " deviating";
  if (g.differs_from_convention) {
    line += ", " + Count(g.differs_from_convention) + " differ from the convention";
  }
  if (g.skipped) line += ", " + Count(g.skipped) + " skipped";
  return line;
}

std::string Header(const ReportInputs& in) {
  std::string title;
  std::string cls = "neutral";
  std::string subtitle;
  if (in.run != nullptr) {
    const GateRun& run = *in.run;
    const FailureCounts counts = CountFailures(run);
    const int64_t failing_groups = counts.groups;
    const int64_t failed = counts.cases;
    cls = run.failed() ? "failed" : "ok";
    title = failed > 0 ? "hlocheck gate FAILED: " + Count(failed) + " unexpected failure(s) in " +
                             Count(failing_groups) + " of " + Count(run.groups.size()) + " groups"
            : run.failed() ? "hlocheck gate FAILED: " + Count(run.expired_waivers.size()) +
                                 " expired waiver(s)"
                           : "hlocheck gate passed: " + Count(run.groups.size()) + " groups";
    subtitle = "backend <b>" + Escape(run.backend) + "</b> &middot; " +
               Count(run.total(&GroupResult::cases)) + " cases &middot; " +
               html::Duration(run.seconds);
  } else if (in.campaign != nullptr) {
    const CampaignTotals& t = in.campaign->totals;
    cls = t.failed > 0 ? "failed" : "ok";
    const auto backend = in.campaign->settings.find("backend");
    title = "hlocheck campaign" +
            (backend == in.campaign->settings.end() ? std::string() : " on " + backend->second) +
            ": " + Count(t.findings) + " distinct finding(s) in " + Count(t.cases) + " cases";
  } else {
    title = "hlocheck spec coverage";
  }
  std::string out = "<header class=\"" + cls + "\"><h1 id=\"verdict\">" + Escape(title) +
                    "</h1><p>" + subtitle + "</p>";
  if (in.run != nullptr) {
    const GateRun& run = *in.run;
    auto row = [&](const char* key, const std::string& value) {
      out += "<dt>" + std::string(key) + "</dt><dd>" + Escape(value) + "</dd>";
    };
    out += "<dl class=\"meta\">";
    row("backend", run.backend);
    row("profile", run.profile.empty() ? "none (every deviation is a failure)" : run.profile);
    row("command", run.command_line);
    row("seed", std::to_string(run.seed));
    row("cases per group", Count(run.cases_per_group));
    if (run.max_elements > 0) row("largest tensor", Count(run.max_elements) + " elements");
    row("hlocheck", run.hlocheck_version.empty() ? "(not recorded)" : run.hlocheck_version);
    row("spec digest", run.spec_digest.empty() ? "(not recorded)" : run.spec_digest);
    row("started", run.started_at.empty() ? "(not recorded)" : run.started_at);
    row("wall time", html::Duration(run.seconds));
    row("report", in.run_file);
    for (const std::string& expired : run.expired_waivers) row("EXPIRED WAIVER", expired);
    out += "</dl>";
  }
  return out + "</header>\n";
}

std::string Nav(const ReportInputs& in, int64_t findings) {
  std::string out = "<nav>";
  if (in.run != nullptr) {
    out += "<a href=\"#summary\">Summary</a><a href=\"#findings\">Findings (" + Count(findings) +
           ")</a><a href=\"#verdicts\">Verdicts</a><a href=\"#groups\">Groups</a>";
  }
  if (in.comparison != nullptr) out += "<a href=\"#baseline\">Changes since baseline</a>";
  if (in.campaign != nullptr) out += "<a href=\"#campaign\">Campaign</a>";
  if (in.coverage != nullptr) out += "<a href=\"#coverage\">Spec coverage</a>";
  return out + "</nav>\n";
}

std::string Summary(const GateRun& run) {
  std::string out = "<section id=\"summary\"><h2>Summary</h2><ul class=\"tiles\">";
  auto tile = [&](const char* key, const char* words, int64_t value, const char* cls) {
    out += "<li class=\"" + std::string(value > 0 ? cls : "") + "\"><b data-count=\"" + key +
           "\">" + Count(value) + "</b>" + words + "</li>";
  };
  tile("groups", "op &times; type groups", static_cast<int64_t>(run.groups.size()), "");
  tile("cases", "cases", run.total(&GroupResult::cases), "");
  tile("passed", "passed", run.total(&GroupResult::passed), "");
  tile("failed", "failed", run.total(&GroupResult::failed), "bad");
  const int64_t waived = CountFailures(run).waived_cases;
  if (waived > 0) tile("waived", "of them waived by the gate config", waived, "warn");
  tile("deviating", "deviating as declared", run.total(&GroupResult::deviating), "warn");
  tile("differs_from_convention", "differ from the convention",
       run.total(&GroupResult::differs_from_convention), "warn");
  tile("skipped", "skipped", run.total(&GroupResult::skipped), "");
  tile("quantized_cases", "quantized cases", run.total(&GroupResult::quantized_cases), "");
  tile("quantized_skipped", "quantized cases skipped", run.total(&GroupResult::quantized_skipped),
       "");
  tile("free_elements", "elements left open by the spec", run.total(&GroupResult::free_elements),
       "");
  out += "</ul>";
  // Every failing group in a line: what a reader came for.
  std::string failing;
  for (const GroupResult& g : run.groups) {
    if (g.failed == 0) continue;
    const GroupVerdict v = VerdictOf(g);
    const std::string target =
        g.findings.empty() ? GroupAnchor(g.op, g.type) : FindingAnchor(g.op, g.type);
    failing += "<tr><td><a href=\"#" + target + "\">" + Escape(g.op) + " &middot; " +
               Escape(Name(g.type)) + "</a></td><td><span class=\"badge v-" +
               std::string(VerdictName(v)) + "\">" + VerdictWords(v) + "</span></td><td>" +
               Count(g.failed) + " of " + Count(g.cases) + "</td><td>" +
               (g.findings.empty() ? std::string() : Escape(FindingSummary(g.findings.front()))) +
               "</td></tr>";
  }
  if (!failing.empty()) {
    out +=
        "<h3>Failing groups</h3><table class=\"values failing\"><thead><tr><th>op &middot; "
        "type</th><th>verdict</th><th>cases failed</th><th>first failure, shrunk</th></tr>"
        "</thead><tbody>" +
        failing + "</tbody></table>";
  }
  return out + "</section>\n";
}

std::string MismatchTable(const Finding& f) {
  if (f.mismatches.empty()) return "";
  std::string out =
      "<table class=\"values\"><thead><tr><th>result</th><th>index</th><th>oracle "
      "(expected)</th><th>backend (got)</th><th>allowed</th><th>ULP</th></tr></thead><tbody>";
  for (const MismatchedElement& m : f.mismatches) {
    std::string index = "[";
    for (size_t i = 0; i < m.index.size(); ++i) {
      index += (i ? ", " : "") + std::to_string(m.index[i]);
    }
    out += "<tr><td>" + std::to_string(m.result) + "</td><td>" + index + "]</td><td>" +
           Escape(m.expected) + "</td><td>" + Escape(m.actual) + "</td><td>" + Escape(m.allowed) +
           "</td><td>" + (m.ulp < 0 ? "&ndash;" : Count(m.ulp)) + "</td></tr>";
  }
  out += "</tbody></table>";
  if (f.mismatched_elements > static_cast<int64_t>(f.mismatches.size())) {
    out += "<p class=\"meta\">" + Count(f.mismatched_elements) + " element(s) differ in all; " +
           "the first " + Count(f.mismatches.size()) + " are shown.</p>";
  }
  return out;
}

std::string FindingCard(const GateRun& run, const GroupResult& g, const Finding& f) {
  const GroupVerdict v = VerdictOf(g);
  const std::string anchor = FindingAnchor(g.op, g.type);
  std::string out = "<div class=\"card " + std::string(VerdictName(v)) + "\" id=\"" + anchor +
                    "\"><h3>" + Escape(g.op) + " &middot; " + Escape(Name(g.type)) +
                    VerdictBadge(v) + "</h3>";
  out += "<p><b>" + Escape(KindName(f.kind)) + "</b>: " + Escape(FindingSummary(f)) + " &middot; " +
         Count(g.failed) + " of " + Count(g.cases) + " cases failed &middot; <a href=\"#" +
         GroupAnchor(g.op, g.type) + "\">group details</a></p>";
  out += MismatchTable(f);
  if (!f.message.empty()) out += "<pre>" + Escape(f.message) + "</pre>";
  if (f.original_elements > 0 || f.shrink_steps > 0) {
    out += "<p class=\"meta\">case " + std::to_string(f.case_index) + ", shrunk from " +
           Count(f.original_elements) + " to " + Count(f.minimal_elements) + " input elements in " +
           Count(f.shrink_steps) + " steps.</p>";
  }
  if (!f.reproducer.empty()) {
    out +=
        "<p>Minimal reproducer (StableHLO; <code>hlocheck interpret</code> runs it on the "
        "oracle)" +
        CopyButton(anchor + "-repro") + "</p><pre id=\"" + anchor + "-repro\">" +
        Escape(f.reproducer) + "</pre>";
  }
  if (!f.replay.empty()) {
    out += "<p>Replay this case" + CopyButton(anchor + "-replay") + "<br><code id=\"" + anchor +
           "-replay\">" + Escape(ReplayCommand(run, f.replay)) + "</code></p>";
  }
  if (!f.command.empty()) {
    out += "<p>Run the group again" + CopyButton(anchor + "-command") + "<br><code id=\"" + anchor +
           "-command\">" + Escape(f.command) + "</code></p>";
  }
  return out + "</div>\n";
}

std::string Findings(const GateRun& run, int64_t& count) {
  std::string cards;
  count = 0;
  for (const GroupResult& g : run.groups) {
    if (g.failed == 0) continue;
    for (const Finding& f : g.findings) {
      cards += FindingCard(run, g, f);
      ++count;
    }
  }
  std::string out = "<section id=\"findings\"><h2>Findings</h2>";
  if (count == 0) {
    out +=
        "<p>No unexpected failure: every case passed, deviated only as the backend's profile "
        "declares, or was skipped (see the verdicts).</p>";
  } else {
    out +=
        "<p class=\"meta\">The first failing case of each failing group, shrunk. The exit "
        "status follows these alone.</p>";
  }
  return out + cards + "</section>\n";
}

std::string Matrix(const GateRun& run, const RunComparison* comparison) {
  std::set<ElementType> used;
  std::vector<std::string> ops;
  std::map<std::string, std::map<ElementType, const GroupResult*>> cells;
  for (const GroupResult& g : run.groups) {
    used.insert(g.type);
    if (cells.find(g.op) == cells.end()) ops.push_back(g.op);
    cells[g.op][g.type] = &g;
  }
  std::vector<ElementType> types;
  for (ElementType t : AllElementTypes()) {
    if (used.count(t)) types.push_back(t);
  }
  std::string out =
      "<section id=\"verdicts\"><h2>Verdicts: op &times; element type</h2><p class=\"legend\">";
  for (GroupVerdict v : {GroupVerdict::kPass, GroupVerdict::kMismatch, GroupVerdict::kCrashOrHang,
                         GroupVerdict::kBackendError, GroupVerdict::kHlocheckBug,
                         GroupVerdict::kWaived, GroupVerdict::kDeviation, GroupVerdict::kConvention,
                         GroupVerdict::kSkipped, GroupVerdict::kNotImplemented}) {
    out += "<span class=\"key v-" + std::string(VerdictName(v)) + "\">" + VerdictGlyph(v) +
           "</span>" + VerdictWords(v);
  }
  if (comparison != nullptr)
    out += "<span class=\"key changed\">&#x25A1;</span>changed since the baseline";
  out +=
      "</p><p><label><input type=\"checkbox\" id=\"only-problems\"> only ops with something "
      "other than passes</label> &middot; the element type is the first operand's; a cell "
      "links to the group's details.</p><div class=\"matrix-wrap\"><table "
      "class=\"matrix\"><thead><tr><th></th>";
  for (ElementType t : types) out += "<th>" + Escape(Name(t)) + "</th>";
  out += "</tr></thead><tbody>\n";
  for (const std::string& op : ops) {
    std::string row;
    bool clean = true;
    for (ElementType t : types) {
      auto it = cells[op].find(t);
      if (it == cells[op].end()) {
        row += "<td></td>";
        continue;
      }
      const GroupResult& g = *it->second;
      const GroupVerdict v = VerdictOf(g);
      clean = clean && v == GroupVerdict::kPass;
      const GroupChange* change = comparison ? comparison->Find(op, t) : nullptr;
      std::string title =
          op + " " + std::string(Name(t)) + ": " + VerdictWords(v) + "; " + CountsLine(g);
      if (!g.skip_reason.empty() && g.passed + g.failed + g.deviating == 0) {
        title += "; " + g.skip_reason;
      }
      if (change != nullptr) title += "; " + std::string(ChangeName(change->kind));
      row += "<td class=\"v-" + std::string(VerdictName(v)) + (change ? " changed" : "") +
             "\"><a href=\"#" + GroupAnchor(op, t) + "\" title=\"" + Escape(title) + "\">" +
             VerdictGlyph(v) + "</a></td>";
    }
    out += "<tr class=\"" + std::string(clean ? "clean" : "problem") + "\"><th>" + Escape(op) +
           "</th>" + row + "</tr>\n";
  }
  return out + "</tbody></table></div></section>\n";
}

std::string Accuracy(const GroupResult& g) {
  if (g.check == "exact") return "bit-exact comparison";
  if (g.check == "ulp") {
    return "worst " + (g.worst_ulp < 0 ? std::string("&ndash;") : Count(g.worst_ulp)) +
           " ULP, allowed " + std::to_string(g.allowed_ulp) + " ULP";
  }
  if (g.check == "storage range") {
    return g.worst_ulp > 0 ? "worst " + Count(g.worst_ulp) + " storage steps outside the range"
                           : "every storage integer in its allowed range";
  }
  if (g.check == "bound") {
    char text[64];
    std::snprintf(text, sizeof(text), "worst |error| / bound %.3g", g.worst_bound_fraction);
    return text;
  }
  return Escape(g.check);
}

std::string GroupDetails(const GateRun& run, const GroupResult& g,
                         const RunComparison* comparison) {
  const GroupVerdict v = VerdictOf(g);
  const std::string anchor = GroupAnchor(g.op, g.type);
  std::string out = "<details class=\"group\" id=\"" + anchor + "\"><summary><b>" + Escape(g.op) +
                    "</b> &middot; " + Escape(Name(g.type)) + VerdictBadge(v) + " " +
                    CountsLine(g) + "</summary><div>";
  out += "<p>" + Accuracy(g) + " &middot; " + Count(g.elements_compared) + " elements compared, " +
         Count(g.free_elements) + " left open by the spec (not compared) &middot; " +
         html::Duration(g.seconds) + "</p>";
  if (const GroupChange* change = comparison ? comparison->Find(g.op, g.type) : nullptr) {
    out += "<p><b>" + std::string(ChangeName(change->kind)) +
           "</b> since the baseline: " + Escape(change->detail) + "</p>";
  }
  if (g.distances.total() > 0 && g.distances.total() == g.distances.count[0]) {
    out += "<p>Every one of the " + Count(g.distances.total()) +
           " compared float elements equals the oracle's reference exactly.</p>";
  } else if (g.distances.total() > 0) {
    out += "<p>Distance from the oracle's reference of every compared float element (" +
           std::string(g.check == "bound" ? "|error| / bound" : "ULPs") +
           ", counts on a log scale; hover a bar):</p>" + html::HistogramSvg(g);
    if (g.distances.count[DistanceHistogram::kUnmeasured] > 0) {
      out += "<p class=\"meta\">" + Count(g.distances.count[DistanceHistogram::kUnmeasured]) +
             " element(s) had no distance: a NaN against a number.</p>";
    }
  }
  auto replay = [&](const std::string& what, const std::string& key, const std::string& id) {
    if (key.empty()) return;
    out += "<p>" + what + CopyButton(id) + "<br><code id=\"" + id + "\">" +
           Escape(ReplayCommand(run, key)) + "</code></p>";
  };
  if (!g.worst_example.empty()) {
    out += "<p>Farthest element: " + Escape(g.worst_example) + "</p>";
    replay("Its case", g.worst_replay, anchor + "-worst");
  }
  if (g.failed > 0 && !g.findings.empty()) {
    out += "<p><a href=\"#" + FindingAnchor(g.op, g.type) + "\">The finding, shrunk</a></p>";
  }
  if (!g.waiver.empty()) out += "<p>Waived by the gate config: " + Escape(g.waiver) + "</p>";
  if (g.deviating > 0) {
    out += "<p>Excused by the profile's declared deviations:";
    for (const auto& [id, n] : g.excused)
      out += " <code>" + Escape(id) + "</code> " + Count(n) + " element(s);";
    out += "</p>";
    replay("The first deviating case", g.deviation_replay, anchor + "-deviation");
  }
  if (g.differs_from_convention > 0) {
    out += "<p>Differs from the de facto convention in " + Count(g.convention_elements) +
           " element(s), e.g. " + Escape(g.convention_example) + "</p>";
    replay("The first such case", g.convention_replay, anchor + "-convention");
  }
  if (g.batch_only_failures > 0) {
    out += "<p>" + Count(g.batch_only_failures) +
           " case(s) failed only when compiled in a batch with others.</p>";
    replay("The first", g.batch_only_replay, anchor + "-batch");
  }
  if (g.skipped > 0 && !g.skip_reason.empty()) {
    out += "<p>Skipped: " + Escape(g.skip_reason) + "</p>";
  }
  return out + "</div></details>\n";
}

std::string Groups(const GateRun& run, const RunComparison* comparison) {
  std::string out =
      "<section id=\"groups\"><h2>Groups</h2><p class=\"meta\">One per op and "
      "element type; open one for its accuracy, histogram and replay commands.</p>";
  for (const GroupResult& g : run.groups) out += GroupDetails(run, g, comparison);
  return out + "</section>\n";
}

std::string Changes(const ReportInputs& in) {
  const RunComparison& c = *in.comparison;
  std::string out =
      "<section id=\"baseline\"><h2>Changes since the baseline</h2><p class=\"meta\">"
      "Baseline: " +
      Escape(c.baseline_file) + ".</p><ul class=\"tiles\">";
  auto tile = [&](const char* key, GroupChange::Kind kind, const char* cls) {
    const int64_t n = c.count(kind);
    out += "<li class=\"" + std::string(n > 0 ? cls : "") + "\"><b data-count=\"" + key + "\">" +
           Count(n) + "</b>" + ChangeName(kind) + "(s)</li>";
  };
  tile("new_failures", GroupChange::Kind::kNewFailure, "bad");
  tile("fixed", GroupChange::Kind::kFixed, "");
  tile("bound_regressions", GroupChange::Kind::kBoundRegression, "warn");
  out += "</ul>";
  for (const std::string& caveat : c.caveats) {
    out += "<p class=\"meta\">Note: " + Escape(caveat) +
           ", so some changes may come from other cases.</p>";
  }
  if (!c.changes.empty()) {
    out +=
        "<table class=\"changes\"><thead><tr><th>change</th><th>op</th><th>type</th>"
        "<th>what</th></tr></thead><tbody>";
    for (const GroupChange& change : c.changes) {
      const char* cls = change.kind == GroupChange::Kind::kNewFailure ? "change-new"
                        : change.kind == GroupChange::Kind::kFixed    ? "change-fixed"
                                                                      : "change-regression";
      out += "<tr><td class=\"" + std::string(cls) + "\">" + ChangeName(change.kind) +
             "</td><td><a href=\"#" + GroupAnchor(change.op, change.type) + "\">" +
             Escape(change.op) + "</a></td><td>" + Escape(Name(change.type)) + "</td><td>" +
             Escape(change.detail) + "</td></tr>";
    }
    out += "</tbody></table>";
  } else {
    out += "<p>Nothing changed: the same groups fail, and no worst distance grew.</p>";
  }
  return out + "</section>\n";
}

}  // namespace

std::string RenderHtmlReport(const ReportInputs& in) {
  std::string body;
  int64_t findings = 0;
  // What failed first (the summary lists it, the matrix shows where), then
  // the details a reader clicks through to.
  if (in.run != nullptr) body += Summary(*in.run);
  if (in.comparison != nullptr && in.run != nullptr) body += Changes(in);
  if (in.run != nullptr) {
    body += Matrix(*in.run, in.comparison);
    body += Findings(*in.run, findings);
    body += Groups(*in.run, in.comparison);
  }
  if (in.campaign != nullptr) body += html::CampaignSection(*in.campaign);
  if (in.coverage != nullptr) {
    body += html::CoverageSection(*in.coverage, in.coverage_file, in.registry);
  }
  const std::string title = in.run != nullptr        ? "hlocheck gate: " + in.run->backend
                            : in.campaign != nullptr ? std::string("hlocheck campaign")
                                                     : "hlocheck spec coverage";
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
         "<title>" +
         Escape(title) + "</title><style>" + kStyle + "</style></head><body>\n" + Header(in) +
         Nav(in, findings) + "<main>\n" + body + "</main><footer>Written by hlocheck " +
         Escape(in.writer_version) + " from " +
         Escape(!in.run_file.empty()     ? in.run_file
                : in.campaign != nullptr ? in.campaign->store
                                         : in.coverage_file) +
         ". Formats: docs/report-format.md, docs/coverage-format.md.</footer><script>" + kScript +
         "</script></body></html>\n";
}

}  // namespace hlocheck
