/* nml_check [--args | --restart] FILE...: reads each input as `gale run`
 * does, without MPI or a model, in a child process of its own (a crash or a
 * hang stays that case's; fork is far cheaper than a new process, most of
 * all under the sanitizers), its messages in FILE.err, and prints "STATUS
 * FILE" per file: the exit status (0, or gale's error code: 2 for bad
 * input), "signal N", or "timeout" past 20 s. The input fuzz test
 * (check_nml_fuzz.py) runs it on every mutated input.
 *
 *   FILE...            configuration files (an LFRic namelist or an INI file)
 *   --args FILE...     each FILE holds a command line, NUL-separated: the
 *                      configuration file ("" for none), then overrides
 *                      "--section.key=value"
 *   --restart FILE...  checkpoint files: the restart's header checks
 *                      (gale_ckpt_check_header; the field data are not read)
 *   --keys             prints "section key type choices" for every configuration
 *                      key (choices: "a|b|c" for an enum, else "-")
 *
 * An accepted configuration must also read back: its resolved dump, read as
 * an INI file, gives the same dump (else exit 98), so exit 0 means a valid
 * configuration by the reader's own rules, not one it let through. */
#include "gale_base.h"
#include "gale_checkpoint.h"
#include "gale_config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { TIMEOUT_S = 20, ROUND_TRIP = 98 };

static char *dump(const gale_config_t *cfg)
{
    size_t n = gale_config_dump(cfg, NULL, 0) + 1;
    char *s = malloc(n);
    if (s) gale_config_dump(cfg, s, n);
    return s;
}

/* The dump without its first line (a comment naming the source). */
static const char *body(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl ? nl + 1 : s;
}

static int round_trip(const gale_config_t *cfg, const char *path)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.dump.ini", path);
    char *a = dump(cfg), *b = NULL;
    FILE *f = a ? fopen(tmp, "w") : NULL;
    int ok = f && fputs(a, f) >= 0;
    if (f) ok = fclose(f) == 0 && ok;
    gale_config_t again;
    int st = ok ? gale_config_parse(&again, tmp, 0, NULL) : GALE_ERR_IO;
    remove(tmp);
    if (st == GALE_OK) b = dump(&again);
    ok = st == GALE_OK && b && strcmp(body(a), body(b)) == 0;
    if (!ok)
        fprintf(stderr, "nml_check: %s: accepted, but its resolved configuration %s\n", path,
                st != GALE_OK ? "is refused when read back" : "reads back differently");
    free(a);
    free(b);
    return ok ? GALE_OK : ROUND_TRIP;
}

static int check_config(const char *path, int noverrides, char **overrides, const char *name)
{
    gale_config_t cfg;
    int st = gale_config_parse(&cfg, path, noverrides, overrides);
    return st != GALE_OK ? st : round_trip(&cfg, name);
}

/* --args: the file's NUL-separated arguments */
static int check_args(const char *file)
{
    FILE *f = fopen(file, "rb");
    if (!f) return 99;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *argv[64];
    int argc = 0;
    for (size_t i = 0; i < n && argc < 64; i += strlen(buf + i) + 1) argv[argc++] = buf + i;
    if (argc == 0) return 99;
    return check_config(argv[0][0] ? argv[0] : NULL, argc - 1, argv + 1, file);
}

static int check_restart(const char *path)
{
    gale_ckpt_t ck;
    int st = gale_ckpt_check_header(path, &ck);
    if (st == GALE_OK) gale_ckpt_free(&ck);
    return st;
}

static int check(int mode, const char *path)
{
    char err[4096];
    snprintf(err, sizeof err, "%s.err", path);
    int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, 2) < 0) return 99;
    close(fd);
    alarm(TIMEOUT_S);
    return mode == 'a' ? check_args(path) : mode == 'r' ? check_restart(path)
                                                        : check_config(path, 0, NULL, path);
}

static void keys(void)
{
    static const char *const type[] = {"int", "real", "bool", "string", "enum", "mesh"};
    for (int i = 0; i < gale_nkeys; i++)
        printf("%s %s %s %s\n", gale_keys[i].section, gale_keys[i].key, type[gale_keys[i].type],
               gale_keys[i].choices ? gale_keys[i].choices : "-");
}

int main(int argc, char **argv)
{
    int mode = 'c', first = 1;
    if (argc > 1 && strcmp(argv[1], "--keys") == 0) {
        keys();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--args") == 0) mode = 'a', first = 2;
    if (argc > 1 && strcmp(argv[1], "--restart") == 0) mode = 'r', first = 2;
    for (int i = first; i < argc; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 99;
        }
        if (pid == 0) exit(check(mode, argv[i])); /* exit: the leak check runs */
        int ws;
        if (waitpid(pid, &ws, 0) < 0) {
            perror("waitpid");
            return 99;
        }
        if (WIFEXITED(ws)) printf("%d %s\n", WEXITSTATUS(ws), argv[i]);
        else if (WTERMSIG(ws) == SIGALRM) printf("timeout %s\n", argv[i]);
        else printf("signal %d %s\n", WTERMSIG(ws), argv[i]);
    }
    return 0;
}
