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
 * Two builds of the one program. On x86_64 and aarch64 Linux, freestanding
 * (UTF8ENV_FREESTANDING): its own entry point and system calls, no C library. Starting
 * a program linked to libc costs more than all this one does (the dynamic loader, or a
 * static libc's start-up): on this project's test machine an exec of a tiny program that
 * does nothing took about 0.55 ms with libc and 0.08 ms without, against the 9 ms of
 * the Python start-up that bin/utf8env is measured beside (benchmarks/bench_launch.py).
 * Elsewhere, the same program over the C library's calls (POSIX only).
 *
 * C99, no allocation that can fail silently, no buffer that a path can overflow: every
 * path is checked against its buffer. Exit 125 (the launcher's own failure) with one line
 * on stderr when nothing can be started.
 */
#include "start_code.h" /* START_CODE: scripts/start.py as a C string (the build writes it) */

#define COMPANION ".utf8env.py"
#define HIDDEN_PREFIX "UTF8ENV_HIDDEN_"
#define LAUNCHER_FAILED 125
#define MAX_PATH 4096   /* Linux's PATH_MAX */
#define MAX_LINKS 40    /* Linux's limit on symbolic links in one lookup */

/* -- the system: each call returns what the kernel does (>= 0, or -errno) -------------- */

#ifdef UTF8ENV_FREESTANDING

typedef unsigned long size_t;

/* The numbers of the calls and errors used: Linux's ABI for each architecture. */
#if defined(__x86_64__)
enum { SYS_read = 0, SYS_write = 1, SYS_close = 3, SYS_mmap = 9, SYS_rt_sigaction = 13,
       SYS_execve = 59, SYS_getcwd = 79, SYS_exit_group = 231, SYS_openat = 257,
       SYS_readlinkat = 267, SYS_faccessat = 269 };

static long system_call(long number, long a, long b, long c, long d, long e, long f)
{
    register long r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;
    long result;
    __asm__ volatile("syscall" : "=a"(result)
                     : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return result;
}

/* The kernel starts the program with the stack holding argc, argv..., NULL, envp...,
 * NULL; the ABI wants it 16-byte aligned at a call. */
__asm__(".text\n.global _start\n.type _start, @function\n_start:\n"
        "    xor %ebp, %ebp\n    mov %rsp, %rdi\n    and $-16, %rsp\n"
        "    call utf8env_entry\n    hlt\n");
#elif defined(__aarch64__)
enum { SYS_getcwd = 17, SYS_faccessat = 48, SYS_openat = 56, SYS_close = 57, SYS_read = 63,
       SYS_write = 64, SYS_readlinkat = 78, SYS_exit_group = 94, SYS_rt_sigaction = 134,
       SYS_execve = 221, SYS_mmap = 222 };

static long system_call(long number, long a, long b, long c, long d, long e, long f)
{
    register long x8 __asm__("x8") = number, x0 __asm__("x0") = a, x1 __asm__("x1") = b,
                  x2 __asm__("x2") = c, x3 __asm__("x3") = d, x4 __asm__("x4") = e,
                  x5 __asm__("x5") = f;
    __asm__ volatile("svc 0" : "+r"(x0)
                     : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                     : "memory", "cc");
    return x0;
}

__asm__(".text\n.global _start\n.type _start, %function\n_start:\n"
        "    mov x29, #0\n    mov x30, #0\n    mov x0, sp\n"
        "    bl utf8env_entry\n    brk #0\n");
#else
#error "the freestanding launcher knows x86_64 and aarch64 Linux; build it with the C library"
#endif

enum { E_PERM = 1, E_NOENT = 2, E_INTR = 4, E_IO = 5, E_2BIG = 7, E_NOEXEC = 8,
       E_AGAIN = 11, E_NOMEM = 12, E_ACCES = 13, E_NOTDIR = 20, E_ISDIR = 21, E_INVAL = 22,
       E_NFILE = 23, E_MFILE = 24, E_TXTBSY = 26, E_NAMETOOLONG = 36, E_LOOP = 40 };
#define AT_CWD (-100)
#define READ_ONLY_CLOSE_ON_EXEC 02000000    /* O_RDONLY | O_CLOEXEC */

static int launch(int argc, char **argv, char **envp);

/* Called by _start with the stack it was given; never returns. */
__attribute__((used, noreturn)) void utf8env_entry(long *stack)
{
    int argc = (int)stack[0];
    char **argv = (char **)(stack + 1);
    system_call(SYS_exit_group, launch(argc, argv, argv + argc + 1), 0, 0, 0, 0, 0);
    for (;;) {
    }
}

/* The compiler may call these for copies and initialisations (it does with any C). The
 * volatile keeps it from making their loops calls to themselves. */
void *memcpy(void *to, const void *from, size_t count)
{
    volatile char *t = to;
    const char *f = from;
    while (count--)
        *t++ = *f++;
    return to;
}

void *memmove(void *to, const void *from, size_t count)
{
    volatile char *t = to;
    const char *f = from;
    if ((const char *)t < f)
        return memcpy(to, from, count);
    while (count--)
        t[count] = f[count];
    return to;
}

void *memset(void *to, int value, size_t count)
{
    volatile unsigned char *t = to;
    while (count--)
        *t++ = (unsigned char)value;
    return to;
}

int memcmp(const void *a, const void *b, size_t count)
{
    const unsigned char *x = a, *y = b;
    for (; count--; x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}

static long sys_readlink(const char *path, char *out, size_t size)
{
    return system_call(SYS_readlinkat, AT_CWD, (long)path, (long)out, (long)size, 0, 0);
}

static long sys_open_read(const char *path)
{
    return system_call(SYS_openat, AT_CWD, (long)path, READ_ONLY_CLOSE_ON_EXEC, 0, 0, 0);
}

static long sys_read(int fd, char *out, size_t size)
{
    return system_call(SYS_read, fd, (long)out, (long)size, 0, 0, 0);
}

static void sys_close(int fd)
{
    system_call(SYS_close, fd, 0, 0, 0, 0, 0);
}

static long sys_write(int fd, const char *data, size_t size)
{
    return system_call(SYS_write, fd, (long)data, (long)size, 0, 0, 0);
}

static long sys_executable(const char *path)
{
    return system_call(SYS_faccessat, AT_CWD, (long)path, 1 /* X_OK */, 0, 0, 0);
}

static long sys_getcwd(char *out, size_t size)
{
    return system_call(SYS_getcwd, (long)out, (long)size, 0, 0, 0, 0);
}

/* 1 when `number` is ignored (SIG_IGN), 0 when not, -errno for no such signal. */
static long sys_ignored(int number)
{
    /* The kernel's struct sigaction begins with the handler; room for every layout. */
    unsigned long action[8] = {0};
    long result = system_call(SYS_rt_sigaction, number, 0, (long)action, 8, 0, 0);
    return result < 0 ? result : action[0] == 1 /* SIG_IGN */;
}

static long sys_execve(const char *path, char **argv, char **envp)
{
    return system_call(SYS_execve, (long)path, (long)argv, (long)envp, 0, 0, 0);
}

/* Zeroed memory, or 0. */
static void *sys_allocate(size_t size)
{
    long address = system_call(SYS_mmap, 0, (long)size, 3 /* PROT_READ | PROT_WRITE */,
                               0x22 /* MAP_PRIVATE | MAP_ANONYMOUS */, -1, 0);
    return address < 0 && address > -4096 ? (void *)0 : (void *)address;
}

/* The C library's words for the errors an exec or an open can give. */
static const char *error_text(long error)
{
    switch (error) {
    case E_PERM: return "Operation not permitted";
    case E_NOENT: return "No such file or directory";
    case E_IO: return "Input/output error";
    case E_2BIG: return "Argument list too long";
    case E_NOEXEC: return "Exec format error";
    case E_AGAIN: return "Resource temporarily unavailable";
    case E_NOMEM: return "Cannot allocate memory";
    case E_ACCES: return "Permission denied";
    case E_NOTDIR: return "Not a directory";
    case E_ISDIR: return "Is a directory";
    case E_INVAL: return "Invalid argument";
    case E_NFILE: return "Too many open files in system";
    case E_MFILE: return "Too many open files";
    case E_TXTBSY: return "Text file busy";
    case E_NAMETOOLONG: return "File name too long";
    case E_LOOP: return "Too many levels of symbolic links";
    default: return "Unknown error";
    }
}

#else /* the C library's calls */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

extern char **environ;

enum { E_INTR = EINTR, E_INVAL = EINVAL, E_NOMEM = ENOMEM, E_LOOP = ELOOP };

static int launch(int argc, char **argv, char **envp);

int main(int argc, char **argv)
{
    return launch(argc, argv, environ);
}

static long result_of(long result)
{
    return result < 0 ? -errno : result;
}

static long sys_readlink(const char *path, char *out, size_t size)
{
    return result_of(readlink(path, out, size));
}

static long sys_open_read(const char *path)
{
    return result_of(open(path, O_RDONLY | O_CLOEXEC));
}

static long sys_read(int fd, char *out, size_t size)
{
    return result_of(read(fd, out, size));
}

static void sys_close(int fd)
{
    close(fd);
}

static long sys_write(int fd, const char *data, size_t size)
{
    return result_of(write(fd, data, size));
}

static long sys_executable(const char *path)
{
    return result_of(access(path, X_OK));
}

static long sys_getcwd(char *out, size_t size)
{
    return getcwd(out, size) != NULL ? 0 : -errno;
}

static long sys_ignored(int number)
{
    struct sigaction action;
    if (sigaction(number, NULL, &action) != 0)
        return -errno;
    return action.sa_handler == SIG_IGN;
}

static long sys_execve(const char *path, char **argv, char **envp)
{
    execve(path, argv, envp);
    return -errno;
}

static void *sys_allocate(size_t size)
{
    return calloc(1, size);
}

static const char *error_text(long error)
{
    return strerror((int)error);
}

#endif

/* -- strings ----------------------------------------------------------------------------- */

static size_t length(const char *text)
{
    size_t n = 0;
    while (text[n])
        n++;
    return n;
}

static int starts_with(const char *text, const char *start)
{
    while (*start)
        if (*text++ != *start++)
            return 0;
    return 1;
}

static int same(const char *a, const char *b)
{
    return length(a) == length(b) && starts_with(a, b);
}

/* Appends `text` to the string in out[size]; 0 when it does not fit (out unchanged). */
static int append(char *out, size_t size, const char *text)
{
    size_t have = length(out), add = length(text), i;
    if (have + add >= size)
        return 0;
    for (i = 0; i <= add; i++)
        out[have + i] = text[i];
    return 1;
}

/* -- the launcher ------------------------------------------------------------------------ */

static const char *const kept_aside[] = {"PYTHONMALLOC", "PYTHONMALLOCSTATS", "PYTHONHASHSEED"};
#define KEPT_ASIDE (sizeof kept_aside / sizeof kept_aside[0])

static int fail(const char *what, const char *why)
{
    /* One write: the line arrives whole. A closed stderr: the status still tells. */
    char message[MAX_PATH + 256] = "utf8env: error: ";
    if (!append(message, sizeof message, what))
        append(message, sizeof message, "utf8env");
    append(message, sizeof message, ": ");
    append(message, sizeof message, why);
    append(message, sizeof message, " (reinstall utf8env)\n");
    sys_write(2, message, length(message));
    return LAUNCHER_FAILED;
}

/* `path` made absolute, its final symbolic links followed (a pipx link to the command):
 * the folder of `out` is then the folder of the real file. 0 on success. */
static int real_file(const char *path, char *out, size_t size)
{
    char target[MAX_PATH];
    int links;
    out[0] = '\0';
    if (path[0] != '/' && (sys_getcwd(out, size) < 0 || !append(out, size, "/")))
        return -1;
    if (!append(out, size, path))
        return -1;
    for (links = 0; links < MAX_LINKS; links++) {
        long got = sys_readlink(out, target, sizeof target - 1);
        if (got == -E_INVAL)
            return 0;               /* not a link: the file itself */
        if (got < 0)
            return -1;
        target[got] = '\0';
        if (target[0] == '/')
            out[0] = '\0';
        else {
            size_t slash = length(out);
            while (out[slash - 1] != '/')
                slash--;
            out[slash] = '\0';      /* a relative target: from the link's folder */
        }
        if (!append(out, size, target))
            return -1;
    }
    return -1;
}

static const char *variable(char **envp, const char *name_equals)
{
    for (; *envp != 0; envp++)
        if (starts_with(*envp, name_equals))
            return *envp + length(name_equals);
    return 0;
}

/* The real path of this program: /proc/self/exe, else argv[0] when it holds a slash
 * (no /proc, as in a bare chroot); a command found on PATH without /proc is looked up
 * there as a shell would. 0 on success. */
static int own_path(const char *argv0, char **envp, char *out, size_t size)
{
    static const char deleted[] = " (deleted)";
    long got = sys_readlink("/proc/self/exe", out, size - 1);
    const char *path, *slash;
    if (got > 0) {
        out[got] = '\0';
        /* Replaced while running (an upgrade): the name still says where the bin folder is. */
        if ((size_t)got > length(deleted) && same(out + got - length(deleted), deleted))
            out[got - length(deleted)] = '\0';
        return 0;
    }
    if (argv0 == 0)
        return -1;
    for (slash = argv0; *slash && *slash != '/'; slash++) {
    }
    if (*slash == '/')
        return real_file(argv0, out, size);
    for (path = variable(envp, "PATH="); path != 0;) {
        char candidate[MAX_PATH] = "";
        size_t folder = 0;
        while (path[folder] && path[folder] != ':')
            folder++;
        if (folder == 0)
            append(candidate, sizeof candidate, ".");
        else if (folder < sizeof candidate) {
            size_t i;
            for (i = 0; i < folder; i++)
                candidate[i] = path[i];
            candidate[folder] = '\0';
        }
        if (candidate[0] && append(candidate, sizeof candidate, "/")
                && append(candidate, sizeof candidate, argv0)
                && sys_executable(candidate) == 0 && real_file(candidate, out, size) == 0)
            return 0;
        path = path[folder] == ':' ? path + folder + 1 : 0;
    }
    return -1;
}

/* The first line of the companion, without its newline, into `line`. 0 on success. */
static int first_line(const char *companion, char *line, size_t size)
{
    long got, total = 0, fd = sys_open_read(companion), i;
    if (fd < 0)
        return -1;
    line[0] = '\0';
    while ((size_t)total < size - 1) {
        got = sys_read((int)fd, line + total, size - 1 - total);
        if (got == -E_INTR)
            continue;
        if (got <= 0)
            break;
        for (i = total; i < total + got; i++)
            if (line[i] == '\n') {
                line[i] = '\0';
                sys_close((int)fd);
                return 0;
            }
        total += got;
    }
    sys_close((int)fd);
    line[total] = '\0';
    /* Longer than any interpreter path: not a plain one. */
    return (size_t)total == size - 1 ? -1 : 0;
}

/* The mask of ignored signals, as /proc/self/stat's sigignore field writes it (proc(5)):
 * bit N-1 for signal N, in decimal. */
static void ignored_signals(char *out)
{
    unsigned long long mask = 0;
    char digits[24];
    int number, n = 0;
    for (number = 1; number <= 64; number++)
        if (sys_ignored(number) == 1)
            mask |= 1ULL << (number - 1);
    do {
        digits[n++] = (char)('0' + mask % 10);
        mask /= 10;
    } while (mask);
    while (n)
        *out++ = digits[--n];
    *out = '\0';
}

/* The index in kept_aside of the variable `entry` (NAME=value) sets, or -1. */
static int kept_aside_index(const char *entry)
{
    size_t i;
    for (i = 0; i < KEPT_ASIDE; i++)
        if (starts_with(entry, kept_aside[i]) && entry[length(kept_aside[i])] == '=')
            return (int)i;
    return -1;
}

static int launch(int argc, char **argv, char **envp)
{
    char self[MAX_PATH], companion[MAX_PATH + sizeof COMPANION] = "", line[MAX_PATH + 3];
    char ignored[24], hidden[64] = "";
    const char *interpreter;
    char **env = envp, **args;
    size_t count = 0, i, slash;
    long error;
    int kept = 0, n;

    if (own_path(argc > 0 ? argv[0] : 0, envp, self, sizeof self) != 0)
        return fail(argc > 0 && argv[0] ? argv[0] : "utf8env", "cannot find its own folder");
    for (slash = length(self); self[slash - 1] != '/'; slash--) {
    }                                  /* an absolute path: there is a slash */
    self[slash] = '\0';
    append(companion, sizeof companion, self);
    append(companion, sizeof companion, COMPANION);

    /* interpreter, -I, -S, -c, code, companion, mask, kept names, argv[1:], NULL: argc + 8,
     * and one more for an empty argv (argc 0, which older kernels pass on). */
    args = sys_allocate(((size_t)argc + 9) * sizeof *args);
    if (args == 0)
        return fail(companion, error_text(E_NOMEM));

    if (first_line(companion, line, sizeof line) != 0)
        return fail(companion, "cannot be read");
    /* pip writes the interpreter's path alone, spaces and colons included (a #! line cannot
     * start such a path, this can). Anything else (the /bin/sh form some installers write
     * for a path too long for the kernel, a #! line with arguments): the usual start. */
    interpreter = starts_with(line, "#!") ? line + 2 : line;
    if (interpreter[0] == '/' && !same(interpreter, "/bin/sh")
            && sys_executable(interpreter) == 0) {
        ignored_signals(ignored);
        while (env[count] != 0)
            count++;
        for (i = 0; i < count; i++)
            if ((n = kept_aside_index(env[i])) >= 0)
                kept |= 1 << n;
        if (kept) {
            /* A copy with the kept variables renamed, first: the first of two entries of one
             * name is the one getenv() and utf8env read, so a UTF8ENV_HIDDEN_NAME the
             * environment already had cannot stand for the value kept aside. */
            char **copy = sys_allocate((count + 1) * sizeof *copy), **next;
            if (copy == 0)
                return fail(companion, error_text(E_NOMEM));
            next = copy;
            for (i = 0; i < count; i++)
                if (kept_aside_index(env[i]) >= 0) {
                    size_t size = length(HIDDEN_PREFIX) + length(env[i]) + 1;
                    *next = sys_allocate(size);
                    if (*next == 0)
                        return fail(companion, error_text(E_NOMEM));
                    append(*next, size, HIDDEN_PREFIX);
                    append(*next++, size, env[i]);
                }
            for (i = 0; i < count; i++)
                if (kept_aside_index(env[i]) < 0)
                    *next++ = env[i];
            env = copy;
            for (n = 0; n < (int)KEPT_ASIDE; n++)
                if (kept & (1 << n)) {
                    append(hidden, sizeof hidden, " ");
                    append(hidden, sizeof hidden, kept_aside[n]);
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
        sys_execve(interpreter, args, env);
        /* Not startable after all (a foreign binary, a full process table): the usual start. */
    }
    args[0] = companion;
    for (n = 1; n < argc; n++)
        args[n] = argv[n];
    args[argc > 0 ? argc : 1] = 0;
    error = sys_execve(companion, args, envp);
    return fail(companion, error_text(-error));
}
