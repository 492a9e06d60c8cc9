/* utf8env's command, compiled: what scripts/utf8env.sh does, without a shell.
 *
 * Every POSIX shell rewrites the environment it passes on: dash drops the variables
 * whose names are not shell identifiers (spring.profiles.active, a-b, a name holding the
 * byte \xff) and sets PWD; bash sets PWD, SHLVL and _. A launcher put in front of a
 * command must pass the environment on byte for byte, so where a C compiler is at hand
 * when the wheel is built (tools/build_backend.py), bin/utf8env is this program, and the
 * shell stub is the fallback.
 *
 * It does what the stub does, in the same order and with the same protocol:
 *   - find the companion .utf8env.py beside the real file of this program (a symlink to
 *     it, as pipx makes, is followed) and take the interpreter pip wrote on its first line;
 *   - where that line is not a plain interpreter path, or the interpreter cannot be
 *     executed: run the companion itself, the usual start with site;
 *   - otherwise start the interpreter with -I -S -c START_CODE (the code every form of the
 *     command shares, scripts/start.py) and the arguments: the companion, the mask of the
 *     signals ignored on entry (before CPython ignores SIGPIPE and SIGXFSZ for itself), the
 *     variables kept aside (PYTHONMALLOC, PYTHONMALLOCSTATS and PYTHONHASHSEED, which 3.6
 *     reads even under -I: renamed UTF8ENV_HIDDEN_NAME, given back to the command), then
 *     this program's own arguments, untouched.
 * Nothing else changes: the environment's other entries, their order, the signal mask,
 * the dispositions and the open files reach the interpreter as they came.
 *
 * C99 with POSIX calls only, no allocation that can fail silently, no buffer that a path
 * can overflow: every path is checked against its buffer. Exit 125 (the launcher's own
 * failure) with one line on stderr when nothing can be started.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "start_code.h" /* START_CODE: scripts/start.py as a C string (the build writes it) */

extern char **environ;

#define COMPANION ".utf8env.py"
#define HIDDEN_PREFIX "UTF8ENV_HIDDEN_"
#define LAUNCHER_FAILED 125

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

static const char *const kept_aside[] = {"PYTHONMALLOC", "PYTHONMALLOCSTATS", "PYTHONHASHSEED"};
#define KEPT_ASIDE (sizeof kept_aside / sizeof kept_aside[0])

static int fail(const char *what, const char *why)
{
    /* A closed stderr: the status still tells. */
    fprintf(stderr, "utf8env: error: %s: %s (reinstall utf8env)\n", what, why);
    fflush(stderr);
    return LAUNCHER_FAILED;
}

/* The real path of this program: /proc/self/exe, else argv[0] when it holds a slash
 * (no /proc, as in a bare chroot); a command found on PATH without /proc is looked up
 * there as a shell would. 0 on success. */
static int own_path(const char *argv0, char *out, size_t size)
{
    ssize_t length = readlink("/proc/self/exe", out, size - 1);
    const char *deleted = " (deleted)";
    if (length > 0) {
        out[length] = '\0';
        /* Replaced while running (an upgrade): the name still says where the bin folder is. */
        if ((size_t)length > strlen(deleted) && strcmp(out + length - strlen(deleted), deleted) == 0)
            out[length - strlen(deleted)] = '\0';
        return 0;
    }
    if (argv0 == NULL)
        return -1;
    if (strchr(argv0, '/') != NULL)
        return realpath(argv0, out) != NULL ? 0 : -1;
    {
        const char *path = getenv("PATH"), *start, *end;
        char candidate[PATH_MAX];
        if (path == NULL)
            return -1;
        for (start = path;; start = end + 1) {
            size_t folder;
            end = strchr(start, ':');
            folder = end != NULL ? (size_t)(end - start) : strlen(start);
            if (folder + 1 + strlen(argv0) < sizeof candidate) {
                memcpy(candidate, folder ? start : ".", folder ? folder : 1);
                candidate[folder ? folder : 1] = '\0';
                strcat(candidate, "/");
                strcat(candidate, argv0);
                if (access(candidate, X_OK) == 0 && realpath(candidate, out) != NULL)
                    return 0;
            }
            if (end == NULL)
                return -1;
        }
    }
}

