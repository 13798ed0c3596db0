# SPDX-License-Identifier: MIT
# bash completion of gridstride: its commands, and the options of the
# command being typed, read from that command's own --help (so it never
# lists an option the command does not take). Installed by cmake --install
# into share/bash-completion/completions/gridstride.
_gridstride()
{
    local cur prev cmd words_help
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=table
    if [ "$COMP_CWORD" -gt 1 ]; then
        case ${COMP_WORDS[1]} in
            table|bandwidth|pitfalls|trace|check|compare|lecture) cmd=${COMP_WORDS[1]} ;;
        esac
    fi
    case $prev in
        --backend)
            COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" --version 2>/dev/null |
                sed -n 's/^backends compiled in: \([^(]*\).*/\1/p' | tr -d ',') all" -- "$cur"))
            return ;;
        --format)
            COMPREPLY=($(compgen -W "text md csv json ctest-resources" -- "$cur"))
            return ;;
        --type)
            COMPREPLY=($(compgen -W "float double" -- "$cur"))
            return ;;
        --output|--json|--svg|--html|--ncu)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --sizes)
            [ "$cmd" = check ] && COMPREPLY=($(compgen -W "traps" -- "$cur"))
            return ;;
        --device|--shape|--grid|--block|--kernels|--bytes|--reps|--entry|--arch|\
        --watchdog|--timeout|--traps|--n|--tolerance|--k|--min-speed)
            return ;;
    esac
    if [[ $cur == -* ]]; then
        words_help=$("${COMP_WORDS[0]}" "$cmd" --help 2>/dev/null |
            sed -n 's/^  \(--[a-z-]*\).*/\1/p')
        COMPREPLY=($(compgen -W "$words_help -h" -- "$cur"))
    elif [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "table bandwidth pitfalls trace check compare lecture" -- "$cur"))
    elif [ "$cmd" = check ]; then
        COMPREPLY=($(compgen -f -X '!*.@(cu|cl|gs)' -- "$cur") $(compgen -d -- "$cur"))
    elif [ "$cmd" = compare ]; then
        COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
    fi
}
complete -F _gridstride gridstride
