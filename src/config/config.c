/* Configuration: defaults, INI files, command-line overrides, the resolved
 * dump and the key table. Everything is driven by gale_keys[] (config_keys.c);
 * LFRic namelists (.nml) are read by config_nml.c through gale_config_set_. */
#include "gale_base.h"
#include "gale_config.h"
#include "gale_extrusion.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define GALE_CONFIG_MAX_BYTES (1 << 20)

enum { MAXC = 256 }; /* candidate lists: more than any section or enum holds */

static const char *const type_names[] = {"int", "real", "bool", "string", "enum", "mesh"};

static void format_value(const gale_key_t *k, const gale_config_t *cfg, char *out, size_t n);

/* ---------------- small helpers ---------------- */

static char *ltrim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    return s;
}

static char *trim(char *s)
{
    s = ltrim(s);
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

static const gale_key_t *find_key(const char *section, const char *key)
{
    for (int i = 0; i < gale_nkeys; i++)
        if (strcmp(gale_keys[i].section, section) == 0 && strcmp(gale_keys[i].key, key) == 0)
            return &gale_keys[i];
    return NULL;
}

static int has_section(const char *section)
{
    for (int i = 0; i < gale_nkeys; i++)
        if (strcmp(gale_keys[i].section, section) == 0) return 1;
    return 0;
}

/* Distinct section names in table order. */
static int section_names(const char **out)
{
    int n = 0;
    for (int i = 0; i < gale_nkeys && n < MAXC; i++) {
        int seen = 0;
        for (int j = 0; j < n && !seen; j++) seen = strcmp(out[j], gale_keys[i].section) == 0;
        if (!seen) out[n++] = gale_keys[i].section;
    }
    return n;
}

static int section_keys(const char *section, const char **out)
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
static void fmt_range(const gale_key_t *k, char *out, size_t n)
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
static int parse_value(const gale_key_t *k, const char *s, gale_config_t *cfg, char *why,
                       size_t n)
{
    char *dst = (char *)cfg + k->offset, *end, range[96];
    fmt_range(k, range, sizeof range);
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
    const gale_key_t *k = find_key(section, key);
    return k ? (int)(k - gale_keys) : -1;
}

void gale_config_from_nml_(gale_config_t *cfg, const char *section, const char *key, int line,
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
    const gale_key_t *k = find_key(section, key);
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
    format_value(k, cfg, v, sizeof v);
    if (line > 0) snprintf(buf, n, "%s:%d: [%s] %s = %s", cfg->source, line, section, key, v);
    else snprintf(buf, n, "%s[%s] %s = %s", line < 0 ? "command line: " : "", section, key, v);
    return 0;
}

int gale_config_set_(gale_config_t *cfg, const char *section, const char *key, const char *text,
                     char *why, size_t n)
{
    const gale_key_t *k = find_key(section, key);
    if (!k) {
        snprintf(why, n, "no gale key [%s] %s (bug in the namelist mapping)", section, key);
        return -1;
    }
    return parse_value(k, text, cfg, why, n);
}

/* The value as INI text: shortest decimal that reads back to the same double
 * (%.17g always does, but 1e-10 reads better than 1.0000000000000000e-10). */
static void format_value(const gale_key_t *k, const gale_config_t *cfg, char *out, size_t n)
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

void gale_config_defaults(gale_config_t *cfg)
{
    char why[256];
    memset(cfg, 0, sizeof *cfg); /* padding too: configs compare with memcmp */
    for (int i = 0; i < gale_nkeys; i++)
        (void)parse_value(&gale_keys[i], gale_keys[i].def, cfg, why, sizeof why);
}

/* ---------------- INI files ---------------- */

/* The value text after '=': blanks trimmed, optional quotes removed and, when
 * comments != 0, a trailing comment ('#' or ';' after a blank) dropped. */
static int value_text(char *s, int comments, char **out, char *why, size_t n)
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

/* One line of an INI file. section holds the current section ("" before the
 * first header); first[i] the line where key i was set (duplicates are errors). */
static int ini_line(gale_config_t *cfg, const char *path, int ln, char *line, char *section,
                    size_t nsection, int *first)
{
    char why[1024], sugg[1024];
    const char *cand[MAXC];
    char *s = trim(line);
    if (!*s || *s == '#' || *s == ';') return GALE_OK;

    if (*s == '[') {
        char *close = strchr(s, ']');
        if (!close)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: '%s': missing ']' in the section header", path, ln,
                       s);
        char *rest = ltrim(close + 1);
        if (*rest && *rest != '#' && *rest != ';')
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: unexpected text '%s' after the section header", path,
                       ln, rest);
        *close = '\0';
        char *name = trim(s + 1);
        if (!has_section(name)) {
            gale_config_suggest_(sugg, sizeof sugg, name, cand, section_names(cand), "[", "]");
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: [%s]: unknown section; %s", path, ln, name, sugg);
        }
        snprintf(section, nsection, "%s", name);
        return GALE_OK;
    }

    char *eq = strchr(s, '=');
    size_t klen = eq ? (size_t)(eq - s) : 0;
    while (klen && isspace((unsigned char)s[klen - 1])) klen--;
    if (!klen || strcspn(s, " \t") < klen)
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: '%s': expected 'key = value', '[section]' or a comment",
                   path, ln, s);
    s[klen] = '\0';
    const char *key = s;
    char *val;
    if (value_text(eq + 1, 1, &val, why, sizeof why))
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: %s%s%s%s: %s", path, ln, *section ? "[" : "", section,
                   *section ? "] " : "", key, why);
    if (!*section) {
        int n = 0;
        for (int i = 0; i < gale_nkeys; i++)
            if (strcmp(gale_keys[i].key, key) == 0) cand[n++] = gale_keys[i].section;
        if (n) snprintf(sugg, sizeof sugg, "; put it under [%s]", cand[0]);
        else sugg[0] = '\0';
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: %s = '%s': key outside any section%s", path, ln, key,
                   val, sugg);
    }
    const gale_key_t *k = find_key(section, key);
    if (!k) {
        gale_config_suggest_(sugg, sizeof sugg, key, cand, section_keys(section, cand), "'", "'");
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: [%s] %s: unknown key; %s", path, ln, section, key, sugg);
    }
    int idx = (int)(k - gale_keys);
    if (first[idx])
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: [%s] %s: duplicate key (first set on line %d)", path,
                   ln, section, key, first[idx]);
    first[idx] = ln;
    if (parse_value(k, val, cfg, why, sizeof why))
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: [%s] %s = '%s': %s", path, ln, section, key, val, why);
    gale_config_from_nml_(cfg, section, key, ln, ""); /* for gale_config_origin */
    return GALE_OK;
}

