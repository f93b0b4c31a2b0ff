// The session the runner property tests share: the default spec, the oracle
// and the CPU backend, opened once per test binary.
#ifndef HLOCHECK_TESTS_RUNNERS_CPU_SESSION_H_
#define HLOCHECK_TESTS_RUNNERS_CPU_SESSION_H_

#include <stdexcept>
#include <string>

#include "runners/session.h"

namespace hlocheck {

inline Session& CpuSession() {
  static Session* session = [] {
    auto opened = OpenSession("cpu", 2);
    if (!opened.ok()) throw std::runtime_error(std::string(opened.status().message()));
    return opened->release();
  }();
  return *session;
}

}  // namespace hlocheck

#endif  // HLOCHECK_TESTS_RUNNERS_CPU_SESSION_H_
