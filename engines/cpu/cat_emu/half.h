/* IEEE 754 binary16 (FP16) in portable C: conversion from double with round-to-nearest-even, the
 * rounding a tensor core applies when it writes an FP16 result, and back. */
#ifndef CELLCHECK_ENGINES_CPU_CAT_EMU_HALF_H
#define CELLCHECK_ENGINES_CPU_CAT_EMU_HALF_H

#include <stdint.h>

/* The binary16 nearest to v, ties to the even significand; overflow to infinity, NaN to a quiet
 * NaN. Independent of the floating-point environment's rounding mode. */
uint16_t half_from_double(double v);

/* The exact value of a binary16 bit pattern. */
double half_to_double(uint16_t h);

/* v rounded to the nearest binary16 value (half_to_double(half_from_double(v))). */
double half_round(double v);

#endif
