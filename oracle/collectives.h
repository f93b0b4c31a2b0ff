// The StableHLO process grid and the ops that work across it: replica_id,
// partition_id, the collectives that move data between processes
// (all_gather, all_to_all, collective_permute, collective_broadcast) and
// those that reduce (all_reduce, reduce_scatter, collective_reduce).
//
// A collective's semantics are a function of every process's operands:
// GridResults computes every process's results as the spec says. A gate
// case on a grid (Case's num_replicas x num_partitions) holds every
// process's operands, so the oracle's op (CollectivesOps) calls it
// directly; in a program, the interpreter's run_parallel runs each process
// on a thread of its own, and their collectives meet at one
// ProcessRendezvous (process_rendezvous.h), so a program whose processes
// never meet is a reported deadlock, naming the processes, never a hang.
//
// Not yet: the spec's constraints verified on a program's grid (a gate
// case's are). Issue 21.
#ifndef HLOCHECK_ORACLE_COLLECTIVES_H_
#define HLOCHECK_ORACLE_COLLECTIVES_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/attribute.h"
#include "core/program.h"
#include "core/tensor.h"
#include "oracle/expectation.h"

namespace hlocheck::oracle {

struct ProcessId {
  int64_t replica = 0;
  int64_t partition = 0;
  bool operator==(const ProcessId&) const = default;
  std::string ToString() const;
};

// num_replicas x num_partitions processes; a process's flat index is
// replica_id * num_partitions + partition_id (run_parallel's row-major
// order of its programs).
struct ProcessGrid {
  int64_t replicas = 1;
  int64_t partitions = 1;
  int64_t size() const { return replicas * partitions; }
  ProcessId At(int64_t flat) const { return {flat / partitions, flat % partitions}; }
  int64_t Flat(ProcessId id) const { return id.replica * partitions + id.partition; }
};

// The spec's process_groups, from ids (replica_groups, or
// source_target_pairs' pairs).
using ProcessGroups = std::vector<std::vector<ProcessId>>;
absl::StatusOr<ProcessGroups> CrossReplica(const std::vector<std::vector<int64_t>>& groups,
                                           const ProcessGrid& grid);
absl::StatusOr<ProcessGroups> CrossPartition(const std::vector<std::vector<int64_t>>& groups,
                                             const ProcessGrid& grid);
absl::StatusOr<ProcessGroups> CrossReplicaAndPartition(
    const std::vector<std::vector<int64_t>>& groups, const ProcessGrid& grid);
absl::StatusOr<ProcessGroups> FlattenedIds(const std::vector<std::vector<int64_t>>& groups,
                                           const ProcessGrid& grid);

// Whether the oracle runs the op across a grid (GridResults).
bool IsGridCollective(const std::string& op);

// Every process's results of collective `op` (without "stablehlo."), from
// every process's operands (operands[flat process index]), its attributes,
// regions (all_reduce's computation) and one process's result types (every
// process has the same), with what an implementation may return instead:
// all_reduce's schedule is implementation-defined, so a float sum or
// product is bounded (accumulation.h), another body's elements free.
absl::StatusOr<std::vector<std::vector<ResultExpectation>>> GridExpectations(
    const std::string& op, const std::map<std::string, Attribute>& attributes,
    const std::vector<Region>& regions, const std::vector<TensorType>& result_types,
    const ProcessGrid& grid, const std::vector<std::vector<Tensor>>& operands);

// The same, the reference values only (what a program carries on).
absl::StatusOr<std::vector<std::vector<Tensor>>> GridResults(
    const std::string& op, const std::map<std::string, Attribute>& attributes,
    const std::vector<Region>& regions, const std::vector<TensorType>& result_types,
    const ProcessGrid& grid, const std::vector<std::vector<Tensor>>& operands);

}  // namespace hlocheck::oracle

#endif  // HLOCHECK_ORACLE_COLLECTIVES_H_
