# bash completion for cellcheck and its drivers, installed by ci/install.sh under
# PREFIX/share/bash-completion/completions. Commands, each command's options and the engine names
# come from the tool itself (--help, list), so they follow the version installed and the plugins
# named on the command line (--plugin PATH[:PREFIX]).

# The --plugin words before the current one, for the tool's own list of engines.
_cellcheck_plugin_args() {
    local i
    _cellcheck_plugins=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
        --plugin) [ $((i + 1)) -lt "$COMP_CWORD" ] && _cellcheck_plugins+=(--plugin "${COMP_WORDS[i + 1]}") ;;
        --plugin=*) _cellcheck_plugins+=("${COMP_WORDS[i]}") ;;
        esac
    done
}

# The engines the tool knows with those plugins: the first word of each row of `list`.
_cellcheck_engines() {
    _cellcheck_plugin_args
    "${1:-cellcheck}" "${_cellcheck_plugins[@]}" list 2>/dev/null |
        awk 'NR > 1 && /^[A-Za-z0-9][A-Za-z0-9._+-]* / { print $1 }'
}

# The options a command's --help names.
_cellcheck_options() {
    "$@" --help 2>/dev/null | grep -oE -- '--[a-z][a-z-]*' | sort -u
}

_cellcheck() {
    local cur prev tool=${COMP_WORDS[0]} i command="" sub=""
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    local commands="list run check certify golden bench gate ranks help"
    # The command: the first word after the --plugin options.
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
        --plugin) i=$((i + 1)) ;;
        --plugin=*) ;;
        *)
            if [ -z "$command" ]; then command=${COMP_WORDS[i]}
            elif [ "$command" = golden ] && [ -z "$sub" ]; then sub=${COMP_WORDS[i]}
            fi
            ;;
        esac
    done
    case "$prev" in
    --plugin)
        mapfile -t COMPREPLY < <(compgen -f -X '!*.so*' -- "$cur"; compgen -d -- "$cur")
        return
        ;;
    --engine | --reference)
        mapfile -t COMPREPLY < <(compgen -W "$(_cellcheck_engines "$tool")" -- "$cur")
        return
        ;;
    --in | --out | --catalogue | --junit | --baselines)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return
        ;;
    --out-dir | --report-dir | --dir | --merge | --rendezvous)
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        return
        ;;
    --sandbox)
        mapfile -t COMPREPLY < <(compgen -W "on off" -- "$cur")
        return
        ;;
    --huge-grid)
        mapfile -t COMPREPLY < <(compgen -W "auto gpu on off" -- "$cur")
        return
        ;;
    esac
    if [ -z "$command" ]; then
        mapfile -t COMPREPLY < <(compgen -W "$commands --plugin --version --help -V" -- "$cur")
        return
    fi
    if [ "$command" = golden ] && [ -z "$sub" ]; then
        mapfile -t COMPREPLY < <(compgen -W "verify update" -- "$cur")
        return
    fi
    if [[ "$cur" == -* ]]; then
        local words
        words=$(_cellcheck_options "$tool" $command $sub)
        mapfile -t COMPREPLY < <(compgen -W "$words --help" -- "$cur")
    fi
}

# cellcheck-conformance and cellcheck-golden: --plugin, --engine, then the driver's options.
_cellcheck_driver() {
    local cur prev tool=${COMP_WORDS[0]}
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    case "$prev" in
    --plugin)
        mapfile -t COMPREPLY < <(compgen -f -X '!*.so*' -- "$cur"; compgen -d -- "$cur")
        return
        ;;
    --engine)
        # The driver lists no engines: the tool beside it does, with the same plugins.
        local beside
        beside="$(dirname "$(command -v "$tool" 2>/dev/null || echo "$tool")")/cellcheck"
        [ -x "$beside" ] || beside=cellcheck
        mapfile -t COMPREPLY < <(compgen -W "$(_cellcheck_engines "$beside")" -- "$cur")
        return
        ;;
    --report-dir)
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        return
        ;;
    esac
    if [[ "$cur" == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_cellcheck_options "$tool") --plugin --engine" -- "$cur")
    fi
}

complete -F _cellcheck cellcheck
complete -F _cellcheck_driver cellcheck-conformance cellcheck-golden
