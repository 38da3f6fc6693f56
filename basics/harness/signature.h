// Calling a judge-style `solve` generically. bind(fn) turns any function whose parameters are
// pointers to float/half/int/unsigned/unsigned char/signed char (int8_t) and `int` or `float`
// scalars, in any order, into an Invoker that takes one Slot per parameter, and records the
// parameter types (Shape) so the harness can check them against the problem's description. The same
// binding serves the GPU solve (device pointers), the CPU reference (host pointers) and the
// benchmark baselines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kit::basics {

// f16: IEEE binary16, held on the host as its bits in a std::uint16_t (harness/half.h converts).
// i8: signed bytes (int8_t, the judge's torch.int8 tensors).
enum class Elem { f32, f16, i32, u32, u8, i8 };
enum class Role { in, out, inout, scalar };

std::size_t elem_size(Elem elem);
// f32 and f16 elements: compared within the tolerance; they may hold infinities and NaN.
inline bool is_floating(Elem elem) { return elem == Elem::f32 || elem == Elem::f16; }
const char *elem_name(Elem elem);
const char *role_name(Role role);

// A parameter type as C++ sees it: a pointer (to const or not) to an element, or a scalar (an int
// has elem i32, a float f32).
struct Shape {
  bool is_pointer;
  bool is_const;
  Elem elem;
};

struct Slot {
  void *pointer = nullptr;
  double value = 0; // scalars: a double holds every int and every float exactly
};
using Invoker = std::function<void(const std::vector<Slot> &)>;

// The types whose pointers carry f16 arrays: std::uint16_t, the host's view of the bits (the CPU
// references), and, specialised by the GPU side (device/entry.h), the vendor's half type that a
// GPU solve names (__half on CUDA and HIP).
template <class T> struct is_half_storage : std::is_same<T, std::uint16_t> {};

namespace detail {
template <class T> constexpr Elem elem_of() {
  static_assert(std::is_same_v<T, float> || is_half_storage<T>::value || std::is_same_v<T, int> ||
                    std::is_same_v<T, unsigned int> || std::is_same_v<T, unsigned char> ||
                    std::is_same_v<T, signed char>,
                "solve parameters point to float, half, int, unsigned int, unsigned char or "
                "signed char (int8_t)");
  if constexpr (std::is_same_v<T, float>)
    return Elem::f32;
  else if constexpr (is_half_storage<T>::value)
    return Elem::f16;
  else if constexpr (std::is_same_v<T, int>)
    return Elem::i32;
  else if constexpr (std::is_same_v<T, unsigned int>)
    return Elem::u32;
  else if constexpr (std::is_same_v<T, signed char>)
    return Elem::i8;
  else
    return Elem::u8;
}

template <class P> Shape shape_of() {
  if constexpr (std::is_pointer_v<P>) {
    using Pointee = std::remove_pointer_t<P>;
    return {true, std::is_const_v<Pointee>, elem_of<std::remove_const_t<Pointee>>()};
  } else {
    static_assert(std::is_same_v<P, int> || std::is_same_v<P, float>,
                  "solve's scalar parameters are int or float");
    return {false, false, elem_of<P>()};
  }
}

template <class P> P from_slot(const Slot &slot) {
  if constexpr (std::is_pointer_v<P>)
    return static_cast<P>(slot.pointer);
  else
    return static_cast<P>(slot.value);
}

template <class... Ps, std::size_t... I>
void call(void (*fn)(Ps...), const std::vector<Slot> &slots, std::index_sequence<I...>) {
  fn(from_slot<Ps>(slots[I])...);
}
} // namespace detail

template <class... Ps> std::vector<Shape> shape_of(void (*)(Ps...)) {
  return {detail::shape_of<Ps>()...};
}

template <class... Ps> Invoker bind(void (*fn)(Ps...)) {
  return [fn](const std::vector<Slot> &slots) {
    detail::call(fn, slots, std::index_sequence_for<Ps...>{});
  };
}

// A solve-like function with its parameter types and a name for reports.
struct Solver {
  std::string name;
  Invoker invoke;
  std::vector<Shape> shape;
};

template <class... Ps> Solver solver(std::string name, void (*fn)(Ps...)) {
  return {std::move(name), bind(fn), shape_of(fn)};
}

} // namespace kit::basics
