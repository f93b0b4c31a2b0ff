// Times as reports and stores write them: UTC, ISO 8601 by default.
#ifndef HLOCHECK_REPORTS_TIME_FORMAT_H_
#define HLOCHECK_REPORTS_TIME_FORMAT_H_

#include <ctime>
#include <string>

namespace hlocheck {

// `unix_seconds` in UTC with a strftime format: "2026-11-28T10:51:00Z".
inline std::string UtcTime(double unix_seconds, const char* format = "%Y-%m-%dT%H:%M:%SZ") {
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[64];
  std::strftime(text, sizeof(text), format, &utc);
  return text;
}

// Now, as UtcTime writes it.
inline std::string UtcNow(const char* format = "%Y-%m-%dT%H:%M:%SZ") {
  return UtcTime(static_cast<double>(std::time(nullptr)), format);
}

}  // namespace hlocheck

#endif  // HLOCHECK_REPORTS_TIME_FORMAT_H_
