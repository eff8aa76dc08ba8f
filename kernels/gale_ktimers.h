/* The compute timers of the launch layers: one per described kernel
 * (gale_kdesc.h), named after it, so that reports of different builds
 * compare, and one per fused group (GALE_KGROUPS), at GALE_K_N + its id. A
 * launch file keeps `static int kt[GALE_K_N + GALE_KG_N]`, registers it with
 * gale_k_timers_register and brackets a launch with TSTART / TSTOP(id) (or
 * TSTOP_BYTES(id, bytes) to count the launch's minimum bytes). */
#ifndef GALE_KTIMERS_H
#define GALE_KTIMERS_H

#include "gale_base.h"
#include "gale_kdesc.h"

#define TSTART double t0_ = gale_wtime()
#define TSTOP(id) gale_timer_add(kt[id], gale_wtime() - t0_)
#define TSTOP_BYTES(id, bytes) (TSTOP(id), gale_timer_add_bytes(kt[id], (bytes)))

#endif
