#ifndef REACTORFLOW_ATOMICS_H
#define REACTORFLOW_ATOMICS_H

// The atomic instructions ReactorFlow uses, on a word at a given address, as the compiler's `__atomic` builtins.
//
// Swift's own `Synchronization.Atomic` needs macOS 15, iOS 18, tvOS 18, watchOS 11 or visionOS 2 on Apple's systems;
// these builtins need nothing. Each function is inline and always inlined, so a call is the one instruction it names
// (on x86-64 a `lock cmpxchg`, `xchg` or `lock xadd`, or a plain load or store), and ThreadSanitizer sees it as the
// atomic operation it is.
//
// Every word is an `intptr_t` (`Int` in Swift) that is changed only through these functions once it is shared.

#include <stdbool.h>
#include <stdint.h>

#define REACTORFLOW_INLINE static inline __attribute__((always_inline))

REACTORFLOW_INLINE intptr_t reactorflow_load_relaxed(const intptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

REACTORFLOW_INLINE intptr_t reactorflow_load_acquire(const intptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

REACTORFLOW_INLINE void reactorflow_store_release(intptr_t *word, intptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/// Stores `value` and returns what the word held before; acquiring.
REACTORFLOW_INLINE intptr_t reactorflow_exchange_acquire(intptr_t *word, intptr_t value) {
    return __atomic_exchange_n(word, value, __ATOMIC_ACQUIRE);
}

/// Stores `value` and returns what the word held before; releasing.
REACTORFLOW_INLINE intptr_t reactorflow_exchange_release(intptr_t *word, intptr_t value) {
    return __atomic_exchange_n(word, value, __ATOMIC_RELEASE);
}

/// Stores `desired` if the word holds `expected`, acquiring; returns whether it did. A failed attempt orders nothing.
REACTORFLOW_INLINE bool reactorflow_compare_exchange_acquire(intptr_t *word, intptr_t expected, intptr_t desired) {
    return __atomic_compare_exchange_n(word, &expected, desired, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/// Adds `delta` (wrapping) and returns what the word held before; sequentially consistent.
REACTORFLOW_INLINE intptr_t reactorflow_fetch_add_sequentially_consistent(intptr_t *word, intptr_t delta) {
    return __atomic_fetch_add(word, delta, __ATOMIC_SEQ_CST);
}

/// The one word that needs a fixed address for the whole process: how many threads have a `send(_:)` token
/// installed right now, which `SendToken.current` reads on every action. Defined in ReactorFlowAtomics.c, and touched
/// only through the two functions below, so that Swift never takes its address.
extern intptr_t reactorflow_send_tokens_installed;

REACTORFLOW_INLINE intptr_t reactorflow_send_tokens_installed_load_relaxed(void) {
    return __atomic_load_n(&reactorflow_send_tokens_installed, __ATOMIC_RELAXED);
}

REACTORFLOW_INLINE void reactorflow_send_tokens_installed_add_relaxed(intptr_t delta) {
    __atomic_fetch_add(&reactorflow_send_tokens_installed, delta, __ATOMIC_RELAXED);
}

#endif
