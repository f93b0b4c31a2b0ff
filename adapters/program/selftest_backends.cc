// The crashing and hanging self-test backends (program_backend.h).
#include <chrono>
#include <cstdlib>
#include <thread>

#include "adapters/program/program_backend.h"

namespace hlocheck {
namespace {

class MisbehavingBackend : public ProgramBackend {
 public:
  enum class Fault { kCrash, kHang };
  MisbehavingBackend(Fault fault, std::string op) : fault_(fault), op_(std::move(op)) {}

  std::string Describe() const override {
    return std::string(fault_ == Fault::kCrash ? "aborts" : "hangs") + " on every " + op_ +
           " module, returns zeros otherwise (self-test)";
  }

  absl::StatusOr<std::vector<Tensor>> Run(std::string_view module_text,
                                          std::span<const Tensor> /*inputs*/,
                                          std::span<const TensorType> result_types) override {
    if (module_text.find("\"stablehlo." + op_ + "\"") != std::string_view::npos) {
      if (fault_ == Fault::kCrash) std::abort();
      for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
    }
    std::vector<Tensor> zeros;
    for (const TensorType& type : result_types) zeros.emplace_back(type);
    return zeros;
  }

 private:
  Fault fault_;
  std::string op_;
};

}  // namespace

std::unique_ptr<ProgramBackend> CreateCrashingBackend(std::string op) {
  return std::make_unique<MisbehavingBackend>(MisbehavingBackend::Fault::kCrash, std::move(op));
}

std::unique_ptr<ProgramBackend> CreateHangingBackend(std::string op) {
  return std::make_unique<MisbehavingBackend>(MisbehavingBackend::Fault::kHang, std::move(op));
}

}  // namespace hlocheck
