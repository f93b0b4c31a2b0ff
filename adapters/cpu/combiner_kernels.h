// The scalar functions of the combiners that region.h recognises, in each
// element type's own arithmetic: the kernels of scatter and reduce run them
// instead of evaluating the body element by element.
#ifndef HLOCHECK_ADAPTERS_CPU_COMBINER_KERNELS_H_
#define HLOCHECK_ADAPTERS_CPU_COMBINER_KERNELS_H_

#include "adapters/cpu/elementwise_internal.h"
#include "adapters/cpu/region.h"

namespace hlocheck::cpu {

// The combiner's scalar function of T's containers, in T's own arithmetic:
// the same functions as the adapter's add, multiply, maximum and minimum.
template <Combiner K, ElementType T>
auto CombineFunction() {
  using C = ContainerT<T>;
  if constexpr (K == Combiner::kReplace) {
    return [](C, C update) { return update; };
  } else if constexpr (K == Combiner::kMaximum || K == Combiner::kMinimum) {
    return Extremum<K == Combiner::kMaximum, T>();
  } else if constexpr (K == Combiner::kAnd) {
    return [](C a, C b) -> C { return static_cast<C>(a & b); };
  } else if constexpr (K == Combiner::kOr) {
    return [](C a, C b) -> C { return static_cast<C>(a | b); };
  } else if constexpr (K == Combiner::kXor) {
    return [](C a, C b) -> C { return static_cast<C>(a ^ b); };
  } else if constexpr (IsBool(T)) {
    // i1 addition is logical or, multiplication logical and.
    return [](C a, C b) -> C {
      return (K == Combiner::kAdd ? (a != 0 || b != 0) : (a != 0 && b != 0)) ? 1 : 0;
    };
  } else if constexpr (IsInteger(T)) {
    return LiftInt2<T>([](uint64_t a, uint64_t b) { return K == Combiner::kAdd ? a + b : a * b; });
  } else if constexpr (IsComplex(T) && K == Combiner::kAdd) {
    return [](C a, C b) { return a + b; };
  } else if constexpr (IsComplex(T)) {
    return [](C a, C b) { return ComplexMultiply(a, b); };
  } else {
    // Narrow floats: one operation in float, rounded once (cpu_internal.h).
    return LiftFloat2<T>(
        [](ComputeT<T> a, ComputeT<T> b) { return K == Combiner::kAdd ? a + b : a * b; });
  }
}

// The kernels cover combiners of the pair (argument i, argument N + i)
// only; and, or and xor on integers and booleans alone.
inline bool KernelCovers(Combiner kind, ElementType type) {
  switch (kind) {
    case Combiner::kAdd:
    case Combiner::kMultiply:
      return true;
    case Combiner::kMaximum:
    case Combiner::kMinimum:
      return !IsComplex(type);
    case Combiner::kAnd:
    case Combiner::kOr:
    case Combiner::kXor:
      return IsInteger(type) || IsBool(type);
    default:
      return false;
  }
}

// Calls fn(combine) with the scalar function of `kind` for T; false, and fn
// not called, where the kind has none (kGeneral, kKeep, or and/or/xor of a
// type that is not an integer or boolean).
template <ElementType T, typename Fn>
bool WithCombineFunction(Combiner kind, Fn&& fn) {
  switch (kind) {
    case Combiner::kReplace:
      fn(CombineFunction<Combiner::kReplace, T>());
      return true;
    case Combiner::kAdd:
      fn(CombineFunction<Combiner::kAdd, T>());
      return true;
    case Combiner::kMultiply:
      fn(CombineFunction<Combiner::kMultiply, T>());
      return true;
    case Combiner::kMaximum:
      fn(CombineFunction<Combiner::kMaximum, T>());
      return true;
    case Combiner::kMinimum:
      fn(CombineFunction<Combiner::kMinimum, T>());
      return true;
    case Combiner::kAnd:
    case Combiner::kOr:
    case Combiner::kXor:
      if constexpr (IsInteger(T) || IsBool(T)) {
        if (kind == Combiner::kAnd) fn(CombineFunction<Combiner::kAnd, T>());
        if (kind == Combiner::kOr) fn(CombineFunction<Combiner::kOr, T>());
        if (kind == Combiner::kXor) fn(CombineFunction<Combiner::kXor, T>());
        return true;
      }
      return false;
    case Combiner::kKeep:
    case Combiner::kGeneral:
      return false;
  }
  return false;
}

}  // namespace hlocheck::cpu

#endif  // HLOCHECK_ADAPTERS_CPU_COMBINER_KERNELS_H_
