# bash completion for syncscope (installed as share/bash-completion/completions/syncscope).
# Commands, options and formats are read from the installed command's own --help, rule IDs and
# names from `syncscope rules`, so the completion follows the command it completes.

# The commands listed by `syncscope --help`.
_syncscope_commands()
{
    "$1" --help 2>/dev/null | sed -n '/^commands:$/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p'
}

# The options of command $2, from the lines of its --help that start with an option (two
# blanks, then a dash; the wrapped lines of a description are indented further).
_syncscope_options()
{
    local line word
    "$1" "$2" --help 2>/dev/null | while IFS= read -r line; do
        [[ $line == "  -"* ]] || continue
        for word in $line; do
            word=${word%,}
            word=${word%%=*}
            [[ $word == -?* && $word != -- ]] || break
            printf '%s\n' "$word"
        done
    done
}

# The formats command $2 writes: the first parenthesis of its --help's --format entry that is
# a list of names ("(text, json, sarif, github, html or gitlab)", written from
# report/formats.def), so that a format added there is completed too.
_syncscope_formats()
{
    "$1" "$2" --help 2>/dev/null | awk '
        /^  -/ { inside = $1 == "--format" }
        inside { text = text " " $0 }
        END {
            gsub(/[ \t]+/, " ", text)
            while (match(text, /\([a-z][a-z, ]*\)/)) {
                list = substr(text, RSTART + 1, RLENGTH - 2)
                text = substr(text, RSTART + RLENGTH)
                if (list ~ /^[a-z]+((, | or )[a-z]+)*$/) {
                    gsub(/,| or /, " ", list)
                    print list
                    exit
                }
            }
        }'
}

# Rule IDs and names, from `syncscope rules`.
_syncscope_rules()
{
    "$1" rules 2>/dev/null | while read -r id name _; do
        printf '%s\n%s\n' "$id" "$name"
    done
}

_syncscope()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev= tool=${COMP_WORDS[0]} i
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "$(_syncscope_commands "$tool") --help --version" -- "$cur"))
        return 0
    fi
    local command=${COMP_WORDS[1]}
    # `syncscope help COMMAND` is `syncscope COMMAND --help`.
    if [[ $command == help ]]; then
        ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "$(_syncscope_commands "$tool")" -- "$cur"))
        return 0
    fi
    # After `run ... --` come the program and its arguments: commands, then files.
    for ((i = 2; i < COMP_CWORD; i++)); do
        if [[ $command == run && ${COMP_WORDS[i]} == -- ]]; then
            ((i + 1 == COMP_CWORD)) && COMPREPLY=($(compgen -c -- "$cur" | LC_ALL=C sort -u))
            return 0
        fi
    done
    case $prev in
    --format)
        COMPREPLY=($(compgen -W "$(_syncscope_formats "$tool" "$command")" -- "$cur"))
        return 0
        ;;
    --fail-on)
        COMPREPLY=($(compgen -W "note warning error none" -- "$cur"))
        return 0
        ;;
    --color)
        COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
        return 0
        ;;
    --profile-from-start)
        COMPREPLY=($(compgen -W "on off" -- "$cur"))
        return 0
        ;;
    --enable | --disable | --severity)
        COMPREPLY=($(compgen -W "$(_syncscope_rules "$tool")" -- "$cur"))
        return 0
        ;;
    -p | --cache-dir | --cuda-path | --root)
        COMPREPLY=($(compgen -d -- "$cur"))
        return 0
        ;;
    esac
    if [[ $command == explain ]]; then
        COMPREPLY=($(compgen -W "$(_syncscope_rules "$tool")" -- "$cur"))
        return 0
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_syncscope_options "$tool" "$command")" -- "$cur"))
        return 0
    fi
    # Anything else is a file or a folder: bash's own completion (complete -o default).
    return 0
}

complete -o default -F _syncscope syncscope
