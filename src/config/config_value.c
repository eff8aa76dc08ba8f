/* The value layer of the configuration, at the bottom of config/: the key
 * table's lookups (gale_keys[], config_keys.c), one value parsed into or
 * formatted from a gale_config_t, ranges, "did you mean" suggestions, the
 * real-number check, where each key was set, and a configuration file's text.
 * The INI reader (config_ini.c), the LFRic namelist reader (config_nml.c,
 * config_nml_table.c) and config.c are built on it; it calls none of them. */
#include "config_internal.h"
#include "gale_base.h"
#include "gale_config.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


const gale_key_t *gale_config_find_key_(const char *section, const char *key)
{
    for (int i = 0; i < gale_nkeys; i++)
        if (strcmp(gale_keys[i].section, section) == 0 && strcmp(gale_keys[i].key, key) == 0)
            return &gale_keys[i];
    return NULL;
}

int gale_config_has_section_(const char *section)
{
    for (int i = 0; i < gale_nkeys; i++)
        if (strcmp(gale_keys[i].section, section) == 0) return 1;
    return 0;
}

/* Distinct section names in table order. */
int gale_config_section_names_(const char **out)
{
    int n = 0;
    for (int i = 0; i < gale_nkeys && n < MAXC; i++) {
        int seen = 0;
        for (int j = 0; j < n && !seen; j++) seen = strcmp(out[j], gale_keys[i].section) == 0;
        if (!seen) out[n++] = gale_keys[i].section;
    }
    return n;
}

int gale_config_section_keys_(const char *section, const char **out)
{
    int n = 0;
    for (int i = 0; i < gale_nkeys && n < MAXC; i++)
        if (strcmp(gale_keys[i].section, section) == 0) out[n++] = gale_keys[i].key;
    return n;
}

/* An ENUM key's choices split into at most max names (in buf). */
static int split_choices(const char *choices, char *buf, size_t n, const char **out, int max)
{
    snprintf(buf, n, "%s", choices);
    int nc = 0;
    for (char *p = buf; nc < max;) {
        out[nc++] = p;
        p = strchr(p, '|');
        if (!p) break;
        *p++ = '\0';
    }
    return nc;
}

/* Optimal-string-alignment distance (a transposition counts as one edit),
 * case-insensitive: the "did you mean" measure. */
static int edit_distance(const char *a, const char *b)
{
    enum { L = 64 };
    size_t la = strlen(a), lb = strlen(b);
    if (la >= L || lb >= L) return INT_MAX / 2;
    int d[L][L];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            int v = d[i - 1][j - 1] + (ca != cb);
            if (d[i - 1][j] + 1 < v) v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[la][lb];
}

/* The candidate nearest to word, or NULL when none is a plausible typo. */
static const char *nearest(const char *word, const char *const *cands, int n)
{
    const char *best = NULL;
    int bd = INT_MAX;
    for (int i = 0; i < n; i++) {
        int d = edit_distance(word, cands[i]);
        if (d < bd) bd = d, best = cands[i];
    }
    /* Suggest only a plausible typo: about a third of the word wrong at most. */
    int limit = (int)(strlen(word) + 2) / 3;
    return bd <= (limit > 1 ? limit : 1) ? best : NULL;
}

/* "did you mean 'x'?" when a candidate is close, else the whole list. */
void gale_config_suggest_(char *out, size_t n, const char *word, const char *const *cands,
                          int nc, const char *open, const char *close)
{
    const char *near = nearest(word, cands, nc);
    if (near) {
        snprintf(out, n, "did you mean %s%s%s?", open, near, close);
        return;
    }
    size_t len = (size_t)snprintf(out, n, "allowed:");
    for (int i = 0; i < nc && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s %s%s%s", i ? "," : "", open, cands[i],
                                close);
}