static int read_ini(gale_config_t *cfg, const char *path, char *text, int *first)
{
    char section[128] = "";
    int ln = 0;
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        GALE_CALL(ini_line(cfg, path, ++ln, line, section, sizeof section, first));
        line = nl ? nl + 1 : line + strlen(line);
    }
    return GALE_OK;
}

static int parse_ini(gale_config_t *cfg, const char *path)
{
    char *text;
    GALE_CALL(gale_config_read_text_(path, &text));
    int *first = calloc((size_t)gale_nkeys, sizeof *first);
    int st = first ? read_ini(cfg, path, text, first) : GALE_ERR_MEM;
    free(first);
    free(text);
    if (st == GALE_ERR_MEM) GALE_ERROR(GALE_ERR_MEM, "out of memory reading '%s'", path);
    return st;
}

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

/* ---------------- command-line overrides ---------------- */

static int apply_override(gale_config_t *cfg, const char *raw)
{
    /* messages quote the argument with its control characters shown as '?'
     * (a newline would split the message) */
    char arg[2 * GALE_STR + 8];
    snprintf(arg, sizeof arg, "%s", raw);
    for (char *c = arg; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    char buf[2 * GALE_STR], why[1024], sugg[1024];
    const char *cand[MAXC];
    if (strlen(raw) >= sizeof buf)
        GALE_ERROR(GALE_ERR_INPUT, "command line: '%.40s...': longer than %zu characters", arg,
                   sizeof buf - 1);
    snprintf(buf, sizeof buf, "%s", raw);
    char *s = strncmp(buf, "--", 2) == 0 ? buf + 2 : buf;
    char *eq = strchr(s, '='), *dot = strchr(s, '.');
    if (!eq || !dot || dot > eq)
        GALE_ERROR(GALE_ERR_INPUT, "command line: %s: expected --section.key=value", arg);
    *eq = *dot = '\0';
    const char *section = s, *key = dot + 1;
    if (!has_section(section)) {
        gale_config_suggest_(sugg, sizeof sugg, section, cand, section_names(cand), "[", "]");
        GALE_ERROR(GALE_ERR_INPUT, "command line: %s: unknown section [%s]; %s", arg, section,
                   sugg);
    }
    const gale_key_t *k = find_key(section, key);
    if (!k) {
        gale_config_suggest_(sugg, sizeof sugg, key, cand, section_keys(section, cand), "'", "'");
        GALE_ERROR(GALE_ERR_INPUT, "command line: %s: unknown key [%s] %s; %s", arg, section, key,
                   sugg);
    }
    char *val;
    if (value_text(eq + 1, 0, &val, why, sizeof why) || parse_value(k, val, cfg, why, sizeof why))
        GALE_ERROR(GALE_ERR_INPUT, "command line: %s: %s", arg, why);
    gale_config_from_nml_(cfg, section, key, -1, ""); /* no longer the file's */
    return GALE_OK;
}

/* ---------------- public entry points ---------------- */

/* Configuration files are small: a device, a pipe or a directory, or a file
 * over GALE_CONFIG_MAX_BYTES, is refused before reading (gale run /dev/zero
 * read without end). A missing file is left to the reader's message. */
static int check_file(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        /* "gale run mesh.name=C4": an override without its leading -- */
        const char *eq = strchr(path, '='), *dot = strchr(path, '.');
        if (errno == ENOENT && eq && dot && dot < eq && strcspn(path, "/") > (size_t)(eq - path) &&
            *path != '-')
            GALE_ERROR(GALE_ERR_INPUT, "cannot open configuration file '%s': %s; did you mean "
                       "--%s? (overrides start with --)", path, strerror(ENOENT), path);
        return GALE_OK;
    }
    if (!S_ISREG(sb.st_mode))
        GALE_ERROR(GALE_ERR_INPUT, "configuration file '%s' is not a regular file (%s)", path,
                   gale_file_kind(sb.st_mode));
    if (sb.st_size > GALE_CONFIG_MAX_BYTES)
        GALE_ERROR(GALE_ERR_INPUT,
                   "configuration file '%s' is %lld bytes: configuration files are at most %d "
                   "bytes (1 MiB)", path, (long long)sb.st_size, GALE_CONFIG_MAX_BYTES);
    return GALE_OK;
}

