# bash completion for hprun(1): the subcommands, each subcommand's options, the values of the
# options that take a fixed set, plans (.yaml) for run and check, folders (and summary.json) for
# report and compare. `make install` puts it in share/bash-completion/completions/hprun, where
# bash-completion loads it the first time `hprun` is completed; or source it from ~/.bashrc.
#
# The option lists are written out here, not read from `hprun CMD --help` at each Tab, so that a
# Tab costs no process. tests/e2e/test_install.sh fails when an option of any `--help` is missing
# from them, so they cannot drift apart.

_hprun_commands="run check summarize report compare peaks help"
_hprun_opts_global="-V --version" # with those of run: `hprun --dry-run plan.yaml` runs
_hprun_opts_run="-h --help -n --dry-run -q --quiet --show-output -v --verbose --output -r --repeat --grace --keep-going --strict --junit --markdown --ascii --bars --tool --mode --metric --print-plan"
_hprun_opts_check="-h --help --no-preflight"
_hprun_opts_summarize="-h --help --format --top --categories --wide --quiet-warnings --roofline --peaks --metrics --region -j --jobs"
_hprun_opts_report="-h --help --format --junit --markdown --html --ascii --bars --top"
_hprun_opts_peaks="-h --help --binary --vendor --vendor-program --output --device --timeout"
_hprun_opts_compare="-h --help --tolerance --alpha --markdown --junit --pass --metric --all-passes --strict --allow-missing --force"

# COMPREPLY += the words of $1 that start with $2.
_hprun_words()
{
    local w
    while IFS= read -r w; do
        COMPREPLY+=("$w")
    done < <(compgen -W "$1" -- "$2")
}

# COMPREPLY += files ending in one of the suffixes $2... that start with $1, and every folder (to
# walk into). With no suffix, every file.
_hprun_files()
{
    local cur=$1 f s
    shift
    # Tell readline these are file names (a slash after a folder, quoting). Outside a completion
    # (a test calling _hprun itself) compopt fails; that is harmless.
    compopt -o filenames 2>/dev/null
    if [ $# = 0 ]; then
        while IFS= read -r f; do COMPREPLY+=("$f"); done < <(compgen -f -- "$cur")
        return
    fi
    for s in "$@"; do
        while IFS= read -r f; do COMPREPLY+=("$f"); done < <(compgen -f -X "!*.$s" -- "$cur")
    done
    _hprun_dirs "$cur"
}

# COMPREPLY += the folders that start with $1.
_hprun_dirs()
{
    local f
    compopt -o filenames 2>/dev/null
    while IFS= read -r f; do COMPREPLY+=("$f"); done < <(compgen -d -- "$1")
}

_hprun()
{
    local cur prev cmd i
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=
    [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
    # bash splits `--format=md` at the `=`: complete the value of the option before it.
    if [ "$cur" = "=" ] && [ "$COMP_CWORD" -gt 1 ]; then
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        cur=
    elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -gt 2 ]; then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    fi

    # The subcommand is the first word; anything else there (a plan) means `run`.
    cmd=
    if [ "$COMP_CWORD" -gt 1 ]; then
        case " $_hprun_commands " in
            *" ${COMP_WORDS[1]} "*) cmd=${COMP_WORDS[1]} ;;
            *) cmd=run ;;
        esac
    fi

    if [ -z "$cmd" ]; then
        case "$cur" in
            -*) _hprun_words "$_hprun_opts_global $_hprun_opts_run" "$cur" ;;
            *) _hprun_words "$_hprun_commands" "$cur"
               _hprun_files "$cur" yaml yml ;;
        esac
        return 0
    fi

    # The value of an option that takes one.
    case "$cmd:$prev" in
        summarize:--format) _hprun_words "text json md csv" "$cur"; return 0 ;;
        report:--format) _hprun_words "text md json junit html csv" "$cur"; return 0 ;;
        summarize:--categories|summarize:--peaks) _hprun_files "$cur" yaml yml; return 0 ;;
        peaks:--binary|peaks:--vendor-program|peaks:--output|report:--html) _hprun_files "$cur"; return 0 ;;
        peaks:--device|peaks:--timeout) return 0 ;;
        run:--output) _hprun_dirs "$cur"; return 0 ;;
        *:--junit|*:--markdown) _hprun_files "$cur"; return 0 ;;
        *:--repeat|*:--grace|*:--top|*:--tolerance|*:--alpha|*:--pass|*:--metric) return 0 ;;
        summarize:-j|summarize:--jobs) return 0 ;;
    esac

    case "$cmd" in
        help)
            [ "$COMP_CWORD" = 2 ] && _hprun_words "${_hprun_commands% help}" "$cur"
            return 0 ;;
        run) i=$_hprun_opts_run ;;
        check) i=$_hprun_opts_check ;;
        summarize) i=$_hprun_opts_summarize ;;
        report) i=$_hprun_opts_report ;;
        compare) i=$_hprun_opts_compare ;;
        peaks) i=$_hprun_opts_peaks ;;
    esac
    case "$cur" in
        -*) _hprun_words "$i" "$cur"; return 0 ;;
    esac
    case "$cmd" in
        run|check) _hprun_files "$cur" yaml yml ;;
        summarize) _hprun_files "$cur" ;;
        report|compare) _hprun_files "$cur" json ;;
    esac
    return 0
}

complete -F _hprun hprun
