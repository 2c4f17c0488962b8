/* binary16: 1 sign bit, 5 exponent bits (bias 15), 10 stored significand bits. */
#include "engines/cpu/cat_emu/half.h"

#include <math.h>

/* v >= 0, a value whose fractional part is exactly representable: rounded to an integer, ties
 * to even. */
static double round_even(double v) {
    double f = floor(v);
    double rest = v - f; /* exact: v and f share an exponent range */
    if (rest > 0.5 || (rest == 0.5 && fmod(f, 2.0) != 0.0)) f += 1.0;
    return f;
}

uint16_t half_from_double(double v) {
    uint16_t sign = signbit(v) ? 0x8000u : 0u;
    if (isnan(v)) return (uint16_t)(sign | 0x7E00u);
    v = fabs(v);
    if (isinf(v)) return (uint16_t)(sign | 0x7C00u);
    if (v == 0.0) return sign;
    int e;
    (void)frexp(v, &e); /* v = m * 2^e, 0.5 <= m < 1: v lies in [2^(e-1), 2^e) */
    int exponent = e - 1;
    if (exponent < -14) {
        /* Subnormal: a multiple of 2^-24. Rounding up to 1024 * 2^-24 gives the smallest normal,
         * whose bit pattern is that same 1024. */
        double q = round_even(ldexp(v, 24));
        return (uint16_t)(sign | (uint16_t)q);
    }
    double significand = round_even(ldexp(v, 10 - exponent)); /* in [1024, 2048] */
    if (significand == 2048.0) {
        significand = 1024.0;
        exponent++;
    }
    if (exponent > 15) return (uint16_t)(sign | 0x7C00u);
    return (uint16_t)(sign | (uint16_t)((exponent + 15) << 10) | (uint16_t)(significand - 1024.0));
}

double half_to_double(uint16_t h) {
    int exponent = (h >> 10) & 0x1F;
    int fraction = h & 0x3FF;
    double v;
    if (exponent == 0)
        v = ldexp((double)fraction, -24);
    else if (exponent == 31)
        v = fraction ? NAN : INFINITY;
    else
        v = ldexp((double)(fraction + 1024), exponent - 25);
    return (h & 0x8000u) ? -v : v;
}

double half_round(double v) { return half_to_double(half_from_double(v)); }
