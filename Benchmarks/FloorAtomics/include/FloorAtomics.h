#ifndef FLOOR_ATOMICS_H
#define FLOOR_ATOMICS_H

#include <stdbool.h>
#include <stdint.h>

/// Replaces *word with `desired` if it holds `expected`, as one sequentially consistent compare-and-swap (one
/// `lock cmpxchg` on x86-64); returns whether it did. Inline, so that the floor that uses it pays nothing else.
static inline bool floor_compare_exchange(intptr_t *word, intptr_t expected, intptr_t desired) {
    return __atomic_compare_exchange_n(word, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/// Stores `value` in *word with release ordering: a plain store on x86-64, no locked instruction.
static inline void floor_store_release(intptr_t *word, intptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

#endif
