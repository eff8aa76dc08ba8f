/* The files gale writes (docs/output.md, "Files and final names"): every
 * file is written as NAME.tmp and renamed to NAME when complete; a final
 * name that is not a regular file (a directory, a device, a pipe, a
 * socket, a symbolic link) is never replaced; directories are made and
 * probed before any work; temporaries of gale's own naming that a killed
 * run left behind are removed and named in the log. */
#include "gale_base.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

const char *gale_file_kind(unsigned mode)
{
    const mode_t m = (mode_t)mode;
    return S_ISREG(m)    ? "a regular file"
           : S_ISDIR(m)  ? "a directory"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISFIFO(m) ? "a pipe"
           : S_ISLNK(m)  ? "a symbolic link"
           : S_ISSOCK(m) ? "a socket"
                         : "a special file";
}

/* path is absent or a regular file: anything else is never replaced. */
static int replaceable(const char *path, char *why, size_t n)
{
    struct stat sb;
    /* lstat: a link is refused, not followed (renaming over it would
     * replace the link; writing through it would write elsewhere) */
    if (lstat(path, &sb) != 0) {
        if (errno == ENOENT) return 0;
        snprintf(why, n, "'%s': %s", path, strerror(errno));
        return -1;
    }
    if (S_ISREG(sb.st_mode)) return 0;
    snprintf(why, n, "'%s' is %s, not a regular file: gale replaces only regular files", path,
             gale_file_kind(sb.st_mode));
    return -1;
}

int gale_file_publish(const char *tmp, const char *path, char *why, size_t n)
{
    if (replaceable(path, why, n) == 0) {
        if (rename(tmp, path) == 0) return 0;
        snprintf(why, n, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
    }
    remove(tmp);
    return -1;
}

int gale_file_finish(FILE *f, const char *tmp, const char *path, char *why, size_t n)
{
    /* the reason (a full disk) is errno of the failing write, flush or close;
     * a write that failed inside an earlier stdio call left no errno we can
     * trust (later calls may reset it), so a full file system says it */
    int bad = 0;
    struct statvfs fs;
    if (ferror(f))
        bad = fstatvfs(fileno(f), &fs) == 0 && fs.f_bavail == 0 ? ENOSPC : errno ? errno : EIO;
    else if (fflush(f) != 0 || fsync(fileno(f)) != 0)
        bad = errno ? errno : EIO;
    if (fclose(f) != 0 && !bad) bad = errno ? errno : EIO;
    if (!bad) return gale_file_publish(tmp, path, why, n);
    snprintf(why, n, "cannot write '%s': %s", path, strerror(bad));
    remove(tmp);
    return -1;
}

int gale_file_writable(const char *path, char *why, size_t n)
{
    char tmp[4200];
    if (!*path) {
        snprintf(why, n, "an empty file name");
        return -1;
    }
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        snprintf(why, n, "'%.64s...': a path longer than %zu characters", path, sizeof tmp - 5);
        return -1;
    }
    if (replaceable(path, why, n) || replaceable(tmp, why, n)) return -1;
    /* the temporary made and removed: the directory exists and takes files
     * (O_NONBLOCK|O_NOFOLLOW: nothing planted there since can block or redirect) */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0) {
        snprintf(why, n, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    close(fd);
    remove(tmp);
    return 0;
}

/* name matches pattern, where '#' stands for one or more digits */
static int matches(const char *name, const char *pat)
{
    for (; *pat; pat++) {
        if (*pat != '#') {
            if (*name++ != *pat) return 0;
            continue;
        }
        if (*name < '0' || *name > '9') return 0;
        while (*name >= '0' && *name <= '9') name++;
    }
    return *name == '\0';
}

int gale_dir_prepare(const char *dir, const char *const *names, char *why, size_t n)
{
    char path[4200];
    if (!*dir) {
        snprintf(why, n, "an empty directory name");
        return -1;
    }
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path - 64) {
        snprintf(why, n, "'%.64s...': a path longer than %zu characters", dir, sizeof path - 65);
        return -1;
    }
    for (char *p = path + 1;; p++) { /* mkdir -p */
        if (*p != '/' && *p != '\0') continue;
        const char c = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            snprintf(why, n, "cannot create directory '%s': %s", path, strerror(errno));
            return -1;
        }
        *p = c;
        if (!c) break;
    }
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        snprintf(why, n, "'%s' is not a directory", path);
        return -1;
    }
    snprintf(path, sizeof path, "%s/.gale_probe_%ld.tmp", dir, (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    if (fd < 0) {
        snprintf(why, n, "cannot write in '%s': %s", dir, strerror(errno));
        return -1;
    }
    close(fd);
    remove(path);
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(why, n, "cannot list '%s': %s", dir, strerror(errno));
        return -1;
    }
    int st = 0;
    for (struct dirent *e; st == 0 && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        const int tmp = len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0;
        char base[256];
        snprintf(base, sizeof base, "%.*s", (int)(tmp ? len - 4 : len), e->d_name);
        int ours = tmp && matches(base, ".gale_probe_#");
        for (int i = 0; names[i] && !ours; i++) ours = matches(base, names[i]);
        if (!ours) continue; /* never anything else */
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!tmp) {
            st = replaceable(path, why, n); /* a final name gale may write */
        } else if (replaceable(path, why, n) == 0) {
            if (remove(path) == 0)
                gale_log(GALE_LOG_WARN, "removed '%s', a temporary left by an earlier run "
                                        "that did not finish it", path);
            else
                gale_log(GALE_LOG_WARN, "'%s', a temporary left by an earlier run, cannot be "
                                        "removed: %s", path, strerror(errno));
        } else {
            st = -1; /* a temporary name gale must be able to write */
        }
    }
    closedir(d);
    return st;
}
