/* LFRic gravity_wave and GungHo namelists (configuration.nml) as a gale
 * configuration.
 * Fortran namelist syntax: groups "&name key = value, ... /", values quoted
 * ('C16' or "C16"), logical (.true./.false./T/F), numeric (1.0d-4), lists and
 * repeat counts (3*0.0), comments from '!'. The file is read twice: first for
 * its kind (&section_choice dynamics = 'gungho': GungHo's, else a
 * gravity_wave namelist), then every key as its row of gale_lfric_map[] for that
 * kind says (config_nml_table.c): converted to a gale key through the INI parser's own
 * validation, honoured when its value is what gale computes and refused
 * otherwise, or without effect (logged once); anything that is not an LFRic
 * key is an error. docs/lfric-namelist.md has the table and the reasons. */
#include "config_internal.h"
#include "config_nml_table.h"
#include "gale_base.h"
#include "gale_config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { NAME = 64 };
/* Values kept of one assignment: a multigrid chain has at most 16 meshes
 * ([multigrid] levels), so one more tells a chain that is too long. */
enum { MAXV = 17 };
/* keys held for the end (gale_lfric_map kinds CORE, GH_CASE, ROTATE): one each */
enum { NHELD = 16 };


/* ---------------- the namelist reader ---------------- */

typedef struct {
    const char *path, *p; /* file name, read position */
    int line;
    gale_config_t *cfg;
    FILE *unused;         /* "group.key, ..." of LFRic keys gale does not use */
    int nunused;
    struct held { char val[GALE_STR]; int line; } prime, file, prefix, start, end, nitems, pc,
        wind, width;
    struct { char v[MAXV][NAME]; int n, line; } forms, names; /* equation_form, field_names */
    char *seen; /* " key key ... " of the current group: no fixed limit on keys */
    size_t nseen, capseen;
    struct { char tag[MAXV][NAME], text[GALE_STR]; long n; int line; } chain; /* chain_mesh_tags */
    struct { const char *group; int line, on; } mg; /* l_multigrid: a .false. one wins */
    struct { int m, line; char val[GALE_STR]; } held[NHELD]; /* GungHo's keys, in file order */
    int nheld, gungho; /* gungho: the line of &section_choice dynamics = 'gungho', or 0 */
    int first;         /* the first pass, which only finds the kind (r->gungho) */
    int stand_m;       /* the row of cfg->stand_in.first */
} nml_t;

/* The rest of the current line, at most 20 characters, for messages. */
static int shown(const char *p)
{
    size_t n = strcspn(p, "\r\n");
    return n < 20 ? (int)n : 20;
}

/* Lists &group key among the keys the run does not use (logged at the end). */
static void not_used(nml_t *r, const char *group, const char *key)
{
    fprintf(r->unused, "%s%s.%s", r->nunused++ ? ", " : "", group, key);
}

/* Skips blanks, newlines, comments and, with commas != 0, value separators. */
static void skip(nml_t *r, int commas)
{
    for (;;) {
        char c = *r->p;
        if (c == '\n') r->line++, r->p++;
        else if (c == ' ' || c == '\t' || c == '\r' || (commas && c == ',')) r->p++;
        else if (c == '!') r->p += strcspn(r->p, "\n");
        else return;
    }
}

/* A Fortran name, lower-cased (names are case-insensitive); 0 if none. */
static size_t read_name(nml_t *r, char *out)
{
    size_t n = 0;
    if (!isalpha((unsigned char)*r->p)) return 0;
    while ((isalnum((unsigned char)*r->p) || *r->p == '_') && n + 1 < NAME)
        out[n++] = (char)tolower((unsigned char)*r->p++);
    out[n] = '\0';
    return n;
}

/* Whether a "name =" follows: the start of the next assignment, not a value. */
static int at_assignment(nml_t *r)
{
    const char *p = r->p;
    int line = r->line, yes = 0;
    char name[NAME];
    if (read_name(r, name)) {
        skip(r, 0);
        yes = *r->p == '=';
    }
    r->p = p, r->line = line;
    return yes;
}

/* One value: a quoted string ('' or "" inside stands for the quote) or a
 * bare token. Returns -1 with why set on a malformed value. */
static int read_value(nml_t *r, char *out, char *why, size_t nwhy)
{
    size_t n = 0;
    char q = *r->p;
    if (q == '\'' || q == '"') {
        for (r->p++;; r->p++) {
            if (!*r->p || *r->p == '\n') {
                snprintf(why, nwhy, "unterminated string (missing %c)", q);
                return -1;
            }
            if (*r->p == q && r->p[1] != q) break;
            if (*r->p == q) r->p++;
            if (n + 1 == GALE_STR) {
                snprintf(why, nwhy, "value longer than %d characters", GALE_STR - 1);
                return -1;
            }
            out[n++] = *r->p;
        }
        r->p++;
    } else {
        size_t len = strcspn(r->p, " \t\r\n,/!&");
        if (len + 1 > GALE_STR) {
            snprintf(why, nwhy, "value longer than %d characters", GALE_STR - 1);
            return -1;
        }
        memcpy(out, r->p, len);
        n = len;
        r->p += len;
    }
    out[n] = '\0';
    return 0;
}

/* A logical value as 1 or 0; -1 if it is none. */
static int logical(const char *val)
{
    const char *t = val + (val[0] == '.');
    int c = tolower((unsigned char)*t);
    return c == 't' ? 1 : c == 'f' ? 0 : -1;
}

/* Whether s is a Fortran real or integer literal: sign, digits with at most
 * one '.', an e or d exponent. strtod would also take hexadecimal (0x1p3),
 * inf and nan, which Fortran namelist input has not. */
static int fortran_number(const char *s)
{
    size_t d = 0, e;
    s += *s == '+' || *s == '-';
    d = strspn(s, "0123456789"), s += d;
    if (*s == '.') s++, e = strspn(s, "0123456789"), d += e, s += e;
    if (!d) return 0;
    if (*s && strchr("eEdD", *s)) {
        s++;
        s += *s == '+' || *s == '-';
        if (!(e = strspn(s, "0123456789"))) return 0;
        s += e;
    }
    return !*s;
}

/* A value without its repeat count (3*'x' -> x) and quotes, in out. */
static void unrepeat(const char *v, char *out, size_t n)
{
    size_t d = strspn(v, "0123456789");
    if (d && v[d] == '*') v += d + 1;
    size_t len = strlen(v);
    if (len >= 2 && (v[0] == '\'' || v[0] == '"') && v[len - 1] == v[0]) v++, len -= 2;
    snprintf(out, n, "%.*s", (int)len, v);
}

