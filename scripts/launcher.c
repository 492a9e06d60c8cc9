/* utf8env's command: bin/utf8env where a C compiler built it (tools/build_backend.py),
 * a small exec wrapper over the C library, as tini and dumb-init are.
 *
 * What it promises: the command that `utf8env run` starts gets this program's arguments
 * and environment as bytes, exactly as they came (every entry, in order: duplicates,
 * entries without '=', names no shell accepts), with only the variables utf8env sets
 * on purpose changed. Text never passes through Python on the way: Python decides, this
 * program execs.
 *
 * How:
 *   - find the companion .utf8env.py beside the real file of this program (a symlink to
 *     it, as pipx makes, is followed) and the interpreter pip wrote on its first line;
 *     where that line is not a plain interpreter path, or it cannot be executed, run the
 *     companion itself: the usual start, with site;
 *   - start that interpreter as `-I -S -c START_CODE` (scripts/start.py) in a world where
 *     it cannot fail and decodes every byte reversibly: LC_ALL=C, and the variables that
 *     could stop it or change its own text (kept_aside below) taken out of its
 *     environment and given to it as arguments instead, with the entries a mapping cannot
 *     hold (duplicates after the first, entries without '=') left out;
 *   - for `run`, that interpreter is a child: it writes the plan (what to exec, which
 *     variables to set or unset) on a pipe and exits, and this program applies the plan to
 *     its own untouched argv and environment and execs the command, same pid. Every other
 *     subcommand: the interpreter replaces this program.
 *
 * The start-up window of `run`: the child runs in a process group of its own (a terminal's
 * Ctrl-C reaches this program alone; the child and anything it starts are killed as a
 * group), with SIGTTOU ignored (so that its messages reach a terminal with `stty tostop`).
 * SIGINT, SIGTERM, SIGHUP or SIGQUIT arriving before the exec kills the child and then
 * this program by the same signal: the death the command itself would have had. A signal
 * ignored on entry stays ignored. The command gets the signal dispositions, the signal
 * mask and the open files this program received.
 *
 * Exit statuses as a shell's: the command's own; 127 command not found (a missing #!
 * interpreter too, as env(1) says); 126 not executable; 125 this program's own failure,
 * with one line on stderr. An executable file the kernel cannot run (no #!) is run by
 * /bin/sh, as execvp(3) and env(1) do.
 *
 * C99 and POSIX.1-2008, no buffer that a path can overflow (every path is checked against
 * its buffer).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "start_code.h" /* START_CODE: scripts/start.py as a C string (the build writes it) */

extern char **environ;

#define COMPANION ".utf8env.py"
#define LAUNCHER_FAILED 125
#define MAX_PATH 4096   /* Linux's PATH_MAX */
#define MAX_LINKS 40    /* Linux's limit on symbolic links in one lookup */

/* The variables utf8env's own interpreter must not see: the locale (a codeset CPython has
 * no codec for kills it at start-up; a legacy CJK codeset makes it decode arguments
 * differently from libc), PYTHONCOERCECLOCALE (its warnings), and the three that
 * CPython 3.6 reads even under -I (a bad value stops it). They reach it as arguments, and
 * the command as they came. */
static const char *const kept_aside[] = {"LC_ALL", "LC_CTYPE", "LANG", "PYTHONCOERCECLOCALE",
                                         "PYTHONMALLOC", "PYTHONMALLOCSTATS", "PYTHONHASHSEED"};
#define KEPT_ASIDE (sizeof kept_aside / sizeof kept_aside[0])

/* The locale names always asked about (src/utf8env/_locales.py, candidate_names: the C
 * locale and every coercion target a profile may try); the values of LC_ALL, LC_CTYPE,
 * LANG and every other LC_* variable are asked about too. */
static const char *const always_asked[] = {"C", "C.UTF-8", "C.utf8", "UTF-8", "en_US.UTF-8"};
#define ALWAYS_ASKED (sizeof always_asked / sizeof always_asked[0])

