// Early returns on an error status, so that a function that calls several
// status-returning ones reads as the calls alone. Debian's Abseil
// (20220623) has no macros of its own for this.
//
//   HLOCHECK_RETURN_IF_ERROR(CheckCounts(c, 1));
//   HLOCHECK_ASSIGN_OR_RETURN(const int64_t dimension, IntAttribute(c, "dimension"));
//
// Both return the error status unchanged, from a function that returns
// absl::Status or any absl::StatusOr<T>.
#ifndef HLOCHECK_CORE_STATUS_MACROS_H_
#define HLOCHECK_CORE_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Evaluates `expr` (an absl::Status) once; returns it if it is not OK.
#define HLOCHECK_RETURN_IF_ERROR(expr)                                      \
  do {                                                                      \
    if (::absl::Status hlocheck_status_ = (expr); !hlocheck_status_.ok()) { \
      return hlocheck_status_;                                              \
    }                                                                       \
  } while (false)

// Evaluates `expr` (an absl::StatusOr<T>) once; returns its status if it is
// not OK, else declares or assigns `lhs` from its value (moved). `lhs` may be
// a declaration ("const auto x", "std::vector<int64_t> v") or an lvalue.
// The temporary gets a name unique to the line, so that several uses in one
// scope do not collide (so: at most one use per line).
#define HLOCHECK_ASSIGN_OR_RETURN(lhs, expr)                                                    \
  HLOCHECK_ASSIGN_OR_RETURN_IMPL_(HLOCHECK_STATUS_MACROS_CONCAT_(hlocheck_statusor_, __LINE__), \
                                  lhs, expr)

#define HLOCHECK_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                                    \
  if (!statusor.ok()) return std::move(statusor).status();   \
  lhs = *std::move(statusor)

#define HLOCHECK_STATUS_MACROS_CONCAT_INNER_(x, y) x##y
#define HLOCHECK_STATUS_MACROS_CONCAT_(x, y) HLOCHECK_STATUS_MACROS_CONCAT_INNER_(x, y)

#endif  // HLOCHECK_CORE_STATUS_MACROS_H_