/* A value as a logical strictly (.true., .t..., T, true; the same for
 * false): 1, 0, or -1 for any other word ('fv' is not .false.). */
static int strict_logical(const char *v)
{
    if (v[0] == '.' && strchr("tTfF", v[1]) && v[1]) return logical(v);
    if (!strcasecmp(v, "t") || !strcasecmp(v, "true")) return 1;
    if (!strcasecmp(v, "f") || !strcasecmp(v, "false")) return 0;
    return -1;
}

/* A value as written in a namelist, for messages: quoted unless a number or
 * a logical. */
static void written(const char *val, char *out, size_t n)
{
    const int bare = fortran_number(val) || strict_logical(val) >= 0;
    snprintf(out, n, "%s%s%s", bare ? "" : "'", val, bare ? "" : "'");
}

/* Sets a gale key from converted text, and where it came from
 * (gale_config_origin); the message names both sides. */
static int set(nml_t *r, int line, const char *group, const char *key, const char *val,
               const char *section, const char *gkey, const char *text)
{
    char why[1024], w[GALE_STR + 2], from[GALE_ORIGIN];
    if (gale_config_set_(r->cfg, section, gkey, text, why, sizeof why))
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s' (gale [%s] %s = %s): %s", r->path, line,
                   group, key, val, section, gkey, text, why);
    written(val, w, sizeof w);
    snprintf(from, sizeof from, "&%s %s = %.*s", group, key, GALE_ORIGIN / 2, w);
    gale_config_set_origin_(r->cfg, section, gkey, line, from);
    return GALE_OK;
}

/* A list of one value per field (repeat counts r*c expanded), at most MAXV. */
static int hold_list(nml_t *r, int line, const char *group, const char *key,
                     const char (*vals)[GALE_STR], int nval, char (*out)[NAME], int *n)
{
    *n = 0;
    for (int i = 0; i < nval && i < MAXV; i++) {
        long times = 1;
        size_t d = strspn(vals[i], "0123456789");
        if (d && vals[i][d] == '*') times = d > 3 ? MAXV + 1 : strtol(vals[i], NULL, 10);
        for (long t = 0; t < times; t++) {
            if (*n == MAXV)
                GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: more than %d values (one per field)",
                           r->path, line, group, key, MAXV);
            unrepeat(vals[i], out[(*n)++], NAME);
        }
    }
    if (nval > MAXV)
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: more than %d values (one per field)", r->path,
                   line, group, key, MAXV);
    return GALE_OK;
}

/* chain_mesh_tags = 'C16', 'C8', ... (nval values, the first MAXV in vals;
 * a repeat count 2*'C8' stands for two): kept for resolve(). */
static void hold_chain(nml_t *r, int line, const char (*vals)[GALE_STR], int nval)
{
    size_t len = 0;
    r->chain.n = 0, r->chain.line = line;
    for (int i = 0; i < nval; i++) {
        const char *v = i < MAXV ? vals[i] : "";
        long times = 1;
        size_t d = strspn(v, "0123456789");
        if (d && v[d] == '*') { /* r*c: the bare token still has the quotes of c */
            times = d > 12 ? LONG_MAX / 4 : strtol(v, NULL, 10); /* past 16 only the count matters */
            v += d + 1;
        }
        size_t n = strlen(v);
        if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0]) v++, n -= 2;
        long more = 0; /* past the stored ones and the "...", only the count */
        if (times > MAXV + 1) more = times - (MAXV + 1), times = MAXV + 1;
        for (long t = 0; t < times; t++, r->chain.n++) {
            if (r->chain.n < MAXV)
                snprintf(r->chain.tag[r->chain.n], NAME, "%.*s", (int)n, v);
            if (r->chain.n < MAXV && len < sizeof r->chain.text)
                len += (size_t)snprintf(r->chain.text + len, sizeof r->chain.text - len,
                                        "%s'%.*s'", r->chain.n ? ", " : "", (int)n, v);
            else if (r->chain.n == MAXV && len < sizeof r->chain.text)
                len += (size_t)snprintf(r->chain.text + len, sizeof r->chain.text - len, ", ...");
        }
        r->chain.n = more > LONG_MAX / 4 - r->chain.n ? LONG_MAX / 4 : r->chain.n + more;
    }
}

/* Whether namelist value v (without repeat count) is the table's value
 * want: as logicals, as numbers (1000.0e2 is 100000.0), else as words. */
static int same_value(const char *v, const char *want)
{
    char a[64], b[64];
    if (strict_logical(want) >= 0) return strict_logical(v) == strict_logical(want);
    if (!fortran_number(want)) return strcasecmp(v, want) == 0;
    if (!fortran_number(v)) return 0;
    snprintf(a, sizeof a, "%s", v), snprintf(b, sizeof b, "%s", want);
    for (char *p = a; *p; p++)
        if (*p == 'd' || *p == 'D') *p = 'e';
    return strtod(a, NULL) == strtod(b, NULL);
}

/* Whether v is one of the words of list (up to a '|', or the end). */
static int one_of(const char *v, const char *list)
{
    char head[512], buf[512];
    const char *w[MAXW];
    snprintf(head, sizeof head, "%.*s", (int)strcspn(list, "|"), list);
    int nw = gale_lfric_words_(head, buf, sizeof buf, w);
    for (int k = 0; k < nw; k++)
        if (same_value(v, w[k])) return 1;
    return 0;
}

/* An ONLY row: every value (one per field in a list) must be one gale
 * computes; any other is refused, with the note's reason. */
static int only(nml_t *r, int line, int m, const char (*vals)[GALE_STR], int nval)
{
    const char *group = gale_lfric_map[m].group, *key = gale_lfric_map[m].key;
    char v[GALE_STR], w[GALE_STR + 2], allowed[512], buf[512];
    const char *ws[MAXW];
    for (int i = 0; i < nval && i < MAXV; i++) {
        unrepeat(vals[i], v, sizeof v);
        if (one_of(v, gale_lfric_map[m].values)) continue;
        written(v, w, sizeof w);
        if (gale_lfric_map[m].note)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = %s: %s", r->path, line, group, key, w,
                       gale_lfric_map[m].note);
        size_t n = 0;
        int nw = gale_lfric_words_(gale_lfric_map[m].values, buf, sizeof buf, ws);
        for (int k = 0; k < nw && n < sizeof allowed; k++) {
            char q[NAME + 2];
            written(ws[k], q, sizeof q);
            n += (size_t)snprintf(allowed + n, sizeof allowed - n, "%s%s", k ? " or " : "", q);
        }
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = %s: gale models only %s", r->path, line,
                   group, key, w, allowed);
    }
    return GALE_OK;
}