/* The signals that end the start-up window the way they would end the command. */
static const int window_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define WINDOW_SIGNALS (sizeof window_signals / sizeof window_signals[0])

static volatile sig_atomic_t caught_signal;

/* -- small helpers ----------------------------------------------------------------------- */

/* One line on stderr in one write, so that it arrives whole; a closed stderr: the status
 * still tells. */
static void say(const char *a, const char *b, const char *c, const char *d)
{
    char line[MAX_PATH * 2 + 512];
    size_t used = 0;
    const char *parts[] = {"utf8env: error: ", a, b, c, d, "\n"};
    size_t i, n;
    for (i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (parts[i] == NULL)
            continue;
        n = strlen(parts[i]);
        if (n > sizeof line - 1 - used)
            n = sizeof line - 1 - used;
        memcpy(line + used, parts[i], n);
        used += n;
    }
    if (used == sizeof line - 1)
        line[used - 1] = '\n';
    while (write(2, line, used) < 0 && errno == EINTR) {
    }
}

static int fail(const char *what, const char *why)
{
    say(what, ": ", why, NULL);
    return LAUNCHER_FAILED;
}

/* Why utf8env's own interpreter did not start (errno). Near ARG_MAX, what utf8env adds to
 * the command line (its start code, the locale's answers) is what no longer fits. */
static void cannot_start(const char *interpreter)
{
    say(interpreter, ": ", strerror(errno),
        errno == E2BIG ? " (no room left for utf8env's own start: run the command without it)"
                       : NULL);
}

static void *allocate(size_t count, size_t size)
{
    void *memory = calloc(count ? count : 1, size);
    if (memory == NULL) {
        say("cannot start: ", strerror(ENOMEM), NULL, NULL);
        exit(LAUNCHER_FAILED);
    }
    return memory;
}

/* The length of the name of the environment entry `entry` (NAME=value), or -1 without
 * '=' (no variable: getenv never finds it). */
static long name_length(const char *entry)
{
    const char *equals = strchr(entry, '=');
    return equals ? (long)(equals - entry) : -1;
}

static int same_name(const char *entry, const char *name, size_t length)
{
    return name_length(entry) == (long)length && memcmp(entry, name, length) == 0;
}

/* -- finding the companion --------------------------------------------------------------- */

/* `path` made absolute, its final symbolic links followed (a pipx link to the command): the
 * folder of `out` is then the folder of the real file. 0 on success. */
static int real_file(const char *path, char *out, size_t size)
{
    char target[MAX_PATH];
    int links;
    out[0] = '\0';
    if (path[0] != '/') {
        if (getcwd(out, size) == NULL || strlen(out) + 1 >= size)
            return -1;
        strcat(out, "/");
    }
    if (strlen(out) + strlen(path) >= size)
        return -1;
    strcat(out, path);
    for (links = 0; links < MAX_LINKS; links++) {
        ssize_t got = readlink(out, target, sizeof target - 1);
        if (got < 0)
            return errno == EINVAL ? 0 : -1;    /* EINVAL: not a link, the file itself */
        target[got] = '\0';
        if (target[0] == '/')
            out[0] = '\0';
        else
            strrchr(out, '/')[1] = '\0';        /* a relative target: from the link's folder */
        if (strlen(out) + strlen(target) >= size)
            return -1;
        strcat(out, target);
    }
    return -1;
}

/* The real path of this program: /proc/self/exe, else argv[0] when it holds a slash (no
 * /proc, as in a bare chroot), else argv[0] looked up on PATH as a shell would. */
