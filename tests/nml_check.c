/* nml_check FILE...: reads each configuration (an LFRic namelist or an INI
 * file) as `gale run` does, without MPI or a model, in a child process of its
 * own (a crash or a hang stays that case's; fork is far cheaper than a new
 * process, most of all under the sanitizers), its messages in FILE.err, and
 * prints "STATUS FILE" per file: the exit status (0, or gale's error code: 2
 * for bad input), "signal N", or "timeout" past 20 s. The namelist fuzz test
 * (check_nml_fuzz.py) runs it on every mutated file. */
#include "gale_base.h"
#include "gale_config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

enum { TIMEOUT_S = 20 };

static int check(const char *path)
{
    char err[4096];
    snprintf(err, sizeof err, "%s.err", path);
    int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, 2) < 0) return 99;
    close(fd);
    alarm(TIMEOUT_S);
    gale_config_t cfg;
    return gale_config_parse(&cfg, path, 0, NULL);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 99;
        }
        if (pid == 0) exit(check(argv[i])); /* exit: the leak check runs */
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
