/* [emulate] resolved (docs/emulate.md): once the configuration is complete,
 * the machine's name or file becomes its parameters in the configuration,
 * so that they travel with it to every rank and a machine file is read
 * once, on the rank that reads the configuration. */
#include "config_internal.h"

#include "gale_base.h"

#include <string.h>

int gale_config_emulate_(gale_config_t *c)
{
    char at[GALE_STR + GALE_ORIGIN], why[2 * GALE_STR];
    memset(&c->emulate.model, 0, sizeof c->emulate.model); /* configs compare with memcmp */
    if (strcmp(c->emulate.machine, "none") == 0) {
        static const char *const keys[2] = {"nodes", "ranks_per_node"};
        for (int i = 0; i < 2; i++)
            if (c->origin[gale_config_key_index_("emulate", keys[i])].line != 0) {
                gale_config_origin(c, "emulate", keys[i], at, sizeof at);
                gale_log(GALE_LOG_WARN, "%s without [emulate] machine: nothing is emulated", at);
            }
        return GALE_OK;
    }
    gale_netmodel_t m;
    if (gale_netmodel_builtin(c->emulate.machine, &m) != 0 &&
        gale_netmodel_read(c->emulate.machine, &m, why, sizeof why) != 0) {
        gale_config_origin(c, "emulate", "machine", at, sizeof at);
        GALE_ERROR(GALE_ERR_INPUT, "%s: not a built-in machine (archer2, setonix) nor a machine "
                   "file (docs/emulate.md): %s", at, why);
    }
    memcpy(&c->emulate.model, &m, sizeof m);
    return GALE_OK;
}
