// A shared library that looks like a PJRT plugin but speaks API major
// version 99: hlocheck must refuse it with a message, not call into it.
#include <cstring>

#include "pjrt_c_api.h"

extern "C" __attribute__((visibility("default"))) const PJRT_Api* GetPjrtApi() {
  static PJRT_Api api = [] {
    PJRT_Api a;
    std::memset(&a, 0, sizeof a);
    a.struct_size = PJRT_Api_STRUCT_SIZE;
    a.pjrt_api_version.struct_size = PJRT_Api_Version_STRUCT_SIZE;
    a.pjrt_api_version.major_version = 99;
    a.pjrt_api_version.minor_version = 0;
    return a;
  }();
  return &api;
}
