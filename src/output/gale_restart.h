/* Checkpoint and restart of the model (docs/checkpoint.md).
 *
 * The file format and its MPI-IO lives in io/ (gale_checkpoint.h); this is
 * the model side: which state is saved, which configuration keys must agree
 * on restart, and how the local columns and halos are restored.
 *
 * Thread safety: one thread of a rank makes every MPI-IO and HDF5 call. The
 * checkpoint's MPI-IO is a job of the output's writer thread when there is
 * one (gale_output_exec: after the output handed over before it), while the
 * model thread waits; checkpoints are taken at a step boundary, on the
 * model's communicator. */
#ifndef GALE_RESTART_H
#define GALE_RESTART_H

#include "gale_model.h"
#include "gale_output.h"

/* Collective, once after gale_model_setup. With [checkpoint] period > 0,
 * creates [checkpoint] dir and checks that it is writable (GALE_ERR_INPUT
 * naming the key otherwise). With restart_path != NULL, restores m from that
 * checkpoint: the run then continues from the file's step up to
 * [timestepping] steps (a total, counted from step 0). A bad or mismatched
 * file is GALE_ERR_INPUT on every rank, one message naming the file and the
 * problem. */
int gale_restart_setup(gale_model_t *m, const char *restart_path);

/* Collective, after each step: writes <dir>/gale_ckpt_<step>.ckpt when
 * [checkpoint] period > 0 divides m->step. Failures are GALE_ERR_IO on every
 * rank (no file is left under the final or the temporary name). */
int gale_restart_checkpoint(gale_model_t *m, gale_output_t *out);

#endif