/* A STANDIN row (a &transport method): gale's values pass; LFRic's others
 * are noted for gale_config_parse, which refuses them unless [dynamics]
 * transport_stand_in lets gale's method of lines stand in. */
static int stand_in(nml_t *r, int line, int m, const char (*vals)[GALE_STR], int nval)
{
    const char *group = gale_lfric_map[m].group, *key = gale_lfric_map[m].key, *lv = gale_lfric_map[m].values;
    const char *others = strchr(lv, '|') + 1;
    char v[GALE_STR], w[GALE_STR + 2], name[2 * NAME + 2];
    int noted = 0;
    for (int i = 0; i < nval && i < MAXV; i++) {
        unrepeat(vals[i], v, sizeof v);
        if (one_of(v, lv)) continue;
        if (strcmp(others, "*") != 0 && !one_of(v, others))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not one of LFRic's values (%.*s %s)",
                       r->path, line, group, key, v, (int)(others - 1 - lv), lv, others);
        written(v, w, sizeof w);
        char *first = r->cfg->stand_in.first, *keys = r->cfg->stand_in.keys;
        if (!first[0] || m < r->stand_m) /* the table's first method key: scheme */
            snprintf(first, GALE_STR, "%s:%d: &%s %s = %.*s: gale implements only the method of "
                     "lines (%s = %.*s: %s)", r->path, line, group, key, NAME, w, key,
                     (int)(others - 1 - lv), lv, gale_lfric_map[m].note),
                r->stand_m = m;
        snprintf(name, sizeof name, "%s.%s", group, key);
        if (!noted++ && strlen(keys) + strlen(name) + 3 < GALE_STR)
            strcat(strcat(keys, keys[0] ? ", " : ""), name);
    }
    return GALE_OK;
}

/* One assignment "key = value [, more values]" (nval values, the first MAXV
 * in vals) in group g, as its row for this namelist's kind says. */
static int assign(nml_t *r, int line, int g, const char *key, const char (*vals)[GALE_STR],
                  int nval)
{
    const char *group = gale_lfric_keys[g].group, *val = vals[0];
    char buf[2048], sugg[1024], text[GALE_STR];
    const char *w[MAXW];
    if (r->first) { /* the kind only: 'gungho' or 'none' */
        if (strcmp(group, "section_choice") != 0 || strcmp(key, "dynamics") != 0) return GALE_OK;
        if (strcasecmp(val, "gungho") && strcasecmp(val, "none"))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not one of 'gungho' (the nonlinear "
                       "core) and 'none' (the gravity_wave mini-app's linear one)", r->path, line,
                       group, key, val);
        r->gungho = strcasecmp(val, "gungho") == 0 ? line : 0;
        return GALE_OK;
    }
    if (!gale_lfric_known_key_(g, key)) {
        gale_config_suggest_(sugg, sizeof sugg, key, w,
                             gale_lfric_words_(gale_lfric_keys[g].keys, buf, sizeof buf, w), "'", "'");
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s:%d: &%s %s: not a key of LFRic's gravity_wave or GungHo namelists; %s",
                   r->path, line, group, key, sugg);
    }
    const int m = gale_lfric_find_map_(group, key, r->gungho ? GH : GW);
    if (m < 0)
        GALE_ERROR(GALE_ERR_INTERNAL, "&%s %s has no row in the namelist table", group, key);
    const int kind = gale_lfric_map[m].kind;
    switch (gale_lfric_map[m].cat) {
    case UNREAD:
    case NOEFF:
        not_used(r, group, key);
        return GALE_OK;
    case STANDIN:
        return stand_in(r, line, m, vals, nval);
    case ONLY:
        if (kind == FORMS) { /* held: checked field by field at the end */
            const int names = strcmp(key, "field_names") == 0;
            r->names.line = names ? line : r->names.line;
            r->forms.line = names ? r->forms.line : line;
            return names ? hold_list(r, line, group, key, vals, nval, r->names.v, &r->names.n)
                         : hold_list(r, line, group, key, vals, nval, r->forms.v, &r->forms.n);
        }
        if (kind != WIND) return only(r, line, m, vals, nval);
        break;
    default: /* MAPS */
        break;
    }
    const int list = strcmp(key, "chain_mesh_tags") == 0; /* the chain's mesh names */
    if (nval != 1 && !list)
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: expected one value, got %d", r->path, line,
                   group, key, nval);
    const char *section = gale_lfric_map[m].section, *gkey = gale_lfric_map[m].gkey;
    switch (kind) {
    case CORE:
    case GH_CASE:
    case ROTATE: {
        if (kind == ROTATE && logical(val) < 0)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not a logical (.true. or .false.)",
                       r->path, line, group, key, val);
        GALE_ASSERT(r->nheld < NHELD); /* one each: a duplicate key stops first */
        r->held[r->nheld].m = m, r->held[r->nheld].line = line;
        snprintf(r->held[r->nheld++].val, GALE_STR, "%.*s", GALE_STR - 1, val);
        return GALE_OK;
    }
    case WIND:
    case WIDTH: {
        struct held *h = kind == WIND ? &r->wind : &r->width;
        snprintf(h->val, sizeof h->val, "%.*s", GALE_STR - 1, val);
        h->line = line;
        return GALE_OK;
    }
    case CHAIN: /* multigrid_chain_nitems is held like the mesh keys */
    case MESH:
    case STEP: {
        if (list) {
            hold_chain(r, line, vals, nval);
            return GALE_OK;
        }
        struct held *h = strcmp(key, "prime_mesh_name") == 0  ? &r->prime
                         : strcmp(key, "filename") == 0       ? &r->file
                         : strcmp(key, "file_prefix") == 0    ? &r->prefix
                         : strcmp(key, "timestep_start") == 0 ? &r->start
                         : strcmp(key, "timestep_end") == 0   ? &r->end
                                                              : &r->nitems;
        snprintf(h->val, sizeof h->val, "%.*s", GALE_STR - 1, val); /* val < GALE_STR */
        h->line = line;
        return GALE_OK;
    }
    case MGFLAG: {
        int on = logical(val);
        if (on < 0)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not a logical (.true. or .false.)",
                       r->path, line, group, key, val);
        if (!r->mg.line || !on) r->mg.group = group, r->mg.line = line, r->mg.on = on;
        return GALE_OK;
    }
    case NUM: {
        if (!fortran_number(val))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not a number (Fortran: digits, "
                       "one '.', an e or d exponent)", r->path, line, group, key, val);
        snprintf(text, sizeof text, "%.*s", GALE_STR - 1, val);
        for (char *p = text; *p; p++)
            if (*p == 'd' || *p == 'D') *p = 'e';
        return set(r, line, group, key, val, section, gkey, text);
    }
    case LOGICAL: {
        int on = logical(val);
        if (on < 0)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': not a logical (.true. or .false.)",
                       r->path, line, group, key, val);
        return set(r, line, group, key, val, section, gkey, on ? "true" : "false");
    }
    case WORD: {
        int nw = gale_lfric_words_(gale_lfric_map[m].values, buf, sizeof buf, w);
        if (strspn(val, "0123456789") && val[strspn(val, "0123456789")] == '*')
            unrepeat(val, text, sizeof text), val = text;
        for (int i = 0; i < nw; i++) {
            size_t len = strcspn(w[i], "=");
            if (strlen(val) == len && strncasecmp(val, w[i], len) == 0) {
                if (strcmp(key, "preconditioner") == 0) { /* for the l_multigrid check */
                    snprintf(r->pc.val, sizeof r->pc.val, "%.*s", GALE_STR - 1, val);
                    r->pc.line = line;
                }
                return set(r, line, group, key, val, section, gkey,
                           w[i][len] ? w[i] + len + 1 : w[i]);
            }
        }
        char allowed[512];
        size_t n = 0;
        for (int i = 0; i < nw && n < sizeof allowed; i++)
            n += (size_t)snprintf(allowed + n, sizeof allowed - n, "%s'%.*s'", i ? ", " : "",
                                  (int)strcspn(w[i], "="), w[i]);
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': no gale counterpart; allowed: %s",
                   r->path, line, group, key, val, allowed);
    }
    }
    GALE_ERROR(GALE_ERR_INTERNAL, "namelist mapping of &%s %s has no kind", group, key);
}

