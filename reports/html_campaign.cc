// A fuzzing campaign in the HTML report: its totals, its counts over time
// (inline SVG), and each distinct finding with its count, first and last
// sighting, reproducer and replay command.
#include <algorithm>
#include <cstdio>

#include "reports/html_internal.h"
#include "reports/time_format.h"

namespace hlocheck::html {
namespace {

std::string Time(double unix_seconds) { return UtcTime(unix_seconds, "%Y-%m-%d %H:%M:%SZ"); }

// Cases (and failed cases) over time as two polylines, and the number of
// distinct findings as steps, each scaled to its own maximum.
std::string ProgressSvg(const std::vector<CampaignProgressPoint>& points) {
  if (points.size() < 2) {
    return "<p class=\"meta\">Counts over time appear once the campaign has run for a few "
           "seconds.</p>";
  }
  const int width = 640, height = 160, left = 48, bottom = 22, top = 8;
  const double t0 = points.front().time;
  const double span = std::max(1e-9, points.back().time - t0);
  int64_t most_cases = 1, most_findings = 1;
  for (const CampaignProgressPoint& p : points) {
    most_cases = std::max(most_cases, p.cases);
    most_findings = std::max(most_findings, p.findings);
  }
  auto x = [&](double t) { return left + (width - left - 8) * (t - t0) / span; };
  auto y = [&](double v, double most) { return top + (height - top - bottom) * (1 - v / most); };
  auto line = [&](auto value, double most, const char* cls) {
    std::string path;
    for (const CampaignProgressPoint& p : points) {
      char xy[48];
      std::snprintf(xy, sizeof(xy), "%.1f,%.1f ", x(p.time),
                    y(static_cast<double>(value(p)), most));
      path += xy;
    }
    return "<polyline class=\"" + std::string(cls) + "\" points=\"" + path + "\"/>";
  };
  std::string svg = "<svg class=\"progress\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(width) + "\" height=\"" + std::to_string(height) +
                    "\" role=\"img\" aria-label=\"campaign counts over time\">";
  svg += line([](const CampaignProgressPoint& p) { return p.cases; }, most_cases, "p-cases");
  svg += line([](const CampaignProgressPoint& p) { return p.failed; }, most_cases, "p-failed");
  svg +=
      line([](const CampaignProgressPoint& p) { return p.findings; }, most_findings, "p-findings");
  char text[160];
  std::snprintf(text, sizeof(text),
                "<text x=\"2\" y=\"%d\">%s</text><text x=\"2\" y=\"%d\">0</text>"
                "<text x=\"%d\" y=\"%d\">0 s</text><text x=\"%d\" y=\"%d\" "
                "text-anchor=\"end\">%s</text>",
                top + 10, Compact(most_cases).c_str(), height - bottom, left, height - 6, width - 8,
                height - 6, Duration(span).c_str());
  svg += text;
  return svg +
         "</svg><p class=\"legend\"><span class=\"key p-cases\"></span>cases "
         "<span class=\"key p-failed\"></span>failed cases (same scale) "
         "<span class=\"key p-findings\"></span>distinct findings (up to " +
         Count(most_findings) + ")</p>";
}

}  // namespace

std::string CampaignSection(const CampaignReport& c) {
  std::string out =
      "<section id=\"campaign\"><h2>Campaign</h2><p class=\"meta\">" + Escape(c.store);
  for (const char* key : {"backend", "seed", "max_elements", "spec_digest"}) {
    auto it = c.settings.find(key);
    if (it != c.settings.end()) out += " &middot; " + std::string(key) + " " + Escape(it->second);
  }
  out += "</p><ul class=\"tiles\">";
  auto tile = [&](const char* key, const char* words, int64_t value, const char* cls) {
    out += "<li class=\"" + std::string(value > 0 ? cls : "") + "\"><b data-count=\"" + key +
           "\">" + Count(value) + "</b>" + words + "</li>";
  };
  tile("campaign_cases", "cases", c.totals.cases, "");
  tile("campaign_passed", "passed", c.totals.passed, "");
  tile("campaign_failed", "failed", c.totals.failed, "bad");
  tile("campaign_deviating", "deviating as declared", c.totals.deviating, "warn");
  tile("campaign_skipped", "skipped", c.totals.skipped, "");
  tile("campaign_findings", "distinct findings", c.totals.findings, "bad");
  out += "</ul>" + ProgressSvg(c.progress);
  if (c.findings.empty()) return out + "<p>No finding.</p></section>\n";
  out +=
      "<table class=\"values failing\"><thead><tr><th>#</th><th>op &middot; type</th>"
      "<th>kind</th><th>count</th><th>first seen</th><th>last seen</th><th>what</th></tr>"
      "</thead><tbody>";
  for (const StoredFinding& f : c.findings) {
    out += "<tr><td><a href=\"#cf-" + std::to_string(f.id) + "\">" + std::to_string(f.id) +
           "</a></td><td>" + Escape(f.op) + " &middot; " + Escape(f.type) + "</td><td>" +
           Escape(f.kind) + "</td><td>" + Count(f.count) + "</td><td>" + Time(f.first_seen) +
           "</td><td>" + Time(f.last_seen) + "</td><td>" + Escape(f.summary) + "</td></tr>";
  }
  out += "</tbody></table>";
  for (const StoredFinding& f : c.findings) {
    const std::string id = "cf-" + std::to_string(f.id);
    out += "<div class=\"card\" id=\"" + id + "\"><h3>#" + std::to_string(f.id) + " " +
           Escape(f.op) + " &middot; " + Escape(f.type) + " &middot; " + Escape(f.kind) + "</h3>" +
           "<p>" + Escape(f.summary) + " &middot; seen " + Count(f.count) +
           " time(s), first in campaign case " + Count(f.first_unit) +
           "</p><p class=\"meta\">signature: <code>" + Escape(f.signature) + "</code></p>";
    if (!f.details.empty()) out += "<pre>" + Escape(f.details) + "</pre>";
    if (!f.reproducer.empty()) {
      out += "<p>Minimal reproducer<button class=\"copy\" type=\"button\" data-copy=\"" + id +
             "-repro\">copy</button></p><pre id=\"" + id + "-repro\">" + Escape(f.reproducer) +
             "</pre>";
    }
    out += "<p>Replay<button class=\"copy\" type=\"button\" data-copy=\"" + id +
           "-replay\">copy</button><br><code id=\"" + id + "-replay\">build/hlocheck replay " +
           "--backend " + Escape(c.settings.count("backend") ? c.settings.at("backend") : "") +
           " " + Escape(f.replay) + "</code></p>";
    if (!f.command.empty()) out += "<p class=\"meta\">" + Escape(f.command) + "</p>";
    out += "</div>";
  }
  return out + "</section>\n";
}

}  // namespace hlocheck::html
