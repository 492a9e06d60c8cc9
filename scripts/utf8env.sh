#!/bin/sh
# utf8env's command where no C compiler built scripts/launcher.c: the interpreter that
# installed utf8env, started with -I -S.
#
# A console script that pip generates starts with the site module, which runs the code
# of every .pth file in site-packages (tens of milliseconds on some machines) before a
# line of utf8env runs, and lets PYTHON* variables (an invalid PYTHONUTF8, say) stop
# the launcher before it starts. The interpreter is the one pip wrote on the first line
# of the companion .utf8env.py when it installed it. Without site the package is found
# where the installer put it in the scheme of this folder: for every POSIX scheme (a
# venv, pipx, --user, a prefix) ../lib/pythonX.Y/site-packages, or dist-packages for
# Debian's /usr/local. Anywhere else (an editable install, PYTHONPATH) the companion
# starts the usual way, as an ordinary console script.
#
# What a shell cannot help: it passes on only the variables whose names are shell
# identifiers (dash drops spring.profiles.active at start-up) and sets PWD. The compiled
# launcher, which does the same steps, has neither limit.
here=$0
if [ -h "$here" ]; then
    here=$(readlink -f -- "$here") || here=$0     # pipx links bin/utf8env from elsewhere
fi
case $here in
    */*) here=${here%/*} ;;
    *) here=. ;;
esac
main=$here/.utf8env.py
{ IFS= read -r interpreter < "$main"; } 2>/dev/null || {
    if [ -e "$main" ]; then
        echo "utf8env: error: $main: cannot be read (reinstall utf8env)" >&2
    else    # copied alone (into /usr/local/bin, say): a link finds the companion, a copy not
        echo "utf8env: error: $main: not found: the utf8env command works beside its companion; link to it (ln -s) rather than copy it" >&2
    fi
    exit 125
}
interpreter=${interpreter#\#!}
# pip writes the interpreter's path alone, spaces and colons included (a #! line cannot
# start such a path, this stub can). Anything else (the /bin/sh form some installers write
# for a path too long for the kernel, a #! line with arguments): the usual start.
case $interpreter in
    /bin/sh | [!/]* | '') exec "$main" "$@" ;;
esac
[ -x "$interpreter" ] || exec "$main" "$@"
# The signals ignored on entry, before CPython ignores SIGPIPE and SIGXFSZ for itself:
# `run` gives the command the dispositions it would have had without utf8env (a systemd
# service is started with SIGPIPE ignored, a shell's command with it at its default).
# /proc/self/stat is one line (the shell reads it a byte at a time): after the command
# name in parentheses, its 31st field is the mask of ignored signals, in decimal (proc(5)).
sigignore() { shift 30 && ignored=$1; }     # a function: "$@" (the arguments) stays as it is
ignored=
{ IFS= read -r stat < /proc/self/stat; } 2>/dev/null && sigignore ${stat##*) }
# What utf8env's own interpreter must not see (scripts/launcher.c says why): the locale,
# PYTHONCOERCECLOCALE, and the three variables 3.6 reads even under -I. Each goes before
# the arguments as NAME=value (utf8env/_cli.py start() takes them back), and LC_ALL=C stands in.
kept=0
set -- 0 "$@"       # no answers to the locale question: Python asks (after the kept entries)
for name in PYTHONHASHSEED PYTHONMALLOCSTATS PYTHONMALLOC PYTHONCOERCECLOCALE LANG LC_CTYPE LC_ALL; do
    eval "set=\${$name+x}"
    if [ -n "$set" ]; then
        eval "set -- \"$name=\$$name\" \"\$@\""
        unset "$name"
        kept=$((kept + 1))
    fi
done
export LC_ALL=C
# The code every form of the command starts Python with (scripts/start.py); the build
# writes it in place of the line below. No plan descriptor: Python execs the command.
exec "$interpreter" -I -S -c '
@START_CODE@
' "$main" "" "$ignored" "" "$kept" "$@"
