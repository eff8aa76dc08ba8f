/* Argument parsing shared by the command-line commands (src/app/cmd_*.c). */
#include "gale_app.h"

#include <errno.h>
#include <stdlib.h>

int gale_parse_int(const char *s, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return -1;
    *out = (int)v;
    return 0;
}
