/* The validation pass over every path a run writes (docs/output.md, "Files
 * and final names"), before any work: rank 0 checks, every rank learns the
 * outcome, so a bad path stops every rank with one message and exit 2. */
#include "gale_output.h"

#include "gale_base.h"
#include "gale_io.h"

#include <string.h>

/* the checkpoint names gale_restart_checkpoint makes */
static const char *const ckpt_names[] = {"gale_ckpt_#.ckpt", NULL};

int gale_output_check_paths(const gale_config_t *c, const char *report, MPI_Comm comm)
{
    int rank;
    char why[GALE_STR + 512] = "", at[GALE_STR + GALE_ORIGIN], msg[sizeof why + sizeof at + 64] = "";
    GALE_MPI(MPI_Comm_rank(comm, &rank));
    if (rank == 0) {
        if (report && gale_file_writable(report, why, sizeof why))
            snprintf(msg, sizeof msg, "--report: %s", why);
        /* with [io] on_error = continue a bad output directory is a warning
         * at set-up (gale_output_init), not a refusal */
        if (!msg[0] && gale_config_output_on(c) && c->io.on_error == GALE_IO_ON_ERROR_ABORT &&
            gale_dir_prepare(c->io.dir, gale_io_output_names, why, sizeof why)) {
            gale_config_origin(c, "io", "dir", at, sizeof at);
            snprintf(msg, sizeof msg, "%s: %s (output is on: [diagnostics] fields)", at, why);
        }
        if (!msg[0] && c->checkpoint.period > 0 &&
            gale_dir_prepare(c->checkpoint.dir, ckpt_names, why, sizeof why)) {
            gale_config_origin(c, "checkpoint", "dir", at, sizeof at);
            snprintf(msg, sizeof msg, "%s: %s (checkpoints are on: period %d)", at, why,
                     c->checkpoint.period);
        }
    }
    int bad = msg[0] != '\0';
    GALE_MPI(MPI_Bcast(&bad, 1, MPI_INT, 0, comm));
    if (bad) {
        if (rank == 0) GALE_ERROR(GALE_ERR_INPUT, "%s", msg);
        return GALE_ERR_INPUT;
    }
    return GALE_OK;
}
