/* The INI reader: a configuration file of "[section]" headers and "key =
 * value" lines, each value set through the value layer (config_value.c),
 * which validates it and records its line for gale_config_origin. */
#include "config_internal.h"
#include "gale_base.h"
#include "gale_config.h"

#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

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
        if (!gale_config_has_section_(name)) {
            gale_config_suggest_(sugg, sizeof sugg, name, cand, gale_config_section_names_(cand), "[", "]");
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
    if (gale_config_value_text_(eq + 1, 1, &val, why, sizeof why))
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
    const gale_key_t *k = gale_config_find_key_(section, key);
    if (!k) {
        gale_config_suggest_(sugg, sizeof sugg, key, cand, gale_config_section_keys_(section, cand), "'", "'");
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: [%s] %s: unknown key; %s", path, ln, section, key, sugg);
    }
    int idx = (int)(k - gale_keys);
    if (first[idx])
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: [%s] %s: duplicate key (first set on line %d)", path,
                   ln, section, key, first[idx]);
    first[idx] = ln;
    if (gale_config_parse_value_(k, val, cfg, why, sizeof why))
        GALE_ERROR(GALE_ERR_INPUT, "%s:%d: [%s] %s = '%s': %s", path, ln, section, key, val, why);
    gale_config_set_origin_(cfg, section, key, ln, ""); /* for gale_config_origin */
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

int gale_config_read_ini_(gale_config_t *cfg, const char *path)
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
