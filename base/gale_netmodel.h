/* The network of a big machine, modelled (docs/emulate.md): the time of an
 * allreduce of b bytes over N nodes x R ranks and of a halo message of b
 * bytes to a neighbour on or off the node, from a machine's parameters
 * (built in: archer2, setonix; or a file). Pure functions and a small
 * process-wide state: the emulation that halo/ and psy/ apply when
 * [emulate] machine is set, and the counters of the run report's "comm"
 * object. Serial, no MPI: part of gale_base. */
#ifndef GALE_NETMODEL_H
#define GALE_NETMODEL_H

#include <stddef.h>

/* A machine's parameters (docs/emulate.md, "Parameters", cites each). An
 * allreduce is a chain of steps: a tree inside the node up to its leader,
 * recursive doubling between the leaders, the tree back down. Each step
 * costs us + bytes / gbs of its kind, in the small-message regime below
 * large_bytes and the large one from it ([0] small, [1] large). */
typedef struct {
    char name[64];
    int cores_per_node;
    double shm_step_us[2], shm_step_gbs[2]; /* a step of the tree inside a node */
    double net_round_us[2], net_round_gbs[2]; /* a round of recursive doubling */
    double large_bytes;
    double p2p_net_us, p2p_net_gbs; /* a message to another node, alone on the link */
    double node_injection_gbs;      /* all NICs of a node: its ranks share it */
    double p2p_shm_us, p2p_shm_gbs; /* a message inside the node */
} gale_netmodel_t;

/* The built-in machine of that name ("archer2", "setonix"): 0, or -1. */
int gale_netmodel_builtin(const char *name, gale_netmodel_t *m);
/* A machine file (docs/emulate.md, "Machine files": "key = value" lines,
 * '#' comments, every key once): 0, or -1 with "path:line: what" (or
 * "path: what") in why. */
int gale_netmodel_read(const char *path, gale_netmodel_t *m, char *why, size_t n);

/* Steps of the tree inside a node, up and down: 2 ceil(log2 R) (0 for R = 1). */
int gale_netmodel_node_steps(int ranks_per_node);
/* Rounds of MPICH's recursive doubling over N node leaders: log2 N for a
 * power of two, floor(log2 N) + 2 otherwise (the surplus folded in before
 * and sent back after), 0 for one node. */
int gale_netmodel_rounds(int nodes);
/* One step of an allreduce of b bytes: inside the node (net 0) or between
 * nodes (net 1), seconds. */
double gale_netmodel_step_s(const gale_netmodel_t *m, int net, double bytes);
/* An allreduce of b bytes over nodes x ranks_per_node ranks, seconds:
 * node_steps x step(0) + rounds x step(1). */
double gale_netmodel_allreduce_s(const gale_netmodel_t *m, double bytes, int nodes,
                                 int ranks_per_node);
/* A point-to-point message of b bytes, seconds: on the node, p2p_shm_us +
 * b / p2p_shm_gbs; off it, p2p_net_us + b / min(p2p_net_gbs,
 * node_injection_gbs / ranks_per_node) (every rank of the node sends at
 * once: a halo exchange). */
double gale_netmodel_message_s(const gale_netmodel_t *m, double bytes, int off_node,
                               int ranks_per_node);
/* The emulated node of real rank r of P when P ranks stand for nodes x R in
 * order (rank r for the block of N R / P starting at r N R / P): r N / P. */
int gale_netmodel_node_of(int rank, int nranks, int nodes);

/* An emulated allreduce in flight. Its steps run one after another; without
 * a progress thread (async 0) a step starts only when the rank is in MPI
 * (a poll: the start, a progress point, the wait) after the previous one
 * ended, as MPICH's non-blocking collectives do; with one (async 1) each
 * starts when the previous ends. */
typedef struct {
    double step_s[2]; /* inside the node, between nodes */
    int half, rounds; /* tree steps each way, rounds between */
    int next;         /* the step in flight */
    int async;
    double t_end;     /* when the step in flight ends */
    double model_s;   /* the whole chain back to back: the modelled time */
} gale_netop_t;
/* Starts at time t (the post). */
void gale_netop_start(gale_netop_t *op, const gale_netmodel_t *m, double bytes, int nodes,
                      int ranks_per_node, int async, double t);
/* The rank is in MPI at time t: steps that have ended are done and the next
 * starts. 1 when the chain is complete. */
int gale_netop_poll(gale_netop_t *op, double t);
/* When it completes if the rank polls without pause from time t (a wait). */
double gale_netop_done_at(gale_netop_t *op, double t);
/* The rank was inside MPI from t0 to t1 (a wait; t0 = t1: one call): a
 * poll at t0, then the steps back to back until t1. */
void gale_netop_span(gale_netop_t *op, double t0, double t1);

/* ---- the emulation in force (process-wide; set by the app, read by
 * halo/ and psy/) ---- */
typedef struct {
    gale_netmodel_t m;
    int nodes, ranks_per_node;
    int async; /* the emulated MPI has a progress thread (MPICH_ASYNC_PROGRESS=1) */
} gale_emulate_t;
/* Copies e (NULL: off). Before the first exchange plan is made. */
void gale_emulate_set(const gale_emulate_t *e);
/* The emulation, or NULL when off. */
const gale_emulate_t *gale_emulate(void);
/* Spins on gale_wtime until t: an emulated wait is microseconds, below what
 * a sleep resolves. */
void gale_emulate_until(double t);
/* The emulated operations in flight (the sum layer's, in storage that
 * outlives them): any MPI call of the rank advances them all, as MPICH's
 * one progress engine does. track 1 adds op, 0 removes it. */
void gale_emulate_track(gale_netop_t *op, int track);
/* The rank was inside MPI from t0 to t1 (t0 = t1: one call): every tracked
 * operation advances (gale_netop_span). Halo exchanges, sums, reductions and
 * progress points call it on an emulated machine. */
void gale_emulate_in_mpi(double t0, double t1);

/* ---- what the sums and exchanges did (the run report's "comm") ---- */
typedef struct {
    long sums;             /* global sums (gale_psy_sum*) */
    double sum_wait_s;     /* the model thread blocked completing them */
    double sum_model_s;    /* their modelled times, emulated runs */
    double sum_imposed_s;  /* the waits the emulation imposed, computed from the model
                              and the polls rather than measured: what sum_wait_s
                              would be where nothing preempts the spin and the real
                              sums take no time */
    long sums_early;       /* found complete by a progress point before their wait */
    long progress_tests;   /* MPI_Test calls at progress points */
    long reductions;       /* other allreduces: max, the finiteness checks */
    double reduction_wait_s;
    long exchanges;        /* halo exchanges (begin/end pairs) */
    double halo_wait_s;    /* blocked in their ends (the wait, not the unpacking) */
    double halo_model_s;   /* their modelled times, emulated runs */
    double halo_imposed_s; /* the waits the emulation imposed, computed */
} gale_comm_stats_t;
gale_comm_stats_t *gale_comm_stats(void);
void gale_comm_reset(void);

#endif