/* ---------------- the configuration as a whole ---------------- */

/* Rules between keys, checked once defaults, file and overrides are all in:
 * a key may be fine alone and wrong with another. [mixed_solver] has none:
 * its prec_only goes with any [solver] (the preconditioner's inner Helmholtz
 * solve is whatever [solver] says), and with [dynamics] mass_matrix = lumped
 * its keys are unused, not wrong. */
static int check_whole(const gale_config_t *c)
{
    const char *pc = gale_config_choice("solver", "preconditioner", c->solver.preconditioner);
    size_t len = strlen(c->source);
    const int nml = len > 4 && strcasecmp(c->source + len - 4, ".nml") == 0;
    char a[GALE_STR + GALE_ORIGIN], b[GALE_STR + GALE_ORIGIN];
    if (strcmp(gale_config_choice("solver", "method", c->solver.method), "prec_only") == 0 &&
        strcmp(pc, "multigrid") != 0)
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s%s[solver] method = prec_only with [solver] preconditioner = %s%s: prec_only "
                   "applies one multigrid V-cycle per solve and needs preconditioner = multigrid",
                   c->source, len ? ": " : "", pc,
                   nml ? " (&helmholtz_solver method and preconditioner)" : "");
    _Static_assert(GALE_EXT_UM_L85 == (int)GALE_EXTRUDE_UM_L85, "the extrusion enums' order");
    const int fixed = gale_extrusion_fixed_layers((gale_extrude_t)c->extrusion.method);
    if (fixed && c->extrusion.levels != fixed)
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s%s[extrusion] method = %s with levels = %d%s: that level set has %d layers",
                   c->source, len ? ": " : "",
                   gale_config_choice("extrusion", "method", c->extrusion.method),
                   c->extrusion.levels, nml ? " (&extrusion method and number_of_layers)" : "",
                   fixed);
    /* the Krylov solver keeps at most 16 gcr directions (solver/krylov.c):
     * refused here, where the key's origin is known */
    if (strcmp(gale_config_choice("solver", "method", c->solver.method), "gcr") == 0 &&
        c->solver.gcr_restart > 16) {
        gale_config_origin(c, "solver", "gcr_restart", a, sizeof a);
        gale_config_origin(c, "solver", "method", b, sizeof b);
        GALE_ERROR(GALE_ERR_INPUT, "%s with %s: gale's gcr keeps at most 16 directions before a "
                   "restart (LFRic's example's 18 is for its bicgstab, which keeps none)", a, b);
    }
    /* a relative tolerance of 0 is met only by an exact solve, unless an
     * absolute one stops it: the run would fail at its first solve */
    static const char *const solvers[2] = {"solver", "mixed_solver"};
    const double rel[2] = {c->solver.tolerance, c->mixed_solver.tolerance},
                 abs_[2] = {c->solver.abs_tolerance, c->mixed_solver.abs_tolerance};
    for (int i = 0; i < 2; i++)
        if (rel[i] == 0 && abs_[i] == 0) {
            gale_config_origin(c, solvers[i], "tolerance", a, sizeof a);
            gale_config_origin(c, solvers[i], "abs_tolerance", b, sizeof b);
            GALE_ERROR(GALE_ERR_INPUT, "%s with %s: a relative tolerance of 0 is never met "
                       "without an absolute one: give a tolerance in (0, 1] or a positive "
                       "abs_tolerance", a, b);
        }
    /* the writer's ring is one allocation of buffers x buffer_mib per rank
     * (io/writer.c); the memory check at set-up compares it with the node */
    if (c->io.buffers * c->io.buffer_mib > GALE_RING_MAX_MIB) {
        gale_config_origin(c, "io", "buffers", a, sizeof a);
        gale_config_origin(c, "io", "buffer_mib", b, sizeof b);
        GALE_ERROR(GALE_ERR_INPUT, "%s with %s: an output ring of %.0f MiB per rank; buffers x "
                   "buffer_mib is at most %d MiB (1 TiB)", a, b,
                   c->io.buffers * c->io.buffer_mib, GALE_RING_MAX_MIB);
    }
    GALE_CALL(gale_output_check_fields(c));
    /* LFRic's transport methods that gale's method of lines does not
     * implement: refused unless the user lets it stand in for them */
    if (c->stand_in.first[0] && !c->dynamics.transport_stand_in)
        GALE_ERROR(GALE_ERR_INPUT, "%s; --dynamics.transport_stand_in=true lets gale's method of "
                   "lines stand in for LFRic's (the log then lists every such key)",
                   c->stand_in.first);
    if (c->stand_in.keys[0])
        gale_log(GALE_LOG_INFO, "LFRic namelist %s: LFRic's transport methods, stood in for by "
                 "gale's method of lines ([dynamics] transport_stand_in = true; upwind-biased "
                 "reconstruction, SSP-RK3, substeps at [dynamics] transport_courant): %s",
                 c->source, c->stand_in.keys);
    return GALE_OK;
}