/* "[0.5, 1]", "[1e-09, inf)", "(0, 2]", "(-inf, inf)". */
void gale_config_fmt_range_(const gale_key_t *k, char *out, size_t n)
{
    char lo[32] = "(-inf", hi[32] = "inf)";
    if (k->min > -DBL_MAX) snprintf(lo, sizeof lo, "%c%.15g", k->min_open ? '(' : '[', k->min);
    if (k->max < DBL_MAX) snprintf(hi, sizeof hi, "%.15g]", k->max);
    snprintf(out, n, "%s, %s", lo, hi);
}

/* ---------------- values ---------------- */

int gale_config_real_(const char *s, double *v, char *why, size_t n)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    if (end == s || *end) {
        snprintf(why, n, "not a number");
        return -1;
    }
    if (!isfinite(*v)) {
        snprintf(why, n, errno == ERANGE ? "overflows: beyond %.17g, the largest double"
                                         : "not a finite number", DBL_MAX);
        return -1;
    }
    /* 1e-400 reads as 0 and 1e-310 as a subnormal, both with ERANGE (glibc);
     * an exact subnormal (0x1p-1074) without: tested by size */
    if ((errno == ERANGE && *v == 0) || (*v != 0 && fabs(*v) < DBL_MIN)) {
        snprintf(why, n, "underflows: a non-zero number below %.17g in magnitude (the smallest "
                 "normal double) reads as 0 or loses precision", DBL_MIN);
        return -1;
    }
    return 0;
}

/* Below the range of k: under min, or at it when min is excluded. */
static int below(const gale_key_t *k, double v)
{
    return v < k->min || (k->min_open && v == k->min);
}

/* Parses text as the value of key k into cfg. On failure returns -1 with
 * what is wrong and what is allowed in why; cfg is untouched. */
int gale_config_parse_value_(const gale_key_t *k, const char *s, gale_config_t *cfg, char *why,
                       size_t n)
{
    char *dst = (char *)cfg + k->offset, *end, range[96];
    gale_config_fmt_range_(k, range, sizeof range);
    switch (k->type) {
    case GALE_KT_INT:
    case GALE_KT_MESH: {
        int mesh = k->type == GALE_KT_MESH;
        const char *t = s + (mesh && (*s == 'C' || *s == 'c'));
        long v = strtol(t, &end, 10); /* on overflow LONG_MIN/MAX: out of range below */
        int syntax = end == t || *end || (mesh && (t == s || !isdigit((unsigned char)*t)));
        if (syntax || below(k, (double)v) || (double)v > k->max) {
            if (mesh) snprintf(why, n, "expected C<N> with N in %s", range);
            else if (syntax) snprintf(why, n, "not an integer");
            else snprintf(why, n, "out of range %s", range);
            return -1;
        }
        *(int *)dst = (int)v;
        return 0;
    }
    case GALE_KT_REAL: {
        double v;
        if (gale_config_real_(s, &v, why, n)) return -1;
        if (below(k, v) || v > k->max) {
            snprintf(why, n, "out of range %s", range);
            return -1;
        }
        *(double *)dst = v;
        return 0;
    }
    case GALE_KT_BOOL: {
        static const char *const yes[] = {"true", "yes", "on", "1"},
                                 *const no[] = {"false", "no", "off", "0"};
        for (int i = 0; i < 4; i++)
            if (strcasecmp(s, yes[i]) == 0 || strcasecmp(s, no[i]) == 0) {
                *(int *)dst = strcasecmp(s, yes[i]) == 0;
                return 0;
            }
        snprintf(why, n, "not a boolean (true/false, yes/no, on/off, 1/0)");
        return -1;
    }
    case GALE_KT_STRING:
        if (strlen(s) >= GALE_STR) {
            snprintf(why, n, "longer than %d characters", GALE_STR - 1);
            return -1;
        }
        /* the resolved configuration (run report, output files, checkpoints)
         * stores it as one quoted INI value that must read back */
        for (const char *c = s; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f) {
                snprintf(why, n, "a control character (byte 0x%02x) at position %d",
                         (unsigned char)*c, (int)(c - s) + 1);
                return -1;
            }
        if (strchr(s, '\'') && strchr(s, '"')) {
            snprintf(why, n, "both quote characters ' and \": a value may hold one kind");
            return -1;
        }
        memset(dst, 0, GALE_STR); /* whole buffer: configs compare with memcmp */
        memcpy(dst, s, strlen(s));
        return 0;
    case GALE_KT_ENUM: {
        char buf[512], sugg[512];
        const char *c[MAXC];
        int nc = split_choices(k->choices, buf, sizeof buf, c, MAXC);
        for (int i = 0; i < nc; i++)
            if (strcasecmp(s, c[i]) == 0) {
                *(int *)dst = i;
                return 0;
            }
        const char *near = nearest(s, c, nc);
        if (near) snprintf(sugg, sizeof sugg, "; did you mean '%s'?", near);
        else sugg[0] = '\0';
        snprintf(why, n, "not one of %s%s", k->choices, sugg);
        return -1;
    }
    }
    snprintf(why, n, "key has an unknown type %d (bug in the key table)", k->type);
    return -1;
}

