// What the deliberately faulty backends share: the CPU adapter with one op
// overridden (FaultyAdapter), and the table entry each fault has. The
// faults live by family: faulty_adapters.cc (numerics, data movement,
// contraction, reduction) and distributed_faults.cc (random numbers,
// control flow, collectives, transfers).
#ifndef HLOCHECK_ADAPTERS_FAULTY_FAULTY_INTERNAL_H_
#define HLOCHECK_ADAPTERS_FAULTY_FAULTY_INTERNAL_H_

#include <memory>
#include <string>
#include <vector>

#include "adapters/cpu/cpu_adapter.h"
#include "adapters/faulty/faulty_adapters.h"

namespace hlocheck::faulty {

// The CPU adapter, except for one op, which `Faulty` gets wrong.
class FaultyAdapter : public Adapter {
 public:
  FaultyAdapter(std::string name, std::string op, const AdapterOptions& options)
      : name_(std::move(name)), op_(std::move(op)), cpu_(options) {}

  std::string_view name() const override { return name_; }
  std::vector<std::string> ImplementedOps() const override { return cpu_.ImplementedOps(); }
  AdapterSupport Supports(const Case& c) const override { return cpu_.Supports(c); }
  absl::StatusOr<std::vector<Tensor>> Run(const Case& c) override {
    return c.op == op_ ? Faulty(c) : cpu_.Run(c);
  }

 protected:
  virtual absl::StatusOr<std::vector<Tensor>> Faulty(const Case& c) = 0;
  CpuAdapter& cpu() { return cpu_; }

 private:
  std::string name_;
  std::string op_;
  CpuAdapter cpu_;
};

template <typename Fault>
std::unique_ptr<Adapter> Make(const std::string& name, const std::string& op,
                              const AdapterOptions& options) {
  return std::make_unique<Fault>(name, op, options);
}

struct FaultEntry {
  FaultDescription description;
  std::unique_ptr<Adapter> (*create)(const std::string&, const std::string&, const AdapterOptions&);
};

// The faults of distributed_faults.cc, in their order.
std::vector<FaultEntry> DistributedFaults();

}  // namespace hlocheck::faulty

#endif  // HLOCHECK_ADAPTERS_FAULTY_FAULTY_INTERNAL_H_
