/* Internal to src/config/: the value layer (config_value.c) that the INI
 * reader (config_ini.c), the LFRic namelist reader (config_nml.c and its
 * table, config_nml_table.c) and config.c are built on, and the readers'
 * entry points for config.c. Not for use outside src/config/ (tests
 * excepted); the public interface is gale_config.h. */
#ifndef GALE_CONFIG_INTERNAL_H
#define GALE_CONFIG_INTERNAL_H

#include "gale_config.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

enum { MAXC = 256 }; /* candidate lists: more than any section or enum holds */

/* ---------------- small helpers ---------------- */

static inline char *ltrim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    return s;
}

static inline char *trim(char *s)
{
    s = ltrim(s);
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

/* ---------------- the value layer (config_value.c) ---------------- */

/* [section] key's row of gale_keys[], or NULL. */
const gale_key_t *gale_config_find_key_(const char *section, const char *key);
/* Whether gale_keys[] has a key in section. */
int gale_config_has_section_(const char *section);
/* Distinct section names in table order, in out (at most MAXC); their number. */
int gale_config_section_names_(const char **out);
/* The keys of section in table order, in out (at most MAXC); their number. */
int gale_config_section_keys_(const char *section, const char **out);
/* The index of [section] key in gale_keys[], or -1. */
int gale_config_key_index_(const char *section, const char *key);
/* "did you mean <open>x<close>?" when one of cands is close to word, else
 * "allowed: ..." with every candidate, in out. */
void gale_config_suggest_(char *out, size_t n, const char *word, const char *const *cands,
                          int nc, const char *open, const char *close);
/* The range of an INT/REAL/MESH key: "[0.5, 1]", "(0, 2]", "(-inf, inf)". */
void gale_config_fmt_range_(const gale_key_t *k, char *out, size_t n);
/* A real as written (C syntax; a namelist's d exponent made e first): 0, or
 * -1 with why when it is not a number, not finite, or a non-zero number that
 * underflows (reads as 0 or as a subnormal). */
int gale_config_real_(const char *s, double *v, char *why, size_t n);
/* Parses text s as the value of key k into cfg: 0, or -1 with what is wrong
 * and what is allowed in why (cfg untouched). */
int gale_config_parse_value_(const gale_key_t *k, const char *s, gale_config_t *cfg, char *why,
                             size_t n);
/* The value of key k in cfg as INI text (the shortest decimal that reads back). */
void gale_config_format_value_(const gale_key_t *k, const gale_config_t *cfg, char *out,
                               size_t n);
/* gale_config_parse_value_ by name: the namelist reader sets keys through the
 * INI parser's validation. */
int gale_config_set_(gale_config_t *cfg, const char *section, const char *key, const char *text,
                     char *why, size_t n);
/* Records where [section] key was set, for gale_config_origin: line of the
 * file (-1: the command line) and text (a namelist's "&group key = value",
 * or "" for an INI line or the command line). */
void gale_config_set_origin_(gale_config_t *cfg, const char *section, const char *key, int line,
                             const char *text);
/* The value text after '=' (of an INI line or an override): blanks trimmed,
 * optional quotes removed and, when comments != 0, a trailing comment ('#'
 * or ';' after a blank) dropped; *out points into s. 0, or -1 with why. */
int gale_config_value_text_(char *s, int comments, char **out, char *why, size_t n);
/* The whole text of a configuration file (malloc'd, to free), CR and CRLF
 * line ends made LF, a leading UTF-8 byte-order mark dropped; a NUL byte is
 * an error naming the file and line. */
int gale_config_read_text_(const char *path, char **text);

/* ---------------- the readers, for config.c ---------------- */

/* An INI file into cfg (config_ini.c). */
int gale_config_read_ini_(gale_config_t *cfg, const char *path);
/* An LFRic gravity_wave or GungHo namelist into cfg (config_nml.c). */
int gale_config_read_nml_(gale_config_t *cfg, const char *path);
/* [emulate] machine resolved into cfg->emulate.model (config_emulate.c):
 * a built-in name or a machine file, else GALE_ERR_INPUT naming where the
 * key was set and the file's line. */
int gale_config_emulate_(gale_config_t *cfg);
/* The namelist table's own rules (config_nml_table.c): every key of LFRic's
 * namelists has one row per namelist kind, each row what its category needs.
 * 0, or -1 with why; count[kind][category]: keys per gravity_wave (0) and
 * GungHo (1) namelist and category (not read, no effect, honoured, gale's
 * value only, stood in). */
int gale_config_nml_check_(char *why, size_t n, int count[2][5]);

#endif