int gale_config_key_index_(const char *section, const char *key)
{
    const gale_key_t *k = gale_config_find_key_(section, key);
    return k ? (int)(k - gale_keys) : -1;
}

void gale_config_set_origin_(gale_config_t *cfg, const char *section, const char *key, int line,
                           const char *text)
{
    const int i = gale_config_key_index_(section, key);
    if (i < 0) return;
    cfg->origin[i].line = line;
    memset(cfg->origin[i].text, 0, GALE_ORIGIN); /* whole buffer: configs compare with memcmp */
    snprintf(cfg->origin[i].text, GALE_ORIGIN, "%s", text);
}

int gale_config_origin(const gale_config_t *cfg, const char *section, const char *key,
                       char *buf, size_t n)
{
    const gale_key_t *k = gale_config_find_key_(section, key);
    char v[GALE_STR + 8];
    if (!k) {
        snprintf(buf, n, "[%s] %s", section, key);
        return 0;
    }
    const int i = (int)(k - gale_keys), line = cfg->origin[i].line;
    if (line > 0 && cfg->origin[i].text[0]) { /* a namelist's "&group key = value" */
        snprintf(buf, n, "%s:%d: %s", cfg->source, line, cfg->origin[i].text);
        return 1;
    }
    gale_config_format_value_(k, cfg, v, sizeof v);
    if (line > 0) snprintf(buf, n, "%s:%d: [%s] %s = %s", cfg->source, line, section, key, v);
    else snprintf(buf, n, "%s[%s] %s = %s", line < 0 ? "command line: " : "", section, key, v);
    return 0;
}

int gale_config_set_(gale_config_t *cfg, const char *section, const char *key, const char *text,
                     char *why, size_t n)
{
    const gale_key_t *k = gale_config_find_key_(section, key);
    if (!k) {
        snprintf(why, n, "no gale key [%s] %s (bug in the namelist mapping)", section, key);
        return -1;
    }
    return gale_config_parse_value_(k, text, cfg, why, n);
}

/* The value as INI text: shortest decimal that reads back to the same double
 * (%.17g always does, but 1e-10 reads better than 1.0000000000000000e-10). */
void gale_config_format_value_(const gale_key_t *k, const gale_config_t *cfg, char *out, size_t n)
{
    const char *src = (const char *)cfg + k->offset;
    switch (k->type) {
    case GALE_KT_INT: snprintf(out, n, "%d", *(const int *)src); return;
    case GALE_KT_MESH: snprintf(out, n, "C%d", *(const int *)src); return;
    case GALE_KT_BOOL: snprintf(out, n, "%s", *(const int *)src ? "true" : "false"); return;
    case GALE_KT_REAL: {
        double v = *(const double *)src;
        for (int p = 15; p <= 17; p++) {
            snprintf(out, n, "%.*g", p, v);
            if (strtod(out, NULL) == v) return;
        }
        return;
    }
    case GALE_KT_STRING: { /* quoted, so blanks and comment characters survive */
        char q = strchr(src, '"') ? '\'' : '"';
        snprintf(out, n, "%c%s%c", q, src, q);
        return;
    }
    case GALE_KT_ENUM: {
        const char *p = k->choices;
        for (int i = *(const int *)src; i > 0 && p; i--) {
            p = strchr(p, '|');
            if (p) p++;
        }
        snprintf(out, n, "%.*s", p ? (int)strcspn(p, "|") : 0, p ? p : "");
        return;
    }
    }
    snprintf(out, n, "?");
}

