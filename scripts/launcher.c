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
 *   - find the installation this program belongs to from the real folder DIR of its file
 *     (a symlink to it, as pipx makes, is followed): DIR/../lib/pythonX.Y whose
 *     site-packages (dist-packages: Debian's /usr/local) holds the metadata of this
 *     very version of utf8env, the highest X.Y where several do; and its interpreter:
 *     in a venv (DIR/../pyvenv.cfg) the venv's own, DIR/pythonX.Y, else python3, else
 *     python; elsewhere (a prefix, --user's ~/.local) DIR/pythonX.Y, else the first
 *     pythonX.Y on PATH. One folder read, a few stats, no process started to ask;
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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* START_CODE: scripts/start.py; VERSION: the package's __version__ (src/utf8env/__init__.py).
 * C strings the build writes. */
#include "start_code.h"

extern char **environ;

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

/* -- finding this program ----------------------------------------------------------------- */

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

/* The first executable `name` on PATH, as a shell looks it up (an empty entry: the
 * current folder), into `out`. 0 when found. */
static int on_path(const char *name, char *out, size_t size)
{
    const char *path;
    for (path = getenv("PATH"); path != NULL;) {
        size_t folder = strcspn(path, ":");
        int written = folder == 0 ? snprintf(out, size, "./%s", name)
                                  : snprintf(out, size, "%.*s/%s", (int)folder, path, name);
        if (written > 0 && (size_t)written < size && access(out, X_OK) == 0)
            return 0;
        path = path[folder] == ':' ? path + folder + 1 : NULL;
    }
    return -1;
}

/* The real path of this program: /proc/self/exe, else argv[0] when it holds a slash (no
 * /proc, as in a bare chroot), else argv[0] looked up on PATH as a shell would. */
static int own_path(const char *argv0, char *out, size_t size)
{
    static const char deleted[] = " (deleted)";
    char candidate[MAX_PATH];
    ssize_t got = readlink("/proc/self/exe", out, size - 1);
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
    return on_path(argv0, candidate, sizeof candidate) == 0 ? real_file(candidate, out, size) : -1;
}

/* -- finding its installation and interpreter -------------------------------------------- */

/* The X.Y of a folder named pythonX.Y (digits only), into major and minor; -1 for any
 * other name. */
static int python_version(const char *name, long *major, long *minor)
{
    const char *at;
    long parts[2] = {0, 0};
    int part;
    if (strncmp(name, "python", strlen("python")) != 0)
        return -1;
    at = name + strlen("python");
    for (part = 0; part < 2; part++) {
        if (*at < '0' || *at > '9')
            return -1;
        for (; *at >= '0' && *at <= '9'; at++)
            if ((parts[part] = parts[part] * 10 + (*at - '0')) > 99999)
                return -1;
        if (*at != (part == 0 ? '.' : '\0'))
            return -1;
        at++;
    }
    *major = parts[0];
    *minor = parts[1];
    return 0;
}

/* Whether `path`, as snprintf wrote it (`written` of `size`), is whole and a folder. */
static int is_folder(const char *path, int written, size_t size)
{
    struct stat info;
    return written > 0 && (size_t)written < size && stat(path, &info) == 0
           && S_ISDIR(info.st_mode);
}

/* Whether `lib` (DIR/../lib/pythonX.Y) holds this version of utf8env: the dist-info that a
 * wheel installs, normal or editable, or the egg-info of setup.py (pips before 19), in
 * site-packages, or dist-packages for Debian's /usr/local. */
static int holds_this_version(const char *lib, const char *x_y)
{
    static const char *const folders[] = {"site-packages", "dist-packages"};
    char path[MAX_PATH];
    size_t i;
    for (i = 0; i < sizeof folders / sizeof folders[0]; i++)
        if (is_folder(path, snprintf(path, sizeof path, "%s/%s/utf8env-%s.dist-info", lib,
                                     folders[i], VERSION), sizeof path)
                || is_folder(path, snprintf(path, sizeof path, "%s/%s/utf8env-%s-py%s.egg-info",
                                            lib, folders[i], VERSION, x_y), sizeof path))
            return 1;
    return 0;
}

/* Into `lib`: DIR/../lib/pythonX.Y of the highest X.Y that holds this version of utf8env,
 * `dir` being the real folder of this program. 0 when found. */
static int find_installation(const char *dir, char *lib, size_t size)
{
    char folder[MAX_PATH], candidate[MAX_PATH];
    long best_major = -1, best_minor = -1, major, minor;
    struct dirent *entry;
    DIR *listing;
    int written = snprintf(folder, sizeof folder, "%s/../lib", dir);
    if (written < 0 || (size_t)written >= sizeof folder || (listing = opendir(folder)) == NULL)
        return -1;
    while ((entry = readdir(listing)) != NULL) {
        if (python_version(entry->d_name, &major, &minor) != 0
                || major < best_major || (major == best_major && minor <= best_minor))
            continue;
        written = snprintf(candidate, sizeof candidate, "%s/%s", folder, entry->d_name);
        if (written > 0 && (size_t)written < sizeof candidate && (size_t)written < size
                && holds_this_version(candidate, entry->d_name + strlen("python"))) {
            best_major = major;
            best_minor = minor;
            strcpy(lib, candidate);
        }
    }
    closedir(listing);
    return best_major < 0 ? -1 : 0;
}

/* Into `out`: the interpreter of the installation `lib` (DIR/../lib/pythonX.Y). In a venv
 * (DIR/../pyvenv.cfg: venv, pipx, virtualenv), the venv's own: DIR/pythonX.Y, else
 * python3, else python (a 3.6 venv has no pythonX.Y). Elsewhere (a prefix such as
 * /usr/local, --user's ~/.local): DIR/pythonX.Y, else the first pythonX.Y on PATH. 0 when
 * found; else the line that says what was looked for has been said. */
static int find_interpreter(const char *dir, const char *lib, char *out, size_t size)
{
    const char *name = strrchr(lib, '/') + 1;
    const char *const in_venv[] = {name, "python3", "python"};
    char cfg[MAX_PATH], line[MAX_PATH * 3];
    size_t i;
    int written = snprintf(cfg, sizeof cfg, "%s/../pyvenv.cfg", dir);
    if (written > 0 && (size_t)written < sizeof cfg && access(cfg, F_OK) == 0) {
        for (i = 0; i < sizeof in_venv / sizeof in_venv[0]; i++) {
            written = snprintf(out, size, "%s/%s", dir, in_venv[i]);
            if (written > 0 && (size_t)written < size && access(out, X_OK) == 0)
                return 0;
        }
        say(dir, ": no ", name, ", python3 or python (the venv's interpreter)");
        return -1;
    }
    written = snprintf(out, size, "%s/%s", dir, name);
    if ((written > 0 && (size_t)written < size && access(out, X_OK) == 0)
            || on_path(name, out, size) == 0)
        return 0;
    snprintf(line, sizeof line, "no %s in %s or on PATH (utf8env is installed for it in %s)",
             name, dir, lib);
    say(line, NULL, NULL, NULL);
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

/* Its command line: INTERPRETER -I -S -c START_CODE SELF LIB PLAN_FD "" "" N KEPT... M
 * (NAME CODESET)... ARGS... (scripts/start.py reads it), and its environment, into the
 * arrays given. */
#define PLAN_FD_ARG 7
static void own_start(char **argv, int argc, char **envp, const char *interpreter,
                      const char *self, const char *lib, char **args, char **env)
{
    static char count[24];
    size_t n = 0, e = 0, kept = 0, i, j;
    char **entry;
    args[n++] = (char *)interpreter;
    args[n++] = "-I";
    args[n++] = "-S";
    args[n++] = "-c";
    args[n++] = (char *)START_CODE;
    args[n++] = (char *)self;
    args[n++] = (char *)lib;
    args[n++] = "";                 /* the plan's descriptor: run() sets it (PLAN_FD_ARG) */
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
    args[PLAN_FD_ARG] = plan_fd;
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
    char self[MAX_PATH], dir[MAX_PATH], lib[MAX_PATH], interpreter[MAX_PATH];
    char **envp = environ, **args, **python_env;
    size_t count = 0;

    if (own_path(argc > 0 ? argv[0] : NULL, self, sizeof self) != 0)
        return fail(argc > 0 && argv[0] ? argv[0] : "utf8env", "cannot find its own folder");
    strcpy(dir, self);
    *strrchr(dir, '/') = '\0';                   /* an absolute path: there is a slash */
    if (find_installation(dir, lib, sizeof lib) != 0) {
        /* Copied alone (into /usr/local/bin, say): a link finds the installation, a copy not. */
        char line[MAX_PATH + 256];
        snprintf(line, sizeof line, "no utf8env %s in %s/../lib/pythonX.Y/site-packages or "
                 "dist-packages: the utf8env command works where pip installed it; link to it "
                 "(ln -s) rather than copy it", VERSION, dir);
        say(line, NULL, NULL, NULL);
        return LAUNCHER_FAILED;
    }
    if (find_interpreter(dir, lib, interpreter, sizeof interpreter) != 0)
        return LAUNCHER_FAILED;

    /* interpreter, -I, -S, -c, code, self, lib, plan fd, mask, printed, count, kept...,
     * count, the names asked and their codesets, argv[1:], NULL; one more for an empty
     * argv (argc 0, which older kernels pass on). */
    args = allocate((size_t)(argc > 0 ? argc : 1) + 13 + KEPT_ASIDE + 2 * MAX_ASKED,
                    sizeof *args);
    while (envp[count] != NULL)
        count++;
    python_env = allocate(count + 2, sizeof *python_env);
    own_start(argv, argc, envp, interpreter, self, lib, args, python_env);
    if (argc > 1 && strcmp(argv[1], "run") == 0)
        return run(args, python_env, envp, interpreter);
    execve(interpreter, args, python_env);
    cannot_start(interpreter);
    return LAUNCHER_FAILED;
}
