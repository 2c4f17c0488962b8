/* binary16 conversions against hand-derived bit patterns: the integers where FP16 stops being
 * exact, ties to even, subnormals, overflow. */
#include <math.h>
#include <stdio.h>

#include "engines/cpu/cat_emu/half.h"
#include "testing/check.h"

int main(void) {
    checks t = {"half_test", 0, 0};
    /* 1.0 = exponent 15, fraction 0; 2048 = 2^11: exponent 26 -> 0x6800. */
    CHECK_EQ(&t, half_from_double(0.0), 0x0000);
    CHECK_EQ(&t, half_from_double(-0.0), 0x8000);
    CHECK_EQ(&t, half_from_double(1.0), 0x3C00);
    CHECK_EQ(&t, half_from_double(-2.0), 0xC000);
    CHECK_EQ(&t, half_from_double(1089.0), 0x6441); /* 33^2 = 1024 + 65: fraction 65 */
    CHECK_EQ(&t, half_from_double(2025.0), 0x67E9); /* 45^2 = 1024 + 1001 */
    CHECK_EQ(&t, half_from_double(2047.0), 0x67FF);
    CHECK_EQ(&t, half_from_double(2048.0), 0x6800);
    /* Above 2048 the spacing is 2: 2049 ties to 2048 (even fraction 0), 2051 to 2052 (fraction
     * 2, even), 2209 = 47^2 to 2208. */
    CHECK_EQ(&t, half_from_double(2049.0), 0x6800);
    CHECK_EQ(&t, half_from_double(2050.0), 0x6801);
    CHECK_EQ(&t, half_from_double(2051.0), 0x6802);
    CHECK(&t, half_round(2209.0) == 2208.0);
    CHECK(&t, half_round(2049.0) == 2048.0);
    CHECK(&t, half_round(2048.9) == 2048.0);
    CHECK(&t, half_round(2049.1) == 2050.0);
    /* 1/3 = 0x3555 (fraction 0x155 = 341, 1365.33.. rounds down). */
    CHECK_EQ(&t, half_from_double(1.0 / 3.0), 0x3555);
    /* The largest finite value, and overflow at 65520 (half-way to 2^16, ties to "even" inf). */
    CHECK_EQ(&t, half_from_double(65504.0), 0x7BFF);
    CHECK_EQ(&t, half_from_double(65519.0), 0x7BFF);
    CHECK_EQ(&t, half_from_double(65520.0), 0x7C00);
    CHECK_EQ(&t, half_from_double(INFINITY), 0x7C00);
    CHECK_EQ(&t, half_from_double(NAN) & 0x7C00, 0x7C00);
    CHECK(&t, (half_from_double(NAN) & 0x3FF) != 0);
    /* Subnormals: multiples of 2^-24; half of the smallest ties to 0, 1.5 of it to 2. */
    CHECK_EQ(&t, half_from_double(ldexp(1.0, -24)), 0x0001);
    CHECK_EQ(&t, half_from_double(ldexp(1.0, -25)), 0x0000);
    CHECK_EQ(&t, half_from_double(ldexp(3.0, -25)), 0x0002);
    CHECK_EQ(&t, half_from_double(ldexp(1.0, -14)), 0x0400);
    CHECK_EQ(&t, half_from_double(ldexp(1023.5, -24)), 0x0400); /* rounds up into the normals */
    /* Back: exact values of some patterns. */
    CHECK(&t, half_to_double(0x3C00) == 1.0);
    CHECK(&t, half_to_double(0x6441) == 1089.0);
    CHECK(&t, half_to_double(0x7BFF) == 65504.0);
    CHECK(&t, half_to_double(0x0001) == ldexp(1.0, -24));
    CHECK(&t, half_to_double(0xC000) == -2.0);
    CHECK(&t, isinf(half_to_double(0x7C00)));
    /* Every finite pattern comes back to itself through double. */
    long bad = 0;
    for (unsigned h = 0; h < 0x10000u; h++) {
        if ((h & 0x7C00u) == 0x7C00u) continue;
        if (half_from_double(half_to_double((uint16_t)h)) != h) bad++;
    }
    CHECK_EQ(&t, bad, 0);
    /* Every integer 0..2048 is exact, and 2049 is the first that is not. */
    int first_inexact = -1;
    for (int v = 0; v <= 4096 && first_inexact < 0; v++)
        if (half_round((double)v) != (double)v) first_inexact = v;
    CHECK_EQ(&t, first_inexact, 2049);
    return check_summary(&t);
}
