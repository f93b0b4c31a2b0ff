// The small pieces of the HTML report: escaping, numbers in words, and the
// distance histogram drawn as inline SVG.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "reports/html_internal.h"

namespace hlocheck::html {

std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Count(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string Compact(int64_t n) {
  char text[32];
  if (n >= 1'000'000) {
    std::snprintf(text, sizeof(text), "%.1fM", n / 1e6);
  } else if (n >= 10'000) {
    std::snprintf(text, sizeof(text), "%lldk", static_cast<long long>(n / 1000));
  } else if (n >= 1'000) {
    std::snprintf(text, sizeof(text), "%.1fk", n / 1e3);
  } else {
    std::snprintf(text, sizeof(text), "%lld", static_cast<long long>(n));
  }
  return text;
}

std::string Duration(double seconds) {
  char text[48];
  if (seconds < 60) {
    std::snprintf(text, sizeof(text), "%.1f s", seconds);
  } else if (seconds < 3600) {
    std::snprintf(text, sizeof(text), "%d min %d s", static_cast<int>(seconds) / 60,
                  static_cast<int>(seconds) % 60);
  } else {
    std::snprintf(text, sizeof(text), "%d h %d min", static_cast<int>(seconds) / 3600,
                  static_cast<int>(seconds) % 3600 / 60);
  }
  return text;
}

namespace {

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

// A bucket's distances in words: "0 ULP", "3..4 ULP", "> 2^20 ULP",
// "(1/4, 1/2] of the bound".
std::string BucketLabel(int b, bool bounded) {
  if (b == DistanceHistogram::kUnmeasured) return "no distance (NaN against a number)";
  if (b == 0) return bounded ? "exact (0 of the bound)" : "0 ULP";
  if (bounded) {
    if (b == DistanceHistogram::kBeyond) return "beyond the bound";
    return "(" + Number(DistanceHistogram::FractionLower(b)) + ", " +
           Number(DistanceHistogram::FractionUpper(b)) + "] of the bound";
  }
  if (b == DistanceHistogram::kBeyond) return "> 2^20 ULP";
  const int64_t lower = static_cast<int64_t>(DistanceHistogram::UlpLower(b)) + 1;
  const int64_t upper = static_cast<int64_t>(DistanceHistogram::UlpUpper(b));
  return lower == upper ? std::to_string(upper) + " ULP"
                        : std::to_string(lower) + ".." + std::to_string(upper) + " ULP";
}

}  // namespace

std::string HistogramSvg(const GroupResult& g) {
  const DistanceHistogram& h = g.distances;
  const bool bounded = g.check == "bound";
  // The last bucket still within what the op allows.
  const int allowed_bucket = bounded ? 21 : DistanceHistogram::UlpBucket(g.allowed_ulp);
  int last = 0;
  for (int b = 0; b < DistanceHistogram::kUnmeasured; ++b) {
    if (h.count[b] > 0) last = b;
  }
  last = bounded ? DistanceHistogram::kBeyond
                 : std::min(DistanceHistogram::kBeyond, std::max({last, allowed_bucket + 1, 5}));
  const bool unmeasured = h.count[DistanceHistogram::kUnmeasured] > 0;
  const int bars = last + 1 + (unmeasured ? 1 : 0);
  // Count labels above the bars, bucket labels below, the axis caption last.
  const int bar = 24, gap = 3, left = 4, top = 14, height = 64;
  const int axis = top + height;
  const int width = std::max(left + bars * (bar + gap) + 4, 330);
  double most = 1;
  for (int64_t c : h.count) most = std::max(most, std::log10(1.0 + static_cast<double>(c)));
  std::string svg = "<svg class=\"hist\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(width) + "\" height=\"" + std::to_string(axis + 30) +
                    "\" role=\"img\" aria-label=\"distance histogram\">";
  auto text = [&](int x, int y, const std::string& words, const char* anchor = "middle") {
    svg += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" text-anchor=\"" +
           anchor + "\">" + Escape(words) + "</text>";
  };
  for (int i = 0; i < bars; ++i) {
    const int b = i <= last ? i : DistanceHistogram::kUnmeasured;
    const int64_t count = h.count[b];
    const int x = left + i * (bar + gap);
    const int bar_height =
        count == 0 ? 1
                   : std::max(2, static_cast<int>(height * std::log10(1.0 + count) / most + 0.5));
    const char* cls = count == 0 ? "h0" : b > allowed_bucket ? "hbad" : "hok";
    svg += "<rect class=\"" + std::string(cls) + "\" x=\"" + std::to_string(x) + "\" y=\"" +
           std::to_string(axis - bar_height) + "\" width=\"" + std::to_string(bar) +
           "\" height=\"" + std::to_string(bar_height) + "\">" +
           (count == 0 ? ""
                       : "<title>" + Escape(BucketLabel(b, bounded)) + ": " + Count(count) +
                             " element(s)</title>") +
           "</rect>";
    if (count > 0) text(x + bar / 2, axis - bar_height - 3, Compact(count));
    // Below each bar its upper edge: ULPs, or k of 2^k of the bound.
    std::string edge;
    if (b == DistanceHistogram::kUnmeasured) {
      edge = "NaN";
    } else if (b == DistanceHistogram::kBeyond) {
      edge = bounded ? ">1" : ">1M";
    } else if (b == 0) {
      edge = "0";
    } else if (bounded) {
      edge = std::to_string(b - 21);
    } else {
      edge = Compact(static_cast<int64_t>(DistanceHistogram::UlpUpper(b)));
      if (edge == "1.0k") edge = "1k";
      if (edge == "1.0M") edge = "1M";
    }
    text(x + bar / 2, axis + 11, edge);
  }
  // The bound: after the last bucket it allows.
  const int bound_x = left + (allowed_bucket + 1) * (bar + gap) - (gap + 1) / 2;
  svg += "<line class=\"bound\" x1=\"" + std::to_string(bound_x) + "\" x2=\"" +
         std::to_string(bound_x) + "\" y1=\"2\" y2=\"" + std::to_string(axis + 2) + "\"/>";
  text(left, axis + 25,
       bounded ? "bar: |error| / bound up to 2^k (k below); dashed: the bound"
               : "bar: distance up to N ULP (N below); dashed: allowed " +
                     std::to_string(g.allowed_ulp) + " ULP",
       "start");
  return svg + "</svg>";
}

}  // namespace hlocheck::html