/* The first line of the companion, without its newline, into `line`. 0 on success. */
static int first_line(const char *companion, char *line, size_t size)
{
    ssize_t got, total = 0;
    char *newline;
    int fd = open(companion, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    while ((size_t)total < size - 1) {
        got = read(fd, line + total, size - 1 - total);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        total += got;
        line[total] = '\0';
        if (memchr(line, '\n', total) != NULL)
            break;
    }
    close(fd);
    line[total] = '\0';
    newline = memchr(line, '\n', total);
    if (newline == NULL && (size_t)total == size - 1)
        return -1;          /* longer than any interpreter path: not a plain one */
    if (newline != NULL)
        *newline = '\0';
    return 0;
}

/* The mask of ignored signals, as /proc/self/stat's sigignore field writes it (proc(5)):
 * bit N-1 for signal N, in decimal. */
static void ignored_signals(char *out, size_t size)
{
    unsigned long long mask = 0;
    int number;
    for (number = 1; number <= 64; number++) {
        struct sigaction action;
        if (sigaction(number, NULL, &action) == 0 && action.sa_handler == SIG_IGN)
            mask |= 1ULL << (number - 1);
    }
    snprintf(out, size, "%llu", mask);
}

/* The index in kept_aside of the variable `entry` (NAME=value) sets, or -1. */
static int kept_aside_index(const char *entry)
{
    size_t i;
    for (i = 0; i < KEPT_ASIDE; i++) {
        size_t length = strlen(kept_aside[i]);
        if (strncmp(entry, kept_aside[i], length) == 0 && entry[length] == '=')
            return (int)i;
    }
    return -1;
}

int main(int argc, char **argv)
{
    char self[PATH_MAX], companion[PATH_MAX + sizeof COMPANION], line[PATH_MAX + 3];
    char ignored[24], hidden[64] = "";
    const char *interpreter;
    char **env = environ, **args;
    size_t count = 0, i, slash;
    int kept = 0, n;

    if (own_path(argc > 0 ? argv[0] : NULL, self, sizeof self) != 0)
        return fail(argc > 0 && argv[0] ? argv[0] : "utf8env", "cannot find its own folder");
    slash = strrchr(self, '/') - self;     /* an absolute path: there is a slash */
    memcpy(companion, self, slash + 1);
    strcpy(companion + slash + 1, COMPANION);

    /* interpreter, -I, -S, -c, code, companion, mask, kept names, argv[1:], NULL: argc + 8,
     * and one more for an empty argv (argc 0, which older kernels pass on). */
    args = calloc((size_t)argc + 9, sizeof *args);
    if (args == NULL)
        return fail(companion, strerror(ENOMEM));

    if (first_line(companion, line, sizeof line) != 0)
        return fail(companion, "cannot be read");
    /* pip writes the interpreter's path alone, spaces and colons included (a #! line cannot
     * start such a path, this can). Anything else (the /bin/sh form some installers write
     * for a path too long for the kernel, a #! line with arguments): the usual start. */
    interpreter = strncmp(line, "#!", 2) == 0 ? line + 2 : line;
    if (interpreter[0] == '/' && strcmp(interpreter, "/bin/sh") != 0
            && access(interpreter, X_OK) == 0) {
        ignored_signals(ignored, sizeof ignored);
        while (env[count] != NULL)
            count++;
        for (i = 0; i < count; i++)
            if ((n = kept_aside_index(env[i])) >= 0)
                kept |= 1 << n;
        if (kept) {
            /* A copy with the kept variables renamed, first: the first of two entries of one
             * name is the one getenv() and utf8env read, so a UTF8ENV_HIDDEN_NAME the
             * environment already had cannot stand for the value kept aside. */
            char **copy = calloc(count + 1, sizeof *copy), **next;
            if (copy == NULL)
                return fail(companion, strerror(ENOMEM));
            next = copy;
            for (i = 0; i < count; i++)
                if (kept_aside_index(env[i]) >= 0) {
                    *next = malloc(strlen(HIDDEN_PREFIX) + strlen(env[i]) + 1);
                    if (*next == NULL)
                        return fail(companion, strerror(ENOMEM));
                    strcpy(*next, HIDDEN_PREFIX);
                    strcat(*next++, env[i]);
                }
            for (i = 0; i < count; i++)
                if (kept_aside_index(env[i]) < 0)
                    *next++ = env[i];
            env = copy;
            for (n = 0; n < (int)KEPT_ASIDE; n++)
                if (kept & (1 << n)) {
                    strcat(hidden, " ");
                    strcat(hidden, kept_aside[n]);
                }
        }
        args[0] = (char *)interpreter;
        args[1] = "-I";
        args[2] = "-S";
        args[3] = "-c";
        args[4] = (char *)START_CODE;
        args[5] = companion;
        args[6] = ignored;
        args[7] = hidden;
        for (n = 1; n < argc; n++)
            args[7 + n] = argv[n];
        execve(interpreter, args, env);
        /* Not startable after all (a foreign binary, a full process table): the usual start. */
    }
    args[0] = companion;
    for (n = 1; n < argc; n++)
        args[n] = argv[n];
    args[argc > 0 ? argc : 1] = NULL;
    execve(companion, args, environ);
    return fail(companion, strerror(errno));
}
