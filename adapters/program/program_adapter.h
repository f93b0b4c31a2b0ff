// The Adapter for compilers: writes each case as a StableHLO module
// (mlir/writer.h PrintCaseProgram) and hands it to a ProgramBackend, its
// inputs as @main's arguments or folded in as constants.
#ifndef HLOCHECK_ADAPTERS_PROGRAM_PROGRAM_ADAPTER_H_
#define HLOCHECK_ADAPTERS_PROGRAM_PROGRAM_ADAPTER_H_

#include <functional>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

#include "adapters/adapter.h"
#include "adapters/program/program_backend.h"
#include "spec/registry.h"

namespace hlocheck {

// The errors of a compiler's message about a batch module (PrintBatchProgram)
// by the case whose function holds them (K of @case_K), each the whole
// diagnostic line "FILE:LINE:COL: error: ..." of MLIR. Empty when the
// message names no such line, or an error lies outside every case's
// function (in @main, say: a type at the module's boundary).
std::map<size_t, std::vector<std::string>> BatchErrorsByCase(std::string_view batch_module,
                                                             std::string_view message);

class ProgramAdapter : public Adapter {
 public:
  // `transferable`: whether the backend can take and return tensors of an
  // element type at all (PJRT has no f6 buffers, say).
  ProgramAdapter(std::string name, const spec::SpecRegistry& registry,
                 std::unique_ptr<ProgramBackend> backend, bool inputs_as_constants,
                 std::function<bool(ElementType)> transferable, int batch_size = kDefaultBatchSize);

  // Cases per module unless --batch says otherwise: enough that XLA's and
  // IREE's fixed cost per compile is spread thin, few enough that one
  // module stays small and a batch that fails costs little to redo case by
  // case.
  static constexpr int kDefaultBatchSize = 32;

  std::string_view name() const override { return name_; }
  std::vector<std::string> ImplementedOps() const override;
  AdapterSupport Supports(const Case& c) const override;
  absl::StatusOr<std::vector<Tensor>> Run(const Case& c) override;
  int BatchSize() const override { return batch_size_; }
  std::vector<absl::StatusOr<std::vector<Tensor>>> RunBatch(
      std::span<const Case* const> cases) override;

  // Declares that the backend takes a tensor of sub-byte elements (2 or 4
  // bits) at @main's boundary only where its bits fill whole bytes (IREE's
  // HAL packs such tensors densely into bytes): other cases are skipped as
  // not runnable, with `why` (the backend's public source) as their reason.
  void RequireWholeBytesForSubByteTensors(std::string why) {
    sub_byte_whole_bytes_reason_ = std::move(why);
  }

  // Whether a failed batch is narrowed by its MLIR diagnostics' lines
  // (Attribute) before halving; on by default (off: benchmarks measure what
  // it saves, and a compiler whose locations cannot be trusted).
  void AttributeErrorsByLine(bool on) { attribute_errors_ = on; }

  // The module Run hands to the backend for `c`: what a reproducer shows.
  absl::StatusOr<std::string> ModuleText(const Case& c) const;
  ProgramBackend& backend() { return *backend_; }
  // How many batch modules failed as a whole and were narrowed down
  // (tests, and a measure of what failures cost).
  int batches_narrowed() const { return batches_narrowed_; }
  // How many of those the compiler's error lines narrowed down (Attribute).
  int batches_attributed() const { return batches_attributed_; }

 private:
  absl::StatusOr<std::vector<Tensor>> RunModule(const Case& c, const std::string& module);
  // Whether RunBatch met `module` (a case's own) among the last
  // kSeenModules; remembers it either way.
  bool SeenBefore(const std::string& module);
  // Runs the cases `which` (indices into `cases` and `modules`) as one
  // module and stores their answers; a module that fails is narrowed down.
  void RunTogether(std::span<const Case* const> cases, std::span<const std::string> modules,
                   std::span<const size_t> which,
                   std::vector<absl::StatusOr<std::vector<Tensor>>>& answers);
  // Runs `which` as one module (`module`, its text); on success stores
  // every answer, else returns the batch's error and stores nothing.
  absl::Status TryTogether(std::span<const Case* const> cases, std::span<const size_t> which,
                           std::vector<absl::StatusOr<std::vector<Tensor>>>& answers,
                           std::string& module);
  // Finds the answers of a batch `which` that failed with `failure`: by the
  // errors' lines where the compiler names them, else in halves while that
  // pays, else case by case.
  void Narrow(std::span<const Case* const> cases, std::span<const std::string> modules,
              std::span<const size_t> which, const absl::Status& failure,
              const std::string& batch_module,
              std::vector<absl::StatusOr<std::vector<Tensor>>>& answers);
  // Where every error of `failure` lies in a case's function of
  // `batch_module`, and the first such case fails alone too: those cases
  // fail, the others run together again, and it returns true.
  bool Attribute(std::span<const Case* const> cases, std::span<const std::string> modules,
                 std::span<const size_t> which, const absl::Status& failure,
                 const std::string& batch_module,
                 std::vector<absl::StatusOr<std::vector<Tensor>>>& answers);
  // A failed batch this small runs case by case rather than in halves.
  static constexpr size_t kSmallestSplitBatch = 3;
  static constexpr size_t kSeenModules = 256;

  std::string name_;
  const spec::SpecRegistry& registry_;
  std::unique_ptr<ProgramBackend> backend_;
  bool inputs_as_constants_;
  std::function<bool(ElementType)> transferable_;
  int batch_size_;
  int batches_narrowed_ = 0;
  int batches_attributed_ = 0;
  bool attribute_errors_ = true;
  std::string sub_byte_whole_bytes_reason_;  // empty: no such rule
  std::list<std::string> seen_order_;        // most recent first
  std::unordered_map<std::string, std::list<std::string>::iterator> seen_;
};

}  // namespace hlocheck

#endif  // HLOCHECK_ADAPTERS_PROGRAM_PROGRAM_ADAPTER_H_