/* ---------------- value text ---------------- */

/* The value text after '=': blanks trimmed, optional quotes removed and, when
 * comments != 0, a trailing comment ('#' or ';' after a blank) dropped. */
int gale_config_value_text_(char *s, int comments, char **out, char *why, size_t n)
{
    s = trim(s);
    if (*s == '"' || *s == '\'') {
        char *close = strchr(s + 1, *s);
        if (!close) {
            snprintf(why, n, "unterminated quote %c", *s);
            return -1;
        }
        *close = '\0';
        char *rest = ltrim(close + 1);
        if (*rest && !(comments && (*rest == '#' || *rest == ';'))) {
            snprintf(why, n, "unexpected text '%s' after the closing quote", rest);
            return -1;
        }
        *out = s + 1;
        return 0;
    }
    if (comments)
        for (char *p = s; *p; p++)
            if ((*p == '#' || *p == ';') && (p == s || isspace((unsigned char)p[-1]))) {
                *p = '\0';
                break;
            }
    *out = trim(s);
    return 0;
}

/* ---------------- files ---------------- */

int gale_config_read_text_(const char *path, char **text)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        GALE_ERROR(GALE_ERR_INPUT, "cannot open configuration file '%s': %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - 1 - n, f);
        if (n < cap - 1) break;
        char *b = realloc(buf, cap *= 2);
        if (!b) free(buf);
        buf = b;
    }
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (!buf) GALE_ERROR(GALE_ERR_MEM, "out of memory reading '%s'", path);
    if (err) {
        free(buf);
        GALE_ERROR(GALE_ERR_INPUT, "cannot read configuration file '%s': %s", path, strerror(err));
    }
    /* CR, CRLF and LF all end a line: a file with CR line ends would
     * otherwise be one line (its first comment hiding the rest) */
    size_t m = 0;
    int line = 1;
    /* a UTF-8 byte-order mark, as some Windows editors write, is not text */
    const int bom = n >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0;
    for (size_t i = bom ? 3 : 0; i < n; i++) {
        char c = buf[i];
        if (c == '\r') {
            c = '\n';
            if (i + 1 < n && buf[i + 1] == '\n') i++;
        }
        if (c == '\0') { /* C strings would end the file here, silently */
            free(buf);
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: a NUL byte: a configuration file is text", path,
                       line);
        }
        line += c == '\n';
        buf[m++] = c;
    }
    buf[m] = '\0';
    *text = buf;
    return GALE_OK;
}

/* ---------------- enum names ---------------- */

const char *gale_config_choice(const char *section, const char *key, int value)
{
    /* Names point into one split copy of every ENUM key's choices, made on
     * the first call (from the master thread, as the configuration is read). */
    static char pool[4096];
    static const char *names[MAXC];
    static int first[MAXC + 1], ready = 0;
    if (!ready) {
        size_t used = 0;
        int nn = 0;
        for (int i = 0; i < gale_nkeys && i < MAXC; i++) {
            const gale_key_t *k = &gale_keys[i];
            if (k->type == GALE_KT_ENUM && used + strlen(k->choices) < sizeof pool) {
                nn += split_choices(k->choices, pool + used, sizeof pool - used, names + nn,
                                    MAXC - nn);
                used += strlen(k->choices) + 1;
            }
            first[i + 1] = nn;
        }
        ready = 1;
    }
    const gale_key_t *k = gale_config_find_key_(section, key);
    int i = k ? (int)(k - gale_keys) : MAXC;
    if (i >= MAXC || k->type != GALE_KT_ENUM || value < 0 || value >= first[i + 1] - first[i])
        return "?";
    return names[first[i] + value];
}