int gale_config_parse(gale_config_t *cfg, const char *path, int noverrides, char **overrides)
{
    gale_config_t c; /* filled aside so that *cfg is untouched on failure */
    gale_config_defaults(&c);
    if (path) {
        GALE_CALL(check_file(path));
        size_t len = strlen(path);
        if (len > 4 && strcasecmp(path + len - 4, ".nml") == 0)
            GALE_CALL(gale_config_read_nml_(&c, path));
        else
            GALE_CALL(parse_ini(&c, path));
        snprintf(c.source, sizeof c.source, "%s", path);
    }
    for (int i = 0; i < noverrides; i++) GALE_CALL(apply_override(&c, overrides[i]));
    GALE_CALL(check_whole(&c));
    memcpy(cfg, &c, sizeof c);
    return GALE_OK;
}

int gale_config_load(gale_config_t *cfg, const char *path, int noverrides, char **overrides,
                     MPI_Comm comm)
{
    int rank, st = GALE_OK;
    GALE_MPI(MPI_Comm_rank(comm, &rank));
    /* Rank 0 alone reads and reports; the others learn the outcome from the
     * broadcast status, so bad input stops every rank with one message and no hang. */
    if (rank == 0) st = gale_config_parse(cfg, path, noverrides, overrides);
    GALE_MPI(MPI_Bcast(&st, 1, MPI_INT, 0, comm));
    if (st != GALE_OK) return st;
    GALE_MPI(MPI_Bcast(cfg, (int)sizeof *cfg, MPI_BYTE, 0, comm)); /* same binary on every rank */
    return GALE_OK;
}

