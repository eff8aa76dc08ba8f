/* The LFRic namelist tables (config_nml_table.c), internal to src/config/:
 * every group and key of LFRic's namelists (gale_lfric_keys[]) and what each
 * key does in a gravity_wave and in a GungHo namelist (gale_lfric_map[]),
 * with their lookups; the reader (config_nml.c) reads a namelist by them. */
#ifndef GALE_CONFIG_NML_TABLE_H
#define GALE_CONFIG_NML_TABLE_H

#include <stddef.h>

/* A group and its keys, space-separated. */
typedef struct { const char *group, *keys; } gale_lfric_group_t;
/* One row: &group key (or "*": the group's keys without their own row) in
 * the namelist kinds in (GW, GH, BOTH), its category cat, for MAPS its
 * conversion kind to gale's [section] gkey, values and a note (why). */
typedef struct {
    const char *group, *key;
    int in, cat, kind;
    const char *section, *gkey, *values, *note;
} gale_lfric_row_t;

/* How an LFRic value becomes a gale one (lfric_map rows whose cat is MAPS). */
enum {
    NONE,    /* no conversion: the row's category says what happens */
    NUM,     /* number: d/D exponent -> e */
    LOGICAL, /* .true./.false./T/F -> true/false */
    WORD,    /* a word translated by the "lfric=gale" list (a bare word maps to itself) */
    MESH,    /* prime_mesh_name or filename holding C<N>: resolved at the end */
    STEP,    /* timestep_start/timestep_end: steps = end - start + 1, at the end */
    CHAIN,   /* multigrid_chain_nitems, chain_mesh_tags (a list): [multigrid] levels, at the end */
    MGFLAG,  /* l_multigrid: whether the multigrid chain exists, checked at the end */
    WIDTH,   /* &initial_temperature pert_width_scaling: [initial] half_width, at the end */
    /* held until the whole file is read (resolve_gungho) */
    CORE,    /* &section_choice dynamics: 'gungho' makes the namelist GungHo's */
    GH_CASE, /* &idealised test: the case, by the "lfric=gale" list */
    ROTATE,  /* &formulation rotating: .false. sets [planet] omega = 0 */
    WIND,    /* &initial_wind profile: must be the wind of the case, checked at the end */
    FORMS    /* &transport equation_form, field_names: each field's form, checked at the end */
};

/* What a key does to the run, per namelist kind (gale's rule: &section_choice
 * dynamics = 'gungho' is a GungHo namelist, the nonlinear core; any other a
 * gravity_wave one, the linear core). docs/lfric-namelist.md, "Every key",
 * is this table, printed by `gale help namelist --markdown`. */
enum {
    UNREAD,  /* LFRic's app of that kind never reads it: no effect, logged */
    NOEFF,   /* without effect on the answers (note: why): logged */
    MAPS,    /* converted to gale's [section] gkey (kind: how) */
    ONLY,    /* values: what gale computes, honoured; any other refused, note: what
              * gale would need */
    STANDIN  /* a &transport method: values "gale's|LFRic's others" ('*': any);
              * gale's honoured, any other refused unless [dynamics]
              * transport_stand_in lets gale's method of lines stand in */
};
enum { GW = 1, GH = 2, BOTH = 3 }; /* the namelist kinds a row is for */


/* the number of groups of gale_lfric_keys[] (config_nml_table.c checks) */
enum { NGROUPS = 73 };
enum { MAXW = 64 }; /* words of a list that gale_lfric_words_ splits, at most */

extern const gale_lfric_group_t gale_lfric_keys[];
extern const gale_lfric_row_t gale_lfric_map[];
extern const int gale_lfric_nmap; /* rows of gale_lfric_map[] */

/* The words of a space-separated list, in buf (at most MAXW). */
int gale_lfric_words_(const char *list, char *buf, size_t n, const char **out);
/* The index of group in gale_lfric_keys[], or -1. */
int gale_lfric_find_group_(const char *group);
/* The row of &group key in a namelist of kind in (GW or GH): its own, else
 * its group's "*" row; -1 if none (gale_config_nml_check_ finds none missing). */
int gale_lfric_find_map_(const char *group, const char *key, int in);
/* Whether key is one of group g's (or, in &files, any <field>_ancil_path). */
int gale_lfric_known_key_(int g, const char *key);
/* The row of every key of gale_lfric_keys[] for kind in, or -1 (expanding "*"). */
int gale_lfric_row_of_(int g, const char *key, int in);

#endif
