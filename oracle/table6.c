#include "oracle/table6.h"

/* Copied from the table as printed (rule, density, name); the paper writes R_r C_2 M_0 S_a..b
 * B_c..d N_M, here in Golly's comma notation. */
static const cc_table6_instance table6[CC_TABLE6_COUNT] = {
    {1, "R1,C2,M0,S2..3,B3..3,NM", 0.07, "Game of Life"},
    {2, "R2,C2,M0,S7..12,B8..11,NM", 0.15, "Starry Night"},
    {3, "R3,C2,M0,S15..23,B14..17,NM", 0.25, "Boiling Gnocchi"},
    {4, "R4,C2,M0,S40..80,B41..80,NM", 0.50, "Majority"},
    {5, "R5,C2,M0,S35..59,B34..45,NM", 0.21, "Bosco's Rule"},
    {6, "R6,C2,M0,S49..81,B46..65,NM", 0.22, "Radiation"},
    {7, "R7,C2,M0,S101..201,B75..170,NM", 0.29, "Waffles"},
    {8, "R8,C2,M0,S163..223,B74..252,NM", 0.23, "Globe"},
    {9, "R9,C2,M0,S108..181,B100..140,NM", 0.24, "Gravity"},
    {10, "R10,C2,M0,S122..211,B123..170,NM", 0.25, "Bugsmovie"},
    {11, "R11,C2,M0,S156..265,B147..205,NM", 0.24, "Broken Ships"},
    {12, "R12,C2,M0,S170..296,B170..240,NM", 0.25, "Scaled GOL"},
    {13, "R13,C2,M0,S213..364,B203..283,NM", 0.25, "The Cleansing"},
    {14, "R14,C2,M0,S245..420,B234..326,NM", 0.25, "Scaled Bugsmovie"},
    {15, "R15,C2,M0,S170..296,B170..240,NM", 0.28, "Pretzels"},
    {16, "R16,C2,M0,S170..296,B170..300,NM", 0.26, "Tangy Ramen"},
};

const cc_table6_instance *cc_table6_all(size_t *count) {
    if (count) *count = CC_TABLE6_COUNT;
    return table6;
}

const cc_table6_instance *cc_table6_find(int32_t radius) {
    for (size_t i = 0; i < CC_TABLE6_COUNT; i++)
        if (table6[i].radius == radius) return &table6[i];
    return NULL;
}