/* Whether a bare token is a value: a number, a logical or a repeat count
 * r*c; anything else (a name) after a value is a key missing its '='. */
static int bare_value(const char *v)
{
    size_t d = strspn(v, "0123456789");
    if (d && v[d] == '*') return !v[d + 1] || v[d + 1] == '\'' || v[d + 1] == '"' ||
                                 bare_value(v + d + 1);
    if (*v == '.') return strchr("tTfF", v[1]) && v[1];
    if (!strcasecmp(v, "t") || !strcasecmp(v, "f") || !strcasecmp(v, "true") ||
        !strcasecmp(v, "false"))
        return 1;
    return strchr("+-.0123456789", *v) != NULL;
}

/* Whether v, from its quote on, is one whole quoted string ('it''s'). */
static int whole_string(const char *v)
{
    size_t i = 1;
    while (v[i] && (v[i] != v[0] || v[i + 1] == v[0])) i += v[i] == v[0] ? 2 : 1;
    return v[i] == v[0] && !v[i + 1];
}

/* Fortran namelist syntax of a bare (unquoted) value, whatever its key: a
 * number, a logical, r* (r null values) or r*constant with r a positive
 * integer, or, as the first value, an undelimited word (gfortran reads one
 * as a string). 0, or -1 with why. */
static int check_value(const char *v, int first, char *why, size_t n)
{
    size_t d = strspn(v, "0123456789");
    if (d && v[d] == '*') {
        if (strspn(v, "0") == d) {
            snprintf(why, n, "a repeat count r* needs r >= 1");
            return -1;
        }
        v += d + 1;
        if (!*v) return 0;
        if (*v == '\'' || *v == '"') {
            if (whole_string(v)) return 0;
            snprintf(why, n, "unbalanced quote %c", *v);
            return -1;
        }
    }
    if (fortran_number(v)) {
        char text[GALE_STR];
        double x;
        snprintf(text, sizeof text, "%.*s", GALE_STR - 1, v);
        for (char *p = text; *p; p++)
            if (*p == 'd' || *p == 'D') *p = 'e';
        return gale_config_real_(text, &x, why, n);
    }
    if (strict_logical(v) >= 0) return 0;
    if (first && isalpha((unsigned char)*v) &&
        !v[strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")])
        return 0;
    const char *what =
        strchr(v, '*')                              ? "a repeat count r*value needs r an unsigned integer"
        : strpbrk(v, "'\"")                          ? "unbalanced quote"
        : *v == '.' && isalpha((unsigned char)v[1]) ? "not a logical (.true. or .false.)"
        : strchr("+-.0123456789", *v) ? "not a number (Fortran: digits, one '.', an e or d exponent)"
                                      : "not a value: expected a number, a logical (.true., "
                                        ".false., T, F), a quoted string or r*value with r >= 1";
    snprintf(why, n, "%s", what);
    return -1;
}

/* The body of group g, after "&name", up to and including its "/". */
static int read_group(nml_t *r, int g, int opened)
{
    const char *group = gale_lfric_keys[g].group;
    char key[NAME], vals[MAXV][GALE_STR], extra[GALE_STR], why[256], look[NAME + 2];
    r->nseen = 0;
    for (;;) {
        skip(r, 1);
        if (*r->p == '/') {
            r->p++;
            return GALE_OK;
        }
        if (!*r->p || *r->p == '&')
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s (opened on line %d): missing '/' at its end",
                       r->path, r->line, group, opened);
        int line = r->line;
        if (!read_name(r, key))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s: expected a key name, found '%.*s'", r->path,
                       line, group, shown(r->p), r->p);
        skip(r, 0);
        if (*r->p != '=')
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: expected '=' after the key name", r->path,
                       line, group, key);
        r->p++;
        snprintf(look, sizeof look, " %s ", key);
        if (r->nseen && strstr(r->seen, look))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: duplicate key", r->path, line, group, key);
        if (r->nseen + sizeof look >= r->capseen) {
            char *b = realloc(r->seen, r->capseen = 2 * r->capseen + sizeof look);
            if (!b) GALE_ERROR(GALE_ERR_MEM, "out of memory reading '%s'", r->path);
            r->seen = b;
        }
        r->nseen += (size_t)sprintf(r->seen + r->nseen, "%s", look + !!r->nseen);
        int nval = 0;
        for (;;) {
            skip(r, 1);
            if (!*r->p || *r->p == '/' || *r->p == '&' || at_assignment(r)) break;
            const int vline = r->line, quoted = *r->p == '\'' || *r->p == '"';
            char *v = nval < MAXV ? vals[nval] : extra;
            if (read_value(r, v, why, sizeof why))
                GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: %s", r->path, r->line, group, key, why);
            /* a name where a further value should be: the next key lacks its
             * '=' (strict Fortran reading; the value list ends at "name =") */
            if (nval && !quoted && !bare_value(v)) {
                if (isalpha((unsigned char)*v))
                    GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %.*s: expected '=' after the key name",
                               r->path, vline, group, (int)strcspn(v, "'\""), v);
                GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: '%s' is not a value (a number, a "
                           "logical or a quoted string)", r->path, vline, group, key, v);
            }
            if (!quoted && check_value(v, !nval, why, sizeof why))
                GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s = '%s': %s", r->path, vline, group, key,
                           v, why);
            nval++;
        }
        if (!nval)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s %s: no value", r->path, line, group, key);
        GALE_CALL(assign(r, line, g, key, vals, nval));
    }
}

