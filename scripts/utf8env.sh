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
# Every variable of its own is named utf8env_*: a variable of the user's environment
# that it set would reach the command changed.
#
# What a shell cannot help: it passes on only the variables whose names are shell
# identifiers (dash drops spring.profiles.active at start-up) and sets PWD. The compiled
# launcher, which does the same steps, has neither limit.
utf8env_self=$0
if [ -h "$utf8env_self" ]; then
    # pipx links bin/utf8env from elsewhere
    utf8env_self=$(readlink -f -- "$utf8env_self") || utf8env_self=$0
fi
case $utf8env_self in
    */*) utf8env_here=${utf8env_self%/*} ;;
    *) utf8env_here=. ;;
esac
utf8env_version='@VERSION@'     # the package's __version__: the build writes it
utf8env_lib=
for utf8env_candidate in "$utf8env_here"/../lib/python*; do
    utf8env_x_y=${utf8env_candidate##*/python}
    case $utf8env_x_y in
        [0-9]*.[0-9]*) ;;
        *) continue ;;
    esac
    case $utf8env_x_y in
        *[!0-9.]* | *.*.*) continue ;;
    esac
    if [ -n "$utf8env_lib" ] && { [ "${utf8env_x_y%.*}" -lt "${utf8env_best%.*}" ] ||
            { [ "${utf8env_x_y%.*}" -eq "${utf8env_best%.*}" ] &&
              [ "${utf8env_x_y#*.}" -le "${utf8env_best#*.}" ]; }; }; then
        continue    # not above the highest found
    fi
    for utf8env_packages in site-packages dist-packages; do
        utf8env_metadata=$utf8env_candidate/$utf8env_packages/utf8env-$utf8env_version
        if [ -d "$utf8env_metadata.dist-info" ] ||
                [ -d "$utf8env_metadata-py$utf8env_x_y.egg-info" ]; then
            utf8env_lib=$utf8env_candidate utf8env_best=$utf8env_x_y
        fi
    done
done
# Copied alone (into /usr/local/bin, say): a link finds its installation, a copy not.
if [ -z "$utf8env_lib" ]; then
    echo "utf8env: error: no utf8env $utf8env_version in $utf8env_here/../lib/pythonX.Y/site-packages or dist-packages: the utf8env command works where pip installed it; link to it (ln -s) rather than copy it" >&2
    exit 125
fi
utf8env_interpreter=
if [ -e "$utf8env_here/../pyvenv.cfg" ]; then
    for utf8env_candidate in "$utf8env_here/python$utf8env_best" "$utf8env_here/python3" \
            "$utf8env_here/python"; do
        [ -x "$utf8env_candidate" ] && utf8env_interpreter=$utf8env_candidate && break
    done
    [ -n "$utf8env_interpreter" ] || {
        echo "utf8env: error: $utf8env_here: no python$utf8env_best, python3 or python (the venv's interpreter)" >&2
        exit 125
    }
elif [ -x "$utf8env_here/python$utf8env_best" ]; then
    utf8env_interpreter=$utf8env_here/python$utf8env_best
else
    utf8env_rest=${PATH+$PATH:}     # as a shell looks a name up: an empty entry is this folder
    while [ -n "$utf8env_rest" ] && [ -z "$utf8env_interpreter" ]; do
        utf8env_candidate=${utf8env_rest%%:*}
        utf8env_rest=${utf8env_rest#*:}
        utf8env_candidate=${utf8env_candidate:-.}/python$utf8env_best
        [ -x "$utf8env_candidate" ] && utf8env_interpreter=$utf8env_candidate
    done
    [ -n "$utf8env_interpreter" ] || {
        echo "utf8env: error: no python$utf8env_best in $utf8env_here or on PATH (utf8env is installed for it in $utf8env_lib)" >&2
        exit 125
    }
fi
# The signals ignored on entry, before CPython ignores SIGPIPE and SIGXFSZ for itself:
# `run` gives the command the dispositions it would have had without utf8env (a systemd
# service is started with SIGPIPE ignored, a shell's command with it at its default).
# /proc/self/stat is one line (the shell reads it a byte at a time): after the command
# name in parentheses, its 31st field is the mask of ignored signals, in decimal (proc(5)).
# A function: "$@" (the arguments) stays as it is.
utf8env_sigignore() { shift 30 && utf8env_ignored=$1; }
utf8env_ignored=
{ IFS= read -r utf8env_stat < /proc/self/stat; } 2>/dev/null && utf8env_sigignore ${utf8env_stat##*) }
# What utf8env's own interpreter must not see (scripts/launcher.c says why): the locale,
# PYTHONCOERCECLOCALE, and the three variables 3.6 reads even under -I. Each goes before
# the arguments as NAME=value (utf8env/_cli.py start() takes them back), and LC_ALL=C stands in.
utf8env_kept=0
set -- 0 "$@"       # no answers to the locale question: Python asks (after the kept entries)
for utf8env_name in PYTHONHASHSEED PYTHONMALLOCSTATS PYTHONMALLOC PYTHONCOERCECLOCALE LANG \
        LC_CTYPE LC_ALL; do
    eval "utf8env_set=\${$utf8env_name+x}"
    if [ -n "$utf8env_set" ]; then
        eval "set -- \"$utf8env_name=\$$utf8env_name\" \"\$@\""
        unset "$utf8env_name"
        utf8env_kept=$((utf8env_kept + 1))
    fi
done
export LC_ALL=C
# The code every form of the command starts Python with (scripts/start.py); the build
# writes it in place of the line below. No plan descriptor: Python execs the command.
exec "$utf8env_interpreter" -I -S -c '
@START_CODE@
' "$utf8env_self" "$utf8env_lib" "" "$utf8env_ignored" "" "$utf8env_kept" "$@"
