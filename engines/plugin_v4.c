/* Reading a version-4 plugin's tables (plugin_v4.h). */
#include "engines/plugin_v4.h"

#include <string.h>

/* The frozen layout is what version-4 plugins were compiled with: on LP64, the sizes and places
 * cc_engine_caps and cc_engine had at version 4. */
#if UINTPTR_MAX == 0xffffffffffffffffu
_Static_assert(sizeof(cc_engine_caps_v4) == 88, "cc_engine_caps_v4 is not version 4's layout");
_Static_assert(offsetof(cc_engine_caps_v4, cells_max) == 72, "cc_engine_caps_v4.cells_max moved");
_Static_assert(sizeof(cc_engine_v4) == 192, "cc_engine_v4 is not version 4's layout");
_Static_assert(offsetof(cc_engine_v4, caps) == 24, "cc_engine_v4.caps moved");
_Static_assert(offsetof(cc_engine_v4, available) == 112, "cc_engine_v4.available moved");
_Static_assert(offsetof(cc_engine_v4, devices) == 184, "cc_engine_v4.devices moved");
#endif

void cc_engine_from_v4(const cc_engine_v4 *old, cc_engine *out) {
    memset(out, 0, sizeof *out);
    out->name = old->name;
    out->summary = old->summary;
    out->hardware = old->hardware;
    const cc_engine_caps_v4 *c = &old->caps;
    out->caps = (cc_engine_caps){
        .shapes = c->shapes,
        .radius_min = c->radius_min,
        .radius_max = c->radius_max,
        .centres = c->centres,
        .topologies = c->topologies,
        .w_multiple = c->w_multiple,
        .h_multiple = c->h_multiple,
        .w_max = c->w_max,
        .h_max = c->h_max,
        .count_max = c->count_max,
        .tile_w = c->tile_w,
        .tile_h = c->tile_h,
        .steps_per_launch = c->steps_per_launch,
        .square_only = c->square_only,
        .s_ranges_max = c->s_ranges_max,
        .b_ranges_max = c->b_ranges_max,
        .no_b0 = c->no_b0,
        .cells_max = c->cells_max,
        .limits = c->limits,
        /* shape_limits: none, as version 4 could state none */
    };
    out->available = old->available;
    out->create = old->create;
    out->load = old->load;
    out->step = old->step;
    out->store = old->store;
    out->destroy = old->destroy;
    out->timed_step = old->timed_step;
    out->device_name = old->device_name;
    out->memory = old->memory;
    out->devices = old->devices;
}