/* "C<N>" as the whole of s (whole != 0) or as a word in it (mesh_C16_MG.nc
 * -> C16), copied to out; 0 if none. */
static int mesh_word(const char *s, int whole, char *out, size_t n)
{
    for (const char *p = s; *p; p++) {
        size_t d = strspn(p + 1, "0123456789");
        int start = p == s || !isalnum((unsigned char)p[-1]);
        int stop = whole ? !p[1 + d] : !isalnum((unsigned char)p[1 + d]);
        if (*p == 'C' && d && start && stop) {
            snprintf(out, n, "%.*s", (int)d + 1, p);
            return 1;
        }
        if (whole) return 0;
    }
    return 0;
}

/* The multigrid keys, once the mesh is known: chain_mesh_tags starts at the
 * prime mesh and halves N at every step, agrees with multigrid_chain_nitems
 * and sets [multigrid] levels; a 'multigrid' preconditioner needs l_multigrid
 * (LFRic builds no chain without it). mesh_from: where the prime mesh came
 * from, for messages. */
static int resolve_multigrid(nml_t *r, const char *mesh_from)
{
    char text[32], why[1024];
    const char *tags = r->chain.text;
    const long n = r->chain.n;
    if (r->chain.line && r->nitems.line) {
        char *e;
        errno = 0;
        long v = strtol(r->nitems.val, &e, 10);
        if (e == r->nitems.val || *e || errno)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &multigrid multigrid_chain_nitems = '%s': not an "
                       "integer", r->path, r->nitems.line, r->nitems.val);
        if (v != n)
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &multigrid chain_mesh_tags = %s: %ld meshes, but "
                       "multigrid_chain_nitems = %ld (line %d): expected as many meshes as "
                       "multigrid_chain_nitems says",
                       r->path, r->chain.line, tags, n, v, r->nitems.line);
    }
    if (r->chain.line) {
        snprintf(text, sizeof text, "%ld", n);
        if (gale_config_set_(r->cfg, "multigrid", "levels", text, why, sizeof why))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &multigrid chain_mesh_tags = %s (gale [multigrid] "
                       "levels = %ld): %s", r->path, r->chain.line, tags, n, why);
        snprintf(why, sizeof why, "&multigrid chain_mesh_tags = %.*s", GALE_ORIGIN / 2, tags);
        gale_config_set_origin_(r->cfg, "multigrid", "levels", r->chain.line, why);
        int prev = 0;
        for (int i = 0; i < n; i++) { /* n <= 16 < MAXV: every tag is stored */
            char want[32], *e = "";
            const char *t = r->chain.tag[i];
            long v = (t[0] == 'C' || t[0] == 'c') && isdigit((unsigned char)t[1])
                         ? strtol(t + 1, &e, 10) : -1;
            if (v < 0 || *e || v > 8192)
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &multigrid chain_mesh_tags = %s: mesh %d, '%s', is not a "
                           "cubed-sphere mesh name gale knows: expected C<N> (e.g. 'C8')",
                           r->path, r->chain.line, tags, i + 1, t);
            if (i == 0 && v != r->cfg->mesh.n)
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &multigrid chain_mesh_tags = %s: the first mesh, '%s', should "
                           "be the prime mesh 'C%d' (%s)",
                           r->path, r->chain.line, tags, t, r->cfg->mesh.n, mesh_from);
            if (i > 0 && (prev % 2 || v != prev / 2)) {
                if (prev % 2) snprintf(want, sizeof want, "none: N = %d is odd", prev);
                else snprintf(want, sizeof want, "'C%d'", prev / 2);
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &multigrid chain_mesh_tags = %s: mesh %d, '%s', should halve "
                           "N of the mesh before it ('C%d'): expected %s",
                           r->path, r->chain.line, tags, i + 1, t, prev, want);
            }
            prev = (int)v;
        }
    } else if (r->nitems.line) {
        GALE_CALL(set(r, r->nitems.line, "multigrid", "multigrid_chain_nitems", r->nitems.val,
                      "multigrid", "levels", r->nitems.val));
        /* C_N, C_N/2, ... while N is even: gale would silently build fewer */
        int most = 1;
        for (int n2 = r->cfg->mesh.n; n2 % 2 == 0; n2 /= 2) most++;
        if (r->cfg->multigrid.levels > most)
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &multigrid multigrid_chain_nitems = %s: mesh C%d allows at most %d "
                       "levels (C%d, halved while N is even; %s)", r->path, r->nitems.line,
                       r->nitems.val, r->cfg->mesh.n, most, r->cfg->mesh.n, mesh_from);
    }
    if (r->mg.line && !r->mg.on && r->pc.line && strcasecmp(r->pc.val, "multigrid") == 0)
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s:%d: &helmholtz_solver preconditioner = '%s' needs the multigrid mesh "
                   "chain, but &%s l_multigrid = .false. (line %d) has none (LFRic cannot run "
                   "this either): set l_multigrid = .true. or choose another preconditioner",
                   r->path, r->pc.line, r->pc.val, r->mg.group, r->mg.line);
    return GALE_OK;
}

/* &initial_wind profile: gale's cases set their own wind, so the profile
 * must be the one LFRic's test of that case uses. */
