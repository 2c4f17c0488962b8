#!/usr/bin/env bash
# The man page and the shell completions that ci/install.sh installs: the page renders without
# a warning and names every option each command's --help lists; the bash completion completes
# commands, options, golden's subcommands and engine names (a plugin's too, under its prefix);
# the zsh one parses where zsh is.
# argv: cellcheck cellcheck.1 cellcheck.bash _cellcheck plugin.so
set -u
tool="$1" page="$2" bash_completion="$3" zsh_completion="$4" plugin="$5"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Rendered by groff where it is (a warning fails: -ww -z), else its structure checked.
for section in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" ENVIRONMENT; do
    grep -q "^\.SH \"\{0,1\}$section\"\{0,1\}$" "$page" || fail "the man page has no $section section"
done
grep -q '^\.TH CELLCHECK 1 ' "$page" || fail "the man page has no .TH line"
if command -v groff >/dev/null; then
    warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
    [ -z "$warnings" ] || fail "groff warns: $warnings"
    rendered=$(groff -man -Tascii -P -cbou "$page" 2>/dev/null)
    grep -q "^SYNOPSIS" <<<"$rendered" || fail "the rendered page has no SYNOPSIS"
    grep -q "cellcheck \[--plugin PATH\[:PREFIX\]\]\.\.\. COMMAND" <<<"$rendered" ||
        fail "the rendered synopsis: $(grep -A2 '^SYNOPSIS' <<<"$rendered")"
else
    echo "groff absent: the page's structure only"
fi
# Every option a command's --help lists is in the page, as roff writes it (\-\-name).
for command in list run check certify "golden verify" bench gate ranks; do
    # shellcheck disable=SC2086 # "golden verify" is two words
    for option in $("$tool" $command --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
        [ "$option" = --help ] && continue
        grep -qF -- "$(sed 's/-/\\-/g' <<<"$option")" "$page" ||
            fail "the man page does not name $command's $option"
    done
done

# bash: the completion function called as bash calls it.
# shellcheck disable=SC1090 # the file under test
source "$bash_completion"
complete_words() { # the words of the line; the last is completed
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMPREPLY=()
    _cellcheck
    printf '%s\n' "${COMPREPLY[@]}" | sort
}
got=$(complete_words "$tool" "")
for want in list run check certify golden bench gate --plugin --version; do
    grep -qx -- "$want" <<<"$got" || fail "bash: '$want' is not among the commands: $(tr '\n' ' ' <<<"$got")"
done
got=$(complete_words "$tool" ce)
[ "$got" = certify ] || fail "bash: 'ce' completes to '$got', not certify"
got=$(complete_words "$tool" check --engine cpu.)
grep -qx cpu.ref <<<"$got" || fail "bash: check --engine cpu. lacks cpu.ref: $(tr '\n' ' ' <<<"$got")"
! grep -qv '^cpu\.' <<<"$got" || fail "bash: check --engine cpu. offers $(tr '\n' ' ' <<<"$got")"
got=$(complete_words "$tool" --plugin "$plugin:twin" check --engine tw)
[ "$got" = twin.example.threshold ] || fail "bash: a plugin's engine under its prefix: '$got'"
got=$(complete_words "$tool" certify --out)
[ "$got" = --out-dir ] || fail "bash: certify --out completes to '$got'"
got=$(complete_words "$tool" check --report)
[ "$got" = --report-dir ] || fail "bash: check --report completes to '$got'"
got=$(complete_words "$tool" golden "")
[ "$(tr '\n' ' ' <<<"$got")" = "update verify " ] || fail "bash: golden's subcommands: '$got'"
got=$(complete_words "$tool" check --sandbox "")
[ "$(tr '\n' ' ' <<<"$got")" = "off on " ] || fail "bash: --sandbox's values: '$got'"

# zsh: the completion parses.
if command -v zsh >/dev/null; then
    zsh -n "$zsh_completion" || fail "zsh cannot parse $zsh_completion"
else
    echo "zsh absent: its completion not parsed"
fi
grep -q '^#compdef cellcheck cellcheck-conformance cellcheck-golden$' "$zsh_completion" ||
    fail "the zsh completion does not say which commands it completes"

[ "$failures" -eq 0 ] && echo "man_completion_test: passed" || echo "man_completion_test: $failures failed"
[ "$failures" -eq 0 ]
