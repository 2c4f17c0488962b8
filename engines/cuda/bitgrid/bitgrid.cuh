// Device code shared by the bit-grid engines (CUDA C++; included by .cu files only): the layout's
// word access, the bitwise neighbour count of seed 001 (half and full adders of whole words,
// widened to a 4-bit count) and the rule's multiplexer tree, for words of 32 or 64 bits.
#ifndef CELLCHECK_ENGINES_CUDA_BITGRID_BITGRID_CUH
#define CELLCHECK_ENGINES_CUDA_BITGRID_BITGRID_CUH

#ifndef __CUDACC__
#error "engines/cuda/bitgrid/bitgrid.cuh is CUDA C++: include it from .cu files only"
#endif

#include <stdint.h>

#include "engines/cuda/bitgrid/bitgrid.h"

namespace bitgrid {

// The rule's constants in words of type T (each all ones or zero), passed to kernels by value:
// either form of bitrule.h. On the neighbours' count entry 9 never comes up (nine = 0).
template <typename T> struct rule_words {
    T base[2][4], flip[2][4], eight[2], nine[2];
};

template <typename T, typename Rule> rule_words<T> rule_words_from(const Rule &r) {
    rule_words<T> out;
    for (int t = 0; t < 2; t++) {
        for (int j = 0; j < 4; j++) {
            out.base[t][j] = (T)r.base[t][j];
            out.flip[t][j] = (T)r.flip[t][j];
        }
        out.eight[t] = (T)r.eight[t];
        out.nine[t] = 0;
    }
    return out;
}

template <typename T> rule_words<T> rule_words_of(const bitrows_rule &r) {
    return rule_words_from<T>(r);
}

template <typename T> rule_words<T> rule9_words_of(const bitrows_rule9 &r) {
    rule_words<T> out = rule_words_from<T>(r);
    for (int t = 0; t < 2; t++) out.nine[t] = (T)r.nine[t];
    return out;
}

// Bits 0 .. n-1 set (n < the width of T).
template <typename T> __host__ __device__ __forceinline__ T low_bits(int n) {
    return n >= (int)(8 * sizeof(T)) ? (T)~(T)0 : (T)(((T)1 << n) - 1);
}

// Two two-bit sums (each <= 2) into a three-bit sum (<= 4): with both below 3 the top bit is the
// carry of the top bits alone.
template <typename T>
__device__ __forceinline__ void add22(T a1, T a0, T b1, T b0, T &s2, T &s1, T &s0) {
    s0 = a0 ^ b0;
    s1 = a1 ^ b1 ^ (a0 & b0);
    s2 = a1 & b1;
}

// Two three-bit sums (each <= 4) into a four-bit count (<= 8): a 4 has its low bits clear, so no
// carry reaches bit 2 beside one, and bit 3 is set by 4 + 4 alone.
template <typename T>
__device__ __forceinline__ void add33(T a2, T a1, T a0, T b2, T b1, T b0, T &s3, T &s2, T &s1,
                                      T &s0) {
    const T x = a0 & b0, y = a1 ^ b1;
    s0 = a0 ^ b0;
    s1 = x ^ y;
    const T carry = (a1 & b1) | (x & y);
    s2 = a2 ^ b2 ^ carry;
    s3 = a2 & b2;
}

// The sum of four words: two half adders and one add22 (Algorithm SINGLE-WORD's first half).
template <typename T>
__device__ __forceinline__ void add4(T a, T b, T c, T d, T &s2, T &s1, T &s0) {
    add22(a & b, a ^ b, c & d, c ^ d, s2, s1, s0);
}

// Entry s3 s2 s1 s0 of tree t: s0 picks within pairs, then s1, s2; 8 and 9 have s2 s1 clear.
template <typename T>
__device__ __forceinline__ T mux_tree(const rule_words<T> &r, int t, T s3, T s2, T s1, T s0) {
    const T m0 = r.base[t][0] ^ (s0 & r.flip[t][0]);
    const T m1 = r.base[t][1] ^ (s0 & r.flip[t][1]);
    const T m2 = r.base[t][2] ^ (s0 & r.flip[t][2]);
    const T m3 = r.base[t][3] ^ (s0 & r.flip[t][3]);
    const T n0 = m0 ^ (s1 & (m0 ^ m1));
    const T n1 = m2 ^ (s1 & (m2 ^ m3));
    const T g = n0 ^ (s2 & (n0 ^ n1));
    const T high = r.eight[t] ^ (s0 & r.nine[t]);
    return g ^ (s3 & (g ^ high));
}

// The next state of a word's cells from their alive bits and their 4-bit counts (the neighbours'
// with a rule_words_of rule, the 3x3 block's with a rule9_words_of one).
template <typename T>
__device__ __forceinline__ T next_state(const rule_words<T> &r, T alive, T s3, T s2, T s1, T s0) {
    return mux_tree(r, 0, s3, s2, s1, s0) ^ (alive & mux_tree(r, 1, s3, s2, s1, s0));
}

// The next word of a row from the rows above and below, all three holding the same cells at the
// same bits (bit i's west neighbour at bit i-1): SINGLE-WORD over one word. The outermost bits see
// a zero past the word, so each step spoils one bit at either end.
template <typename T>
__device__ __forceinline__ T life_word(const rule_words<T> &r, T up, T mid, T down) {
    T a2, a1, a0, b2, b1, b0, s3, s2, s1, s0;
    add4<T>(up << 1, up, up >> 1, mid << 1, a2, a1, a0);
    add4<T>(mid >> 1, down << 1, down, down >> 1, b2, b1, b0);
    add33<T>(a2, a1, a0, b2, b1, b0, s3, s2, s1, s0);
    return next_state<T>(r, mid, s3, s2, s1, s0);
}

// A row's horizontal sums: each cell and its west and east neighbours, 0..3, in two bit words.
template <typename T> struct sum3 {
    T s1, s0;
};

template <typename T> __device__ __forceinline__ sum3<T> row_sum3(T x) {
    const T a = x << 1, c = x >> 1;
    return sum3<T>{(a & x) | (c & (a ^ x)), a ^ x ^ c};
}

// Three rows' horizontal sums (each <= 3) into the 3x3 block's count (<= 9), four bits.
template <typename T>
__device__ __forceinline__ void add_sum3(const sum3<T> &a, const sum3<T> &b, const sum3<T> &c,
                                         T &t3, T &t2, T &t1, T &t0) {
    const T k0 = a.s0 & b.s0, u0 = a.s0 ^ b.s0;
    const T u1 = a.s1 ^ b.s1 ^ k0, u2 = (a.s1 & b.s1) | (k0 & (a.s1 ^ b.s1)); // a + b <= 6
    const T k1 = u0 & c.s0;
    t0 = u0 ^ c.s0;
    t1 = u1 ^ c.s1 ^ k1;
    const T k2 = (u1 & c.s1) | (k1 & (u1 ^ c.s1));
    t2 = u2 ^ k2;
    t3 = u2 & k2;
}

// The geometry in kernels.
struct view {
    int32_t w, h, halo, cells, columns, last;
    __device__ __forceinline__ int64_t at(int32_t j, int32_t y) const {
        return (int64_t)j * h + y;
    }
    __device__ __forceinline__ int32_t cells_of(int32_t j) const {
        return j == columns - 1 ? last : cells;
    }
    __device__ __forceinline__ int32_t wrap_y(int64_t y) const {
        int64_t m = y % h;
        return (int32_t)(m < 0 ? m + h : m);
    }
};

inline view view_of(const cc_bitgrid_geometry &g) {
    return view{g.w, g.h, g.halo, g.cells, g.columns, g.last};
}

} // namespace bitgrid

#endif