static int own_path(const char *argv0, char *out, size_t size)
{
    static const char deleted[] = " (deleted)";
    ssize_t got = readlink("/proc/self/exe", out, size - 1);
    const char *path;
    if (got > 0) {
        out[got] = '\0';
        /* Replaced while running (an upgrade): the name still says where the bin folder is. */
        if ((size_t)got > strlen(deleted) && strcmp(out + got - strlen(deleted), deleted) == 0)
            out[got - strlen(deleted)] = '\0';
        return 0;
    }
    if (argv0 == NULL)
        return -1;
    if (strchr(argv0, '/'))
        return real_file(argv0, out, size);
    for (path = getenv("PATH"); path != NULL;) {
        char candidate[MAX_PATH];
        size_t folder = strcspn(path, ":");
        if (folder + strlen(argv0) + 3 < sizeof candidate) {
            if (folder == 0)
                strcpy(candidate, ".");
            else {
                memcpy(candidate, path, folder);
                candidate[folder] = '\0';
            }
            strcat(candidate, "/");
            strcat(candidate, argv0);
            if (access(candidate, X_OK) == 0 && real_file(candidate, out, size) == 0)
                return 0;
        }
        path = path[folder] == ':' ? path + folder + 1 : NULL;
    }
    return -1;
}

/* The first line of the companion, without its newline. 0 on success. */
static int first_line(const char *companion, char *line, size_t size)
{
    size_t total = 0;
    int fd = open(companion, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    while (total < size - 1) {
        ssize_t got = read(fd, line + total, size - 1 - total);
        char *newline;
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        line[total + (size_t)got] = '\0';
        newline = strchr(line + total, '\n');
        if (newline) {
            *newline = '\0';
            close(fd);
            return 0;
        }
        total += (size_t)got;
    }
    close(fd);
    line[total] = '\0';
    if (total < size - 1)
        return 0;
    errno = 0;                              /* longer than any interpreter path: not one */
    return -1;
}

/* -- utf8env's own interpreter ----------------------------------------------------------- */

#define MAX_ASKED 64

/* Adds `name` to the names asked (args[first], args[first + 2], ...), unless it is empty,
 * POSIX (the C locale by another name), asked already, or one too many. */
static void to_ask(const char *name, char **args, size_t first, size_t *asked)
{
    size_t i;
    if (name[0] == '\0' || strcmp(name, "POSIX") == 0 || *asked == MAX_ASKED)
        return;
    for (i = 0; i < *asked; i++)
        if (strcmp(args[first + 2 * i], name) == 0)
            return;
    args[first + 2 * (*asked)++] = (char *)name;
}

/* The locale question of src/utf8env/_locales.py (candidate_names), asked of libc here,
 * under the user's environment (its LOCPATH counts): for each name, the name and the
 * nl_langinfo(CODESET) where setlocale(LC_CTYPE, name) accepts it, else "". Appended to
 * args from args[*n], led by their count. utf8env's own interpreter then needs neither
 * its private _locale module nor the time to ask. */
static void ask_locales(char **envp, char **args, size_t *n)
{
    static const char *const variables[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    static char count[24];
    size_t first = *n + 1, asked = 0, i;
    char **entry;
    for (i = 0; i < ALWAYS_ASKED; i++)
        to_ask(always_asked[i], args, first, &asked);
    for (i = 0; i < sizeof variables / sizeof variables[0]; i++)
        for (entry = envp; *entry != NULL; entry++)
            if (same_name(*entry, variables[i], strlen(variables[i]))) {
                to_ask(strchr(*entry, '=') + 1, args, first, &asked);
                break;          /* the first entry is the variable */
            }
    for (entry = envp; *entry != NULL; entry++)       /* 3.6 sets every category */
        if (strncmp(*entry, "LC_", 3) == 0 && strchr(*entry, '='))
            to_ask(strchr(*entry, '=') + 1, args, first, &asked);
    for (i = 0; i < asked; i++) {
        const char *codeset = setlocale(LC_CTYPE, args[first + 2 * i]) ? nl_langinfo(CODESET) : NULL;
        char *copy = codeset ? strdup(codeset) : NULL;
        args[first + 2 * i + 1] = copy ? copy : "";
        setlocale(LC_CTYPE, "C");
    }
    snprintf(count, sizeof count, "%zu", asked);
    args[*n] = count;
    *n = first + 2 * asked;
}

/* Its command line: INTERPRETER -I -S -c START_CODE COMPANION PLAN_FD "" "" N KEPT... M
 * (NAME CODESET)... ARGS... (scripts/start.py reads it), and its environment, into the
 * arrays given. */
static void own_start(char **argv, int argc, char **envp, const char *interpreter,
                      const char *companion, const char *plan_fd, char **args, char **env)
{
    static char count[24];
    size_t n = 0, e = 0, kept = 0, i, j;
    char **entry;
    args[n++] = (char *)interpreter;
    args[n++] = "-I";
    args[n++] = "-S";
    args[n++] = "-c";
    args[n++] = (char *)START_CODE;
    args[n++] = (char *)companion;
    args[n++] = (char *)plan_fd;
    args[n++] = "";                 /* the mask of ignored signals: only the stub needs it */
    args[n++] = "";                 /* nothing printed by an earlier start */
    args[n++] = count;
    for (i = 0; i < KEPT_ASIDE; i++)        /* the first entry of each: the one getenv sees */
        for (entry = envp; *entry != NULL; entry++)
            if (same_name(*entry, kept_aside[i], strlen(kept_aside[i]))) {
                args[n++] = *entry;
                kept++;
                break;
            }
    snprintf(count, sizeof count, "%zu", kept);
    ask_locales(envp, args, &n);
    for (i = 1; i < (size_t)argc; i++)
        args[n++] = argv[i];
    args[n] = NULL;

    for (entry = envp; *entry != NULL; entry++) {
        long length = name_length(*entry);
        int keep = length >= 0;
        for (i = 0; keep && i < KEPT_ASIDE; i++)
            if (same_name(*entry, kept_aside[i], strlen(kept_aside[i])))
                keep = 0;
        for (j = 0; keep && j < e; j++)        /* a duplicate: the first is the variable */
            if (same_name(env[j], *entry, (size_t)length))
                keep = 0;
        if (keep)
            env[e++] = *entry;
    }
    env[e++] = "LC_ALL=C";
    env[e] = NULL;
}

/* -- the plan of `run` ------------------------------------------------------------------- */

struct plan {
    char *path;
    char **argv;
    char **set;         /* NAME=value entries */
    char **unset;       /* names */
    size_t set_count, unset_count;
};

/* The next NUL-terminated field of data[*at, size), or NULL. */
static char *field(char *data, size_t size, size_t *at)
{
    char *start = data + *at, *end;
    if (*at >= size)
        return NULL;
    end = memchr(start, '\0', size - *at);
    if (end == NULL)
        return NULL;
    *at += (size_t)(end - start) + 1;
    return start;
}

static int count_field(char *data, size_t size, size_t *at, size_t *count)
{
    char *text = field(data, size, at), *end;
    unsigned long value;
    if (text == NULL || *text == '\0')
        return -1;
    errno = 0;
    value = strtoul(text, &end, 10);
    if (*end != '\0' || errno != 0 || value > size)
        return -1;
    *count = value;
    return 0;
}

/* The plan (src/utf8env/_run.py writes it): "exec", PATH, ARGC, ARGV..., N, NAME=value...,
 * M, NAME..., each NUL-terminated. 0 when well formed. */
static int read_plan(char *data, size_t size, struct plan *plan)
{
    size_t at = 0, count, i;
    char *word = field(data, size, &at);
    if (word == NULL || strcmp(word, "exec") != 0)
        return -1;
    if ((plan->path = field(data, size, &at)) == NULL)
        return -1;
    if (count_field(data, size, &at, &count) != 0 || count == 0)
        return -1;
    plan->argv = allocate(count + 1, sizeof *plan->argv);
    for (i = 0; i < count; i++)
        if ((plan->argv[i] = field(data, size, &at)) == NULL)
            return -1;
    if (count_field(data, size, &at, &plan->set_count) != 0)
        return -1;
    plan->set = allocate(plan->set_count, sizeof *plan->set);
    for (i = 0; i < plan->set_count; i++)
        if ((plan->set[i] = field(data, size, &at)) == NULL || name_length(plan->set[i]) <= 0)
            return -1;
    if (count_field(data, size, &at, &plan->unset_count) != 0)
        return -1;
    plan->unset = allocate(plan->unset_count, sizeof *plan->unset);
    for (i = 0; i < plan->unset_count; i++)
        if ((plan->unset[i] = field(data, size, &at)) == NULL)
            return -1;
    return at == size ? 0 : -1;
}

/* This program's environment with the plan's changes: a variable set takes the place of
 * its first entry (later entries of that name go: they would contradict it), or comes last
 * when it had none; a variable unset loses every entry. Everything else stays as it is. */
static char **planned_environment(char **envp, const struct plan *plan)
{
    size_t count = 0, n = 0, i;
    char **env, **entry;
    char *placed;
    for (entry = envp; *entry != NULL; entry++)
        count++;
    env = allocate(count + plan->set_count + 1, sizeof *env);
    placed = allocate(plan->set_count, 1);
    for (entry = envp; *entry != NULL; entry++) {
        long length = name_length(*entry);
        int keep = 1;
        for (i = 0; length >= 0 && keep && i < plan->set_count; i++)
            if (same_name(plan->set[i], *entry, (size_t)length)) {
                if (!placed[i])
                    env[n++] = plan->set[i];
                placed[i] = 1;
                keep = 0;
            }
        for (i = 0; length >= 0 && keep && i < plan->unset_count; i++)
            if (strlen(plan->unset[i]) == (size_t)length
                    && memcmp(plan->unset[i], *entry, (size_t)length) == 0)
                keep = 0;
        if (keep)
            env[n++] = *entry;
    }
    for (i = 0; i < plan->set_count; i++)
        if (!placed[i])
            env[n++] = plan->set[i];
    env[n] = NULL;
    return env;
}

/* -- signals ----------------------------------------------------------------------------- */

static void catch_signal(int number)
{
    caught_signal = number;
}

/* Catch the window's signals that are not ignored; `caught[i]` says which were. */
static void catch_window_signals(int *caught)
{
    size_t i;
    for (i = 0; i < WINDOW_SIGNALS; i++) {
        struct sigaction action, before;
        caught[i] = 0;
        if (sigaction(window_signals[i], NULL, &before) != 0 || before.sa_handler == SIG_IGN)
            continue;
        memset(&action, 0, sizeof action);
        action.sa_handler = catch_signal;       /* no SA_RESTART: waits end with EINTR */
        sigemptyset(&action.sa_mask);
        caught[i] = sigaction(window_signals[i], &action, NULL) == 0;
    }
}

static void release_window_signals(const int *caught)
{
    size_t i;
    for (i = 0; i < WINDOW_SIGNALS; i++)
        if (caught[i])
            signal(window_signals[i], SIG_DFL);
}

/* Die by `number`, as the command would have; the status a shell shows for it otherwise. */
static void die_by(int number)
{
    sigset_t only;
    signal(number, SIG_DFL);
    sigemptyset(&only);
    sigaddset(&only, number);
    raise(number);
    sigprocmask(SIG_UNBLOCK, &only, NULL);
    _exit(128 + number);
}

static void end_child(pid_t child)
{
    int status;
    kill(-child, SIGKILL);
    kill(child, SIGKILL);
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
}

/* -- exec ---------------------------------------------------------------------------------- */

static int exec_command(const struct plan *plan, char **env)
{
    size_t count = 0, i;
    char **by_shell;
    execve(plan->path, plan->argv, env);
    if (errno == ENOEXEC) {
        /* No #! and no binary format: a shell script, as execvp(3) runs it. */
        while (plan->argv[count] != NULL)
            count++;
        by_shell = allocate(count + 2, sizeof *by_shell);
        by_shell[0] = "/bin/sh";
        by_shell[1] = plan->path;
        for (i = 1; i < count; i++)
            by_shell[i + 1] = plan->argv[i];
        execve("/bin/sh", by_shell, env);
    }
    say("command '", plan->argv[0], "': ", strerror(errno));
    return errno == ENOENT || errno == ENOTDIR ? 127 : 126;
}

/* Start the interpreter as `run`'s child: in a process group of its own, with SIGTTOU
 * ignored and the plan's pipe end `plan_fd` open. posix_spawn, not fork: the child shares
 * this program's memory until it execs (glibc), so nothing is copied, and a signal handler
 * of this program never runs in it (glibc sets every caught signal to its default there).
 * 0, or the errno of the failed start. */
static int spawn_child(pid_t *child, const char *interpreter, char **args, char **env,
                       int plan_fd)
{
    posix_spawnattr_t attributes;
    struct sigaction ignore, ttou;
    int error;

    if ((error = posix_spawnattr_init(&attributes)) != 0)
        return error;
    error = posix_spawnattr_setpgroup(&attributes, 0);
    if (error == 0)
        error = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    /* An ignored signal stays ignored across exec: SIGTTOU ignored here for the moment of
     * the spawn, then as before. */
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    if (error == 0 && sigaction(SIGTTOU, &ignore, &ttou) != 0)
        error = errno;
    if (error == 0 && fcntl(plan_fd, F_SETFD, 0) != 0)
        error = errno;
    if (error == 0) {
        error = posix_spawn(child, interpreter, NULL, &attributes, args, env);
        sigaction(SIGTTOU, &ttou, NULL);
    }
    posix_spawnattr_destroy(&attributes);
    return error;
}

/* `run`: the interpreter decides in a child, this program execs. */
static int run(char **args, char **python_env, char **envp, const char *interpreter)
{
    int pipe_ends[2], caught[WINDOW_SIGNALS], status = 0, waited;
    char plan_fd[16];
    char *data = NULL;
    size_t size = 0, room = 0;
    pid_t child;
    sigset_t window, before;
    struct plan plan;

    if (pipe(pipe_ends) != 0)
        return fail("cannot start its interpreter", strerror(errno));
    /* Above 2, so that a standard stream closed on entry stays closed for the command. */
    for (waited = 0; waited < 2; waited++) {
        int moved = fcntl(pipe_ends[waited], F_DUPFD_CLOEXEC, 3);
        if (moved < 0)
            return fail("cannot start its interpreter", strerror(errno));
        close(pipe_ends[waited]);
        pipe_ends[waited] = moved;
    }
    snprintf(plan_fd, sizeof plan_fd, "%d", pipe_ends[1]);
    args[6] = plan_fd;
    catch_window_signals(caught);
    waited = spawn_child(&child, interpreter, args, python_env, pipe_ends[1]);
    close(pipe_ends[1]);
    if (waited != 0) {
        errno = waited;
        cannot_start(interpreter);
        release_window_signals(caught);
        return LAUNCHER_FAILED;
    }
    while (!caught_signal) {
        ssize_t got;
        if (size == room) {
            char *bigger = realloc(data, room = room ? room * 2 : 1 << 16);
            if (bigger == NULL) {
                end_child(child);
                return fail("cannot read the plan", strerror(ENOMEM));
            }
            data = bigger;
        }
        got = read(pipe_ends[0], data + size, room - size);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        size += (size_t)got;
    }
    close(pipe_ends[0]);
    while (!caught_signal && (waited = (int)waitpid(child, &status, 0)) < 0 && errno == EINTR) {
    }
    /* SIGCHLD ignored on entry: the child is reaped by the kernel (ECHILD), the plan tells. */
    if (!caught_signal && waited < 0 && errno == ECHILD)
        status = 0;

    /* From here to the exec, a window signal is held, then gets its default action. */
    sigemptyset(&window);
    for (waited = 0; waited < (int)WINDOW_SIGNALS; waited++)
        if (caught[waited])
            sigaddset(&window, window_signals[waited]);
    sigprocmask(SIG_BLOCK, &window, &before);
    if (caught_signal) {
        end_child(child);
        die_by(caught_signal);
    }
    if (WIFSIGNALED(status)) {
        char number[16];
        snprintf(number, sizeof number, "%d", WTERMSIG(status));
        say(interpreter, ": killed by signal ", number, NULL);
        return LAUNCHER_FAILED;
    }
    if (size == 0)
        return WEXITSTATUS(status);        /* no exec: the interpreter's status is the answer */
    if (WEXITSTATUS(status) != 0 || read_plan(data, size, &plan) != 0)
        return fail(interpreter, "gave no plan that can be read");
    release_window_signals(caught);
    sigprocmask(SIG_SETMASK, &before, NULL);
    return exec_command(&plan, planned_environment(envp, &plan));
}

int main(int argc, char **argv)
{
    char self[MAX_PATH], companion[MAX_PATH + sizeof COMPANION], line[MAX_PATH + 3];
    char **envp = environ, **args, **python_env;
    const char *interpreter;
    size_t count = 0;
    int n;

    if (own_path(argc > 0 ? argv[0] : NULL, self, sizeof self) != 0)
        return fail(argc > 0 && argv[0] ? argv[0] : "utf8env", "cannot find its own folder");
    strrchr(self, '/')[1] = '\0';                 /* an absolute path: there is a slash */
    strcpy(companion, self);
    strcat(companion, COMPANION);

    /* interpreter, -I, -S, -c, code, companion, plan fd, mask, printed, count, kept...,
     * count, the names asked and their codesets, argv[1:], NULL; one more for an empty
     * argv (argc 0, which older kernels pass on). */
    args = allocate((size_t)(argc > 0 ? argc : 1) + 12 + KEPT_ASIDE + 2 * MAX_ASKED,
                    sizeof *args);
    if (first_line(companion, line, sizeof line) != 0) {
        /* Copied alone (into /usr/local/bin, say): a link finds the companion, a copy not. */
        say(companion, ": ", errno == ENOENT ? "not found: the utf8env command works beside its "
                                               "companion; link to it (ln -s) rather than copy it"
                                             : "cannot be read (reinstall utf8env)", NULL);
        return LAUNCHER_FAILED;
    }
    /* pip writes the interpreter's path alone, spaces and colons included (a #! line cannot
     * start such a path, this can). Anything else (the /bin/sh form some installers write
     * for a path too long for the kernel, a #! line with arguments): the usual start. */
    interpreter = strncmp(line, "#!", 2) == 0 ? line + 2 : line;
    if (interpreter[0] == '/' && strcmp(interpreter, "/bin/sh") != 0
            && access(interpreter, X_OK) == 0) {
        while (envp[count] != NULL)
            count++;
        python_env = allocate(count + 2, sizeof *python_env);
        own_start(argv, argc, envp, interpreter, companion, "", args, python_env);
        if (argc > 1 && strcmp(argv[1], "run") == 0)
            return run(args, python_env, envp, interpreter);
        execve(interpreter, args, python_env);
        if (errno == E2BIG)
            return cannot_start(interpreter), LAUNCHER_FAILED;
        /* Not startable after all (a foreign binary, a full process table): the usual start. */
    }
    args[0] = companion;
    for (n = 1; n < argc; n++)
        args[n] = argv[n];
    args[argc > 0 ? argc : 1] = NULL;
    execve(companion, args, envp);
    return fail(companion, strerror(errno));
}