/* snprintf-style append: *len counts what the whole text needs. */
static void put(char *buf, size_t n, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(*len < n ? buf + *len : NULL, *len < n ? n - *len : 0, fmt, ap);
    va_end(ap);
    if (m > 0) *len += (size_t)m;
}

size_t gale_config_dump(const gale_config_t *cfg, char *buf, size_t n)
{
    size_t len = 0;
    char v[GALE_STR + 8];
    if (n) buf[0] = '\0';
    put(buf, n, &len, "# gale resolved configuration%s%s\n", cfg->source[0] ? " from " : "",
        cfg->source);
    for (int i = 0; i < gale_nkeys; i++) {
        const gale_key_t *k = &gale_keys[i];
        if (i == 0 || strcmp(k->section, gale_keys[i - 1].section) != 0)
            put(buf, n, &len, "%s[%s]\n", i ? "\n" : "", k->section);
        format_value(k, cfg, v, sizeof v);
        put(buf, n, &len, "%s = %s\n", k->key, v);
    }
    return len;
}

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
    const gale_key_t *k = find_key(section, key);
    int i = k ? (int)(k - gale_keys) : MAXC;
    if (i >= MAXC || k->type != GALE_KT_ENUM || value < 0 || value >= first[i + 1] - first[i])
        return "?";
    return names[first[i] + value];
}

/* Markdown table cells: '|' and '<' would break the table or vanish as HTML. */
static void md_escape(const char *s, char *out, size_t n)
{
    size_t j = 0;
    for (; *s && j + 2 < n; s++) {
        if (*s == '|' || *s == '<') out[j++] = '\\';
        out[j++] = *s;
    }
    out[j] = '\0';
}

void gale_config_print_keys(int md)
{
    char range[96], allowed[600], a[1200], h[1024];
    if (md)
        puts("| section | key | type | default | allowed | description |\n"
             "|---|---|---|---|---|---|");
    else
        puts("gale configuration keys: [section] key = value in an INI file, or\n"
             "--section.key=value on the command line (defaults < file < command line).");
    for (int i = 0; i < gale_nkeys; i++) {
        const gale_key_t *k = &gale_keys[i];
        switch (k->type) {
        case GALE_KT_INT:
        case GALE_KT_REAL: fmt_range(k, allowed, sizeof allowed); break;
        case GALE_KT_MESH:
            fmt_range(k, range, sizeof range);
            snprintf(allowed, sizeof allowed, "C<N>, N in %s", range);
            break;
        case GALE_KT_BOOL: snprintf(allowed, sizeof allowed, "true|false"); break;
        case GALE_KT_STRING:
            snprintf(allowed, sizeof allowed, "text, < %d characters", GALE_STR);
            break;
        default: snprintf(allowed, sizeof allowed, "%s", k->choices); break;
        }
        if (md) {
            md_escape(allowed, a, sizeof a);
            md_escape(k->help, h, sizeof h);
            printf("| %s | %s | %s | `%s` | %s | %s |\n", k->section, k->key, type_names[k->type],
                   k->def, a, h);
        } else {
            if (i == 0 || strcmp(k->section, gale_keys[i - 1].section) != 0)
                printf("\n[%s]\n", k->section);
            printf("  %-22s %-6s default %-14s %s\n      %s\n", k->key, type_names[k->type], k->def,
                   allowed, k->help);
        }
    }
}
