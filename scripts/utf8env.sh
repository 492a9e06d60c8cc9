#!/bin/sh
# utf8env's command where no C compiler built scripts/launcher.c: the interpreter of its
# installation, started with -I -S.
#
# A console script that pip generates starts with the site module, which runs the code
# of every .pth file in site-packages (tens of milliseconds on some machines) before a
# line of utf8env runs, and lets PYTHON* variables (an invalid PYTHONUTF8, say) stop
# the launcher before it starts. Instead, from the real folder of this file (a link to
# it, as pipx makes, is followed), the installation it belongs to: ../lib/pythonX.Y whose
# site-packages (dist-packages: Debian's /usr/local) holds this version's metadata, the
# highest X.Y where several do; and its interpreter: in a venv (../pyvenv.cfg) the venv's
# own pythonX.Y, python3 or python; elsewhere (a prefix, --user's ~/.local) pythonX.Y
# here, else on PATH. scripts/launcher.c takes the same steps.
#
# What a shell cannot help: it passes on only the variables whose names are shell
# identifiers (dash drops spring.profiles.active at start-up) and sets PWD. The compiled
# launcher, which does the same steps, has neither limit.
self=$0
if [ -h "$self" ]; then
    self=$(readlink -f -- "$self") || self=$0     # pipx links bin/utf8env from elsewhere
fi
case $self in
    */*) here=${self%/*} ;;
    *) here=. ;;
esac
version='@VERSION@'     # the package's __version__: the build writes it
lib=
for candidate in "$here"/../lib/python*; do
    x_y=${candidate##*/python}
    case $x_y in
        [0-9]*.[0-9]*) ;;
        *) continue ;;
    esac
    case $x_y in
        *[!0-9.]* | *.*.*) continue ;;
    esac
    if [ -n "$lib" ] && { [ "${x_y%.*}" -lt "${best%.*}" ] || { [ "${x_y%.*}" -eq "${best%.*}" ] &&
            [ "${x_y#*.}" -le "${best#*.}" ]; }; }; then
        continue
    fi
    for packages in site-packages dist-packages; do
        if [ -d "$candidate/$packages/utf8env-$version.dist-info" ] ||
                [ -d "$candidate/$packages/utf8env-$version-py$x_y.egg-info" ]; then
            lib=$candidate best=$x_y
        fi
    done
done
if [ -z "$lib" ]; then  # copied alone (into /usr/local/bin, say): a link finds it, a copy not
    echo "utf8env: error: no utf8env $version in $here/../lib/pythonX.Y/site-packages or dist-packages: the utf8env command works where pip installed it; link to it (ln -s) rather than copy it" >&2
    exit 125
fi
interpreter=
if [ -e "$here/../pyvenv.cfg" ]; then
    for candidate in "$here/python$best" "$here/python3" "$here/python"; do
        [ -x "$candidate" ] && interpreter=$candidate && break
    done
    [ -n "$interpreter" ] || {
        echo "utf8env: error: $here: no python$best, python3 or python (the venv's interpreter)" >&2
        exit 125
    }
elif [ -x "$here/python$best" ]; then
    interpreter=$here/python$best
else
    rest=${PATH+$PATH:}     # as a shell looks a name up: an empty entry is this folder
    while [ -n "$rest" ] && [ -z "$interpreter" ]; do
        candidate=${rest%%:*}
        rest=${rest#*:}
        [ -x "${candidate:-.}/python$best" ] && interpreter=${candidate:-.}/python$best
    done
    [ -n "$interpreter" ] || {
        echo "utf8env: error: no python$best in $here or on PATH (utf8env is installed for it in $lib)" >&2
        exit 125
    }
fi
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
' "$self" "$lib" "" "$ignored" "" "$kept" "$@"