static int resolve_wind(nml_t *r)
{
    static const struct { int kase; const char *profiles; } wind[] = {
        {GALE_CASE_GRAVITY_WAVE, "none zero"},
        {GALE_CASE_RESTING, "none zero"},
        {GALE_CASE_DCMIP31, "solid_body_rotation"},
        {GALE_CASE_BAROCLINIC_WAVE, "deep_baroclinic_perturbed"},
    };
    char buf[256];
    const char *w[MAXW];
    if (!r->wind.line) return GALE_OK;
    for (size_t i = 0; i < sizeof wind / sizeof wind[0]; i++) {
        if (wind[i].kase != r->cfg->initial.kase) continue;
        int nw = gale_lfric_words_(wind[i].profiles, buf, sizeof buf, w);
        for (int k = 0; k < nw; k++)
            if (strcasecmp(r->wind.val, w[k]) == 0) return GALE_OK;
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s:%d: &initial_wind profile = '%s': gale's case %s sets its own wind, "
                   "LFRic's profile '%s'%s%s%s", r->path, r->wind.line, r->wind.val,
                   gale_config_choice("initial", "case", r->cfg->initial.kase), w[0],
                   nw > 1 ? " or '" : "", nw > 1 ? w[1] : "", nw > 1 ? "'" : "");
    }
    GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &initial_wind profile = '%s': gale's case %s has no LFRic "
               "wind profile", r->path, r->wind.line, r->wind.val,
               gale_config_choice("initial", "case", r->cfg->initial.kase));
}

/* &transport equation_form, field by field (field_names): LFRic's 1
 * conservative, 2 advective, 3 consistent (advective, consistent with the
 * density's flux). gale transports density in flux form and theta and the
 * wind in advective form, theta's as its flux form less theta div u, which
 * is consistent with the density's: 2 and 3 both stand for it. Fields gale
 * does not carry (moisture, tracers: it is dry) take any form. Only a GungHo
 * namelist transports. */
static int resolve_forms(nml_t *r)
{
    if (!r->forms.line) return GALE_OK; /* held only in a GungHo namelist */
    if (!r->names.line)
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form needs field_names, to say "
                   "which field each form is for", r->path, r->forms.line);
    if (r->names.n != r->forms.n)
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form has %d values, field_names "
                   "(line %d) %d: one form per field", r->path, r->forms.line, r->forms.n,
                   r->names.line, r->names.n);
    for (int i = 0; i < r->forms.n; i++) {
        const char *f = r->forms.v[i], *name = r->names.v[i];
        if (strcmp(f, "1") && strcmp(f, "2") && strcmp(f, "3"))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form = '%s' (field '%s'): not "
                       "1 (conservative), 2 (advective) or 3 (consistent)", r->path,
                       r->forms.line, f, name);
        const int cons = strcmp(f, "1") == 0;
        if (strcmp(name, "density") == 0 && !cons)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form = %s for 'density': gale "
                       "transports the density in conservative (flux) form only (1)", r->path,
                       r->forms.line, f);
        if ((strcmp(name, "potential_temperature") == 0 ||
             (strcmp(name, "wind") == 0 && !r->cfg->dynamics.vector_invariant)) && cons)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &transport equation_form = 1 (conservative) for "
                       "'%s': gale transports it in advective form only (2, or 3: consistent)",
                       r->path, r->forms.line, name);
    }
    return GALE_OK;
}

/* GungHo's keys, once the whole file is read (they are held only in a
 * GungHo namelist, &section_choice dynamics = 'gungho'): [dynamics] equations
 * = nonlinear, the case; &formulation rotating = .false. then sets [planet]
 * omega = 0, whatever &planet omega says. */
static int resolve_gungho(nml_t *r)
{
    char buf[2048];
    const char *w[MAXW];
    int rotating = -1, rline = 0, test = 0;
    if (r->gungho)
        GALE_CALL(set(r, r->gungho, "section_choice", "dynamics", "gungho", "dynamics",
                      "equations", "nonlinear"));
    for (int i = 0; i < r->nheld; i++) {
        const int m = r->held[i].m, line = r->held[i].line;
        const char *group = gale_lfric_map[m].group, *key = gale_lfric_map[m].key, *val = r->held[i].val;
        if (gale_lfric_map[m].kind == ROTATE) rotating = logical(val), rline = line;
        if (gale_lfric_map[m].kind != GH_CASE) continue; /* CORE: r->gungho */
        test = line;
        int nw = gale_lfric_words_(gale_lfric_map[m].values, buf, sizeof buf, w), found = 0;
        for (int k = 0; k < nw && !found; k++) {
            size_t len = strcspn(w[k], "=");
            if (strlen(val) != len || strncasecmp(val, w[k], len) != 0) continue;
            found = 1;
            GALE_CALL(set(r, line, group, key, val, "initial", "case", w[k] + len + 1));
            if (strcmp(w[k] + len + 1, "resting") == 0) /* LFRic's isothermal atmosphere */
                GALE_CALL(set(r, line, group, key, val, "initial", "profile", "isothermal"));
        }
        if (!found)
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &%s %s = '%s': gale's nonlinear core has no such case; it "
                       "runs 'deep_baroclinic_wave' (gale's baroclinic_wave), 'gravity_wave' "
                       "(the DCMIP 3-1 gravity wave, gale's dcmip31) and 'isot_atm' (the "
                       "isothermal atmosphere at rest, gale's resting)",
                       r->path, line, group, key, val);
    }
    if (rotating == 0)
        GALE_CALL(set(r, rline, "formulation", "rotating", ".false.", "planet", "omega", "0.0"));
    if (r->gungho && !test)
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s:%d: &section_choice dynamics = 'gungho' needs &idealised test: gale's "
                   "nonlinear core runs 'deep_baroclinic_wave', 'gravity_wave' or 'isot_atm'",
                   r->path, r->gungho);
    GALE_CALL(resolve_forms(r));
    return resolve_wind(r);
}

/* &initial_temperature pert_width_scaling, once the planet is known: LFRic
 * scales DCMIP 3-1's half-width, 625 km, by it and by 1 / scaling_factor;
 * gale's [initial] half_width is that distance on the model sphere. */
static int resolve_width(nml_t *r)
{
    char text[64];
    if (!r->width.line) return GALE_OK;
    if (!fortran_number(r->width.val))
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &initial_temperature pert_width_scaling = '%s': not a "
                   "number (Fortran: digits, one '.', an e or d exponent)", r->path,
                   r->width.line, r->width.val);
    snprintf(text, sizeof text, "%.*s", (int)sizeof text - 1, r->width.val);
    for (char *p = text; *p; p++)
        if (*p == 'd' || *p == 'D') *p = 'e';
    snprintf(text, sizeof text, "%.17g", strtod(text, NULL) * 625000.0 / r->cfg->planet.scaling);
    return set(r, r->width.line, "initial_temperature", "pert_width_scaling", r->width.val,
               "initial", "half_width", text);
}

/* Keys that combine: the mesh from prime_mesh_name or filename, the step
 * count from timestep_start and timestep_end, the multigrid chain, GungHo's
 * keys. */
static int resolve(nml_t *r)
{
    char text[GALE_STR], why[1024];
    const char *mesh_from = "gale's default [mesh] name: the namelist gives no &base_mesh mesh";
    if (r->prime.line || r->file.line || r->prefix.line) {
        /* prime_mesh_name when it is C<N>, else the C<N> word of the mesh
         * file's name (filename, or the newer layout's file_prefix) */
        struct held *h = NULL;
        const char *from = NULL;
        if (r->prime.line && mesh_word(r->prime.val, 1, text, sizeof text))
            h = &r->prime, from = "prime_mesh_name";
        else if (r->file.line && mesh_word(r->file.val, 0, text, sizeof text))
            h = &r->file, from = "filename";
        else if (r->prefix.line && mesh_word(r->prefix.val, 0, text, sizeof text))
            h = &r->prefix, from = "file_prefix";
        if (!h)
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &base_mesh: cannot tell the cubed-sphere mesh from prime_mesh_name "
                       "= '%s', filename = '%s' or file_prefix = '%s': gale needs C<N> (e.g. "
                       "'C16') in one of them",
                       r->path, r->prime.line ? r->prime.line : r->file.line ? r->file.line
                                                                            : r->prefix.line,
                       r->prime.val, r->file.val, r->prefix.val);
        /* the others must name the same mesh, or which one runs is a guess */
        struct held *o[3] = {&r->prime, &r->file, &r->prefix};
        const char *oname[3] = {"prime_mesh_name", "filename", "file_prefix"};
        for (int i = 0; i < 3; i++) {
            char other[GALE_STR];
            if (o[i] == h || !o[i]->line || !mesh_word(o[i]->val, o[i] == &r->prime, other,
                                                        sizeof other))
                continue;
            if (strcmp(other, text) != 0)
                GALE_ERROR(GALE_ERR_INPUT,
                           "%s:%d: &base_mesh %s = '%s' names mesh %s, but %s = '%s' (line %d) "
                           "names %s: make them agree", r->path, o[i]->line, oname[i],
                           o[i]->val, other, from, h->val, h->line, text);
        }
        GALE_CALL(set(r, h->line, "base_mesh", from, h->val, "mesh", "name", text));
        mesh_from = h == &r->prime ? "from &base_mesh prime_mesh_name"
                    : h == &r->file ? "from &base_mesh filename"
                                    : "from &base_mesh file_prefix";
    }
    long v[2] = {1, 0};
    struct held *h[2] = {&r->start, &r->end};
    for (int i = 0; i < 2; i++) { /* both in [1, INT_MAX]: end - start + 1 cannot overflow */
        char *e;
        if (!h[i]->line) continue;
        errno = 0;
        v[i] = strtol(h[i]->val, &e, 10);
        if (e == h[i]->val || *e || errno || v[i] < 1 || v[i] > INT_MAX)
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &time %s = '%s': not a time-step number (an "
                       "integer in [1, %d])", r->path, h[i]->line,
                       i ? "timestep_end" : "timestep_start", h[i]->val, INT_MAX);
    }
    if (r->end.line) {
        snprintf(text, sizeof text, "%ld", v[1] - v[0] + 1);
        if (gale_config_set_(r->cfg, "timestepping", "steps", text, why, sizeof why))
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &time timestep_start = %ld, timestep_end = %ld (gale [timestepping] "
                       "steps = %s): %s",
                       r->path, r->end.line, v[0], v[1], text, why);
        snprintf(why, sizeof why, "&time timestep_start = %ld, timestep_end = %ld", v[0], v[1]);
        gale_config_set_origin_(r->cfg, "timestepping", "steps", r->end.line, why);
    }
    GALE_CALL(resolve_multigrid(r, mesh_from));
    GALE_CALL(resolve_width(r));
    return resolve_gungho(r);
}

static int read_groups(nml_t *r)
{
    char name[NAME], sugg[1024];
    const char *cand[NGROUPS];
    int opened[NGROUPS] = {0};
    for (int g = 0; g < NGROUPS; g++) cand[g] = gale_lfric_keys[g].group;
    for (;;) {
        skip(r, 0);
        if (!*r->p) return r->first ? GALE_OK : resolve(r);
        int line = r->line;
        if (*r->p != '&')
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: expected '&group', found '%.*s'", r->path, line,
                       shown(r->p), r->p);
        r->p++;
        if (!read_name(r, name))
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: expected a group name after '&'", r->path, line);
        int g = gale_lfric_find_group_(name);
        if (g < 0) {
            gale_config_suggest_(sugg, sizeof sugg, name, cand, NGROUPS, "&", "");
            GALE_ERROR(GALE_ERR_INPUT,
                       "%s:%d: &%s: not a group of LFRic's gravity_wave or GungHo namelists; %s", r->path,
                       line, name, sugg);
        }
        if (opened[g])
            GALE_ERROR(GALE_ERR_INPUT, "%s:%d: &%s: group given twice (first on line %d)",
                       r->path, line, name, opened[g]);
        opened[g] = line;
        GALE_CALL(read_group(r, g, line));
    }
}

int gale_config_read_nml_(gale_config_t *cfg, const char *path)
{
    char *text = NULL, *unused = NULL;
    size_t len = 0;
    GALE_CALL(gale_config_read_text_(path, &text));
    /* LFRic always uses the consistent W2 mass matrix (&finite_element
     * rehabilitate only chooses its basis): so does a namelist run, whatever
     * cfg held; a command-line override, applied after, may still choose lumped. */
    char why[256];
    if (gale_config_set_(cfg, "dynamics", "mass_matrix", "consistent", why, sizeof why)) {
        free(text);
        GALE_ERROR(GALE_ERR_INTERNAL, "%s", why);
    }
    /* two passes: the first finds the kind (&section_choice dynamics), which
     * decides what every key of the second does, wherever the group is */
    nml_t r = {.path = path, .p = text, .line = 1, .cfg = cfg, .first = 1};
    int st = read_groups(&r);
    free(r.seen);
    const int gungho = r.gungho;
    r = (nml_t){.path = path, .p = text, .line = 1, .cfg = cfg, .gungho = gungho};
    r.unused = open_memstream(&unused, &len);
    if (st == GALE_OK) st = r.unused ? read_groups(&r) : GALE_ERR_MEM;
    if (r.unused) fclose(r.unused);
    free(r.seen);
    free(text);
    if (st == GALE_OK && r.nunused)
        gale_log(GALE_LOG_INFO, "LFRic namelist %s: not used (no effect on gale's answers; "
                 "docs/lfric-namelist.md): %s", path, unused);
    free(unused);
    if (st == GALE_ERR_MEM) GALE_ERROR(GALE_ERR_MEM, "out of memory reading '%s'", path);
    return st;
}

/* ---------------- the table itself ---------------- */

static const char *const cat_name[] = {"not read", "no effect", "honoured", "gale's value only",
                                       "gale's value only, or stood in for"};

/* A category cell: the category and, for gale's values, which. */
static void cat_cell(int m, char *out, size_t n)
{
    char head[512], buf[512], q[NAME + 2];
    const char *w[MAXW];
    if (m < 0) {
        snprintf(out, n, "-");
        return;
    }
    const int cat = gale_lfric_map[m].cat;
    if ((cat != ONLY && cat != STANDIN) || !gale_lfric_map[m].values) {
        snprintf(out, n, "%s", cat == ONLY ? "gale's values only (why)" : cat_name[cat]);
        return;
    }
    snprintf(head, sizeof head, "%.*s", (int)strcspn(gale_lfric_map[m].values, "|"),
             gale_lfric_map[m].values);
    int nw = gale_lfric_words_(head, buf, sizeof buf, w);
    size_t len = (size_t)snprintf(out, n, "only");
    for (int k = 0; k < nw && len < n; k++) {
        written(w[k], q, sizeof q);
        len += (size_t)snprintf(out + len, n - len, "%s %s", k ? " or" : "", q);
    }
    if (cat == STANDIN && len < n) snprintf(out + len, n - len, ", or stood in for");
}

void gale_config_print_nml(int md)
{
    int count[2][5];
    char why[256], gw[256], gh[256], gale[128], note[2048];
    if (gale_config_nml_check_(why, sizeof why, count)) {
        printf("gale: the namelist table is broken: %s\n", why);
        return;
    }
    if (md)
        puts("| LFRic key | gravity_wave namelist | GungHo namelist | gale | why |\n"
             "|---|---|---|---|---|");
    else
        puts("LFRic namelist keys: what each does in a gravity_wave namelist and in a GungHo one\n"
             "(&section_choice dynamics = 'gungho'); docs/lfric-namelist.md");
    for (int m = 0; m < gale_lfric_nmap; m++) {
        const char *group = gale_lfric_map[m].group, *key = gale_lfric_map[m].key;
        int seen = 0;
        for (int k = 0; k < m && !seen; k++)
            seen = strcmp(gale_lfric_map[k].group, group) == 0 && strcmp(gale_lfric_map[k].key, key) == 0;
        if (seen) continue; /* the key's other row is printed with its first */
        const int star = strcmp(key, "*") == 0;
        int mw = -1, mh = -1;
        for (int k = 0; k < gale_lfric_nmap; k++)
            if (strcmp(gale_lfric_map[k].group, group) == 0 && strcmp(gale_lfric_map[k].key, key) == 0) {
                if (gale_lfric_map[k].in & GW) mw = k;
                if (gale_lfric_map[k].in & GH) mh = k;
            }
        if (!star) { /* a key without a row for one kind takes its group's "*" row */
            const int g = gale_lfric_find_group_(group);
            if (mw < 0) mw = gale_lfric_row_of_(g, key, GW);
            if (mh < 0) mh = gale_lfric_row_of_(g, key, GH);
        }
        cat_cell(mw, gw, sizeof gw);
        cat_cell(mh, gh, sizeof gh);
        const int mm = gale_lfric_map[m].cat == MAPS                  ? m
                       : mw >= 0 && gale_lfric_map[mw].cat == MAPS ? mw
                                                              : mh;
        if (mm >= 0 && gale_lfric_map[mm].cat == MAPS && gale_lfric_map[mm].section)
            snprintf(gale, sizeof gale, "[%s] %s", gale_lfric_map[mm].section, gale_lfric_map[mm].gkey);
        else
            snprintf(gale, sizeof gale, "-");
        /* the notes of this key's own rows, per kind when they differ */
        size_t len = 0;
        note[0] = '\0';
        const int own[2] = {mw >= 0 && strcmp(gale_lfric_map[mw].key, key) == 0 ? mw : -1,
                            mh >= 0 && strcmp(gale_lfric_map[mh].key, key) == 0 ? mh : -1};
        for (int i = 0; i < 2; i++) {
            const int k = own[i];
            if (k < 0 || !gale_lfric_map[k].note || (i == 1 && k == own[0])) continue;
            const int both = own[0] == own[1];
            len += (size_t)snprintf(note + len, sizeof note - len, "%s%s%s", len ? "; " : "",
                                    both ? "" : i ? "GungHo: " : "gravity_wave: ",
                                    gale_lfric_map[k].note);
            if (len >= sizeof note) len = sizeof note - 1;
        }
        if (gale_lfric_map[m].cat == MAPS && gale_lfric_map[m].kind == WORD && gale_lfric_map[m].values &&
            len < sizeof note)
            snprintf(note + len, sizeof note - len, "%svalues: %s", len ? "; " : "",
                     gale_lfric_map[m].values);
        int alone = 1; /* a "*" row of a group without rows of its own keys */
        for (int k = 0; k < gale_lfric_nmap && star && alone; k++)
            alone = strcmp(gale_lfric_map[k].group, group) != 0 || strcmp(gale_lfric_map[k].key, "*") == 0;
        char name[160];
        snprintf(name, sizeof name, !star ? "&%s %s" : alone ? "&%s (every key)"
                                                             : "&%s (its other keys)", group, key);
        if (md)
            printf("| `%s` | %s | %s | %s | %s |\n", name, gw, gh, gale, note);
        else
            printf("  %-46s gravity_wave: %s; GungHo: %s%s%s\n", name, gw, gh,
                   gale[0] == '-' ? "" : "; gale ", gale[0] == '-' ? "" : gale);
    }
    static const char *const kind[2] = {"gravity_wave", "GungHo"};
    if (md) puts("");
    for (int i = 0; i < 2; i++)
        printf("%s%s namelists: %d keys honoured, %d with gale's value only (refused otherwise), "
               "%d of them &transport methods that may be stood in for, %d without effect, %d of "
               "them not read\n", md ? "- " : "", kind[i], count[i][MAPS],
               count[i][ONLY] + count[i][STANDIN], count[i][STANDIN],
               count[i][NOEFF] + count[i][UNREAD], count[i][UNREAD]);
}
